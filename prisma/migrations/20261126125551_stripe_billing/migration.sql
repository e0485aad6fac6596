-- CreateEnum
CREATE TYPE "BillingInvoiceStatus" AS ENUM ('paid', 'payment_failed');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "BillingSubscriptionStatus" ADD VALUE 'past_due';
ALTER TYPE "BillingSubscriptionStatus" ADD VALUE 'unpaid';
ALTER TYPE "BillingSubscriptionStatus" ADD VALUE 'incomplete';

-- AlterTable
ALTER TABLE "BillingSubscription" ADD COLUMN     "cancelAtPeriodEnd" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "currentPeriodEnd" TIMESTAMP(3),
ADD COLUMN     "providerStatus" TEXT,
ADD COLUMN     "stateAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "BillingCustomer" (
    "id" TEXT NOT NULL DEFAULT ('bcu_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerRef" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BillingCustomer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BillingInvoice" (
    "id" TEXT NOT NULL DEFAULT ('bin_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerRef" TEXT NOT NULL,
    "subscriptionRef" TEXT,
    "status" "BillingInvoiceStatus" NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "nextAttemptAt" TIMESTAMP(3),
    "hostedUrl" TEXT,
    "stateAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BillingInvoice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BillingWebhookEvent" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "workspaceId" TEXT,
    "outcome" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BillingWebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "BillingCustomer_workspaceId_provider_key" ON "BillingCustomer"("workspaceId", "provider");

-- CreateIndex
CREATE UNIQUE INDEX "BillingCustomer_provider_providerRef_key" ON "BillingCustomer"("provider", "providerRef");

-- CreateIndex
CREATE INDEX "BillingInvoice_workspaceId_stateAt_idx" ON "BillingInvoice"("workspaceId", "stateAt");

-- CreateIndex
CREATE UNIQUE INDEX "BillingInvoice_provider_providerRef_key" ON "BillingInvoice"("provider", "providerRef");

-- AddForeignKey
ALTER TABLE "BillingCustomer" ADD CONSTRAINT "BillingCustomer_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BillingInvoice" ADD CONSTRAINT "BillingInvoice_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
