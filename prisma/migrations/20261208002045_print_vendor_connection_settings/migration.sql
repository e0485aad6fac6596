-- AlterTable
ALTER TABLE "PrintVendorConnection" ADD COLUMN     "settings" JSONB NOT NULL DEFAULT '{}';
