import type { PrismaClient } from "@/generated/prisma/client";
import type { DemoSummary } from "@/server/programme/demo/seed";
import { insertKeyPool } from "@/test/api-key-pool";

export type KeyKind = "full" | "entryOnly" | "conversionsOnly";
export type TestKeys = Record<"acme" | "globex", Record<KeyKind, string[]> & { revoked: string }>;

const scopesOf = {
  full: ["post_entry_events", "post_conversions"],
  entryOnly: ["post_entry_events"],
  conversionsOnly: ["post_conversions"],
} as const;
const poolSize: Record<KeyKind, number> = { full: 60, entryOnly: 6, conversionsOnly: 6 };

/**
 * Pools of keys for the end-to-end suites, written into the database under test before the server
 * starts: each test takes keys of its own, so no two tests share a rate-limit window.
 */
export async function createTestKeys(prisma: PrismaClient, demo: DemoSummary): Promise<TestKeys> {
  const out = {} as TestKeys;
  for (const [handle, ws] of Object.entries(demo.workspaces) as [
    "acme" | "globex",
    DemoSummary["workspaces"]["acme"],
  ][]) {
    const pools = {} as Record<KeyKind, string[]>;
    for (const kind of Object.keys(poolSize) as KeyKind[]) {
      pools[kind] = await insertKeyPool(prisma, {
        workspaceId: ws.id,
        count: poolSize[kind],
        scopes: [...scopesOf[kind]],
        namePrefix: `e2e ${kind}`,
      });
    }
    const [revoked] = await insertKeyPool(prisma, {
      workspaceId: ws.id,
      count: 1,
      scopes: [...scopesOf.full],
      namePrefix: "e2e revoked",
      revoked: true,
    });
    out[handle] = { ...pools, revoked };
  }
  return out;
}
