-- CreateEnum
CREATE TYPE "FieldWriterKind" AS ENUM ('import', 'crm', 'owner', 'agent', 'fix');

-- AlterTable
ALTER TABLE "Contact" ADD COLUMN     "fieldSources" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "ContactImport" ADD COLUMN     "keptFields" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "FulfilmentContract" ADD COLUMN     "countryPrices" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "ContactFieldChange" (
    "id" TEXT NOT NULL DEFAULT ('fch_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "contactId" TEXT NOT NULL,
    "field" TEXT NOT NULL,
    "oldValue" TEXT,
    "newValue" TEXT,
    "byKind" "FieldWriterKind" NOT NULL,
    "byLabel" TEXT,
    "sourceRef" TEXT,
    "revertOf" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContactFieldChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ContactFieldChange_contactId_at_idx" ON "ContactFieldChange"("contactId", "at" DESC);

-- CreateIndex
CREATE INDEX "ContactFieldChange_workspaceId_at_idx" ON "ContactFieldChange"("workspaceId", "at");

-- AddForeignKey
ALTER TABLE "ContactFieldChange" ADD CONSTRAINT "ContactFieldChange_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Contacts made by a CSV import: every field was last written by the CSV source (contacts/provenance.ts).
UPDATE "Contact" SET "fieldSources" = '{"o":"csv"}'::jsonb WHERE source = 'import';

-- Contracts made before: each country's price from the quote they were made with.
UPDATE "FulfilmentContract" f
   SET "countryPrices" = COALESCE((SELECT jsonb_object_agg(p->>'country', (p->>'unitCostCents')::int)
                                     FROM jsonb_array_elements(f.quote->'perCountry') AS p), '{}'::jsonb)
 WHERE f.quote IS NOT NULL AND jsonb_typeof(f.quote->'perCountry') = 'array';
