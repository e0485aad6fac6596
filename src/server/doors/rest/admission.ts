import { Prisma } from "@/generated/prisma/client";
import { hashApiKey, isWellFormedApiKey } from "@/server/records/api-keys/secret";
import type { AuthenticatedKey, TApiKeyScope } from "@/server/ground/access/principals";
import type { Db } from "@/server/ground/db";
import { hotQuery } from "@/server/ground/platform/hot-sql";
import { LIMITS } from "@/server/ground/rate-limits/limits";
import { countSql, decisionFor, type LimitDecision, windowOf } from "@/server/ground/rate-limits/service";

export interface Admission {
  /** The active key the request presents; null when it is missing, malformed, unknown or revoked (they look the same). */
  key: AuthenticatedKey | null;
  decision: LimitDecision;
}

/** The prepared statement's name: its text never changes, only its values. */
export const ADMISSION_STATEMENT = "rest-admit";

export type AdmissionRow = {
  count: number;
  id: string | null;
  workspaceId: string;
  name: string;
  scopes: TApiKeyScope[];
};

/** The hash to look a presented secret up by; null for none or a malformed one (it matches no key). */
export function secretHash(secret: string | null): string | null {
  return secret !== null && isWellFormedApiKey(secret) ? hashApiKey(secret) : null;
}

/**
 * The REST door's first statement (also run by bench:api's reference, scripts/bench/reference-server.ts):
 * finds the active key by `hash`, counts the request against the limit per key and endpoint (per
 * client address when no working key is presented), and records the key's use (Settings shows
 * it) at most once a minute. The count is the same atomic upsert as `consume`. The use is written
 * only when the stored one is a minute old: a concurrent call waits for that row and then finds
 * it fresh, so two never both write.
 */
export function admissionSql(p: { hash: string | null; operationId: string; address: string; now: Date }): Prisma.Sql {
  const window = windowOf(LIMITS.restEndpointPerKey, p.now);
  const minuteAgo = new Date(p.now.getTime() - 60_000).toISOString();
  const bucket = Prisma.sql`COALESCE(${"rest:key:"} || (SELECT id FROM k) || ${`:${p.operationId}`}, ${`rest:addr:${p.address}:${p.operationId}`})`;
  return Prisma.sql`
      WITH k AS (
        SELECT id, "workspaceId", name, scopes::text[] AS scopes FROM "ApiKey" WHERE hash = ${p.hash} AND "revokedAt" IS NULL
      ), counted AS (${countSql(bucket, window)}
      ), used AS (
        UPDATE "ApiKey" SET "lastUsedAt" = ${p.now.toISOString()}::timestamp
         WHERE id = (SELECT id FROM k) AND ("lastUsedAt" IS NULL OR "lastUsedAt" <= ${minuteAgo}::timestamp)
      )
      SELECT counted.count, k.* FROM counted LEFT JOIN k ON true`;
}

/**
 * Admits a call at the REST door: the key and the rate-limit decision, in one round trip
 * (`admissionSql`), since it runs on every call.
 */
export async function admitRestCall(
  db: Db,
  p: { secret: string | null; operationId: string; address: string; now?: Date },
): Promise<Admission> {
  const now = p.now ?? new Date();
  const [row] = await hotQuery<AdmissionRow>(
    db,
    admissionSql({ hash: secretHash(p.secret), operationId: p.operationId, address: p.address, now }),
    ADMISSION_STATEMENT,
  );
  return admissionOf(row, now);
}

/** What the admission statement's row means. */
export function admissionOf(row: AdmissionRow, now: Date): Admission {
  const def = LIMITS.restEndpointPerKey;
  return {
    key: row.id ? { id: row.id, workspaceId: row.workspaceId, name: row.name, scopes: row.scopes } : null,
    decision: decisionFor(Number(row.count), def, windowOf(def, now).end, now),
  };
}
