-- AlterTable
ALTER TABLE "MailPiece" ADD COLUMN     "printDraftId" TEXT;

-- CreateIndex
CREATE INDEX "MailPiece_printDraftId_idx" ON "MailPiece"("printDraftId");

-- AddForeignKey
ALTER TABLE "MailPiece" ADD CONSTRAINT "MailPiece_printDraftId_fkey" FOREIGN KEY ("printDraftId") REFERENCES "Draft"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A piece's print file never changes once the piece is made. Before a draft's PDF is written again,
-- or the draft is deleted by itself, the pieces printing it get their own copy. A draft deleted by
-- a cascade (its contact erased, its campaign or workspace deleted) takes its file with it: the
-- foreign key above clears the pieces' reference, as erasure wants and deletion does not mind.
CREATE OR REPLACE FUNCTION "Draft_keep_piece_print_files"() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' OR pg_trigger_depth() = 1 THEN
    UPDATE "MailPiece" SET "proofPdf" = OLD.pdf, "printDraftId" = NULL WHERE "printDraftId" = OLD.id;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "Draft_keep_piece_print_files"
  BEFORE UPDATE OF pdf OR DELETE ON "Draft"
  FOR EACH ROW EXECUTE FUNCTION "Draft_keep_piece_print_files"();

-- Pieces made before: each one whose print file is its draft's, byte for byte, prints the draft's.
UPDATE "MailPiece" p SET "printDraftId" = d.id, "proofPdf" = NULL
  FROM "Draft" d
 WHERE d.sid = p.sid AND d."campaignId" = p."campaignId" AND p."proofPdf" IS NOT NULL AND p."proofPdf" = d.pdf;
