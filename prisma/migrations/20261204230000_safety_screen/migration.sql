-- CreateEnum
CREATE TYPE "ScreenAction" AS ENUM ('WARN', 'EXCLUDE');

-- CreateTable
CREATE TABLE "ScreenRun" (
    "id" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "rules" JSONB NOT NULL,
    "action" "ScreenAction" NOT NULL,
    "answers" INTEGER NOT NULL,
    "createdById" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScreenRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ScreenHit" (
    "runId" UUID NOT NULL,
    "responseId" UUID NOT NULL,
    "rule" INTEGER NOT NULL,
    "matches" INTEGER NOT NULL,
    "excerpt" TEXT NOT NULL,

    CONSTRAINT "ScreenHit_pkey" PRIMARY KEY ("runId","responseId","rule")
);

-- CreateIndex
CREATE INDEX "ScreenRun_studyId_createdAt_idx" ON "ScreenRun"("studyId", "createdAt");

-- CreateIndex
CREATE INDEX "ScreenHit_responseId_idx" ON "ScreenHit"("responseId");

-- AddForeignKey
ALTER TABLE "ScreenRun" ADD CONSTRAINT "ScreenRun_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScreenRun" ADD CONSTRAINT "ScreenRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScreenHit" ADD CONSTRAINT "ScreenHit_runId_fkey" FOREIGN KEY ("runId") REFERENCES "ScreenRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScreenHit" ADD CONSTRAINT "ScreenHit_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
