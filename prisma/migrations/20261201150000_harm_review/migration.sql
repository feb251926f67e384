-- A lead's review of each potential-harm flag a grader raised (issue 21, item 1).
-- CreateEnum
CREATE TYPE "HarmReviewStatus" AS ENUM ('OPEN', 'ACKNOWLEDGED', 'RESOLVED');

-- CreateTable
CREATE TABLE "HarmReview" (
    "assignmentId" UUID NOT NULL,
    "status" "HarmReviewStatus" NOT NULL,
    "note" TEXT,
    "reviewedById" UUID NOT NULL,
    "reviewedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HarmReview_pkey" PRIMARY KEY ("assignmentId")
);

-- AddForeignKey
ALTER TABLE "HarmReview" ADD CONSTRAINT "HarmReview_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HarmReview" ADD CONSTRAINT "HarmReview_reviewedById_fkey" FOREIGN KEY ("reviewedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
