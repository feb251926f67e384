-- CreateEnum
CREATE TYPE "ScreenRunStatus" AS ENUM ('RUNNING', 'DONE', 'FAILED');

-- AlterTable
ALTER TABLE "ScreenRun" ADD COLUMN     "error" TEXT,
ADD COLUMN     "finishedAt" TIMESTAMPTZ(3),
ADD COLUMN     "judge" JSONB,
ADD COLUMN     "keptGraded" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "leaseExpiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "leaseToken" UUID,
ADD COLUMN     "status" "ScreenRunStatus" NOT NULL DEFAULT 'DONE',
ADD COLUMN     "withdrawn" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "ScreenVerdict" (
    "runId" UUID NOT NULL,
    "responseId" UUID NOT NULL,
    "flagged" BOOLEAN,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScreenVerdict_pkey" PRIMARY KEY ("runId","responseId")
);

-- CreateIndex
CREATE INDEX "ScreenVerdict_responseId_idx" ON "ScreenVerdict"("responseId");

-- CreateIndex
CREATE INDEX "ScreenRun_status_idx" ON "ScreenRun"("status");

-- AddForeignKey
ALTER TABLE "ScreenVerdict" ADD CONSTRAINT "ScreenVerdict_runId_fkey" FOREIGN KEY ("runId") REFERENCES "ScreenRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScreenVerdict" ADD CONSTRAINT "ScreenVerdict_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
