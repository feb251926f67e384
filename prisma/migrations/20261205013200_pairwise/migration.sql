-- CreateEnum
CREATE TYPE "StudyDesign" AS ENUM ('SCORING', 'PAIRWISE');

-- CreateEnum
CREATE TYPE "PreferenceChoice" AS ENUM ('LEFT', 'RIGHT', 'TIE');

-- CreateEnum
CREATE TYPE "PreferenceStrength" AS ENUM ('SLIGHTLY', 'CLEARLY');

-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "design" "StudyDesign" NOT NULL DEFAULT 'SCORING',
ADD COLUMN     "pairDesign" JSONB,
ADD COLUMN     "pairSeed" TEXT,
ADD COLUMN     "tieDisagrees" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "Comparison" (
    "id" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "itemId" UUID NOT NULL,
    "leftSetId" UUID NOT NULL,
    "leftRepetition" INTEGER NOT NULL,
    "rightSetId" UUID NOT NULL,
    "rightRepetition" INTEGER NOT NULL,
    "status" "SetStatus" NOT NULL DEFAULT 'AWAITING_GRADES',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Comparison_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ComparisonAssignment" (
    "id" UUID NOT NULL,
    "comparisonId" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "graderId" UUID NOT NULL,
    "kind" "AssignmentKind" NOT NULL,
    "position" INTEGER NOT NULL,
    "status" "AssignmentStatus" NOT NULL DEFAULT 'PENDING',
    "timeSpentMs" BIGINT NOT NULL DEFAULT 0,
    "harmLeft" BOOLEAN NOT NULL DEFAULT false,
    "harmLeftComment" TEXT,
    "harmRight" BOOLEAN NOT NULL DEFAULT false,
    "harmRightComment" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "startedAt" TIMESTAMPTZ(3),
    "submittedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ComparisonAssignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Preference" (
    "id" UUID NOT NULL,
    "assignmentId" UUID NOT NULL,
    "rubric" TEXT NOT NULL,
    "axis" TEXT NOT NULL,
    "choice" "PreferenceChoice" NOT NULL,
    "strength" "PreferenceStrength",
    "comment" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Preference_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ComparisonEscalation" (
    "id" UUID NOT NULL,
    "comparisonId" UUID NOT NULL,
    "status" "EscalationStatus" NOT NULL,
    "axes" JSONB NOT NULL,
    "adjudicatorAssignmentId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "resolvedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ComparisonEscalation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Comparison_studyId_status_idx" ON "Comparison"("studyId", "status");

-- CreateIndex
CREATE INDEX "Comparison_itemId_idx" ON "Comparison"("itemId");

-- CreateIndex
CREATE INDEX "Comparison_leftSetId_idx" ON "Comparison"("leftSetId");

-- CreateIndex
CREATE INDEX "Comparison_rightSetId_idx" ON "Comparison"("rightSetId");

-- CreateIndex
CREATE UNIQUE INDEX "Comparison_id_studyId_key" ON "Comparison"("id", "studyId");

-- CreateIndex
CREATE INDEX "ComparisonAssignment_graderId_status_position_idx" ON "ComparisonAssignment"("graderId", "status", "position");

-- CreateIndex
CREATE INDEX "ComparisonAssignment_comparisonId_kind_idx" ON "ComparisonAssignment"("comparisonId", "kind");

-- CreateIndex
CREATE INDEX "ComparisonAssignment_studyId_graderId_idx" ON "ComparisonAssignment"("studyId", "graderId");

-- CreateIndex
CREATE UNIQUE INDEX "ComparisonAssignment_graderId_comparisonId_key" ON "ComparisonAssignment"("graderId", "comparisonId");

-- CreateIndex
CREATE UNIQUE INDEX "Preference_assignmentId_rubric_axis_key" ON "Preference"("assignmentId", "rubric", "axis");

-- CreateIndex
CREATE UNIQUE INDEX "ComparisonEscalation_comparisonId_key" ON "ComparisonEscalation"("comparisonId");

-- CreateIndex
CREATE UNIQUE INDEX "ComparisonEscalation_adjudicatorAssignmentId_key" ON "ComparisonEscalation"("adjudicatorAssignmentId");

-- CreateIndex
CREATE INDEX "ComparisonEscalation_status_idx" ON "ComparisonEscalation"("status");

-- AddForeignKey
ALTER TABLE "Comparison" ADD CONSTRAINT "Comparison_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comparison" ADD CONSTRAINT "Comparison_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "QaItem"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comparison" ADD CONSTRAINT "Comparison_leftSetId_fkey" FOREIGN KEY ("leftSetId") REFERENCES "ResponseSet"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comparison" ADD CONSTRAINT "Comparison_rightSetId_fkey" FOREIGN KEY ("rightSetId") REFERENCES "ResponseSet"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ComparisonAssignment" ADD CONSTRAINT "ComparisonAssignment_comparisonId_studyId_fkey" FOREIGN KEY ("comparisonId", "studyId") REFERENCES "Comparison"("id", "studyId") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ComparisonAssignment" ADD CONSTRAINT "ComparisonAssignment_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ComparisonAssignment" ADD CONSTRAINT "ComparisonAssignment_graderId_fkey" FOREIGN KEY ("graderId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Preference" ADD CONSTRAINT "Preference_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "ComparisonAssignment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ComparisonEscalation" ADD CONSTRAINT "ComparisonEscalation_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "Comparison"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ComparisonEscalation" ADD CONSTRAINT "ComparisonEscalation_adjudicatorAssignmentId_fkey" FOREIGN KEY ("adjudicatorAssignmentId") REFERENCES "ComparisonAssignment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Integrity Prisma cannot express (added by hand).
-- A comparison sets two different answers side by side, each one of its set's 1..N.
ALTER TABLE "Comparison" ADD CONSTRAINT "Comparison_two_sides_check" CHECK ("leftSetId" <> "rightSetId" AND "leftRepetition" >= 1 AND "rightRepetition" >= 1);
-- A tie has no strength: "slightly" or "clearly" says how much one answer is better.
ALTER TABLE "Preference" ADD CONSTRAINT "Preference_tie_strength_check" CHECK (choice <> 'TIE' OR strength IS NULL);
