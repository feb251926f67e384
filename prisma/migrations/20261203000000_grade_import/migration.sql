-- AlterTable
ALTER TABLE "User" ADD COLUMN     "externalStudyId" UUID;

-- CreateTable
CREATE TABLE "GradeImportMapping" (
    "id" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "mapping" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "GradeImportMapping_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GradeImportMapping_studyId_name_key" ON "GradeImportMapping"("studyId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "User_externalStudyId_name_key" ON "User"("externalStudyId", "name");

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_externalStudyId_fkey" FOREIGN KEY ("externalStudyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GradeImportMapping" ADD CONSTRAINT "GradeImportMapping_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- An external grader (imported grades) can never sign in or be assigned work:
-- it stays inactive, with no password and an address that cannot receive mail.
ALTER TABLE "User" ADD CONSTRAINT "User_external_check" CHECK ("externalStudyId" IS NULL OR ("active" = false AND "passwordHash" = '' AND "email" LIKE '%@external.invalid'));
