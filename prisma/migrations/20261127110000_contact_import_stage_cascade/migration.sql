-- An import's staged rows go with it (a deleted import or workspace leaves no personal data behind).
-- An unlogged table may reference a logged one.
DELETE FROM "ContactImportStage" s WHERE NOT EXISTS (SELECT 1 FROM "ContactImport" i WHERE i.id = s."importId");

-- AddForeignKey
ALTER TABLE "ContactImportStage" ADD CONSTRAINT "ContactImportStage_importId_fkey" FOREIGN KEY ("importId") REFERENCES "ContactImport"("id") ON DELETE CASCADE ON UPDATE CASCADE;
