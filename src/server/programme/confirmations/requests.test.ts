import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { goLive, updateDraft } from "@/server/programme/campaigns/service";
import { requestBudget, requestGoLive, requestResume } from "./requests";
import { decideCard, expireCards } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const agent = { kind: "agent" as const, id: "grt_test", label: "Test agent (agent)" };

async function draft(opts: { ready?: boolean; budgetCents?: number } = {}) {
  const o = await createOwnerWorkspace(prisma);
  const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 5, perAccount: 2 });
  const campaign = await prisma.campaign.create({
    data: {
      workspaceId: o.workspaceId,
      name: "Agent draft",
      format: "postcard",
      audienceId: audience.id,
      entryPolicy: "audience_at_go_live",
      budgetCents: opts.budgetCents ?? 10_000,
      ...(opts.ready === false
        ? {}
        : { destinationUrl: "https://acme.example/x", headline: "Hi {{firstName}}", bodyTemplate: "Hello from us." }),
    },
  });
  return { o, campaign, user: { id: o.user.id, email: o.user.email } };
}

describe("agent requests for consequential actions", () => {
  it("asking to go live creates one card and changes nothing; asking again returns the same card", async () => {
    const { o, campaign } = await draft();
    const first = await requestGoLive(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      requestedBy: agent,
    });
    expect(first).toMatchObject({
      created: true,
      card: {
        kind: "go_live",
        status: "pending",
        campaignId: campaign.id,
        recipients: 8,
        requestedByKind: "agent",
        requestedByLabel: "Test agent (agent)",
      },
    });
    expect(first.card.summary).toContain(
      "Going live approves its copy and lets it spend up to its budget of 100.00 USD without another card",
    );
    expect(first.card.params).toMatchObject({
      warnings: ["There is no approved printer contract for this campaign: nothing will be printed until it has one."],
      // The copy it approves, filled for a sample recipient of the audience.
      sample: {
        recipient: expect.stringMatching(/^First\d\d Tester$/),
        headline: expect.stringMatching(/^Hi First\d\d$/),
        body: "Hello from us.",
      },
    });
    const again = await requestGoLive(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      requestedBy: agent,
    });
    expect(again).toMatchObject({ created: false, card: { id: first.card.id } });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("draft");
    expect(
      await prisma.auditLogEntry.count({
        where: { workspaceId: o.workspaceId, action: "card.go_live.requested", actorKind: "agent" },
      }),
    ).toBe(1);
  });

  it("editing the draft after the request expires its card: the person approves only what will run", async () => {
    const { o, campaign, user } = await draft();
    const { card } = await requestGoLive(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      requestedBy: agent,
    });
    await updateDraft(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      input: { budgetCents: 1_000_000 },
      actor: agent,
    });
    expect((await prisma.confirmationCard.findUniqueOrThrow({ where: { id: card.id } })).status).toBe("expired");
    await expect(
      decideCard(prisma, { workspaceId: o.workspaceId, cardId: card.id, decision: "accept", user }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("draft");
    const fresh = await requestGoLive(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      requestedBy: agent,
    });
    expect(fresh).toMatchObject({ created: true, card: { budgetAfterCents: 1_000_000 } });
  });

  it("a newer budget request replaces the older one; a budget the owner already raised is never lowered by a card", async () => {
    const { o, campaign, user } = await draft({ budgetCents: 10_000 });
    const small = await requestBudget(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      budgetCents: 20_000,
      requestedBy: agent,
    });
    const large = await requestBudget(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      budgetCents: 30_000,
      requestedBy: agent,
    });
    expect(large.card.summary).toContain("It replaces the earlier request for 200.00 USD.");
    expect((await prisma.confirmationCard.findUniqueOrThrow({ where: { id: small.card.id } })).status).toBe("expired");
    expect(
      await prisma.confirmationCard.count({
        where: { campaignId: campaign.id, kind: "raise_budget", status: "pending" },
      }),
    ).toBe(1);
    await expect(
      decideCard(prisma, { workspaceId: o.workspaceId, cardId: small.card.id, decision: "accept", user }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    // The owner raised the budget past the card meanwhile: accepting the card changes nothing.
    await prisma.campaign.update({ where: { id: campaign.id }, data: { budgetCents: 40_000 } });
    const late = await decideCard(prisma, {
      workspaceId: o.workspaceId,
      cardId: large.card.id,
      decision: "accept",
      user,
    });
    expect(late).toMatchObject({
      status: "accepted",
      executedAt: null,
      executionError: expect.stringContaining("nothing changed"),
    });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).budgetCents).toBe(40_000);
  });

  it("identical requests at the same moment make one card", async () => {
    const { o, campaign } = await draft();
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        requestGoLive(prisma, { workspaceId: o.workspaceId, campaignId: campaign.id, requestedBy: agent }),
      ),
    );
    expect(new Set(outcomes.map((r) => r.card.id)).size).toBe(1);
    expect(outcomes.filter((r) => r.created)).toHaveLength(1);
    expect(await prisma.confirmationCard.count({ where: { workspaceId: o.workspaceId, kind: "go_live" } })).toBe(1);
    const budgets = await Promise.all(
      Array.from({ length: 8 }, () =>
        requestBudget(prisma, {
          workspaceId: o.workspaceId,
          campaignId: campaign.id,
          budgetCents: 50_000,
          requestedBy: agent,
        }),
      ),
    );
    expect(new Set(budgets.map((r) => r.card.id)).size).toBe(1);
    expect(
      await prisma.confirmationCard.count({
        where: { workspaceId: o.workspaceId, kind: "raise_budget", status: "pending" },
      }),
    ).toBe(1);
  });

  it("on the free audit plan going live is refused before any card (plan_does_not_mail), at every door, and nobody enters", async () => {
    const { o, campaign, user } = await draft();
    // A card made while the plan was paid, accepted after the workspace went back to the audit plan.
    const earlier = await requestGoLive(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      requestedBy: agent,
    });
    await prisma.workspace.update({ where: { id: o.workspaceId }, data: { plan: "audit" } });
    await expect(
      requestGoLive(prisma, { workspaceId: o.workspaceId, campaignId: campaign.id, requestedBy: agent }),
    ).rejects.toMatchObject({
      code: "plan_does_not_mail",
      message: expect.stringContaining("free audit plan"),
      nextStep: expect.stringContaining("plans_request_change"),
    });
    const owner = { kind: "user" as const, id: user.id, label: user.email };
    await expect(
      goLive(prisma, { workspaceId: o.workspaceId, campaignId: campaign.id, actor: owner }),
    ).rejects.toMatchObject({
      code: "plan_does_not_mail",
      message: expect.stringContaining("Choose the paid plan in Settings → Plan"),
    });
    expect(
      await decideCard(prisma, { workspaceId: o.workspaceId, cardId: earlier.card.id, decision: "accept", user }),
    ).toMatchObject({ executionError: expect.stringContaining("free audit plan") });
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      status: "draft",
      wentLiveAt: null,
    });
    expect(await prisma.entryEvent.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect(await prisma.holdoutAssignment.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect(await prisma.confirmationCard.count({ where: { workspaceId: o.workspaceId, kind: "go_live" } })).toBe(1);
    await expect(
      requestBudget(prisma, {
        workspaceId: o.workspaceId,
        campaignId: campaign.id,
        budgetCents: 50_000,
        requestedBy: agent,
      }),
    ).rejects.toMatchObject({
      code: "plan_does_not_mail",
      nextStep: expect.stringContaining("plans_request_change"),
    });
    expect(await prisma.confirmationCard.count({ where: { workspaceId: o.workspaceId, kind: "raise_budget" } })).toBe(
      0,
    );
  });

  it("the go-live card warns when the budget cannot pay for one piece: none at all, or less than the printer's price", async () => {
    for (const [budgetCents, warning] of [
      [0, "The budget is 0 USD: no piece can be paid for until it is raised."],
      [
        50,
        "The budget of 0.50 USD is less than one piece costs (0.95 USD): no piece can be paid for until it is raised.",
      ],
    ] as const) {
      const { o, campaign } = await draft({ budgetCents });
      const contract = await prisma.fulfilmentContract.create({
        data: {
          workspaceId: o.workspaceId,
          name: "Sandbox postcards",
          format: "postcard",
          size: "6x9",
          unitCostCents: 95,
          status: "approved",
        },
      });
      await prisma.campaign.update({ where: { id: campaign.id }, data: { fulfilmentContractId: contract.id } });
      const { card } = await requestGoLive(prisma, {
        workspaceId: o.workspaceId,
        campaignId: campaign.id,
        requestedBy: agent,
      });
      expect((card.params as { warnings: string[] }).warnings).toEqual([warning]);
      expect(card.summary).toContain(warning);
    }
  });

  it("resuming a paused campaign waits for a card; accepting it resumes the campaign", async () => {
    const { o, campaign, user } = await draft();
    await expect(
      requestResume(prisma, { workspaceId: o.workspaceId, campaignId: campaign.id, requestedBy: agent }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    await prisma.campaign.update({ where: { id: campaign.id }, data: { status: "paused" } });
    const { card } = await requestResume(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      requestedBy: agent,
    });
    expect(card).toMatchObject({ kind: "resume_campaign", campaignId: campaign.id, status: "pending" });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("paused");
    await decideCard(prisma, { workspaceId: o.workspaceId, cardId: card.id, decision: "accept", user });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("live");
    expect(
      await prisma.auditLogEntry.count({
        where: { workspaceId: o.workspaceId, action: "campaign.resumed", actorId: user.id },
      }),
    ).toBe(1);
  });

  it("refuses a draft that is not ready, with what is missing, and writes no card", async () => {
    const { o, campaign } = await draft({ ready: false });
    await expect(
      requestGoLive(prisma, { workspaceId: o.workspaceId, campaignId: campaign.id, requestedBy: agent }),
    ).rejects.toMatchObject({ code: "invalid_state", message: expect.stringContaining("destination URL") });
    expect(await prisma.confirmationCard.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("accepting runs the action once, as the person who accepted; a second decision is refused", async () => {
    const { o, campaign, user } = await draft();
    const { card } = await requestGoLive(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      requestedBy: agent,
    });
    const decided = await decideCard(prisma, { workspaceId: o.workspaceId, cardId: card.id, decision: "accept", user });
    expect(decided).toMatchObject({ status: "accepted", executionError: null, executedAt: expect.any(Date) });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("live");
    await expect(
      decideCard(prisma, { workspaceId: o.workspaceId, cardId: card.id, decision: "accept", user }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    expect(
      await prisma.auditLogEntry.count({
        where: { workspaceId: o.workspaceId, action: "campaign.went_live", actorId: user.id },
      }),
    ).toBe(1);
    expect(
      await prisma.auditLogEntry.count({
        where: { workspaceId: o.workspaceId, action: "card.go_live.accepted", actorId: user.id },
      }),
    ).toBe(1);
  });

  it("a budget raise waits for the card; declining leaves the budget; accepting sets it", async () => {
    const { o, campaign, user } = await draft({ budgetCents: 10_000 });
    await expect(
      requestBudget(prisma, {
        workspaceId: o.workspaceId,
        campaignId: campaign.id,
        budgetCents: 5_000,
        requestedBy: agent,
      }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    const declined = await requestBudget(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      budgetCents: 20_000,
      requestedBy: agent,
    });
    expect(declined.card).toMatchObject({ costCents: 10_000, budgetAfterCents: 20_000 });
    await decideCard(prisma, { workspaceId: o.workspaceId, cardId: declined.card.id, decision: "decline", user });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).budgetCents).toBe(10_000);
    const accepted = await requestBudget(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      budgetCents: 20_000,
      requestedBy: agent,
    });
    expect(accepted.created).toBe(true);
    await decideCard(prisma, { workspaceId: o.workspaceId, cardId: accepted.card.id, decision: "accept", user });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).budgetCents).toBe(20_000);
  });

  it("an expired card cannot be accepted and its action never runs", async () => {
    const { o, campaign, user } = await draft();
    const { card } = await requestGoLive(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      requestedBy: agent,
    });
    await expect(
      decideCard(prisma, {
        workspaceId: o.workspaceId,
        cardId: card.id,
        decision: "accept",
        user,
        now: new Date(card.expiresAt.getTime() + 1),
      }),
    ).rejects.toMatchObject({
      code: "invalid_state",
      message: expect.stringContaining("expired"),
    });
    await expireCards(prisma, new Date(card.expiresAt.getTime() + 1));
    expect((await prisma.confirmationCard.findUniqueOrThrow({ where: { id: card.id } })).status).toBe("expired");
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("draft");
  });

  it("another workspace's campaign is not found, and no card is written", async () => {
    const { campaign } = await draft();
    const other = await createOwnerWorkspace(prisma);
    await expect(
      requestGoLive(prisma, { workspaceId: other.workspaceId, campaignId: campaign.id, requestedBy: agent }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await prisma.confirmationCard.count({ where: { workspaceId: other.workspaceId } })).toBe(0);
  });
});
