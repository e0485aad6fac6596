-- CreateEnum
CREATE TYPE "RecordSource" AS ENUM ('import', 'crm', 'agent', 'owner');

-- CreateEnum
CREATE TYPE "SuppressionReason" AS ENUM ('opt-out', 'customer', 'competitor', 'do-not-mail', 'bounced');

-- CreateEnum
CREATE TYPE "ImportOnExisting" AS ENUM ('update', 'skip');

-- CreateEnum
CREATE TYPE "ImportIssueKind" AS ENUM ('refused', 'warning');

-- DropIndex
DROP INDEX "Account_workspaceId_crmExternalId_key";

-- DropIndex
DROP INDEX "Audience_workspaceId_idx";

-- DropIndex
DROP INDEX "Contact_workspaceId_crmSource_crmExternalId_key";

-- DropIndex
DROP INDEX "Contact_workspaceId_email_idx";

-- AlterTable (hand-edited: renames keep the CRM ids, generated columns for search and the name key)
ALTER TABLE "Account" RENAME COLUMN "crmExternalId" TO "crmId";
ALTER TABLE "Account" ADD COLUMN     "nameKey" TEXT NOT NULL GENERATED ALWAYS AS (btrim(regexp_replace(lower("name"), '[^[:alnum:]]+', ' ', 'g'))) STORED,
ADD COLUMN     "source" "RecordSource" NOT NULL DEFAULT 'owner',
ADD COLUMN     "sourceDetail" TEXT,
ADD COLUMN     "search" tsvector GENERATED ALWAYS AS (array_to_tsvector(array_remove(regexp_split_to_array(lower(coalesce("name", '') || ' ' || coalesce("domain", '')), '[^[:alnum:]]+'), ''))) STORED,
ALTER COLUMN "domain" DROP NOT NULL;

-- AlterTable (hand-edited: the CRM id is renamed, the old CRM source becomes the source detail)
ALTER TABLE "Contact" RENAME COLUMN "crmExternalId" TO "crmId";
ALTER TABLE "Contact" ADD COLUMN     "addressKey" TEXT,
ADD COLUMN     "customFields" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "matchKey" TEXT,
ADD COLUMN     "phone" TEXT,
ADD COLUMN     "search" tsvector GENERATED ALWAYS AS (array_to_tsvector(array_remove(regexp_split_to_array(lower(coalesce("firstName", '') || ' ' || coalesce("lastName", '') || ' ' || coalesce("email", '')), '[^[:alnum:]]+'), ''))) STORED,
ADD COLUMN     "source" "RecordSource" NOT NULL DEFAULT 'owner',
ADD COLUMN     "sourceDetail" TEXT,
ADD COLUMN     "sourceImportId" TEXT,
ALTER COLUMN "firstName" SET DEFAULT '',
ALTER COLUMN "lastName" SET DEFAULT '';
UPDATE "Contact" SET "source" = 'crm', "sourceDetail" = "crmSource" WHERE "crmSource" IS NOT NULL;
ALTER TABLE "Contact" DROP COLUMN "crmSource";

-- AlterTable (hand-edited: free-text reasons become the closed list, the old text stays in the label)
ALTER TABLE "Suppression" ADD COLUMN     "label" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "source" "RecordSource" NOT NULL DEFAULT 'owner';
ALTER TABLE "Suppression" RENAME COLUMN "reason" TO "oldReason";
ALTER TABLE "Suppression" ADD COLUMN "reason" "SuppressionReason";
UPDATE "Suppression" SET "reason" = (CASE
    WHEN lower("oldReason") LIKE '%competitor%' THEN 'competitor'
    WHEN lower("oldReason") LIKE '%customer%' THEN 'customer'
    WHEN lower("oldReason") LIKE '%bounce%' OR lower("oldReason") LIKE '%return%' THEN 'bounced'
    WHEN lower("oldReason") LIKE '%opt%' OR lower("oldReason") LIKE '%unsubscri%' OR lower("oldReason") LIKE '%asked%' THEN 'opt-out'
    ELSE 'do-not-mail' END)::"SuppressionReason",
  "label" = CASE WHEN "kind" IN ('email', 'domain') THEN "value" ELSE "oldReason" END;
