-- CreateEnum
CREATE TYPE "EntryPolicy" AS ENUM ('audience_at_go_live', 'audience_joins', 'none');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "EntryEventSource" ADD VALUE 'go_live';
ALTER TYPE "EntryEventSource" ADD VALUE 'audience_join';

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "entryPolicy" "EntryPolicy" NOT NULL DEFAULT 'none',
ADD COLUMN     "sendAt" TIMESTAMP(3);

-- A contact added to the audience of a live (or paused) audience_joins campaign enters it when added,
-- whatever added it (an import, a CRM sync, a person, an agent): one set-based insert per statement.
-- The key is the one going live uses, so a contact enters such a campaign at most once by itself.
CREATE FUNCTION "enter_audience_joiners"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  now_utc timestamp(3) := (now() AT TIME ZONE 'UTC');
BEGIN
  INSERT INTO "EntryEvent" ("workspaceId", "campaignId", "contactId", source, "idempotencyKey", fingerprint, "occurredAt", "runAfter", "updatedAt")
  SELECT c."workspaceId", c.id, n."contactId", 'audience_join'::"EntryEventSource",
         'svc:entry:' || c.id || ':' || n."contactId", 'svc:entry', now_utc, GREATEST(now_utc, COALESCE(c."sendAt", now_utc)), now_utc
    FROM new_members n
    JOIN "Campaign" c ON c."audienceId" = n."audienceId" AND c."workspaceId" = n."workspaceId"
   WHERE c."entryPolicy" = 'audience_joins' AND c.status IN ('live', 'paused') AND (c."endsAt" IS NULL OR c."endsAt" > now_utc)
  ON CONFLICT ("workspaceId", "idempotencyKey") DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER "AudienceMember_enter_joiners" AFTER INSERT ON "AudienceMember"
  REFERENCING NEW TABLE AS new_members FOR EACH STATEMENT EXECUTE FUNCTION "enter_audience_joiners"();
