import type { Db } from "@/server/db";
import type { LimitDefinition } from "./limits";

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  windowSeconds: number;
  policy: string;
}

/**
 * Counts one request in a fixed window. The increment is a single atomic upsert, so N parallel
 * requests get counts 1..N exactly and no more than `limit` are allowed, on any number of app
 * instances sharing the database.
 */
export async function consume(db: Db, bucket: string, def: LimitDefinition, now = new Date()): Promise<LimitDecision> {
  const windowMs = def.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const expiresAt = new Date(windowStart.getTime() + windowMs);
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO "RateLimitCounter" ("bucket", "windowStart", "count", "expiresAt")
    VALUES (${bucket}, ${windowStart}, 1, ${expiresAt})
    ON CONFLICT ("bucket", "windowStart") DO UPDATE SET "count" = "RateLimitCounter"."count" + 1
    RETURNING "count"`;
  const count = Number(rows[0].count);
  return {
    allowed: count <= def.limit,
    limit: def.limit,
    remaining: Math.max(0, def.limit - count),
    resetSeconds: Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / 1000)),
    windowSeconds: def.windowSeconds,
    policy: def.policy,
  };
}

/** Deletes counters of windows that have ended. */
export function pruneExpiredCounters(db: Db, now = new Date()) {
  return db.rateLimitCounter.deleteMany({ where: { expiresAt: { lt: now } } });
}
