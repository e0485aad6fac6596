import { Prisma } from "@/generated/prisma/client";
import { hashApiKey, isWellFormedApiKey } from "@/server/api-keys/secret";
import { type AuthenticatedKey, type TApiKeyScope } from "@/server/access/principals";
import { recordKeyUse } from "@/server/api-keys/service";
import type { Db } from "@/server/db";
import { hotQuery } from "@/server/platform/hot-sql";
import { LIMITS } from "@/server/rate-limits/limits";
import { countSql, decisionFor, type LimitDecision, windowOf } from "@/server/rate-limits/service";

export interface Admission {
  /** The active key the request presents; null when it is missing, malformed, unknown or revoked (they look the same). */
  key: AuthenticatedKey | null;
  decision: LimitDecision;
}

/**
 * The REST door's first statement: finds the key and counts the request against the limit, per key
 * and endpoint, or per client address when no working key is presented. One round trip for both,
 * since it runs on every call; the count is the same atomic upsert as `consume`.
 */
export async function admitRestCall(db: Db, p: { secret: string | null; operationId: string; address: string; now?: Date }): Promise<Admission> {
  const now = p.now ?? new Date();
  const def = LIMITS.restEndpointPerKey;
  const window = windowOf(def, now);
  const hash = p.secret !== null && isWellFormedApiKey(p.secret) ? hashApiKey(p.secret) : null;
  const minuteAgo = new Date(now.getTime() - 60_000).toISOString();
  const bucket = Prisma.sql`COALESCE(${"rest:key:"} || (SELECT id FROM k) || ${`:${p.operationId}`}, ${`rest:addr:${p.address}:${p.operationId}`})`;
  const [row] = await hotQuery<{ count: number; id: string | null; workspaceId: string; name: string; scopes: TApiKeyScope[]; stale: boolean }>(
    db,
    Prisma.sql`
      WITH k AS (
        SELECT id, "workspaceId", name, scopes::text[] AS scopes, ("lastUsedAt" IS NULL OR "lastUsedAt" <= ${minuteAgo}::timestamp) AS stale
          FROM "ApiKey" WHERE hash = ${hash} AND "revokedAt" IS NULL
      ), counted AS (${countSql(bucket, window)})
      SELECT counted.count, k.* FROM counted LEFT JOIN k ON true`,
    "rest-admit",
  );
  if (row.id && row.stale) recordKeyUse(db, row.id, now);
  return {
    key: row.id ? { id: row.id, workspaceId: row.workspaceId, name: row.name, scopes: row.scopes } : null,
    decision: decisionFor(Number(row.count), def, window.end, now),
  };
}
