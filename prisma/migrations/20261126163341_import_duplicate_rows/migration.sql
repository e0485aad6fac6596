-- CreateTable
CREATE TABLE "ContactImportDuplicate" (
    "importId" TEXT NOT NULL,
    "row" INTEGER NOT NULL,
    "contactId" TEXT,

    CONSTRAINT "ContactImportDuplicate_pkey" PRIMARY KEY ("importId","row")
);

-- AddForeignKey
ALTER TABLE "ContactImportDuplicate" ADD CONSTRAINT "ContactImportDuplicate_importId_fkey" FOREIGN KEY ("importId") REFERENCES "ContactImport"("id") ON DELETE CASCADE ON UPDATE CASCADE;
