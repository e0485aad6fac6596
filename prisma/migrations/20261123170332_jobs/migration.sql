-- CreateEnum
CREATE TYPE "JobKind" AS ENUM ('contacts_import', 'audit_run', 'drafts_generate', 'crm_sync');

-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- AlterTable
ALTER TABLE "SandboxPrintJob" ALTER COLUMN "id" SET DEFAULT ('prt_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text));

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL DEFAULT ('job_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "kind" "JobKind" NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'queued',
    "title" TEXT NOT NULL,
    "input" JSONB NOT NULL DEFAULT '{}',
    "checkpoint" JSONB,
    "unit" TEXT NOT NULL,
    "progressDone" INTEGER NOT NULL DEFAULT 0,
    "progressTotal" INTEGER,
    "result" JSONB,
    "error" TEXT,
    "cancelRequestedAt" TIMESTAMP(3),
    "requestedByKind" "ActorKind" NOT NULL,
    "requestedById" TEXT,
    "requestedByLabel" TEXT NOT NULL,
    "runAfter" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
    "lockToken" TEXT,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Job_status_runAfter_idx" ON "Job"("status", "runAfter");

-- CreateIndex
CREATE INDEX "Job_workspaceId_kind_createdAt_idx" ON "Job"("workspaceId", "kind", "createdAt");

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
