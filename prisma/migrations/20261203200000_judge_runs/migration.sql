-- CreateEnum
CREATE TYPE "JudgeRunStatus" AS ENUM ('RUNNING', 'DONE', 'CANCELLED');

-- CreateEnum
CREATE TYPE "JudgeProbabilityMode" AS ENUM ('LOGPROBS', 'SAMPLING');

-- CreateEnum
CREATE TYPE "JudgeTaskStatus" AS ENUM ('PENDING', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED');

-- CreateTable
CREATE TABLE "JudgeEndpoint" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "apiKeyEnv" TEXT,
    "apiKeyEncrypted" TEXT,
    "logprobs" BOOLEAN NOT NULL DEFAULT true,
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "timeoutMs" INTEGER NOT NULL DEFAULT 60000,
    "pricePer1kPromptTokens" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "pricePer1kCompletionTokens" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "createdById" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "JudgeEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JudgeRun" (
    "id" UUID NOT NULL,
    "judgeId" UUID NOT NULL,
    "endpointId" UUID NOT NULL,
    "mode" "JudgeProbabilityMode" NOT NULL,
    "samples" INTEGER NOT NULL DEFAULT 1,
    "temperature" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "topLogprobs" INTEGER NOT NULL DEFAULT 10,
    "maxAttempts" INTEGER NOT NULL DEFAULT 4,
    "pricePer1kPromptTokens" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "pricePer1kCompletionTokens" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "status" "JudgeRunStatus" NOT NULL DEFAULT 'RUNNING',
    "createdById" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "JudgeRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JudgeRunTask" (
    "id" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "responseSetId" UUID NOT NULL,
    "status" "JudgeTaskStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "availableAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseToken" UUID,
    "leaseExpiresAt" TIMESTAMPTZ(3),
    "error" TEXT,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "JudgeRunTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "JudgeEndpoint_name_key" ON "JudgeEndpoint"("name");

-- CreateIndex
CREATE INDEX "JudgeRun_judgeId_createdAt_idx" ON "JudgeRun"("judgeId", "createdAt");

-- CreateIndex
CREATE INDEX "JudgeRun_status_idx" ON "JudgeRun"("status");

-- CreateIndex
CREATE INDEX "JudgeRunTask_status_availableAt_idx" ON "JudgeRunTask"("status", "availableAt");

-- CreateIndex
CREATE INDEX "JudgeRunTask_responseSetId_idx" ON "JudgeRunTask"("responseSetId");

-- CreateIndex
CREATE UNIQUE INDEX "JudgeRunTask_runId_responseSetId_key" ON "JudgeRunTask"("runId", "responseSetId");

-- AddForeignKey
ALTER TABLE "JudgeEndpoint" ADD CONSTRAINT "JudgeEndpoint_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeRun" ADD CONSTRAINT "JudgeRun_judgeId_fkey" FOREIGN KEY ("judgeId") REFERENCES "AutomatedJudge"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeRun" ADD CONSTRAINT "JudgeRun_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "JudgeEndpoint"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeRun" ADD CONSTRAINT "JudgeRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeRunTask" ADD CONSTRAINT "JudgeRunTask_runId_fkey" FOREIGN KEY ("runId") REFERENCES "JudgeRun"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeRunTask" ADD CONSTRAINT "JudgeRunTask_responseSetId_fkey" FOREIGN KEY ("responseSetId") REFERENCES "ResponseSet"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