ALTER TABLE "Suppression" ALTER COLUMN "reason" SET NOT NULL;
ALTER TABLE "Suppression" DROP COLUMN "oldReason";

-- CreateTable
CREATE TABLE "ContactImport" (
    "id" TEXT NOT NULL DEFAULT ('imp_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "byteSize" INTEGER NOT NULL,
    "encoding" TEXT NOT NULL,
    "delimiter" TEXT NOT NULL,
    "columns" TEXT[],
    "sample" JSONB NOT NULL DEFAULT '[]',
    "rowCount" INTEGER NOT NULL,
    "mapping" JSONB,
    "onExisting" "ImportOnExisting",
    "audienceId" TEXT,
    "jobId" TEXT,
    "rowsDone" INTEGER NOT NULL DEFAULT 0,
    "created" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "duplicates" INTEGER NOT NULL DEFAULT 0,
    "refused" INTEGER NOT NULL DEFAULT 0,
    "warnings" INTEGER NOT NULL DEFAULT 0,
    "requestedByKind" "ActorKind" NOT NULL,
    "requestedById" TEXT,
    "requestedByLabel" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ContactImport_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ContactImportChunk" (
    "importId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "ContactImportChunk_pkey" PRIMARY KEY ("importId","seq")
);

-- CreateTable
CREATE TABLE "ContactImportIssue" (
    "id" TEXT NOT NULL DEFAULT ('iss_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "importId" TEXT NOT NULL,
    "row" INTEGER NOT NULL,
    "kind" "ImportIssueKind" NOT NULL,
    "column" TEXT,
    "reason" TEXT NOT NULL,
    "values" TEXT[],

    CONSTRAINT "ContactImportIssue_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ContactImport_jobId_key" ON "ContactImport"("jobId");

-- CreateIndex
CREATE INDEX "ContactImport_workspaceId_createdAt_id_idx" ON "ContactImport"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ContactImportIssue_importId_kind_row_idx" ON "ContactImportIssue"("importId", "kind", "row");

-- CreateIndex
CREATE INDEX "Account_workspaceId_nameKey_idx" ON "Account"("workspaceId", "nameKey");

-- CreateIndex
CREATE INDEX "Account_workspaceId_createdAt_id_idx" ON "Account"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Account_search_idx" ON "Account" USING GIN ("search");

-- CreateIndex
CREATE UNIQUE INDEX "Account_workspaceId_crmId_key" ON "Account"("workspaceId", "crmId");

-- CreateIndex
CREATE INDEX "Audience_workspaceId_createdAt_idx" ON "Audience"("workspaceId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Audience_workspaceId_name_key" ON "Audience"("workspaceId", "name");

-- CreateIndex
CREATE INDEX "Contact_workspaceId_matchKey_idx" ON "Contact"("workspaceId", "matchKey");

-- CreateIndex
CREATE INDEX "Contact_workspaceId_createdAt_id_idx" ON "Contact"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Contact_workspaceId_country_idx" ON "Contact"("workspaceId", "country");

-- CreateIndex
CREATE INDEX "Contact_search_idx" ON "Contact" USING GIN ("search");

-- CreateIndex
CREATE UNIQUE INDEX "Contact_workspaceId_email_key" ON "Contact"("workspaceId", "email");

-- CreateIndex
CREATE UNIQUE INDEX "Contact_workspaceId_crmId_key" ON "Contact"("workspaceId", "crmId");

-- CreateIndex
CREATE INDEX "Suppression_workspaceId_createdAt_id_idx" ON "Suppression"("workspaceId", "createdAt" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "ContactImport" ADD CONSTRAINT "ContactImport_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContactImportChunk" ADD CONSTRAINT "ContactImportChunk_importId_fkey" FOREIGN KEY ("importId") REFERENCES "ContactImport"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContactImportIssue" ADD CONSTRAINT "ContactImportIssue_importId_fkey" FOREIGN KEY ("importId") REFERENCES "ContactImport"("id") ON DELETE CASCADE ON UPDATE CASCADE;
