import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { addTeammate, callerFor, createAudience, createOwnerWorkspace } from "@/test/factories";
import { requestPlanChange } from "./requests";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

async function campaignIn(workspaceId: string, status: "draft" | "paused" = "draft") {
  const { audience } = await createAudience(prisma, workspaceId, { accounts: 1, perAccount: 1 });
  return prisma.campaign.create({
    data: { workspaceId, name: "Spring", format: "postcard", audienceId: audience.id, budgetCents: 10_000, status },
  });
}

describe("a member asks from the browser; an approver, admin or owner decides", () => {
  it("makes a budget card for a member and changes nothing until someone accepts it", async () => {
    const o = await createOwnerWorkspace(prisma);
    const campaign = await campaignIn(o.workspaceId);
    const member = await addTeammate(prisma, o.workspaceId, "member");
    const api = await callerFor(prisma, member);
    const card = await api.confirmation.requestBudget({
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      budgetCents: 25_000,
    });
    expect(card).toMatchObject({ kind: "raise_budget", status: "pending", requestedByLabel: member.email });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).budgetCents).toBe(10_000);

    // The member cannot accept their own request.
    const refused = await api.confirmation
      .decide({ workspaceId: o.workspaceId, cardId: card.id, decision: "accept" })
      .catch((e) => e);
    expect(refused.code).toBe("FORBIDDEN");
    expect(refused.message).toBe(
      "This needs the approver role or higher (owner, admin, approver); you are a member in this workspace.",
    );

    const approver = await addTeammate(prisma, o.workspaceId, "approver");
    await (await callerFor(prisma, approver)).confirmation.decide({
      workspaceId: o.workspaceId,
      cardId: card.id,
      decision: "accept",
    });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).budgetCents).toBe(25_000);
  });

  it("makes a resume card for a member, and the campaign stays paused", async () => {
    const o = await createOwnerWorkspace(prisma);
    const campaign = await campaignIn(o.workspaceId, "paused");
    const member = await addTeammate(prisma, o.workspaceId, "member");
    const card = await (await callerFor(prisma, member)).confirmation.requestResume({
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
    });
    expect(card).toMatchObject({ kind: "resume_campaign", status: "pending" });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("paused");
  });

  it("refuses a viewer's request with 403 naming the role, and writes no card", async () => {
    const o = await createOwnerWorkspace(prisma);
    const campaign = await campaignIn(o.workspaceId);
    const viewer = await addTeammate(prisma, o.workspaceId, "viewer");
    const api = await callerFor(prisma, viewer);
    for (const call of [
      () => api.confirmation.requestGoLive({ workspaceId: o.workspaceId, campaignId: campaign.id }),
      () =>
        api.confirmation.requestBudget({ workspaceId: o.workspaceId, campaignId: campaign.id, budgetCents: 20_000 }),
    ]) {
      const error = await call().catch((e) => e);
      expect(error.code).toBe("FORBIDDEN");
      expect(error.message).toBe(
        "This needs the member role or higher (owner, admin, approver, member); you are a viewer in this workspace.",
      );
    }
    expect(await prisma.confirmationCard.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("leaves a plan change to the owner: an admin or approver cannot accept it", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const { card } = await requestPlanChange(prisma, {
      workspaceId: o.workspaceId,
      plan: "paid",
      requestedBy: { kind: "agent", id: "grt_t", label: "Agent (agent)" },
    });
    for (const role of ["admin", "approver"] as const) {
      const person = await addTeammate(prisma, o.workspaceId, role);
      const error = await (await callerFor(prisma, person)).confirmation
        .decide({ workspaceId: o.workspaceId, cardId: card.id, decision: "accept" })
        .catch((e) => e);
      expect(error.code).toBe("FORBIDDEN");
      expect(error.message).toBe(
        `Only the workspace owner can do this; you are ${role === "admin" ? "an admin" : "an approver"} in this workspace.`,
      );
    }
    expect((await prisma.confirmationCard.findUniqueOrThrow({ where: { id: card.id } })).status).toBe("pending");
    expect((await prisma.workspace.findUniqueOrThrow({ where: { id: o.workspaceId } })).plan).toBe("audit");
  });
});
