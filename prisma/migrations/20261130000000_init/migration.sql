-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('ADMIN', 'LEAD', 'GRADER');

-- CreateEnum
CREATE TYPE "Rubric" AS ENUM ('SCORE', 'SAFE_LLM');

-- CreateEnum
CREATE TYPE "StudyStatus" AS ENUM ('DRAFT', 'OPEN', 'CLOSED');

-- CreateEnum
CREATE TYPE "SafeLlmScoring" AS ENUM ('PER_ANSWER', 'OVERALL');

-- CreateEnum
CREATE TYPE "StudyRole" AS ENUM ('LEAD', 'GRADER');

-- CreateEnum
CREATE TYPE "SetStatus" AS ENUM ('AWAITING_GRADES', 'AGREED', 'AWAITING_ADJUDICATION', 'ADJUDICATED');

-- CreateEnum
CREATE TYPE "AssignmentKind" AS ENUM ('PRIMARY', 'ADJUDICATOR');

-- CreateEnum
CREATE TYPE "AssignmentStatus" AS ENUM ('PENDING', 'IN_PROGRESS', 'SUBMITTED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "Dimension" AS ENUM ('safety', 'consensus_context', 'objectivity', 'reproducibility', 'explainability', 'accuracy', 'comprehensiveness', 'supplementation', 'consistency', 'fluency');

-- CreateEnum
CREATE TYPE "EscalationStatus" AS ENUM ('NEEDS_GRADER', 'ASSIGNED', 'RESOLVED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "JudgeKind" AS ENUM ('LLM_JUDGE', 'DECISION_MODEL');

-- CreateTable
CREATE TABLE "User" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "lastLoginAt" TIMESTAMPTZ(3),

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuthSession" (
    "id" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMPTZ(3),
    "ip" TEXT,
    "userAgent" TEXT,

    CONSTRAINT "AuthSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LoginAttempt" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "success" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LoginAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),
    "lastUsedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Specialty" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "Specialty_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserSpecialty" (
    "userId" UUID NOT NULL,
    "specialtyId" UUID NOT NULL,

    CONSTRAINT "UserSpecialty_pkey" PRIMARY KEY ("userId","specialtyId")
);

-- CreateTable
CREATE TABLE "Study" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "rubrics" "Rubric"[],
    "repetitions" INTEGER NOT NULL DEFAULT 3,
    "gradersPerSet" INTEGER NOT NULL DEFAULT 2,
    "thresholds" JSONB NOT NULL,
    "showReferenceAnswer" BOOLEAN NOT NULL DEFAULT true,
    "matchSpecialty" BOOLEAN NOT NULL DEFAULT false,
    "safeLlmScoring" "SafeLlmScoring" NOT NULL DEFAULT 'PER_ANSWER',
    "assignmentSeed" TEXT,
    "status" "StudyStatus" NOT NULL DEFAULT 'DRAFT',
    "createdById" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "openedAt" TIMESTAMPTZ(3),
    "closedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Study_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StudyMember" (
    "studyId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "role" "StudyRole" NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "addedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StudyMember_pkey" PRIMARY KEY ("studyId","userId")
);

-- CreateTable
CREATE TABLE "QaItem" (
    "id" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "externalId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "referenceAnswer" TEXT NOT NULL DEFAULT '',
    "specialtyId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "QaItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LlmModel" (
    "id" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL DEFAULT '',
    "temperature" DOUBLE PRECISION,
    "topP" DOUBLE PRECISION,
    "settings" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LlmModel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ResponseSet" (
    "id" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "itemId" UUID NOT NULL,
    "modelId" UUID NOT NULL,
    "status" "SetStatus" NOT NULL DEFAULT 'AWAITING_GRADES',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ResponseSet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Response" (
    "id" UUID NOT NULL,
    "responseSetId" UUID NOT NULL,
    "repetition" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Response_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Assignment" (
    "id" UUID NOT NULL,
    "responseSetId" UUID NOT NULL,
    "graderId" UUID NOT NULL,
    "kind" "AssignmentKind" NOT NULL,
    "position" INTEGER NOT NULL,
    "status" "AssignmentStatus" NOT NULL DEFAULT 'PENDING',
    "timeSpentMs" INTEGER NOT NULL DEFAULT 0,
    "harmFlag" BOOLEAN NOT NULL DEFAULT false,
    "harmComment" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "startedAt" TIMESTAMPTZ(3),
    "submittedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Assignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Grade" (
    "id" UUID NOT NULL,
    "assignmentId" UUID NOT NULL,
    "rubric" "Rubric" NOT NULL,
    "dimension" "Dimension" NOT NULL,
    "repetition" INTEGER NOT NULL,
    "score" INTEGER NOT NULL,
    "comment" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Grade_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Escalation" (
    "id" UUID NOT NULL,
    "responseSetId" UUID NOT NULL,
    "status" "EscalationStatus" NOT NULL,
    "dimensions" JSONB NOT NULL,
    "adjudicatorAssignmentId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "resolvedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Escalation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AutomatedJudge" (
    "id" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "JudgeKind" NOT NULL,
    "settings" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AutomatedJudge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JudgeScore" (
    "id" UUID NOT NULL,
    "judgeId" UUID NOT NULL,
    "responseSetId" UUID NOT NULL,
    "rubric" "Rubric" NOT NULL,
    "dimension" "Dimension" NOT NULL,
    "repetition" INTEGER NOT NULL,
    "score" INTEGER NOT NULL,
    "probabilities" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JudgeScore_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" BIGSERIAL NOT NULL,
    "studyId" UUID,
    "actorId" UUID,
    "action" TEXT NOT NULL,
    "entityType" TEXT NOT NULL,
    "entityId" TEXT,
    "before" JSONB,
    "after" JSONB,
    "requestId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "AuthSession_userId_idx" ON "AuthSession"("userId");

-- CreateIndex
CREATE INDEX "LoginAttempt_key_createdAt_idx" ON "LoginAttempt"("key", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Specialty_name_key" ON "Specialty"("name");

-- CreateIndex
CREATE INDEX "UserSpecialty_specialtyId_idx" ON "UserSpecialty"("specialtyId");

-- CreateIndex
CREATE UNIQUE INDEX "Study_slug_key" ON "Study"("slug");

-- CreateIndex
CREATE INDEX "Study_createdById_idx" ON "Study"("createdById");

-- CreateIndex
CREATE INDEX "StudyMember_userId_role_idx" ON "StudyMember"("userId", "role");

-- CreateIndex
CREATE INDEX "QaItem_studyId_specialtyId_idx" ON "QaItem"("studyId", "specialtyId");

-- CreateIndex
CREATE UNIQUE INDEX "QaItem_studyId_externalId_key" ON "QaItem"("studyId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "LlmModel_studyId_name_key" ON "LlmModel"("studyId", "name");

-- CreateIndex
CREATE INDEX "ResponseSet_studyId_status_idx" ON "ResponseSet"("studyId", "status");

-- CreateIndex
CREATE INDEX "ResponseSet_modelId_idx" ON "ResponseSet"("modelId");

-- CreateIndex
CREATE UNIQUE INDEX "ResponseSet_itemId_modelId_key" ON "ResponseSet"("itemId", "modelId");

-- CreateIndex
CREATE UNIQUE INDEX "Response_responseSetId_repetition_key" ON "Response"("responseSetId", "repetition");

-- CreateIndex
CREATE INDEX "Assignment_graderId_status_position_idx" ON "Assignment"("graderId", "status", "position");

-- CreateIndex
CREATE INDEX "Assignment_responseSetId_kind_idx" ON "Assignment"("responseSetId", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "Assignment_graderId_responseSetId_key" ON "Assignment"("graderId", "responseSetId");

-- CreateIndex
CREATE UNIQUE INDEX "Grade_assignmentId_rubric_dimension_repetition_key" ON "Grade"("assignmentId", "rubric", "dimension", "repetition");

-- CreateIndex
CREATE UNIQUE INDEX "Escalation_responseSetId_key" ON "Escalation"("responseSetId");

-- CreateIndex
CREATE UNIQUE INDEX "Escalation_adjudicatorAssignmentId_key" ON "Escalation"("adjudicatorAssignmentId");

-- CreateIndex
CREATE INDEX "Escalation_status_idx" ON "Escalation"("status");

-- CreateIndex
CREATE UNIQUE INDEX "AutomatedJudge_studyId_name_key" ON "AutomatedJudge"("studyId", "name");

-- CreateIndex
CREATE INDEX "JudgeScore_responseSetId_idx" ON "JudgeScore"("responseSetId");

-- CreateIndex
CREATE UNIQUE INDEX "JudgeScore_judgeId_responseSetId_rubric_dimension_repetitio_key" ON "JudgeScore"("judgeId", "responseSetId", "rubric", "dimension", "repetition");

-- CreateIndex
CREATE INDEX "AuditEvent_studyId_createdAt_idx" ON "AuditEvent"("studyId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_actorId_createdAt_idx" ON "AuditEvent"("actorId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_entityType_entityId_idx" ON "AuditEvent"("entityType", "entityId");

-- AddForeignKey
ALTER TABLE "AuthSession" ADD CONSTRAINT "AuthSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserSpecialty" ADD CONSTRAINT "UserSpecialty_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserSpecialty" ADD CONSTRAINT "UserSpecialty_specialtyId_fkey" FOREIGN KEY ("specialtyId") REFERENCES "Specialty"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Study" ADD CONSTRAINT "Study_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StudyMember" ADD CONSTRAINT "StudyMember_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StudyMember" ADD CONSTRAINT "StudyMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QaItem" ADD CONSTRAINT "QaItem_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QaItem" ADD CONSTRAINT "QaItem_specialtyId_fkey" FOREIGN KEY ("specialtyId") REFERENCES "Specialty"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LlmModel" ADD CONSTRAINT "LlmModel_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResponseSet" ADD CONSTRAINT "ResponseSet_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResponseSet" ADD CONSTRAINT "ResponseSet_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "QaItem"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResponseSet" ADD CONSTRAINT "ResponseSet_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "LlmModel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_responseSetId_fkey" FOREIGN KEY ("responseSetId") REFERENCES "ResponseSet"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_responseSetId_fkey" FOREIGN KEY ("responseSetId") REFERENCES "ResponseSet"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_graderId_fkey" FOREIGN KEY ("graderId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Grade" ADD CONSTRAINT "Grade_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Escalation" ADD CONSTRAINT "Escalation_responseSetId_fkey" FOREIGN KEY ("responseSetId") REFERENCES "ResponseSet"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Escalation" ADD CONSTRAINT "Escalation_adjudicatorAssignmentId_fkey" FOREIGN KEY ("adjudicatorAssignmentId") REFERENCES "Assignment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AutomatedJudge" ADD CONSTRAINT "AutomatedJudge_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeScore" ADD CONSTRAINT "JudgeScore_judgeId_fkey" FOREIGN KEY ("judgeId") REFERENCES "AutomatedJudge"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeScore" ADD CONSTRAINT "JudgeScore_responseSetId_fkey" FOREIGN KEY ("responseSetId") REFERENCES "ResponseSet"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ─── Integrity Prisma cannot express (written by hand) ───────────────────────

ALTER TABLE "User" ADD CONSTRAINT "User_email_lowercase_check" CHECK ("email" = lower("email") AND position('@' in "email") > 1);

ALTER TABLE "Study" ADD CONSTRAINT "Study_repetitions_check" CHECK ("repetitions" BETWEEN 1 AND 20);
ALTER TABLE "Study" ADD CONSTRAINT "Study_gradersPerSet_check" CHECK ("gradersPerSet" BETWEEN 1 AND 10);
ALTER TABLE "Study" ADD CONSTRAINT "Study_rubrics_check" CHECK (cardinality("rubrics") BETWEEN 1 AND 2);

ALTER TABLE "Response" ADD CONSTRAINT "Response_repetition_check" CHECK ("repetition" >= 1);

ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_position_check" CHECK ("position" >= 0);
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_timeSpentMs_check" CHECK ("timeSpentMs" >= 0);
-- A potential-harm flag always carries the grader's reason.
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_harm_comment_check"
  CHECK (NOT "harmFlag" OR length(btrim(coalesce("harmComment", ''))) > 0);

-- Score ranges of the two rubrics: S.C.O.R.E. Likert 1-5 (paper 000, Table 2);
-- SAFE-LLM accuracy and comprehensiveness 0-2, the others 0-1 (paper 001, Table 1).
-- Set-level dimensions (reproducibility, consistency) are stored at repetition 0.
ALTER TABLE "Grade" ADD CONSTRAINT "Grade_score_range_check" CHECK (
  CASE "rubric"
    WHEN 'SCORE' THEN "dimension" IN ('safety', 'consensus_context', 'objectivity', 'reproducibility', 'explainability')
      AND "score" BETWEEN 1 AND 5
    WHEN 'SAFE_LLM' THEN "dimension" IN ('accuracy', 'comprehensiveness', 'supplementation', 'consistency', 'fluency')
      AND "score" BETWEEN 0 AND (CASE WHEN "dimension" IN ('accuracy', 'comprehensiveness') THEN 2 ELSE 1 END)
    ELSE false
  END);
ALTER TABLE "Grade" ADD CONSTRAINT "Grade_repetition_check" CHECK (
  "repetition" >= 0 AND (("repetition" = 0) = ("dimension" IN ('reproducibility', 'consistency'))));

ALTER TABLE "JudgeScore" ADD CONSTRAINT "JudgeScore_score_range_check" CHECK (
  CASE "rubric"
    WHEN 'SCORE' THEN "dimension" IN ('safety', 'consensus_context', 'objectivity', 'reproducibility', 'explainability')
      AND "score" BETWEEN 1 AND 5
    WHEN 'SAFE_LLM' THEN "dimension" IN ('accuracy', 'comprehensiveness', 'supplementation', 'consistency', 'fluency')
      AND "score" BETWEEN 0 AND (CASE WHEN "dimension" IN ('accuracy', 'comprehensiveness') THEN 2 ELSE 1 END)
    ELSE false
  END);
ALTER TABLE "JudgeScore" ADD CONSTRAINT "JudgeScore_repetition_check" CHECK (
  "repetition" >= 0 AND (("repetition" = 0) = ("dimension" IN ('reproducibility', 'consistency'))));

-- The audit log is append-only, whatever client connects.
CREATE FUNCTION "audit_event_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'AuditEvent is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER "AuditEvent_no_update_delete" BEFORE UPDATE OR DELETE ON "AuditEvent"
  FOR EACH ROW EXECUTE FUNCTION "audit_event_append_only"();
CREATE TRIGGER "AuditEvent_no_truncate" BEFORE TRUNCATE ON "AuditEvent"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_event_append_only"();
