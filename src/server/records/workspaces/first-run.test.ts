import { beforeAll, describe, expect, it } from "vitest";
import { startAudit } from "@/server/programme/mailability/service";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { changePlan } from "@/server/programme/plans/service";
import { firstRunChecklist } from "./first-run";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("the first-run checklist", () => {
  it("starts with nothing done and ticks each step from what the workspace holds, never another workspace's", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const other = await createOwnerWorkspace(prisma, { plan: "paid" });
    await createAudience(prisma, other.workspaceId, { accounts: 1, perAccount: 1 });
    const empty = await firstRunChecklist(prisma, { workspaceId: o.workspaceId });
    expect(empty).toMatchObject({ done: 0, total: 9 });
    expect(empty.steps.map((s) => s.key)).toEqual([
      "contacts",
      "audit",
      "brand",
      "design",
      "drafts",
      "plan",
      "printer",
      "live",
      "apiKey",
    ]);
    expect(empty.steps[0]).toMatchObject({ title: "Bring your people in", path: "contacts/import", done: false });

    const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 2, perAccount: 1 });
    await startAudit(prisma, {
      workspaceId: o.workspaceId,
      audienceId: audience.id,
      actor: { kind: "user", id: o.user.id, label: o.user.email },
    });
    await changePlan(prisma, {
      workspaceId: o.workspaceId,
      plan: "paid",
      actor: { kind: "user", id: o.user.id, label: o.user.email },
    });
    await prisma.fulfilmentContract.create({
      data: {
        workspaceId: o.workspaceId,
        name: "Sandbox",
        format: "postcard",
        size: "6x9",
        unitCostCents: 104,
        status: "approved",
      },
    });
    const later = await firstRunChecklist(prisma, { workspaceId: o.workspaceId });
    expect(later.steps.filter((s) => s.done).map((s) => s.key)).toEqual(["contacts", "audit", "plan", "printer"]);
    expect(later.steps[0].detail).toBe("2 contacts in the workspace.");
    expect(later.steps[1].detail).toBe("1 audit run.");
    expect(later.done).toBe(4);
    // With no campaign, the campaign steps open the form for a first one; once there is one, the list.
    expect(later.steps.find((s) => s.key === "drafts")!.path).toBe("campaigns/new");
    expect(later.steps.find((s) => s.key === "live")!.path).toBe("campaigns/new");
    await prisma.campaign.create({ data: { workspaceId: o.workspaceId, name: "First", format: "postcard" } });
    const withCampaign = await firstRunChecklist(prisma, { workspaceId: o.workspaceId });
    expect(withCampaign.steps.find((s) => s.key === "drafts")!.path).toBe("campaigns");
  });
});
