import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { decideCard, expireCards } from "@/server/programme/confirmations/service";
import { getEntryEventStatus } from "@/server/programme/entry/service";
import { loadPiecePdf } from "@/server/records/pieces/print-file";
import { testDatabase } from "@/test/database";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { MAX_ATTEMPTS } from "./runner";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const DAY = 86_400_000;

describe("the lifecycle, gate by gate", () => {
  it("mails a piece: enrolled, rendered, printed and mailed once, cost charged, event completed", async () => {
    const f = await liveCampaign(prisma);
    const clock = testClock();
    const { eventId } = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);

    const event = await eventRow(prisma, eventId);
    expect(event).toMatchObject({ status: "completed", skipReason: null, lockToken: null, attempts: 0 });
    expect(event.completedAt).toBeInstanceOf(Date);
    const piece = event.enrollment!.mailPiece!;
    expect(event.enrollment).toMatchObject({ arm: "treatment", status: "mailed" });
    expect(piece).toMatchObject({ status: "mailed", costCents: 120, vendor: "sandbox" });
    expect(piece.sid).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(piece.printedAt).toBeInstanceOf(Date);
    expect(piece.mailedAt).toBeInstanceOf(Date);
    expect(piece.copy).toMatchObject({ headline: `${f.contacts[0].firstName}, hello` });
    expect((await PDFDocument.load((await loadPiecePdf(prisma, piece.id))!)).getPageCount()).toBe(2);
    expect(await prisma.sandboxPrintJob.count({ where: { pieceId: piece.id } })).toBe(1);
    expect(event.enrollment!.reservation).toMatchObject({ status: "charged", amountCents: 120 });
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).toMatchObject({
      spentCents: 120,
      reservedCents: 0,
    });

    expect(
      await getEntryEventStatus(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, eventId }),
    ).toEqual({
      eventId,
      status: "completed",
      occurredAt: expect.any(String),
      contactId: f.contacts[0].id,
      contactEmail: f.contacts[0].email,
      contactCrmIds: [],
      enrollmentId: event.enrollment!.id,
      completedAt: event.completedAt!.toISOString(),
    });
  });

  it("skips a contact that left the audience before processing (not_in_audience)", async () => {
    const f = await liveCampaign(prisma);
    const { eventId } = await postEvent(prisma, f, f.contacts[0].id);
    await prisma.audienceMember.delete({
      where: { audienceId_contactId: { audienceId: f.audience.id, contactId: f.contacts[0].id } },
    });
    await drain(prisma, testClock(), f.workspaceId);
    expect(await eventRow(prisma, eventId)).toMatchObject({
      status: "skipped",
      skipReason: "not_in_audience",
      enrollment: null,
    });
  });

  it("skips suppressed contacts, whatever the suppression matches (suppressed)", async () => {
    const f = await liveCampaign(prisma, { accounts: 5, perAccount: 1 });
    const [byContact, byEmail, byAccount, byDomain, byAddress] = f.contacts;
    const account = await prisma.account.findUniqueOrThrow({ where: { id: byDomain.accountId! } });
    await prisma.suppression.createMany({
      data: [
        { workspaceId: f.workspaceId, kind: "contact", value: byContact.id, reason: "opt_out" },
        { workspaceId: f.workspaceId, kind: "email", value: byEmail.email!, reason: "bounced" },
        { workspaceId: f.workspaceId, kind: "account", value: byAccount.accountId!, reason: "customer" },
        { workspaceId: f.workspaceId, kind: "domain", value: account.domain!, reason: "competitor" },
        { workspaceId: f.workspaceId, kind: "address", value: byAddress.addressKey!, reason: "bounced" },
      ],
    });
    const events = await Promise.all(f.contacts.map((c) => postEvent(prisma, f, c.id)));
    await drain(prisma, testClock(), f.workspaceId);
    for (const { eventId } of events)
      expect(await eventRow(prisma, eventId)).toMatchObject({ status: "skipped", skipReason: "suppressed" });
  });

  it("skips addresses that fail review, and the same person at the same address twice (address_invalid, address_duplicate)", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 4 });
    const [noZip, undeliverable, original, twin] = f.contacts;
    await prisma.contact.update({ where: { id: noZip.id }, data: { postalCode: null } });
    await prisma.contact.update({
      where: { id: undeliverable.id },
      data: { addressStatus: "undeliverable", undeliverableReason: "returned to sender" },
    });
    await prisma.contact.update({
      where: { id: twin.id },
      data: { firstName: original.firstName, lastName: original.lastName, addressLine2: original.addressLine2 },
    });
    const clock = testClock();
    const a = await postEvent(prisma, f, noZip.id);
    const b = await postEvent(prisma, f, undeliverable.id);
    const c = await postEvent(prisma, f, original.id);
    await drain(prisma, clock, f.workspaceId);
    // Posted after the first drain, which may take longer than the clock's head start: a clock of its own.
    const d = await postEvent(prisma, f, twin.id);
    await drain(prisma, testClock(), f.workspaceId);
    expect(await eventRow(prisma, a.eventId)).toMatchObject({ status: "skipped", skipReason: "address_invalid" });
    expect(await eventRow(prisma, b.eventId)).toMatchObject({ status: "skipped", skipReason: "address_invalid" });
    expect(await eventRow(prisma, c.eventId)).toMatchObject({ status: "completed" });
    expect(await eventRow(prisma, d.eventId)).toMatchObject({ status: "skipped", skipReason: "address_duplicate" });
  });

  it("records a held-out account's contact in the holdout arm and never mails it (held_out)", async () => {
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1, holdoutAccounts: 1 });
    const held = f.contacts.find((c) => c.accountId === f.accountIds[0])!;
    const { eventId } = await postEvent(prisma, f, held.id);
    await drain(prisma, testClock(), f.workspaceId);
    const event = await eventRow(prisma, eventId);
    expect(event).toMatchObject({ status: "held_out", skipReason: null });
    expect(event.enrollment).toMatchObject({ arm: "holdout", status: "held_out", mailPiece: null, reservation: null });
  });

  it("assigns an account that joined after go-live once, by the campaign's draw, and keeps it", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1, campaign: { holdoutShare: 0.5 } });
    await prisma.holdoutAssignment.deleteMany({ where: { campaignId: f.campaign.id } });
    const { eventId } = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, testClock(), f.workspaceId);
    const assignment = await prisma.holdoutAssignment.findUniqueOrThrow({
      where: { campaignId_accountId: { campaignId: f.campaign.id, accountId: f.accountIds[0] } },
    });
    const event = await eventRow(prisma, eventId);
    expect(event.enrollment!.arm).toBe(assignment.arm);
  });

  it("mails nothing on the free audit plan (mailing_disabled) or without an approved contract (no_fulfilment_contract)", async () => {
    const audit = await liveCampaign(prisma, { plan: "audit" });
    const noContract = await liveCampaign(prisma, { contract: false });
    const a = await postEvent(prisma, audit, audit.contacts[0].id);
    const b = await postEvent(prisma, noContract, noContract.contacts[0].id);
    await drain(prisma, testClock(), audit.workspaceId);
    await drain(prisma, testClock(), noContract.workspaceId);
    expect(await eventRow(prisma, a.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "mailing_disabled",
      enrollment: null,
    });
    expect(await eventRow(prisma, b.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "no_fulfilment_contract",
    });
    expect(
      await prisma.sandboxPrintJob.count({
        where: { workspaceId: { in: [audit.workspaceId, noContract.workspaceId] } },
      }),
    ).toBe(0);
  });

  it("defers a piece to the first date the frequency cap allows, then mails it", async () => {
    const f = await liveCampaign(prisma, {
      accounts: 1,
      perAccount: 2,
      // Re-entry after a day, so the same contact's second entry reaches the cap.
      campaign: { frequencyCapContact: 1, frequencyWindowDays: 30, reentryAfterDays: 1 },
    });
    const clock = testClock();
    const first = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    clock.advance(5 * DAY);
    const second = await postEvent(prisma, f, f.contacts[0].id, clock.now());
    await drain(prisma, clock, f.workspaceId);
    const waiting = await eventRow(prisma, second.eventId);
    expect((await eventRow(prisma, first.eventId)).status).toBe("completed");
    expect(waiting).toMatchObject({ status: "waiting", enrollment: { status: "scheduled", mailPiece: null } });
    const firstMailed = (await eventRow(prisma, first.eventId)).enrollment!.mailPiece!.mailedAt!;
    expect(Math.abs(waiting.enrollment!.scheduledFor!.getTime() - (firstMailed.getTime() + 30 * DAY))).toBeLessThan(
      2000,
    );
    expect(
      await getEntryEventStatus(prisma, {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        eventId: second.eventId,
      }),
    ).toMatchObject({
      status: "waiting",
      enrollmentId: waiting.enrollment!.id,
    });
    clock.advance(26 * DAY);
    await drain(prisma, clock, f.workspaceId);
    expect((await eventRow(prisma, second.eventId)).status).toBe("completed");
  });

  it("skips when the cap allows nothing before the campaign ends (frequency_capped)", async () => {
    const clock = testClock();
    const f = await liveCampaign(prisma, {
      accounts: 1,
      perAccount: 1,
      campaign: {
        frequencyCapContact: 1,
        frequencyWindowDays: 30,
        reentryAfterDays: 1,
        endsAt: new Date(clock.now().getTime() + 10 * DAY),
      },
    });
    const first = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    clock.advance(2 * DAY);
    const second = await postEvent(prisma, f, f.contacts[0].id, clock.now());
    await drain(prisma, clock, f.workspaceId);
    expect((await eventRow(prisma, first.eventId)).status).toBe("completed");
    expect(await eventRow(prisma, second.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "frequency_capped",
      enrollment: null,
    });
  });

  it("applies the account cap across people at one account", async () => {
    const f = await liveCampaign(prisma, {
      accounts: 1,
      perAccount: 2,
      campaign: { frequencyCapAccount: 1, frequencyWindowDays: 14 },
    });
    const a = await postEvent(prisma, f, f.contacts[0].id);
    const b = await postEvent(prisma, f, f.contacts[1].id);
    await drain(prisma, testClock(), f.workspaceId);
    const statuses = [(await eventRow(prisma, a.eventId)).status, (await eventRow(prisma, b.eventId)).status].sort();
    expect(statuses).toEqual(["completed", "waiting"]);
  });
});

