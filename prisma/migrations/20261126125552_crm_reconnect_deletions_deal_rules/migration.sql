-- AlterEnum
ALTER TYPE "CrmConnectionStatus" ADD VALUE 'needs_reconnect';

-- AlterTable
ALTER TABLE "CrmConnection" ADD COLUMN     "attention" TEXT,
ADD COLUMN     "currency" TEXT,
ADD COLUMN     "dealFilter" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "listsEnabled" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "CrmRecordLink" ADD COLUMN     "lastSeenSyncId" TEXT;
