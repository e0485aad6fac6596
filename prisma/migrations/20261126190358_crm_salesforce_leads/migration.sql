-- AlterTable
ALTER TABLE "CrmConnection" ADD COLUMN     "leads" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "leadsNote" TEXT;
