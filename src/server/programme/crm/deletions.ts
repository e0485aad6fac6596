import type { Db } from "@/server/ground/db";
import type { TCrmObjectType } from "./adapter";
import type { LinkScope } from "./links";

/**
 * Records deleted in a CRM (HubSpot archives them; Salesforce keeps them in its recycle bin, where
 * queryAll finds them with IsDeleted), and the daily full sync's reconciliation, which finds those
 * deleted beyond either. What a deletion does here:
 *
 * - a contact stays (it may have been mailed; its history and suppressions matter), but it is no
 *   longer this CRM's: its link to the record is removed and it is taken out of the audiences this
 *   CRM's lists fill. Audiences people made themselves keep it.
 * - a company's account stays (other contacts and outcomes may be on it), unlinked from the record.
 * - a deal's outcomes (opportunity_created, pipeline_dollars, closed_won) are removed: the CRM no
 *   longer says the deal exists.
 *
 * - a Salesforce Lead (deleted, converted, or no longer synced): its contact stays, unlinked from the
 *   lead; it leaves this CRM's list audiences unless another record of this CRM (the Contact the lead
 *   became, say) is still that contact.
 *
 * A record the CRM brings back (an undelete) is linked again by the next sync that reads it.
 */
export type TRecordType = TCrmObjectType | "leads";
const LINK_TYPE: Record<TRecordType, string> = {
  contacts: "contact",
  companies: "account",
  deals: "deal",
  leads: "lead",
};

/** Notes that a full sync read these records (whatever became of them here), so reconciliation keeps their links. */
export async function markSeen(tx: Db, s: LinkScope, type: TRecordType, externalIds: string[], syncId: string) {
  const ids = JSON.stringify([...new Set(externalIds)]);
  if (!externalIds.length) return;
  if (type === "deals") {
    // Deals have no local record of their own: a link row per deal keeps that the sync read it.
    await tx.$executeRaw`
      INSERT INTO "CrmRecordLink" ("connectionId", "objectType", "externalId", "workspaceId", "localId", "lastSeenSyncId", "updatedAt")
      SELECT ${s.connectionId}, 'deal', x, ${s.workspaceId}, '', ${syncId}, now() FROM jsonb_array_elements_text(${ids}::jsonb) AS x
      ON CONFLICT ("connectionId", "objectType", "externalId") DO UPDATE SET "lastSeenSyncId" = EXCLUDED."lastSeenSyncId"`;
    return;
  }
  await tx.$executeRaw`
    UPDATE "CrmRecordLink" SET "lastSeenSyncId" = ${syncId}
     WHERE "connectionId" = ${s.connectionId} AND "objectType" = ${LINK_TYPE[type]}
       AND "externalId" = ANY(ARRAY(SELECT jsonb_array_elements_text(${ids}::jsonb)))`;
}

/** Applies the deletion of these records of one type (see above); returns how many were known here. */
export async function applyDeleted(tx: Db, s: LinkScope, type: TRecordType, externalIds: string[]): Promise<number> {
  const ids = JSON.stringify([...new Set(externalIds)]);
  if (!externalIds.length) return 0;
  if (type === "leads") return unlinkLeads(tx, s, ids);
  if (type === "deals") {
    const removed = await tx.$queryRaw<{ externalId: string }[]>`
      DELETE FROM "AccountOutcome"
       WHERE "workspaceId" = ${s.workspaceId} AND "crmConnectionId" = ${s.connectionId}
         AND "externalId" = ANY(ARRAY(SELECT jsonb_array_elements_text(${ids}::jsonb)))
      RETURNING "externalId"`;
    await unlink(tx, s, "deal", ids);
    return new Set(removed.map((r) => r.externalId)).size;
  }
  if (type === "contacts") {
    await tx.$executeRaw`
      DELETE FROM "AudienceMember" m
       USING "CrmRecordLink" l, "CrmListLink" ll
       WHERE l."connectionId" = ${s.connectionId} AND l."objectType" = 'contact'
         AND l."externalId" = ANY(ARRAY(SELECT jsonb_array_elements_text(${ids}::jsonb)))
         AND m."contactId" = l."localId" AND m."workspaceId" = ${s.workspaceId}
         AND ll."connectionId" = ${s.connectionId} AND m."audienceId" = ll."audienceId"`;
  }
  return unlink(tx, s, LINK_TYPE[type], ids);
}

/** Unlinks the leads; their contacts leave this CRM's list audiences unless another of its records still is them. */
async function unlinkLeads(tx: Db, s: LinkScope, ids: string): Promise<number> {
  const gone = await tx.$queryRaw<{ localId: string }[]>`
    DELETE FROM "CrmRecordLink"
     WHERE "connectionId" = ${s.connectionId} AND "objectType" = 'lead' AND "workspaceId" = ${s.workspaceId}
       AND "externalId" = ANY(ARRAY(SELECT jsonb_array_elements_text(${ids}::jsonb)))
    RETURNING "localId"`;
  if (!gone.length) return 0;
  await tx.$executeRaw`
    DELETE FROM "AudienceMember" m
     USING "CrmListLink" ll
     WHERE ll."connectionId" = ${s.connectionId} AND m."audienceId" = ll."audienceId" AND m."workspaceId" = ${s.workspaceId}
       AND m."contactId" = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(gone.map((g) => g.localId))}::jsonb)))
       AND NOT EXISTS (SELECT 1 FROM "CrmRecordLink" k WHERE k."connectionId" = ${s.connectionId} AND k."objectType" IN ('contact', 'lead') AND k."localId" = m."contactId")`;
  return gone.length;
}

const unlink = (tx: Db, s: LinkScope, objectType: string, ids: string) => tx.$executeRaw`
  DELETE FROM "CrmRecordLink"
   WHERE "connectionId" = ${s.connectionId} AND "objectType" = ${objectType} AND "workspaceId" = ${s.workspaceId}
     AND "externalId" = ANY(ARRAY(SELECT jsonb_array_elements_text(${ids}::jsonb)))`;

/**
 * After a full sync read every record: what this connection linked (or counted, for deals) and the
 * sync did not read was deleted in the CRM. Returns the deleted records' ids by type.
 */
export async function unseenRecords(tx: Db, s: LinkScope, syncId: string): Promise<Record<TRecordType, string[]>> {
  const links = await tx.$queryRaw<{ objectType: string; externalId: string }[]>`
    SELECT "objectType", "externalId" FROM "CrmRecordLink"
     WHERE "connectionId" = ${s.connectionId} AND "objectType" IN ('contact', 'account', 'lead') AND "lastSeenSyncId" IS DISTINCT FROM ${syncId}`;
  const deals = await tx.$queryRaw<{ externalId: string }[]>`
    SELECT DISTINCT o."externalId" FROM "AccountOutcome" o
     WHERE o."workspaceId" = ${s.workspaceId} AND o."crmConnectionId" = ${s.connectionId} AND o."externalId" IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM "CrmRecordLink" l WHERE l."connectionId" = ${s.connectionId} AND l."objectType" = 'deal'
                        AND l."externalId" = o."externalId" AND l."lastSeenSyncId" = ${syncId})`;
  return {
    contacts: links.filter((l) => l.objectType === "contact").map((l) => l.externalId),
    companies: links.filter((l) => l.objectType === "account").map((l) => l.externalId),
    deals: deals.map((d) => d.externalId),
    leads: links.filter((l) => l.objectType === "lead").map((l) => l.externalId),
  };
}
