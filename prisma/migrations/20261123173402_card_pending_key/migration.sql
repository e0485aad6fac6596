-- AlterEnum
ALTER TYPE "CardKind" ADD VALUE 'resume_campaign';

-- AlterTable
ALTER TABLE "ConfirmationCard" ADD COLUMN     "pendingKey" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "ConfirmationCard_pendingKey_key" ON "ConfirmationCard"("pendingKey");

-- A card keeps its pendingKey only while it is pending: deciding or expiring it, by whatever
-- statement, frees the key for the next request about the same thing.
CREATE OR REPLACE FUNCTION "ConfirmationCard_clear_pending_key"() RETURNS trigger AS $$
BEGIN
  IF NEW.status <> 'pending' THEN
    NEW."pendingKey" := NULL;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "ConfirmationCard_clear_pending_key"
  BEFORE INSERT OR UPDATE OF status, "pendingKey" ON "ConfirmationCard"
  FOR EACH ROW EXECUTE FUNCTION "ConfirmationCard_clear_pending_key"();
