-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "askContradictions" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN     "contradictionFlag" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "contradictionNote" TEXT;
