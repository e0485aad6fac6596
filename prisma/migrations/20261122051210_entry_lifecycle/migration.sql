-- AlterTable
ALTER TABLE "Enrollment" ADD COLUMN     "recipientKey" TEXT;

-- AlterTable
ALTER TABLE "EntryEvent" ADD COLUMN     "lockToken" TEXT;

-- CreateTable
CREATE TABLE "SandboxPrintJob" (
    "id" TEXT NOT NULL DEFAULT ('job_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "pieceId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "format" "CampaignFormat" NOT NULL,
    "pages" INTEGER NOT NULL,
    "printedAt" TIMESTAMP(3) NOT NULL,
    "mailedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SandboxPrintJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SandboxPrintJob_pieceId_key" ON "SandboxPrintJob"("pieceId");

-- CreateIndex
CREATE INDEX "Enrollment_campaignId_recipientKey_idx" ON "Enrollment"("campaignId", "recipientKey");

-- CreateIndex
CREATE INDEX "EntryEvent_campaignId_status_idx" ON "EntryEvent"("campaignId", "status");
