-- An assignment carries its set's study, so that a grader's queue (progress,
-- next assignment) is read from the grader's own assignments without joining
-- every response set of the study. The foreign key on (responseSetId, studyId)
-- keeps the copy equal to the set's study.

-- DropForeignKey
ALTER TABLE "Assignment" DROP CONSTRAINT "Assignment_responseSetId_fkey";

-- AlterTable: add, fill from the set, then require
ALTER TABLE "Assignment" ADD COLUMN "studyId" UUID;
UPDATE "Assignment" a SET "studyId" = rs."studyId" FROM "ResponseSet" rs WHERE rs.id = a."responseSetId";
ALTER TABLE "Assignment" ALTER COLUMN "studyId" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "ResponseSet_id_studyId_key" ON "ResponseSet"("id", "studyId");

-- CreateIndex
CREATE INDEX "Assignment_studyId_graderId_idx" ON "Assignment"("studyId", "graderId");

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_responseSetId_studyId_fkey" FOREIGN KEY ("responseSetId", "studyId") REFERENCES "ResponseSet"("id", "studyId") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
