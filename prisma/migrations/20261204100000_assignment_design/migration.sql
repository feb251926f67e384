-- CreateEnum
CREATE TYPE "AssignmentDesign" AS ENUM ('LOAD_BALANCED', 'ONE_MODEL_PER_QUESTION');

-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "assignmentDesign" "AssignmentDesign" NOT NULL DEFAULT 'LOAD_BALANCED';
