-- AlterTable
ALTER TABLE "StudyMember" ADD COLUMN     "excludedAt" TIMESTAMPTZ(3),
ADD COLUMN     "excludedById" UUID,
ADD COLUMN     "excludedReason" TEXT;
