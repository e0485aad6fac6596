import { createHash } from "node:crypto";
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { hotQuery } from "@/server/ground/platform/hot-sql";
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

/** The fixed window `now` falls in. */
export function windowOf(def: LimitDefinition, now: Date) {
  const windowMs = def.windowSeconds * 1000;
  const start = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  return { start, end: new Date(start.getTime() + windowMs) };
}

/** What a request that made the window's count `count` may do. */
export function decisionFor(count: number, def: LimitDefinition, windowEnd: Date, now: Date): LimitDecision {
  return {
    allowed: count <= def.limit,
    limit: def.limit,
    remaining: Math.max(0, def.limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowEnd.getTime() - now.getTime()) / 1000)),
    windowSeconds: def.windowSeconds,
    policy: def.policy,
  };
}

/** The atomic count of one request in a bucket's window, as SQL (also part of the REST door's statement). */
export function countSql(bucket: Prisma.Sql | string, window: { start: Date; end: Date }) {
  return Prisma.sql`
    INSERT INTO "RateLimitCounter" ("bucket", "windowStart", "count", "expiresAt")
    VALUES (${bucket}, ${window.start.toISOString()}::timestamp, 1, ${window.end.toISOString()}::timestamp)
    ON CONFLICT ("bucket", "windowStart") DO UPDATE SET "count" = "RateLimitCounter"."count" + 1
    RETURNING "count"`;
}

/**
 * Counts one request in a fixed window. The increment is a single atomic upsert, so N parallel
 * requests get counts 1..N exactly and no more than `limit` are allowed, on any number of app
 * instances sharing the database.
 */
export async function consume(db: Db, bucket: string, def: LimitDefinition, now = new Date()): Promise<LimitDecision> {
  const window = windowOf(def, now);
  const [row] = await hotQuery<{ count: number }>(db, countSql(boundedBucket(bucket), window), "rate-limit-count");
  return decisionFor(Number(row.count), def, window.end, now);
}

/** Longest bucket name stored as it is; a longer one (it holds client input) is stored as its hash, so no key outgrows the index. */
export const MAX_BUCKET_LENGTH = 200;

export function boundedBucket(bucket: string): string {
  return bucket.length <= MAX_BUCKET_LENGTH ? bucket : `sha256:${createHash("sha256").update(bucket).digest("hex")}`;
}

/**
 * Counts one request against several limits (a back-off's windows); the decision is the first
 * one that refuses, or the last when all allow.
 */
export async function consumeAll(
  db: Db,
  bucket: string,
  defs: readonly LimitDefinition[],
  now = new Date(),
): Promise<LimitDecision> {
  let last: LimitDecision | undefined;
  for (const def of defs) {
    last = await consume(db, `${bucket}:${def.windowSeconds}`, def, now);
    if (!last.allowed) return last;
  }
  return last!;
}

/**
 * Gives back what `consumeAll(db, bucket, defs, now)` counted (the same `now`, so the same windows):
 * for limits that count only failures, such as sign-in attempts, a success takes back its count.
 */
export async function releaseAll(db: Db, bucket: string, defs: readonly LimitDefinition[], now: Date): Promise<void> {
  for (const def of defs) {
    const window = windowOf(def, now);
    await db.$executeRaw`
      UPDATE "RateLimitCounter" SET "count" = "count" - 1
       WHERE "bucket" = ${boundedBucket(`${bucket}:${def.windowSeconds}`)} AND "windowStart" = ${window.start.toISOString()}::timestamp AND "count" > 0`;
  }
}

/** Deletes counters of windows that have ended. */
export function pruneExpiredCounters(db: Db, now = new Date()) {
  return db.rateLimitCounter.deleteMany({ where: { expiresAt: { lt: now } } });
}
