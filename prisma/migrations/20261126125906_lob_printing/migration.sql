-- AlterTable
ALTER TABLE "FulfilmentContract" ADD COLUMN     "connectionId" TEXT;

-- AlterTable
ALTER TABLE "MailPiece" ADD COLUMN     "trackingEvents" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "trackingStatus" TEXT,
ADD COLUMN     "trackingUpdatedAt" TIMESTAMP(3),
ADD COLUMN     "vendorIssue" TEXT,
ADD COLUMN     "vendorIssueDetail" TEXT,
ADD COLUMN     "vendorMode" TEXT,
ADD COLUMN     "vendorSubmittedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "PrintVendorConnection" (
    "id" TEXT NOT NULL DEFAULT ('pvc_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "vendor" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'connected',
    "credentials" TEXT,
    "keyHint" TEXT NOT NULL,
    "connectedByLabel" TEXT NOT NULL,
    "connectedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disconnectedAt" TIMESTAMP(3),
    "statusReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PrintVendorConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PrintVendorEvent" (
    "id" TEXT NOT NULL DEFAULT ('pve_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "connectionId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "pieceId" TEXT,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PrintVendorEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PrintVendorConnection_workspaceId_vendor_idx" ON "PrintVendorConnection"("workspaceId", "vendor");

-- CreateIndex
CREATE INDEX "PrintVendorEvent_pieceId_idx" ON "PrintVendorEvent"("pieceId");

-- CreateIndex
CREATE UNIQUE INDEX "PrintVendorEvent_connectionId_eventId_key" ON "PrintVendorEvent"("connectionId", "eventId");

-- CreateIndex
CREATE INDEX "MailPiece_vendorRef_idx" ON "MailPiece"("vendorRef");
