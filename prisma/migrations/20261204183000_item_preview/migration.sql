-- AlterTable
ALTER TABLE "QaItem" ADD COLUMN     "preview" TEXT;
