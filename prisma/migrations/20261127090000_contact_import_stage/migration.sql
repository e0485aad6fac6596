-- CreateTable (hand-edited: UNLOGGED, an import's rows in passing; no write-ahead log, emptied by each batch's transaction)
CREATE UNLOGGED TABLE "ContactImportStage" (
    "importId" TEXT NOT NULL,
    "row" INTEGER NOT NULL,
    "firstName" TEXT NOT NULL,
    "lastName" TEXT NOT NULL,
    "title" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "addressLine1" TEXT,
    "addressLine2" TEXT,
    "city" TEXT,
    "region" TEXT,
    "postalCode" TEXT,
    "country" TEXT,
    "addressKey" TEXT,
    "matchKey" TEXT,
    "crmId" TEXT,
    "customFields" JSONB NOT NULL,

    CONSTRAINT "ContactImportStage_pkey" PRIMARY KEY ("importId","row")
);
