-- Sign-in throttling moves from one row per key ("email:..." or "ip:...") to one
-- row per attempt naming both the account and the address, so attempts can be
-- refused per account and address pair. The old rows cannot be paired; they are
-- only the last window's throttling state, so they go.
DELETE FROM "LoginAttempt";

-- CreateEnum
CREATE TYPE "LoginOutcome" AS ENUM ('PENDING', 'FAILED', 'SUCCEEDED');

-- DropIndex
DROP INDEX "LoginAttempt_key_createdAt_idx";

-- AlterTable
ALTER TABLE "LoginAttempt" DROP COLUMN "key",
DROP COLUMN "success",
ADD COLUMN     "address" TEXT NOT NULL,
ADD COLUMN     "email" TEXT NOT NULL,
ADD COLUMN     "outcome" "LoginOutcome" NOT NULL DEFAULT 'PENDING';

-- CreateIndex
CREATE INDEX "LoginAttempt_email_createdAt_idx" ON "LoginAttempt"("email", "createdAt");

-- CreateIndex
CREATE INDEX "LoginAttempt_address_email_createdAt_idx" ON "LoginAttempt"("address", "email", "createdAt");
