import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { hashApiKey } from "./secret";
import { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const actorOf = (o: Awaited<ReturnType<typeof createOwnerWorkspace>>) => ({ kind: "user" as const, id: o.user.id, label: o.user.email });

describe("API keys", () => {
  it("creates a key whose secret is returned once and stored only as a hash", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { key, secret } = await createApiKey(prisma, { workspaceId: o.workspaceId, name: "CRM", scopes: ["post_entry_events", "post_conversions", "post_conversions"], actor: actorOf(o) });
    expect(secret).toMatch(/^dmk_[0-9A-Za-z]{32}$/);
    expect(key).toMatchObject({ name: "CRM", start: secret.slice(0, 8), scopes: ["post_entry_events", "post_conversions"], lastUsedAt: null, revokedAt: null });
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.hash).toBe(hashApiKey(secret));
    expect(JSON.stringify(row)).not.toContain(secret.slice(8));
    expect(await prisma.auditLogEntry.count({ where: { workspaceId: o.workspaceId, action: "api_key.created", targetId: key.id } })).toBe(1);
  });

  it("authenticates an active key, writes lastUsedAt at most once a minute, and refuses revoked, unknown and malformed keys", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { key, secret } = await createApiKey(prisma, { workspaceId: o.workspaceId, name: "CRM", scopes: ["post_entry_events"], actor: actorOf(o) });
    const t0 = new Date("2026-11-22T10:00:00Z");
    const lastUsed = () => prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } }).then((k) => k.lastUsedAt);
    expect(await authenticateApiKey(prisma, secret, t0)).toEqual({ id: key.id, workspaceId: o.workspaceId, name: "CRM", scopes: ["post_entry_events"] });
    await expect.poll(lastUsed).toEqual(t0);
    await authenticateApiKey(prisma, secret, new Date(t0.getTime() + 30_000));
    await new Promise((r) => setTimeout(r, 100));
    expect(await lastUsed()).toEqual(t0);
    await authenticateApiKey(prisma, secret, new Date(t0.getTime() + 61_000));
    await expect.poll(lastUsed).toEqual(new Date(t0.getTime() + 61_000));

    await revokeApiKey(prisma, { workspaceId: o.workspaceId, keyId: key.id, actor: actorOf(o) });
    expect(await authenticateApiKey(prisma, secret)).toBeNull();
    expect(await authenticateApiKey(prisma, `dmk_${"Z".repeat(32)}`)).toBeNull();
    expect(await authenticateApiKey(prisma, "dmk_short")).toBeNull();
  });

  it("lists and revokes only within the workspace: another workspace's key is not found and stays active", async () => {
    const a = await createOwnerWorkspace(prisma);
    const b = await createOwnerWorkspace(prisma);
    const { key: bKey, secret } = await createApiKey(prisma, { workspaceId: b.workspaceId, name: "B", scopes: ["post_conversions"], actor: actorOf(b) });
    expect(await listApiKeys(prisma, { workspaceId: a.workspaceId })).toEqual([]);
    await expect(revokeApiKey(prisma, { workspaceId: a.workspaceId, keyId: bKey.id, actor: actorOf(a) })).rejects.toMatchObject({ code: "not_found" });
    expect(await authenticateApiKey(prisma, secret)).not.toBeNull();
  });

  it("lists active keys first, newest first; revoking twice changes nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const first = await createApiKey(prisma, { workspaceId: o.workspaceId, name: "first", scopes: ["post_conversions"], actor: actorOf(o) });
    await createApiKey(prisma, { workspaceId: o.workspaceId, name: "second", scopes: ["post_conversions"], actor: actorOf(o) });
    const revoked = await revokeApiKey(prisma, { workspaceId: o.workspaceId, keyId: first.key.id, actor: actorOf(o) });
    const again = await revokeApiKey(prisma, { workspaceId: o.workspaceId, keyId: first.key.id, actor: actorOf(o) });
    expect(again.revokedAt).toEqual(revoked.revokedAt);
    expect((await listApiKeys(prisma, { workspaceId: o.workspaceId })).map((k) => k.name)).toEqual(["second", "first"]);
  });
});
