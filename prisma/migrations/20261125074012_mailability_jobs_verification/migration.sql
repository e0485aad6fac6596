-- CreateEnum
CREATE TYPE "AuditStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- DropIndex
DROP INDEX "MailabilityResult_auditId_status_idx";

-- AlterTable
ALTER TABLE "EntryEvent" ADD COLUMN     "mailabilityReasons" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "MailabilityAudit" ADD COLUMN     "blockFormat" TEXT NOT NULL DEFAULT 'postcard',
ADD COLUMN     "blockHandwriting" TEXT,
ADD COLUMN     "blockSize" TEXT NOT NULL DEFAULT '4x6',
ADD COLUMN     "campaignId" TEXT,
ADD COLUMN     "campaignName" TEXT,
ADD COLUMN     "countriesJudged" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "error" TEXT,
ADD COLUMN     "format" TEXT,
ADD COLUMN     "jobId" TEXT,
ADD COLUMN     "startedAt" TIMESTAMP(3),
ADD COLUMN     "status" "AuditStatus" NOT NULL DEFAULT 'queued',
ADD COLUMN     "verificationCostCents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "verificationEstimateCents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "verificationUnitCents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "verificationsCached" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "verificationsMade" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "verifier" TEXT,
ADD COLUMN     "verify" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "contacts" SET DEFAULT 0,
ALTER COLUMN "mailable" SET DEFAULT 0,
ALTER COLUMN "fixable" SET DEFAULT 0,
ALTER COLUMN "unmailable" SET DEFAULT 0,
ALTER COLUMN "accounts" SET DEFAULT 0,
ALTER COLUMN "accountsWithMailableContact" SET DEFAULT 0;

-- AlterTable
ALTER TABLE "MailabilityResult" ADD COLUMN     "accountId" TEXT,
ADD COLUMN     "country" TEXT;

-- CreateTable
CREATE TABLE "AddressVerification" (
    "id" TEXT NOT NULL DEFAULT ('adv_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "verifier" TEXT NOT NULL,
    "addressKey" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "vendorVerdict" TEXT NOT NULL,
    "standardised" JSONB,
    "costCents" INTEGER NOT NULL DEFAULT 0,
    "verifiedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AddressVerification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AddressVerification_workspaceId_verifier_addressKey_key" ON "AddressVerification"("workspaceId", "verifier", "addressKey");

-- CreateIndex
CREATE INDEX "MailabilityAudit_campaignId_createdAt_idx" ON "MailabilityAudit"("campaignId", "createdAt");

-- AddForeignKey
ALTER TABLE "AddressVerification" ADD CONSTRAINT "AddressVerification_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Audits recorded before audits ran as jobs had all finished within their request.
UPDATE "MailabilityAudit" SET "status" = 'succeeded', "startedAt" = "createdAt" WHERE "finishedAt" IS NOT NULL;
