-- CreateEnum
CREATE TYPE "CrmKind" AS ENUM ('hubspot', 'salesforce');

-- CreateEnum
CREATE TYPE "CrmConnectionStatus" AS ENUM ('connected', 'disconnected');

-- CreateEnum
CREATE TYPE "CrmSyncMode" AS ENUM ('full', 'incremental');

-- CreateEnum
CREATE TYPE "CrmSyncTrigger" AS ENUM ('owner', 'schedule', 'agent');

-- CreateEnum
CREATE TYPE "CrmIssueSeverity" AS ENUM ('error', 'warning');

-- AlterTable
ALTER TABLE "AccountOutcome" ADD COLUMN     "crmConnectionId" TEXT,
ADD COLUMN     "sourceDetail" TEXT;

-- CreateTable
CREATE TABLE "CrmConnection" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "kind" "CrmKind" NOT NULL,
    "status" "CrmConnectionStatus" NOT NULL DEFAULT 'connected',
    "name" TEXT NOT NULL,
    "externalAccountId" TEXT,
    "instanceUrl" TEXT,
    "credentials" TEXT,
    "scheduleMinutes" INTEGER DEFAULT 60,
    "nextSyncAt" TIMESTAMP(3),
    "watermarks" JSONB NOT NULL DEFAULT '{}',
    "connectedByLabel" TEXT NOT NULL,
    "connectedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disconnectedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CrmConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CrmSync" (
    "id" TEXT NOT NULL DEFAULT ('cs_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "mode" "CrmSyncMode" NOT NULL,
    "trigger" "CrmSyncTrigger" NOT NULL,
    "counts" JSONB NOT NULL DEFAULT '{}',
    "requestedByLabel" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CrmSync_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CrmSyncIssue" (
    "id" TEXT NOT NULL DEFAULT ('csi_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "syncId" TEXT NOT NULL,
    "objectType" TEXT NOT NULL,
    "objectId" TEXT NOT NULL,
    "severity" "CrmIssueSeverity" NOT NULL,
    "message" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CrmSyncIssue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CrmListLink" (
    "connectionId" TEXT NOT NULL,
    "listId" TEXT NOT NULL,
    "audienceId" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CrmListLink_pkey" PRIMARY KEY ("connectionId","listId")
);

-- CreateIndex
CREATE INDEX "CrmConnection_status_nextSyncAt_idx" ON "CrmConnection"("status", "nextSyncAt");

-- CreateIndex
CREATE UNIQUE INDEX "CrmConnection_workspaceId_kind_key" ON "CrmConnection"("workspaceId", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "CrmSync_jobId_key" ON "CrmSync"("jobId");

-- CreateIndex
CREATE INDEX "CrmSync_connectionId_createdAt_id_idx" ON "CrmSync"("connectionId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "CrmSync_workspaceId_createdAt_idx" ON "CrmSync"("workspaceId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "CrmSyncIssue_syncId_severity_createdAt_id_idx" ON "CrmSyncIssue"("syncId", "severity", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CrmListLink_audienceId_idx" ON "CrmListLink"("audienceId");

-- CreateIndex
CREATE INDEX "AccountOutcome_workspaceId_occurrenceKey_idx" ON "AccountOutcome"("workspaceId", "occurrenceKey");

-- AddForeignKey
ALTER TABLE "CrmConnection" ADD CONSTRAINT "CrmConnection_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CrmSync" ADD CONSTRAINT "CrmSync_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "CrmConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CrmSyncIssue" ADD CONSTRAINT "CrmSyncIssue_syncId_fkey" FOREIGN KEY ("syncId") REFERENCES "CrmSync"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CrmListLink" ADD CONSTRAINT "CrmListLink_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "CrmConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;
