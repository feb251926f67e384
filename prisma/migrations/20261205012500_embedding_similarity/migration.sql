-- CreateEnum
CREATE TYPE "EmbeddingRunStatus" AS ENUM ('PENDING', 'RUNNING', 'DONE', 'FAILED');

-- AlterTable
ALTER TABLE "Response" ADD COLUMN     "embeddingRunId" UUID,
ADD COLUMN     "embeddingSimilarity" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "JudgeEndpoint" ADD COLUMN     "embeddingModel" TEXT;

-- CreateTable
CREATE TABLE "EmbeddingRun" (
    "id" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "endpointId" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "status" "EmbeddingRunStatus" NOT NULL DEFAULT 'PENDING',
    "answers" INTEGER NOT NULL DEFAULT 0,
    "embedded" INTEGER NOT NULL DEFAULT 0,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "dimensions" INTEGER,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseToken" UUID,
    "leaseExpiresAt" TIMESTAMPTZ(3),
    "error" TEXT,
    "createdById" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "EmbeddingRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EmbeddingRun_studyId_createdAt_idx" ON "EmbeddingRun"("studyId", "createdAt");

-- CreateIndex
CREATE INDEX "EmbeddingRun_status_idx" ON "EmbeddingRun"("status");

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_embeddingRunId_fkey" FOREIGN KEY ("embeddingRunId") REFERENCES "EmbeddingRun"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EmbeddingRun" ADD CONSTRAINT "EmbeddingRun_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EmbeddingRun" ADD CONSTRAINT "EmbeddingRun_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "JudgeEndpoint"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EmbeddingRun" ADD CONSTRAINT "EmbeddingRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A cosine: NaN or a value outside [-1, 1] is a bug in the writer, never stored.
ALTER TABLE "Response" ADD CONSTRAINT "Response_embeddingSimilarity_range" CHECK ("embeddingSimilarity" BETWEEN -1 AND 1);
ALTER TABLE "EmbeddingRun" ADD CONSTRAINT "EmbeddingRun_progress_check" CHECK ("embedded" >= 0 AND "answers" >= 0 AND "requests" >= 0 AND "attempts" >= 0);