describe("the review gate", () => {
  const gated = () => liveCampaign(prisma, { accounts: 3, perAccount: 1, campaign: { reviewGate: "each_piece" } });

  it("waits for a person: accepting the card sends the piece; declining skips it (review_declined)", async () => {
    const f = await gated();
    const clock = testClock();
    const a = await postEvent(prisma, f, f.contacts[0].id);
    const b = await postEvent(prisma, f, f.contacts[1].id);
    await drain(prisma, clock, f.workspaceId);
    for (const e of [a, b]) {
      const row = await eventRow(prisma, e.eventId);
      expect(row).toMatchObject({
        status: "waiting",
        enrollment: { status: "awaiting_review", mailPiece: { status: "pending_review" }, reservation: null },
      });
    }
    const cards = await prisma.confirmationCard.findMany({
      where: { workspaceId: f.workspaceId },
      orderBy: { createdAt: "asc" },
    });
    expect(cards).toHaveLength(2);
    expect(cards[0]).toMatchObject({
      kind: "approve_piece",
      status: "pending",
      costCents: 120,
      recipients: 1,
      requestedByKind: "system",
    });
    const cardFor = async (eventId: string) => {
      const pieceId = (await eventRow(prisma, eventId)).enrollment!.mailPiece!.id;
      return cards.find((c) => c.pieceId === pieceId)!.id;
    };
    const cardForA = await cardFor(a.eventId);
    const cardForB = await cardFor(b.eventId);

    await decideCard(prisma, {
      workspaceId: f.workspaceId,
      cardId: cardForA,
      decision: "accept",
      user: f.user,
      now: clock.now(),
    });
    await decideCard(prisma, {
      workspaceId: f.workspaceId,
      cardId: cardForB,
      decision: "decline",
      user: f.user,
      now: clock.now(),
    });
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, a.eventId)).toMatchObject({ status: "completed" });
    expect(await eventRow(prisma, b.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "review_declined",
      enrollment: { status: "cancelled", mailPiece: { status: "cancelled" } },
    });
    const log = await prisma.auditLogEntry.findMany({
      where: { workspaceId: f.workspaceId, targetId: { in: [cardForA, cardForB] } },
      orderBy: { createdAt: "asc" },
    });
    expect(log.map((l) => l.action).sort()).toEqual([
      "card.approve_piece.accepted",
      "card.approve_piece.declined",
      "card.approve_piece.requested",
      "card.approve_piece.requested",
    ]);

    // A card is decided once.
    await expect(
      decideCard(prisma, { workspaceId: f.workspaceId, cardId: cardForA, decision: "decline", user: f.user }),
    ).rejects.toMatchObject({ code: "invalid_state" });
  });

  it("an expired review skips the event", async () => {
    const f = await gated();
    const clock = testClock();
    const { eventId } = await postEvent(prisma, f, f.contacts[2].id);
    await drain(prisma, clock, f.workspaceId);
    clock.advance(8 * DAY);
    await expireCards(prisma, clock.now());
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, eventId)).toMatchObject({ status: "skipped", skipReason: "review_declined" });
    expect(await prisma.confirmationCard.count({ where: { workspaceId: f.workspaceId, status: "expired" } })).toBe(1);
  });
});

