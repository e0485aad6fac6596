import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";

/** What a CRM record becomes here (a Salesforce Lead: the contact it is). */
export type TLinkType = "contact" | "account" | "lead";

export interface LinkScope {
  workspaceId: string;
  connectionId: string;
}

const TABLES: Record<TLinkType, Prisma.Sql> = {
  contact: Prisma.raw(`"Contact"`),
  account: Prisma.raw(`"Account"`),
  lead: Prisma.raw(`"Contact"`),
};

/**
 * The contacts or accounts that a connection's records are: by the connection's link, else by the
 * record's id as a crmId (a record synced before links were kept, or a CSV exported from that CRM
 * that named it). Records that are neither are left out of the map.
 */
export async function linkedIds(
  tx: Db,
  s: LinkScope,
  type: TLinkType,
  externalIds: string[],
): Promise<Map<string, string>> {
  const ids = [...new Set(externalIds)];
  if (!ids.length) return new Map();
  const table = TABLES[type];
  const rows = await tx.$queryRaw<{ externalId: string; localId: string }[]>`
    SELECT x.e AS "externalId", COALESCE(linked.id, named.id) AS "localId"
      FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) AS x(e)
      LEFT JOIN "CrmRecordLink" l ON l."connectionId" = ${s.connectionId} AND l."objectType" = ${type} AND l."externalId" = x.e
      LEFT JOIN ${table} linked ON linked.id = l."localId" AND linked."workspaceId" = ${s.workspaceId}
      LEFT JOIN ${table} named ON linked.id IS NULL AND named."workspaceId" = ${s.workspaceId} AND named."crmId" = x.e
     WHERE COALESCE(linked.id, named.id) IS NOT NULL`;
  return new Map(rows.map((r) => [r.externalId, r.localId]));
}

/** Of `localIds`, those a record of this connection is already linked to. */
export async function linkedHere(tx: Db, s: LinkScope, type: TLinkType, localIds: string[]): Promise<Set<string>> {
  if (!localIds.length) return new Set();
  const rows = await tx.$queryRaw<{ localId: string }[]>`
    SELECT DISTINCT "localId" FROM "CrmRecordLink"
     WHERE "connectionId" = ${s.connectionId} AND "objectType" = ${type}
       AND "localId" = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(localIds)}::jsonb)))`;
  return new Set(rows.map((r) => r.localId));
}

/** Records each record of the connection as the contact or account it was written to (the last write wins). */
export async function writeLinks(
  tx: Db,
  s: LinkScope,
  type: TLinkType,
  links: { externalId: string; localId: string }[],
): Promise<void> {
  const unique = [...new Map(links.map((l) => [l.externalId, l])).values()];
  if (!unique.length) return;
  await tx.$executeRaw`
    INSERT INTO "CrmRecordLink" ("connectionId", "objectType", "externalId", "workspaceId", "localId", "updatedAt")
    SELECT ${s.connectionId}, ${type}, v."externalId", ${s.workspaceId}, v."localId", now()
      FROM jsonb_to_recordset(${JSON.stringify(unique)}::jsonb) AS v("externalId" text, "localId" text)
    ON CONFLICT ("connectionId", "objectType", "externalId")
    DO UPDATE SET "localId" = EXCLUDED."localId", "updatedAt" = now()
     WHERE "CrmRecordLink"."localId" IS DISTINCT FROM EXCLUDED."localId"`;
}

/** Forgets a connection's links (its credentials now name another CRM account, whose records are others). */
export async function forgetLinks(tx: Db, connectionId: string): Promise<void> {
  await tx.crmRecordLink.deleteMany({ where: { connectionId } });
}
