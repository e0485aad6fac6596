-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "reentryAfterDays" INTEGER;
