-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "escalationRules" JSONB NOT NULL DEFAULT '{}';
