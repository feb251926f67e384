-- A grader's specialties become per study: the lead of one study sets them for
-- that study only, and specialty matching and the choice of adjudicator in a
-- study read only that study's list. The account's own list (UserSpecialty,
-- set by an administrator) stays, as the default for studies the grader joins.

-- CreateTable
CREATE TABLE "StudyMemberSpecialty" (
    "studyId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "specialtyId" UUID NOT NULL,

    CONSTRAINT "StudyMemberSpecialty_pkey" PRIMARY KEY ("studyId","userId","specialtyId")
);

-- CreateIndex
CREATE INDEX "StudyMemberSpecialty_specialtyId_idx" ON "StudyMemberSpecialty"("specialtyId");

-- AddForeignKey
ALTER TABLE "StudyMemberSpecialty" ADD CONSTRAINT "StudyMemberSpecialty_studyId_userId_fkey" FOREIGN KEY ("studyId", "userId") REFERENCES "StudyMember"("studyId", "userId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StudyMemberSpecialty" ADD CONSTRAINT "StudyMemberSpecialty_specialtyId_fkey" FOREIGN KEY ("specialtyId") REFERENCES "Specialty"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Every grader membership starts with the account's specialties as they are now,
-- so matching in existing studies picks the same graders as before.
INSERT INTO "StudyMemberSpecialty" ("studyId", "userId", "specialtyId")
SELECT m."studyId", m."userId", us."specialtyId"
FROM "StudyMember" m JOIN "UserSpecialty" us ON us."userId" = m."userId"
WHERE m.role = 'GRADER';
