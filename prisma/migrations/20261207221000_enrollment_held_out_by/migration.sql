-- AlterTable
ALTER TABLE "Enrollment" ADD COLUMN     "heldOutBy" TEXT;
