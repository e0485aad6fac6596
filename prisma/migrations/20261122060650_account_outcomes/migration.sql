-- CreateEnum
CREATE TYPE "OutcomeSource" AS ENUM ('crm', 'csv');

-- CreateTable
CREATE TABLE "AccountOutcome" (
    "id" TEXT NOT NULL DEFAULT ('oc_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "kind" "ConversionKind" NOT NULL,
    "amountCents" BIGINT,
    "at" TIMESTAMP(3) NOT NULL,
    "externalId" TEXT,
    "occurrenceKey" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "source" "OutcomeSource" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccountOutcome_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AccountOutcome_workspaceId_kind_at_idx" ON "AccountOutcome"("workspaceId", "kind", "at");

-- CreateIndex
CREATE UNIQUE INDEX "AccountOutcome_accountId_kind_occurrenceKey_key" ON "AccountOutcome"("accountId", "kind", "occurrenceKey");

-- AddForeignKey
ALTER TABLE "AccountOutcome" ADD CONSTRAINT "AccountOutcome_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccountOutcome" ADD CONSTRAINT "AccountOutcome_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
