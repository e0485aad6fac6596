import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { requestPlanChange } from "@/server/programme/confirmations/requests";
import { decideCard } from "@/server/programme/confirmations/service";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { changePlan, getPlanOverview, STRIPE_SUBSCRIPTION_NOT_ENDED_HERE } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const person = (o: { user: { id: string; email: string } }) => ({
  kind: "user" as const,
  id: o.user.id,
  label: o.user.email,
});
const agent = { kind: "agent" as const, id: "grt_test", label: "Test agent (agent)" };

describe("plans", () => {
  it("choosing the paid plan starts a sandbox subscription and turns mailing on; choosing it again is refused and writes nothing", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    expect(await getPlanOverview(prisma, { workspaceId: o.workspaceId })).toMatchObject({
      plan: "audit",
      mailingEnabled: false,
      subscription: null,
      billing: { provider: "sandbox", chargesMoney: false },
    });
    expect(await changePlan(prisma, { workspaceId: o.workspaceId, plan: "paid", actor: person(o) })).toEqual({
      plan: "paid",
      from: "audit",
    });
    const overview = await getPlanOverview(prisma, { workspaceId: o.workspaceId });
    expect(overview).toMatchObject({
      plan: "paid",
      mailingEnabled: true,
      subscription: { provider: "sandbox", monthlyPriceCents: 49_900 },
    });
    expect(overview.subscription!.providerRef).toMatch(/^sbx_sub_[0-9a-f]{16}$/);
    await expect(
      changePlan(prisma, { workspaceId: o.workspaceId, plan: "paid", actor: person(o) }),
    ).rejects.toMatchObject({ code: "invalid_state", message: "The workspace is already on the paid plan." });
    expect(await prisma.billingSubscription.count({ where: { workspaceId: o.workspaceId } })).toBe(1);
    const log = await prisma.auditLogEntry.findMany({ where: { workspaceId: o.workspaceId, action: "plan.changed" } });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      actorKind: "user",
      actorId: o.user.id,
      data: { from: "audit", to: "paid", billing: "sandbox" },
    });
  });

  it("going back to the audit plan stops new mail at once; a piece the printer already has is still mailed", async () => {
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1, campaign: { reviewGate: "each_piece" } });
    const clock = testClock();
    const waiting = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, waiting.eventId)).toMatchObject({
      status: "waiting",
      enrollment: { mailPiece: { status: "pending_review" } },
    });
    // A second piece that the vendor printed but has not posted yet.
    const printed = await postEvent(prisma, f, f.contacts[1].id);
    const card = await prisma.confirmationCard.findFirstOrThrow({
      where: { workspaceId: f.workspaceId, kind: "approve_piece" },
    });
    await changePlan(prisma, { workspaceId: f.workspaceId, plan: "audit", actor: person(f), now: clock.now() });
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, waiting.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "mailing_disabled",
      enrollment: { status: "cancelled", mailPiece: { status: "cancelled" } },
    });
    expect((await prisma.confirmationCard.findUniqueOrThrow({ where: { id: card.id } })).status).toBe("expired");
    expect(await eventRow(prisma, printed.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "mailing_disabled",
    });

    // The printer has this one: it completes whatever the plan.
    await changePlan(prisma, { workspaceId: f.workspaceId, plan: "paid", actor: person(f) });
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { reviewGate: "none" } });
    const third = await postEvent(prisma, f, f.contacts[1].id);
    clock.advance(60_000);
    let handedOver = false;
    await drain(prisma, clock, f.workspaceId, {
      adapterFor: () => ({
        vendor: "sandbox",
        submit: async () => {
          handedOver = true;
          await changePlan(prisma, { workspaceId: f.workspaceId, plan: "audit", actor: person(f) });
          return { vendorRef: "prt_x", printedAt: clock.now(), mailedAt: clock.now() };
        },
      }),
    });
    expect(handedOver).toBe(true);
    expect(await eventRow(prisma, third.eventId)).toMatchObject({
      status: "completed",
      enrollment: { mailPiece: { status: "mailed" }, reservation: { status: "charged" } },
    });
    const overview = await getPlanOverview(prisma, { workspaceId: f.workspaceId });
    expect(overview).toMatchObject({ plan: "audit", subscription: null, piecesBeforePrinter: 0 });
    expect(await prisma.billingSubscription.count({ where: { workspaceId: f.workspaceId, status: "cancelled" } })).toBe(
      1,
    );
  });

  it("an agent can only ask: one card per request, a newer request replaces an older one, and only acceptance changes the plan", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const first = await requestPlanChange(prisma, { workspaceId: o.workspaceId, plan: "paid", requestedBy: agent });
    expect(first.created).toBe(true);
    expect(first.card).toMatchObject({
      kind: "change_plan",
      status: "pending",
      costCents: 49_900,
      params: { plan: "paid" },
    });
    expect(first.card.summary).toContain("Mailing turns on");
    expect(
      await requestPlanChange(prisma, { workspaceId: o.workspaceId, plan: "paid", requestedBy: agent }),
    ).toMatchObject({ created: false, card: { id: first.card.id } });
    await expect(
      requestPlanChange(prisma, { workspaceId: o.workspaceId, plan: "audit", requestedBy: agent }),
    ).rejects.toMatchObject({
      code: "invalid_state",
      message: "The workspace is already on the free audit plan. Nothing was requested.",
    });
    expect((await prisma.workspace.findUniqueOrThrow({ where: { id: o.workspaceId } })).plan).toBe("audit");

    const decided = await decideCard(prisma, {
      workspaceId: o.workspaceId,
      cardId: first.card.id,
      decision: "accept",
      user: o.user,
    });
    expect(decided).toMatchObject({
      status: "accepted",
      executionError: null,
      result: { plan: "paid", from: "audit" },
    });
    expect((await prisma.workspace.findUniqueOrThrow({ where: { id: o.workspaceId } })).plan).toBe("paid");
    expect(
      await prisma.auditLogEntry.count({
        where: { workspaceId: o.workspaceId, action: "plan.changed", actorId: o.user.id },
      }),
    ).toBe(1);

    const down = await requestPlanChange(prisma, { workspaceId: o.workspaceId, plan: "audit", requestedBy: agent });
    await decideCard(prisma, { workspaceId: o.workspaceId, cardId: down.card.id, decision: "decline", user: o.user });
    expect((await prisma.workspace.findUniqueOrThrow({ where: { id: o.workspaceId } })).plan).toBe("paid");
  });

  it("with Stripe billing turned off on the server, a subscription Stripe bills is not marked cancelled here: refused, nothing changed", async () => {
    // Active, or past due (its card failed; Stripe goes on trying to charge it).
    for (const status of ["active", "past_due"] as const) {
      const o = await createOwnerWorkspace(prisma, { plan: "paid" });
      await prisma.billingSubscription.create({
        data: {
          workspaceId: o.workspaceId,
          provider: "stripe",
          providerRef: `sub_test_${status}`,
          plan: "paid",
          monthlyPriceCents: 49_900,
          startedAt: new Date(),
          status,
        },
      });
      await expect(
        changePlan(prisma, { workspaceId: o.workspaceId, plan: "audit", actor: person(o) }),
      ).rejects.toMatchObject({ code: "invalid_state", message: STRIPE_SUBSCRIPTION_NOT_ENDED_HERE });
      expect(
        await prisma.workspace.findUniqueOrThrow({ where: { id: o.workspaceId }, select: { plan: true } }),
      ).toEqual({ plan: "paid" });
      expect(
        await prisma.billingSubscription.findMany({
          where: { workspaceId: o.workspaceId },
          select: { status: true, cancelledAt: true },
        }),
      ).toEqual([{ status, cancelledAt: null }]);
      expect(await prisma.auditLogEntry.count({ where: { workspaceId: o.workspaceId, action: "plan.changed" } })).toBe(
        0,
      );
    }
  });

  it("counts only this workspace's pieces", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1, campaign: { reviewGate: "each_piece" } });
    await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, testClock(), f.workspaceId);
    const other = await createOwnerWorkspace(prisma, { plan: "paid" });
    expect((await getPlanOverview(prisma, { workspaceId: f.workspaceId })).piecesBeforePrinter).toBe(1);
    expect((await getPlanOverview(prisma, { workspaceId: other.workspaceId })).piecesBeforePrinter).toBe(0);
  });
});
