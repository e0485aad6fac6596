-- CreateEnum
CREATE TYPE "BillingSubscriptionStatus" AS ENUM ('active', 'cancelled');

-- AlterEnum
ALTER TYPE "CardKind" ADD VALUE 'change_plan';

-- AlterTable
ALTER TABLE "FulfilmentContract" ADD COLUMN     "countries" TEXT[] DEFAULT ARRAY['US']::TEXT[],
ADD COLUMN     "quote" JSONB,
ADD COLUMN     "revokedAt" TIMESTAMP(3),
ADD COLUMN     "revokedByUserId" TEXT,
ADD COLUMN     "size" TEXT;

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "planChangedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "BillingSubscription" (
    "id" TEXT NOT NULL DEFAULT ('sub_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerRef" TEXT NOT NULL,
    "plan" "Plan" NOT NULL,
    "status" "BillingSubscriptionStatus" NOT NULL DEFAULT 'active',
    "monthlyPriceCents" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cancelledAt" TIMESTAMP(3),

    CONSTRAINT "BillingSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BillingSubscription_workspaceId_status_idx" ON "BillingSubscription"("workspaceId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "BillingSubscription_provider_providerRef_key" ON "BillingSubscription"("provider", "providerRef");

-- AddForeignKey
ALTER TABLE "BillingSubscription" ADD CONSTRAINT "BillingSubscription_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
