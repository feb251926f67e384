-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "hybridCutoff" DOUBLE PRECISION,
ADD COLUMN     "hybridJudgeId" UUID;

-- AlterTable
ALTER TABLE "ResponseSet" ADD COLUMN     "finalJudgeId" UUID;

-- AlterTable
ALTER TABLE "AutomatedJudge" ADD COLUMN     "createdById" UUID,
ADD COLUMN     "model" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "prompt" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "version" TEXT NOT NULL DEFAULT '',
ALTER COLUMN "kind" SET DEFAULT 'LLM_JUDGE';

-- AlterTable
ALTER TABLE "JudgeScore" ADD COLUMN     "category" TEXT,
ADD COLUMN     "confidence" DOUBLE PRECISION,
ADD COLUMN     "expectedScore" DOUBLE PRECISION,
ADD COLUMN     "na" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "rationale" TEXT,
ADD COLUMN     "samples" JSONB,
ADD COLUMN     "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ALTER COLUMN "score" DROP NOT NULL;

-- AddForeignKey
ALTER TABLE "Study" ADD CONSTRAINT "Study_hybridJudgeId_fkey" FOREIGN KEY ("hybridJudgeId") REFERENCES "AutomatedJudge"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResponseSet" ADD CONSTRAINT "ResponseSet_finalJudgeId_fkey" FOREIGN KEY ("finalJudgeId") REFERENCES "AutomatedJudge"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AutomatedJudge" ADD CONSTRAINT "AutomatedJudge_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A judgment is exactly one of: a score, a nominal value, N/A (paper 002's
-- readings need a value; a judge with nothing to say sends no row).
ALTER TABLE "JudgeScore" ADD CONSTRAINT "JudgeScore_value_check" CHECK (
  num_nonnulls("score", "category") + "na"::int = 1);
ALTER TABLE "JudgeScore" ADD CONSTRAINT "JudgeScore_confidence_check" CHECK (
  "confidence" IS NULL OR ("confidence" >= 0 AND "confidence" <= 1));
ALTER TABLE "Study" ADD CONSTRAINT "Study_hybrid_check" CHECK (
  ("hybridJudgeId" IS NULL) = ("hybridCutoff" IS NULL)
  AND ("hybridCutoff" IS NULL OR ("hybridCutoff" >= 0 AND "hybridCutoff" <= 1)));
