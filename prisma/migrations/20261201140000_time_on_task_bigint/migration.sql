-- Time on task is measured on the server now and may run for weeks on a long study:
-- a 32-bit count of milliseconds overflows after 24.8 days.
-- AlterTable
ALTER TABLE "Assignment" ALTER COLUMN "timeSpentMs" SET DATA TYPE BIGINT;
