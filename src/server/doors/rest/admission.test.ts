import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { createApiKey, revokeApiKey } from "@/server/records/api-keys/service";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace, uniq } from "@/test/factories";
import { admitRestCall } from "./admission";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

async function ownerWithKey() {
  const o = await createOwnerWorkspace(prisma);
  const actor = { kind: "user" as const, id: o.user.id, label: o.user.email };
  const created = await createApiKey(prisma, {
    workspaceId: o.workspaceId,
    name: "CRM",
    scopes: ["post_entry_events"],
    actor,
  });
  return { ...o, actor, ...created };
}

describe("admitRestCall", () => {
  it("finds an active key, writes lastUsedAt at most once a minute, and refuses revoked, unknown and malformed keys", async () => {
    const o = await ownerWithKey();
    const admit = (secret: string, now?: Date) =>
      admitRestCall(prisma, { secret, operationId: uniq("op"), address: "192.0.2.1", now });
    const t0 = new Date("2026-11-22T10:00:00Z");
    const lastUsed = () => prisma.apiKey.findUniqueOrThrow({ where: { id: o.key.id } }).then((k) => k.lastUsedAt);
    expect((await admit(o.secret, t0)).key).toEqual({
      id: o.key.id,
      workspaceId: o.workspaceId,
      name: "CRM",
      scopes: ["post_entry_events"],
    });
    await expect.poll(lastUsed).toEqual(t0);
    await admit(o.secret, new Date(t0.getTime() + 30_000));
    await new Promise((r) => setTimeout(r, 100));
    expect(await lastUsed()).toEqual(t0);
    await admit(o.secret, new Date(t0.getTime() + 61_000));
    await expect.poll(lastUsed).toEqual(new Date(t0.getTime() + 61_000));

    await revokeApiKey(prisma, { workspaceId: o.workspaceId, keyId: o.key.id, actor: o.actor });
    expect((await admit(o.secret)).key).toBeNull();
    expect((await admit(`dmk_${"Z".repeat(32)}`)).key).toBeNull();
    expect((await admit("dmk_short")).key).toBeNull();
  });

  it("counts per key and endpoint: of 61 parallel calls exactly 60 are allowed, and another endpoint has its own count", async () => {
    const o = await ownerWithKey();
    const operationId = uniq("op");
    const now = new Date("2026-11-22T10:00:30Z");
    const admissions = await Promise.all(
      Array.from({ length: 61 }, () =>
        admitRestCall(prisma, { secret: o.secret, operationId, address: uniq("addr"), now }),
      ),
    );
    expect(admissions.filter((a) => a.decision.allowed)).toHaveLength(60);
    expect(new Set(admissions.map((a) => a.decision.remaining)).size).toBe(60);
    expect(admissions.find((a) => !a.decision.allowed)!.decision).toMatchObject({
      limit: 60,
      remaining: 0,
      resetSeconds: 30,
    });
    const other = await admitRestCall(prisma, { secret: o.secret, operationId: uniq("op"), address: "192.0.2.1", now });
    expect(other.decision).toMatchObject({ allowed: true, remaining: 59 });
    expect(await prisma.rateLimitCounter.count({ where: { bucket: `rest:key:${o.key.id}:${operationId}` } })).toBe(1);
  });

  it("counts calls without a working key per client address and endpoint, whatever key they present", async () => {
    const operationId = uniq("op");
    const address = uniq("addr");
    const calls = [null, "dmk_short", `dmk_${"Z".repeat(32)}`].map((secret) =>
      admitRestCall(prisma, { secret, operationId, address }),
    );
    const admissions = await Promise.all(calls);
    expect(admissions.map((a) => a.key)).toEqual([null, null, null]);
    expect(admissions.map((a) => a.decision.remaining).sort()).toEqual([57, 58, 59]);
    const counter = await prisma.rateLimitCounter.findFirstOrThrow({
      where: { bucket: `rest:addr:${address}:${operationId}` },
    });
    expect(counter.count).toBe(3);
  });
});
