-- What graders see instead of the study's name (issue 21, item 2): empty gives a neutral title.
-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "graderTitle" TEXT NOT NULL DEFAULT '';
