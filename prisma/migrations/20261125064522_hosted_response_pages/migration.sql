-- CreateEnum
CREATE TYPE "ResponseMode" AS ENUM ('redirect', 'landing_page', 'gift_claim');

-- CreateEnum
CREATE TYPE "PageCallToAction" AS ENUM ('reply', 'meeting', 'visit_site');

-- CreateEnum
CREATE TYPE "GiftClaimStatus" AS ENUM ('open', 'claimed', 'declined', 'expired', 'cancelled');

-- CreateEnum
CREATE TYPE "ShippingAddressSource" AS ENUM ('original', 'recipient');

-- AlterEnum
BEGIN;
CREATE TYPE "ResponseKind_new" AS ENUM ('scan', 'click', 'page_view', 'reply', 'meeting_click', 'site_click', 'gift_claim', 'address_change', 'gift_decline');
ALTER TABLE "ResponseEvent" ALTER COLUMN "kind" TYPE "ResponseKind_new" USING ("kind"::text::"ResponseKind_new");
ALTER TYPE "ResponseKind" RENAME TO "ResponseKind_old";
ALTER TYPE "ResponseKind_new" RENAME TO "ResponseKind";
DROP TYPE "public"."ResponseKind_old";
COMMIT;

-- DropIndex
DROP INDEX "ResponseEvent_pieceId_idx";

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "claimWindowDays" INTEGER NOT NULL DEFAULT 30,
ADD COLUMN     "giftOptions" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "meetingUrl" TEXT,
ADD COLUMN     "pageCallToAction" "PageCallToAction" NOT NULL DEFAULT 'reply',
ADD COLUMN     "responseMode" "ResponseMode" NOT NULL DEFAULT 'redirect';

-- AlterTable
ALTER TABLE "ResponseEvent" ADD COLUMN     "occurrenceKey" TEXT;

-- CreateTable
CREATE TABLE "GiftClaim" (
    "id" TEXT NOT NULL DEFAULT ('gcl_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "pieceId" TEXT NOT NULL,
    "status" "GiftClaimStatus" NOT NULL DEFAULT 'open',
    "giftItem" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "decidedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GiftClaim_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShippingAddress" (
    "id" TEXT NOT NULL DEFAULT ('adr_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "pieceId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "source" "ShippingAddressSource" NOT NULL,
    "addressLine1" TEXT NOT NULL,
    "addressLine2" TEXT,
    "city" TEXT NOT NULL,
    "region" TEXT,
    "postalCode" TEXT,
    "country" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShippingAddress_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GiftClaim_pieceId_key" ON "GiftClaim"("pieceId");

-- CreateIndex
CREATE INDEX "GiftClaim_campaignId_status_idx" ON "GiftClaim"("campaignId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ShippingAddress_pieceId_version_key" ON "ShippingAddress"("pieceId", "version");

-- CreateIndex
CREATE INDEX "ResponseEvent_campaignId_occurredAt_id_idx" ON "ResponseEvent"("campaignId", "occurredAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ResponseEvent_pieceId_kind_occurredAt_idx" ON "ResponseEvent"("pieceId", "kind", "occurredAt");

-- CreateIndex
CREATE UNIQUE INDEX "ResponseEvent_pieceId_kind_occurrenceKey_key" ON "ResponseEvent"("pieceId", "kind", "occurrenceKey");

-- AddForeignKey
ALTER TABLE "GiftClaim" ADD CONSTRAINT "GiftClaim_pieceId_fkey" FOREIGN KEY ("pieceId") REFERENCES "MailPiece"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShippingAddress" ADD CONSTRAINT "ShippingAddress_pieceId_fkey" FOREIGN KEY ("pieceId") REFERENCES "MailPiece"("id") ON DELETE CASCADE ON UPDATE CASCADE;
