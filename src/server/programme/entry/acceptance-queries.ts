import { type EntryEventSource, Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { hotQuery } from "@/server/ground/platform/hot-sql";
import type { TEntryEventStatus } from "./schema";

/**
 * The hot path of POST /api/v1/campaigns/{id}/events in one round trip: a statement that reads
 * everything the preconditions need and, only when they all hold, inserts the event in a way a
 * concurrent twin cannot duplicate. The service reports which precondition failed. Run with
 * hotQuery: this path runs per request (see docs/benchmarks.md).
 */

type EventRow = { id: string; status: TEntryEventStatus["status"]; fingerprint: string };

export interface AcceptanceOutcome {
  campaignStatus: string;
  acceptsApiEvents: boolean;
  /** The event already stored under the idempotency key, when there was one before this call. */
  existing: EventRow | null;
  contactExists: boolean;
  isMember: boolean;
  /** The event this call stored; null when a precondition failed or a concurrent twin won the key. */
  inserted: { id: string; status: TEntryEventStatus["status"] } | null;
}

export interface AcceptanceParams {
  workspaceId: string;
  campaignId: string;
  contactId: string;
  source: EntryEventSource;
  apiKeyId: string | null;
  idempotencyKey: string;
  fingerprint: string;
  occurredAt: Date;
  now: Date;
}

/** The prepared statement's name: its text never changes, only its values. */
export const ACCEPTANCE_STATEMENT = "entry-accept";

export type AcceptanceRow = {
  status: string;
  acceptsApiEvents: boolean;
  existingId: string | null;
  existingStatus: TEntryEventStatus["status"] | null;
  existingFingerprint: string | null;
  contactId: string | null;
  member: boolean;
  insertedId: string | null;
  insertedStatus: TEntryEventStatus["status"] | null;
};

/**
 * The statement (also run by bench:api's reference, scripts/bench/reference-server.ts): no row
 * when the campaign is not in the workspace.
 */
export function acceptanceSql(p: AcceptanceParams): Prisma.Sql {
  return Prisma.sql`
    WITH ctx AS (
      SELECT c.status::text AS status, c."acceptsApiEvents" AS "acceptsApiEvents",
             e.id AS "existingId", e.status::text AS "existingStatus", e.fingerprint AS "existingFingerprint",
             ct.id AS "contactId", (m."contactId" IS NOT NULL) AS member
        FROM "Campaign" c
        LEFT JOIN "EntryEvent" e ON e."workspaceId" = ${p.workspaceId} AND e."idempotencyKey" = ${p.idempotencyKey}
        LEFT JOIN "Contact" ct ON ct.id = ${p.contactId} AND ct."workspaceId" = ${p.workspaceId}
        LEFT JOIN "AudienceMember" m ON m."audienceId" = c."audienceId" AND m."contactId" = ct.id
       WHERE c.id = ${p.campaignId} AND c."workspaceId" = ${p.workspaceId}
    ), inserted AS (
      INSERT INTO "EntryEvent" ("workspaceId", "campaignId", "contactId", source, "apiKeyId", "idempotencyKey", fingerprint, "occurredAt", "updatedAt")
      SELECT ${p.workspaceId}, ${p.campaignId}, ${p.contactId}, ${p.source}::"EntryEventSource", ${p.apiKeyId}, ${p.idempotencyKey}, ${p.fingerprint},
             ${p.occurredAt.toISOString()}::timestamp, ${p.now.toISOString()}::timestamp
        FROM ctx
       WHERE ctx."existingId" IS NULL AND ctx.status = 'live' AND (ctx."acceptsApiEvents" OR ${p.source} = 'owner') AND ctx.member
      ON CONFLICT ("workspaceId", "idempotencyKey") DO NOTHING
      RETURNING id, status::text AS status
    )
    SELECT ctx.*, inserted.id AS "insertedId", inserted.status AS "insertedStatus" FROM ctx LEFT JOIN inserted ON true`;
}

/** What the statement's row means; null when it gave none (the campaign is not in the workspace). */
export function outcomeOf(row: AcceptanceRow | undefined): AcceptanceOutcome | null {
  if (!row) return null;
  return {
    campaignStatus: row.status,
    acceptsApiEvents: row.acceptsApiEvents,
    existing: row.existingId
      ? { id: row.existingId, status: row.existingStatus!, fingerprint: row.existingFingerprint! }
      : null,
    contactExists: row.contactId !== null,
    isMember: row.member,
    inserted: row.insertedId ? { id: row.insertedId, status: row.insertedStatus! } : null,
  };
}

/** Null when the campaign is not in the workspace. */
export async function acceptOrExplain(db: Db, p: AcceptanceParams): Promise<AcceptanceOutcome | null> {
  const rows = await hotQuery<AcceptanceRow>(db, acceptanceSql(p), ACCEPTANCE_STATEMENT);
  return outcomeOf(rows[0]);
}

/** The event stored under a workspace's idempotency key. */
export async function findByIdempotencyKey(
  db: Db,
  workspaceId: string,
  idempotencyKey: string,
): Promise<EventRow | null> {
  const rows = await hotQuery<EventRow>(
    db,
    Prisma.sql`SELECT id, status::text AS status, fingerprint FROM "EntryEvent" WHERE "workspaceId" = ${workspaceId} AND "idempotencyKey" = ${idempotencyKey}`,
  );
  return rows[0] ?? null;
}
