import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { createDesign } from "@/server/programme/designs/service";
import { ZDesignCreate } from "@/server/programme/designs/schema";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { loadRenderContext } from "./render";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("loadRenderContext", () => {
  it("reads the brand, plan, design and printer inside a transaction, one query at a time (the test database refuses two at once)", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    await prisma.brandKit.create({ data: { workspaceId: o.workspaceId, companyName: "Quiet Co" } });
    const design = await createDesign(prisma, {
      workspaceId: o.workspaceId,
      actor: { kind: "user", id: null, label: "owner" },
      input: ZDesignCreate.parse({ name: "Autumn", format: "postcard", size: "6x9", layout: "bold" }),
    });
    const campaign = await prisma.campaign.create({
      data: {
        workspaceId: o.workspaceId,
        name: "Autumn",
        format: "postcard",
        designId: design.id,
        headline: "Hi",
        bodyTemplate: "Hello",
        signOff: "Sam",
      },
    });

    const ctx = await prisma.$transaction((tx) => loadRenderContext(tx, { workspaceId: o.workspaceId, campaign }));
    expect(ctx.brand.companyName).toBe("Quiet Co");
    expect(ctx.design).toMatchObject({ format: "postcard", size: "6x9", layout: "bold" });
    // The audit plan renders specimens; without a contract the sandbox's address block is printed by us.
    expect(ctx.specimen).toBe(true);
    expect(ctx.addressPrintedBy).toBeNull();
  });
});