describe("budget, campaign state and failures", () => {
  it("skips when the budget has no headroom (budget_exhausted)", async () => {
    const f = await liveCampaign(prisma, { campaign: { budgetCents: 100 } });
    const { eventId } = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, testClock(), f.workspaceId);
    expect(await eventRow(prisma, eventId)).toMatchObject({
      status: "skipped",
      skipReason: "budget_exhausted",
      enrollment: { status: "cancelled", mailPiece: { status: "cancelled" }, reservation: null },
    });
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).toMatchObject({
      spentCents: 0,
      reservedCents: 0,
    });
  });

  it("waits while the campaign is paused, and skips once it has ended, releasing what it held (campaign_ended)", async () => {
    const f = await liveCampaign(prisma, { campaign: { reviewGate: "each_piece" } });
    const clock = testClock();
    const paused = await postEvent(prisma, f, f.contacts[0].id);
    const held = await postEvent(prisma, f, f.contacts[1].id);
    await drain(prisma, clock, f.workspaceId);
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "paused" } });
    clock.advance(16 * 60_000);
    await drain(prisma, clock, f.workspaceId);
    expect((await eventRow(prisma, paused.eventId)).status).toBe("waiting");
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "ended", endedAt: clock.now() } });
    clock.advance(16 * 60_000);
    await prisma.entryEvent.updateMany({ where: { campaignId: f.campaign.id }, data: { runAfter: new Date(0) } });
    await drain(prisma, clock, f.workspaceId);
    for (const e of [paused, held]) {
      expect(await eventRow(prisma, e.eventId)).toMatchObject({
        status: "skipped",
        skipReason: "campaign_ended",
        enrollment: { status: "cancelled" },
      });
    }
    expect(await prisma.confirmationCard.count({ where: { workspaceId: f.workspaceId, status: "pending" } })).toBe(0);
  });

  it("retries a failing step with backoff, then ends the event failed with the cause", async () => {
    const f = await liveCampaign(prisma);
    const clock = testClock();
    const { eventId } = await postEvent(prisma, f, f.contacts[0].id);
    const broken = {
      adapterFor: () => ({
        vendor: "sandbox",
        submit: async () => {
          throw new Error("print server on fire");
        },
      }),
    };
    const attempts: number[] = [];
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) {
      await drain(prisma, clock, f.workspaceId, broken);
      const row = await eventRow(prisma, eventId);
      attempts.push(row.attempts);
      if (row.status === "failed") break;
      expect(row.runAfter.getTime()).toBeGreaterThan(clock.now().getTime());
      clock.advance(10 * 60_000);
    }
    const failed = await eventRow(prisma, eventId);
    expect(failed).toMatchObject({ status: "failed", lastError: "print server on fire", lockToken: null });
    expect(attempts.at(-1)).toBe(MAX_ATTEMPTS);
    expect(await prisma.sandboxPrintJob.count({ where: { workspaceId: f.workspaceId } })).toBe(0);
    // The piece was approved and offered to the vendor, which may have printed it before failing:
    // its reservation stays held so a late charge can never overspend.
    expect(failed.enrollment).toMatchObject({ reservation: { status: "held" }, mailPiece: { status: "approved" } });
  });

  it.each(["batch", "single"] as const)(
    "never overspends: 12 parallel events, budget for 5, two workers at once (%s)",
    async (mode) => {
      const f = await liveCampaign(prisma, { accounts: 12, perAccount: 1, campaign: { budgetCents: 5 * 120 + 60 } });
      const events = await Promise.all(f.contacts.map((c) => postEvent(prisma, f, c.id)));
      const clock = testClock();
      await Promise.all([drain(prisma, clock, f.workspaceId, {}, mode), drain(prisma, clock, f.workspaceId, {}, mode)]);
      const rows = await Promise.all(events.map((e) => eventRow(prisma, e.eventId)));
      expect(rows.filter((r) => r.status === "completed")).toHaveLength(5);
      expect(rows.filter((r) => r.status === "skipped" && r.skipReason === "budget_exhausted")).toHaveLength(7);
      const campaign = await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } });
      expect(campaign).toMatchObject({ spentCents: 600, reservedCents: 0 });
      expect(campaign.spentCents).toBeLessThanOrEqual(campaign.budgetCents);
      expect(await prisma.sandboxPrintJob.count({ where: { workspaceId: f.workspaceId } })).toBe(5);
    },
  );

  it("two workers never work on one event at the same time", async () => {
    const f = await liveCampaign(prisma, { accounts: 20, perAccount: 1 });
    await Promise.all(f.contacts.map((c) => postEvent(prisma, f, c.id)));
    const clock = testClock();
    const active = new Map<string, string>();
    const overlaps: string[] = [];
    const steps: string[] = [];
    const tracked = (worker: string) => ({
      beforeStep: async (eventId: string) => {
        const other = active.get(eventId);
        if (other && other !== worker) overlaps.push(eventId);
        active.set(eventId, worker);
        steps.push(`${worker}:${eventId}`);
        await new Promise((r) => setTimeout(r, 2));
        active.delete(eventId);
      },
    });
    await Promise.all([
      drain(prisma, clock, f.workspaceId, tracked("w1")),
      drain(prisma, clock, f.workspaceId, tracked("w2")),
    ]);
    expect(overlaps).toEqual([]);
    const rows = await prisma.entryEvent.findMany({ where: { campaignId: f.campaign.id } });
    expect(rows.every((r) => r.status === "completed")).toBe(true);
    expect(new Set(steps.map((s) => s.split(":")[0])).size).toBeGreaterThanOrEqual(1);
    expect(await prisma.sandboxPrintJob.count({ where: { workspaceId: f.workspaceId } })).toBe(20);
  });
});
