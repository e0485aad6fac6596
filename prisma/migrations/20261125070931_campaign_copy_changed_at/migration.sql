-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "copyChangedAt" TIMESTAMP(3);
