-- AlterTable
ALTER TABLE "BrandKit" ADD COLUMN     "bodyFont" TEXT NOT NULL DEFAULT 'noto-sans',
ADD COLUMN     "destinationUrl" TEXT,
ADD COLUMN     "handwritingFont" TEXT NOT NULL DEFAULT 'caveat',
ADD COLUMN     "headingFont" TEXT NOT NULL DEFAULT 'noto-sans',
ADD COLUMN     "logo" BYTEA,
ADD COLUMN     "logoHeight" INTEGER,
ADD COLUMN     "logoType" TEXT,
ADD COLUMN     "logoWidth" INTEGER,
ADD COLUMN     "primaryColor" TEXT NOT NULL DEFAULT '#1c3d5a',
ADD COLUMN     "returnAddressLine1" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "returnAddressLine2" TEXT,
ADD COLUMN     "returnCity" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "returnCountry" TEXT NOT NULL DEFAULT 'US',
ADD COLUMN     "returnPostalCode" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "returnRegion" TEXT,
ADD COLUMN     "signature" BYTEA,
ADD COLUMN     "signatureType" TEXT,
ADD COLUMN     "textColor" TEXT NOT NULL DEFAULT '#1f2328';

-- The one-line return address becomes the first line of the structured one (nothing is lost).
UPDATE "BrandKit" SET "returnAddressLine1" = "returnAddress";
ALTER TABLE "BrandKit" DROP COLUMN "returnAddress";

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "designId" TEXT;

-- CreateTable
CREATE TABLE "Design" (
    "id" TEXT NOT NULL DEFAULT ('dsn_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "format" "CampaignFormat" NOT NULL,
    "size" TEXT NOT NULL,
    "layout" TEXT NOT NULL,
    "blocks" JSONB NOT NULL DEFAULT '{}',
    "colors" JSONB NOT NULL DEFAULT '{}',
    "image" TEXT NOT NULL DEFAULT 'logo',
    "giftItem" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Design_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Draft" (
    "id" TEXT NOT NULL DEFAULT ('drf_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "contactId" TEXT NOT NULL,
    "designId" TEXT,
    "blocks" JSONB NOT NULL DEFAULT '{}',
    "overrides" JSONB,
    "editedAt" TIMESTAMP(3),
    "editedBy" TEXT,
    "overflowing" BOOLEAN NOT NULL DEFAULT false,
    "missingData" BOOLEAN NOT NULL DEFAULT false,
    "missingFields" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "issues" JSONB NOT NULL DEFAULT '[]',
    "specimen" BOOLEAN NOT NULL,
    "sid" CHAR(16) NOT NULL,
    "responseCode" TEXT NOT NULL,
    "pdf" BYTEA NOT NULL,
    "pdfBytes" INTEGER NOT NULL,
    "pages" INTEGER NOT NULL,
    "renderedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Draft_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Design_workspaceId_createdAt_idx" ON "Design"("workspaceId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Draft_sid_key" ON "Draft"("sid");

-- CreateIndex
CREATE UNIQUE INDEX "Draft_responseCode_key" ON "Draft"("responseCode");

-- CreateIndex
CREATE INDEX "Draft_campaignId_id_idx" ON "Draft"("campaignId", "id");

-- CreateIndex
CREATE INDEX "Draft_workspaceId_idx" ON "Draft"("workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "Draft_campaignId_contactId_key" ON "Draft"("campaignId", "contactId");

-- AddForeignKey
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_designId_fkey" FOREIGN KEY ("designId") REFERENCES "Design"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Design" ADD CONSTRAINT "Design_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Draft" ADD CONSTRAINT "Draft_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Draft" ADD CONSTRAINT "Draft_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Draft" ADD CONSTRAINT "Draft_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Draft" ADD CONSTRAINT "Draft_designId_fkey" FOREIGN KEY ("designId") REFERENCES "Design"("id") ON DELETE SET NULL ON UPDATE CASCADE;
