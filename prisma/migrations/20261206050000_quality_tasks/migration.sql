-- CreateEnum
CREATE TYPE "QualityPurpose" AS ENUM ('CALIBRATION', 'GOLD', 'REGRADE');

-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "calibrationPassShare" DOUBLE PRECISION NOT NULL DEFAULT 0.8,
ADD COLUMN     "calibrationRequired" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "calibrationRoundSize" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "goldRate" INTEGER,
ADD COLUMN     "goldSeed" TEXT,
ADD COLUMN     "washoutDays" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "washoutSeed" TEXT,
ADD COLUMN     "washoutShare" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "StudyMember" ADD COLUMN     "calibrationPassedAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "QualitySet" (
    "id" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "responseSetId" UUID NOT NULL,
    "purpose" "QualityPurpose" NOT NULL,
    "expected" JSONB NOT NULL,
    "tolerance" INTEGER NOT NULL DEFAULT 0,
    "rationale" TEXT NOT NULL DEFAULT '',
    "createdById" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "QualitySet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QualityTask" (
    "id" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "graderId" UUID NOT NULL,
    "responseSetId" UUID NOT NULL,
    "purpose" "QualityPurpose" NOT NULL,
    "round" INTEGER NOT NULL DEFAULT 1,
    "position" INTEGER NOT NULL,
    "status" "AssignmentStatus" NOT NULL DEFAULT 'PENDING',
    "answerOrder" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "sourceAssignmentId" UUID,
    "availableAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "timeSpentMs" BIGINT NOT NULL DEFAULT 0,
    "harmFlag" BOOLEAN NOT NULL DEFAULT false,
    "harmComment" TEXT,
    "contradictionFlag" BOOLEAN NOT NULL DEFAULT false,
    "contradictionNote" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "startedAt" TIMESTAMPTZ(3),
    "submittedAt" TIMESTAMPTZ(3),

    CONSTRAINT "QualityTask_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QualityGrade" (
    "id" UUID NOT NULL,
    "taskId" UUID NOT NULL,
    "rubric" TEXT NOT NULL,
    "dimension" TEXT NOT NULL,
    "repetition" INTEGER NOT NULL,
    "criterion" TEXT NOT NULL DEFAULT '',
    "score" INTEGER,
    "category" TEXT,
    "na" BOOLEAN NOT NULL DEFAULT false,
    "comment" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "QualityGrade_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "QualitySet_responseSetId_key" ON "QualitySet"("responseSetId");

-- CreateIndex
CREATE INDEX "QualitySet_studyId_purpose_idx" ON "QualitySet"("studyId", "purpose");

-- CreateIndex
CREATE UNIQUE INDEX "QualityTask_sourceAssignmentId_key" ON "QualityTask"("sourceAssignmentId");

-- CreateIndex
CREATE INDEX "QualityTask_graderId_status_position_idx" ON "QualityTask"("graderId", "status", "position");

-- CreateIndex
CREATE INDEX "QualityTask_studyId_purpose_idx" ON "QualityTask"("studyId", "purpose");

-- CreateIndex
CREATE UNIQUE INDEX "QualityTask_graderId_responseSetId_purpose_round_key" ON "QualityTask"("graderId", "responseSetId", "purpose", "round");

-- CreateIndex
CREATE UNIQUE INDEX "QualityGrade_taskId_rubric_dimension_repetition_criterion_key" ON "QualityGrade"("taskId", "rubric", "dimension", "repetition", "criterion");

-- AddForeignKey
ALTER TABLE "QualitySet" ADD CONSTRAINT "QualitySet_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualitySet" ADD CONSTRAINT "QualitySet_responseSetId_fkey" FOREIGN KEY ("responseSetId") REFERENCES "ResponseSet"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualityTask" ADD CONSTRAINT "QualityTask_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualityTask" ADD CONSTRAINT "QualityTask_graderId_fkey" FOREIGN KEY ("graderId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualityTask" ADD CONSTRAINT "QualityTask_responseSetId_fkey" FOREIGN KEY ("responseSetId") REFERENCES "ResponseSet"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualityGrade" ADD CONSTRAINT "QualityGrade_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "QualityTask"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
