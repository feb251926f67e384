-- CreateEnum
CREATE TYPE "TriageDecision" AS ENUM ('ACCEPTED', 'REJECTED');

-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "triageRule" JSONB;

-- CreateTable
CREATE TABLE "SetDecision" (
    "responseSetId" UUID NOT NULL,
    "decision" "TriageDecision" NOT NULL,
    "note" TEXT NOT NULL,
    "decidedById" UUID NOT NULL,
    "decidedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SetDecision_pkey" PRIMARY KEY ("responseSetId")
);

-- AddForeignKey
ALTER TABLE "SetDecision" ADD CONSTRAINT "SetDecision_responseSetId_fkey" FOREIGN KEY ("responseSetId") REFERENCES "ResponseSet"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SetDecision" ADD CONSTRAINT "SetDecision_decidedById_fkey" FOREIGN KEY ("decidedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
