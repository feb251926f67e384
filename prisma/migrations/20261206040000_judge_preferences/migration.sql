-- AlterTable
ALTER TABLE "JudgeRunTask" ADD COLUMN     "comparisonId" UUID,
ALTER COLUMN "responseSetId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "JudgePreference" (
    "id" UUID NOT NULL,
    "judgeId" UUID NOT NULL,
    "comparisonId" UUID NOT NULL,
    "rubric" TEXT NOT NULL,
    "axis" TEXT NOT NULL,
    "choice" "PreferenceChoice" NOT NULL,
    "leftFirst" "PreferenceChoice",
    "rightFirst" "PreferenceChoice",
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "JudgePreference_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "JudgePreference_comparisonId_idx" ON "JudgePreference"("comparisonId");

-- CreateIndex
CREATE UNIQUE INDEX "JudgePreference_judgeId_comparisonId_rubric_axis_key" ON "JudgePreference"("judgeId", "comparisonId", "rubric", "axis");

-- CreateIndex
CREATE INDEX "JudgeRunTask_comparisonId_idx" ON "JudgeRunTask"("comparisonId");

-- CreateIndex
CREATE UNIQUE INDEX "JudgeRunTask_runId_comparisonId_key" ON "JudgeRunTask"("runId", "comparisonId");

-- AddForeignKey
ALTER TABLE "JudgeRunTask" ADD CONSTRAINT "JudgeRunTask_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "Comparison"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgePreference" ADD CONSTRAINT "JudgePreference_judgeId_fkey" FOREIGN KEY ("judgeId") REFERENCES "AutomatedJudge"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgePreference" ADD CONSTRAINT "JudgePreference_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "Comparison"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A task judges one response set (scoring) or one comparison (pairwise), never both nor neither.
ALTER TABLE "JudgeRunTask" ADD CONSTRAINT "JudgeRunTask_one_target" CHECK (("responseSetId" IS NULL) <> ("comparisonId" IS NULL));
