-- AlterTable
ALTER TABLE "Draft" ADD COLUMN     "recipientDigest" TEXT;
