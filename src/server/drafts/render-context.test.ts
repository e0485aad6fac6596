import { beforeAll, describe, expect, it } from "vitest";
import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { createDesign } from "@/server/designs/service";
import { ZDesignCreate } from "@/server/designs/schema";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { loadRenderContext } from "./render";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/**
 * The transaction `tx` with each model call counted while it runs: the most that ran at once. A
 * transaction has one connection; a second query sent while one runs is what pg deprecates (and
 * pg 9 refuses).
 */
function watchQueries(tx: Prisma.TransactionClient) {
  let running = 0;
  let most = 0;
  const watchModel = (model: object) =>
    new Proxy(model, {
      get(target, op) {
        const call = (target as Record<PropertyKey, unknown>)[op];
        if (typeof call !== "function") return call;
        return (...args: unknown[]) => {
          running++;
          most = Math.max(most, running);
          return Promise.resolve(call.apply(target, args)).finally(() => running--);
        };
      },
    });
  const db = new Proxy(tx, {
    get(target, key) {
      const value = (target as unknown as Record<PropertyKey, unknown>)[key];
      return typeof key === "string" && !key.startsWith("$") && value && typeof value === "object" ? watchModel(value) : value;
    },
  });
  return { db, most: () => most };
}

describe("loadRenderContext", () => {
  it("reads the brand, plan, design and printer one query at a time, so it can run inside a transaction", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    await prisma.brandKit.create({ data: { workspaceId: o.workspaceId, companyName: "Quiet Co" } });
    const design = await createDesign(prisma, { workspaceId: o.workspaceId, actor: { kind: "user", id: null, label: "owner" }, input: ZDesignCreate.parse({ name: "Autumn", format: "postcard", size: "6x9", layout: "bold" }) });
    const campaign = await prisma.campaign.create({ data: { workspaceId: o.workspaceId, name: "Autumn", format: "postcard", designId: design.id, headline: "Hi", bodyTemplate: "Hello", signOff: "Sam" } });

    const { ctx, most } = await prisma.$transaction(async (tx) => {
      const watched = watchQueries(tx);
      const ctx = await loadRenderContext(watched.db, { workspaceId: o.workspaceId, campaign });
      return { ctx, most: watched.most() };
    });
    expect(most).toBe(1);
    expect(ctx.brand.companyName).toBe("Quiet Co");
    expect(ctx.design).toMatchObject({ format: "postcard", size: "6x9", layout: "bold" });
    // The audit plan renders specimens; without a contract the sandbox's address block is printed by us.
    expect(ctx.specimen).toBe(true);
    expect(ctx.addressPrintedBy).toBeNull();
  });
});
