-- DropForeignKey
ALTER TABLE "Enrollment" DROP CONSTRAINT "Enrollment_contactId_fkey";

-- DropForeignKey
ALTER TABLE "EntryEvent" DROP CONSTRAINT "EntryEvent_contactId_fkey";

-- DropForeignKey
ALTER TABLE "MailPiece" DROP CONSTRAINT "MailPiece_contactId_fkey";

-- AlterTable
ALTER TABLE "Enrollment" ALTER COLUMN "contactId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "EntryEvent" ALTER COLUMN "contactId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "MailPiece" ADD COLUMN     "accountId" TEXT,
ADD COLUMN     "contactDeletedAt" TIMESTAMP(3),
ALTER COLUMN "contactId" DROP NOT NULL;

-- AddForeignKey
ALTER TABLE "EntryEvent" ADD CONSTRAINT "EntryEvent_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Enrollment" ADD CONSTRAINT "Enrollment_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MailPiece" ADD CONSTRAINT "MailPiece_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Deleting a contact (contacts/erase.ts) keeps its pieces, enrollments and ended entry events with
-- "contactId" null; the piece keeps the account it counted for in "accountId". A conversion
-- reported later against such a piece's sid names that account (and no contact).
CREATE OR REPLACE FUNCTION webhook_conversion() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NOT webhook_subscribed(NEW."workspaceId", 'conversion.recorded') THEN RETURN NULL; END IF;
  PERFORM webhook_emit(NEW."workspaceId", 'conversion.recorded', jsonb_build_object(
    'outcomeId', NEW.id,
    'kind', NEW.kind::text,
    'amountCents', NEW."amountCents",
    'at', webhook_time(NEW."at"),
    'externalId', NEW."externalId",
    'source', 'api',
    'campaignId', NEW."campaignId",
    'pieceId', NEW."pieceId",
    'contactId', p."contactId",
    'accountId', COALESCE(c."accountId", p."accountId"),
    'sid', p.sid
  ), NEW."at")
  FROM "MailPiece" p LEFT JOIN "Contact" c ON c.id = p."contactId" WHERE p.id = NEW."pieceId";
  RETURN NULL;
END
$$;
