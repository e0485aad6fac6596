import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { hashApiKey } from "./secret";
import { createApiKey, listApiKeys, revokeApiKey } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const actorOf = (o: Awaited<ReturnType<typeof createOwnerWorkspace>>) => ({
  kind: "user" as const,
  id: o.user.id,
  label: o.user.email,
});

describe("API keys", () => {
  it("creates a key whose secret is returned once and stored only as a hash", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { key, secret } = await createApiKey(prisma, {
      workspaceId: o.workspaceId,
      name: "CRM",
      scopes: ["post_entry_events", "post_conversions", "post_conversions"],
      actor: actorOf(o),
    });
    expect(secret).toMatch(/^dmk_[0-9A-Za-z]{32}$/);
    expect(key).toMatchObject({
      name: "CRM",
      start: secret.slice(0, 8),
      scopes: ["post_entry_events", "post_conversions"],
      lastUsedAt: null,
      revokedAt: null,
    });
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.hash).toBe(hashApiKey(secret));
    expect(JSON.stringify(row)).not.toContain(secret.slice(8));
    expect(
      await prisma.auditLogEntry.count({
        where: { workspaceId: o.workspaceId, action: "api_key.created", targetId: key.id },
      }),
    ).toBe(1);
  });

  it("lists and revokes only within the workspace: another workspace's key is not found and stays active", async () => {
    const a = await createOwnerWorkspace(prisma);
    const b = await createOwnerWorkspace(prisma);
    const { key: bKey } = await createApiKey(prisma, {
      workspaceId: b.workspaceId,
      name: "B",
      scopes: ["post_conversions"],
      actor: actorOf(b),
    });
    expect(await listApiKeys(prisma, { workspaceId: a.workspaceId })).toEqual([]);
    await expect(
      revokeApiKey(prisma, { workspaceId: a.workspaceId, keyId: bKey.id, actor: actorOf(a) }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: bKey.id } })).revokedAt).toBeNull();
  });

  it("lists active keys first, newest first; revoking twice changes nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const first = await createApiKey(prisma, {
      workspaceId: o.workspaceId,
      name: "first",
      scopes: ["post_conversions"],
      actor: actorOf(o),
    });
    await createApiKey(prisma, {
      workspaceId: o.workspaceId,
      name: "second",
      scopes: ["post_conversions"],
      actor: actorOf(o),
    });
    const revoked = await revokeApiKey(prisma, { workspaceId: o.workspaceId, keyId: first.key.id, actor: actorOf(o) });
    const again = await revokeApiKey(prisma, { workspaceId: o.workspaceId, keyId: first.key.id, actor: actorOf(o) });
    expect(again.revokedAt).toEqual(revoked.revokedAt);
    expect((await listApiKeys(prisma, { workspaceId: o.workspaceId })).map((k) => k.name)).toEqual(["second", "first"]);
  });
});
