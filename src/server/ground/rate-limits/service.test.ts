import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { uniq } from "@/test/factories";
import { boundedBucket, consume, pruneExpiredCounters } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const def = { policy: "test", limit: 60, windowSeconds: 60 };

describe("consume", () => {
  it("admits exactly the limit when 61 requests arrive at once", async () => {
    const bucket = uniq("bucket");
    const now = new Date("2026-11-22T10:00:30Z");
    const decisions = await Promise.all(Array.from({ length: 61 }, () => consume(prisma, bucket, def, now)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    expect(decisions.filter((d) => !d.allowed)).toEqual([expect.objectContaining({ remaining: 0, resetSeconds: 30 })]);
    expect(new Set(decisions.map((d) => d.remaining)).size).toBe(60);
  });

  it("starts a new window after the old one ends, and prunes ended windows", async () => {
    const bucket = uniq("bucket");
    const t0 = new Date("2026-11-22T10:00:59Z");
    for (let i = 0; i < 60; i++) await consume(prisma, bucket, def, t0);
    expect((await consume(prisma, bucket, def, t0)).allowed).toBe(false);
    const next = await consume(prisma, bucket, def, new Date("2026-11-22T10:01:00Z"));
    expect(next).toMatchObject({ allowed: true, remaining: 59, resetSeconds: 60 });
    await pruneExpiredCounters(prisma, new Date("2026-11-22T10:01:30Z"));
    expect(await prisma.rateLimitCounter.count({ where: { bucket } })).toBe(1);
  });

  it("a bucket holding kilobytes of client input is counted under its hash, never overflowing the index", async () => {
    const hostile = `sign-in:${Array.from({ length: 4000 }, () => Math.random().toString(36).slice(2)).join("")}`;
    const now = new Date("2026-11-22T10:00:10Z");
    expect((await consume(prisma, hostile, def, now)).remaining).toBe(59);
    expect((await consume(prisma, hostile, def, now)).remaining).toBe(58);
    expect(await prisma.rateLimitCounter.count({ where: { bucket: boundedBucket(hostile) } })).toBe(1);
    expect(boundedBucket(hostile)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
