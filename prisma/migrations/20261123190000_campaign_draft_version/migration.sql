-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "draftVersion" INTEGER NOT NULL DEFAULT 1;
