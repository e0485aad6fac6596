-- CreateEnum
CREATE TYPE "Mailability" AS ENUM ('mailable', 'fixable', 'unmailable');

-- CreateTable
CREATE TABLE "MailabilityAudit" (
    "id" TEXT NOT NULL DEFAULT ('mla_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "audienceId" TEXT,
    "audienceName" TEXT NOT NULL,
    "contacts" INTEGER NOT NULL,
    "mailable" INTEGER NOT NULL,
    "fixable" INTEGER NOT NULL,
    "unmailable" INTEGER NOT NULL,
    "accounts" INTEGER NOT NULL,
    "accountsWithMailableContact" INTEGER NOT NULL,
    "reasons" JSONB NOT NULL DEFAULT '{}',
    "byCountry" JSONB NOT NULL DEFAULT '[]',
    "coveredCountries" TEXT[],
    "costs" JSONB NOT NULL DEFAULT '[]',
    "requestedByLabel" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "MailabilityAudit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MailabilityResult" (
    "auditId" TEXT NOT NULL,
    "contactId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "status" "Mailability" NOT NULL,
    "reasons" TEXT[],
    "suggestion" JSONB,

    CONSTRAINT "MailabilityResult_pkey" PRIMARY KEY ("auditId","contactId")
);

-- CreateIndex
CREATE INDEX "MailabilityAudit_workspaceId_createdAt_idx" ON "MailabilityAudit"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "MailabilityAudit_audienceId_createdAt_idx" ON "MailabilityAudit"("audienceId", "createdAt");

-- CreateIndex
CREATE INDEX "MailabilityResult_auditId_status_idx" ON "MailabilityResult"("auditId", "status");

-- CreateIndex
CREATE INDEX "MailabilityResult_contactId_idx" ON "MailabilityResult"("contactId");

-- AddForeignKey
ALTER TABLE "MailabilityAudit" ADD CONSTRAINT "MailabilityAudit_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MailabilityAudit" ADD CONSTRAINT "MailabilityAudit_audienceId_fkey" FOREIGN KEY ("audienceId") REFERENCES "Audience"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MailabilityResult" ADD CONSTRAINT "MailabilityResult_auditId_fkey" FOREIGN KEY ("auditId") REFERENCES "MailabilityAudit"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MailabilityResult" ADD CONSTRAINT "MailabilityResult_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;
