import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { ownerGoLivePreview } from "@/server/programme/campaigns/go-live-preview";
import { createDraft, getCampaignDetail, goLive } from "@/server/programme/campaigns/service";
import { getEntryEventDetail } from "@/server/programme/entry/event-detail";
import { getEntryEventStatus } from "@/server/programme/entry/service";
import { postcardDraftInput } from "@/test/campaigns-over-audience";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { drain, testClock } from "@/test/lifecycle-fixtures";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/** A paid workspace with one audience of `accounts` accounts and two ready drafts over it. */
async function twoDrafts(accounts: number, holdoutShare = 0.5) {
  const o = await createOwnerWorkspace(prisma);
  const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts, perAccount: 1 });
  const contract = await prisma.fulfilmentContract.create({
    data: { workspaceId: o.workspaceId, name: "Sandbox", format: "postcard", unitCostCents: 120, status: "approved" },
  });
  const actor = { kind: "user" as const, id: o.user.id, label: o.user.email };
  const draft = (name: string) =>
    createDraft(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: postcardDraftInput({ name, audienceId: audience.id, contractId: contract.id, holdoutShare }),
    });
  return { ...o, actor, audience, contacts, a: await draft("Campaign A"), b: await draft("Campaign B") };
}

/** Accounts held out by a campaign's own draw, and accounts each campaign mailed. */
async function outcome(campaignIds: string[]) {
  const own = await prisma.holdoutAssignment.findMany({ where: { campaignId: { in: campaignIds }, arm: "holdout" } });
  const mailed = await prisma.mailPiece.findMany({
    where: { campaignId: { in: campaignIds }, status: { not: "cancelled" } },
    include: { contact: { select: { accountId: true } } },
  });
  return {
    heldOut: own.map((h) => ({ campaignId: h.campaignId, accountId: h.accountId })),
    mailed: mailed.map((m) => ({ campaignId: m.campaignId, accountId: m.contact!.accountId! })),
  };
}

describe("holdouts hold across campaigns (heldOutBy)", () => {
  it("a second campaign over the same accounts records the first's held-out accounts as held out by it and mails none of them", async () => {
    const f = await twoDrafts(24);
    const clock = testClock();
    await goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.a.id, actor: f.actor });
    await drain(prisma, clock, f.workspaceId);
    // B caps each contact at one piece in 30 days, counting A's pieces.
    await prisma.campaign.update({ where: { id: f.b.id }, data: { frequencyCapContact: 1 } });
    const preview = await ownerGoLivePreview(prisma, { workspaceId: f.workspaceId, campaignId: f.b.id });
    // Before the person accepts: 12 held out because of A, 12 to mail, all of which wait for the cap.
    expect(preview).toMatchObject({ enterNow: 24, heldOut: 0, heldOutByOthers: 12, toMail: 12, frequencyWaiting: 12 });
    const until = Date.parse(preview.frequencyWaitUntil!);
    expect(Math.abs(until - (Date.now() + 30 * 86_400_000))).toBeLessThan(3_600_000);
    expect(preview.sentence).toContain("12 held out because other live campaigns hold their accounts out");
    expect(preview.sentence).toContain(
      `12 wait for the frequency cap (other campaigns' pieces count), until ${preview.frequencyWaitUntil!.slice(0, 10)}`,
    );
    await goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.b.id, actor: f.actor });
    await drain(prisma, clock, f.workspaceId);
    const detail = await getCampaignDetail(prisma, { workspaceId: f.workspaceId, campaignId: f.b.id });
    expect(detail.heldOutByOthers).toBe(12);

    const heldByA = new Set(
      (await prisma.holdoutAssignment.findMany({ where: { campaignId: f.a.id, arm: "holdout" } })).map(
        (h) => h.accountId,
      ),
    );
    expect(heldByA.size).toBe(12);
    const bMailed = await prisma.mailPiece.findMany({
      where: { campaignId: f.b.id },
      include: { contact: { select: { accountId: true } } },
    });
    expect(bMailed.filter((p) => heldByA.has(p.contact!.accountId!))).toEqual([]);
    const bHeldByA = await prisma.enrollment.findMany({ where: { campaignId: f.b.id, heldOutBy: f.a.id } });
    expect(new Set(bHeldByA.map((e) => e.accountId))).toEqual(heldByA);
    expect(bHeldByA.every((e) => e.arm === "holdout" && e.status === "held_out")).toBe(true);
    // The event reads name the campaign that held the account out: REST's status read and agents' detail.
    const heldEvent = { workspaceId: f.workspaceId, campaignId: f.b.id, eventId: bHeldByA[0].entryEventId };
    expect(await getEntryEventStatus(prisma, heldEvent)).toMatchObject({ status: "held_out", heldOutBy: f.a.id });
    expect(await getEntryEventDetail(prisma, heldEvent)).toMatchObject({ status: "held_out", heldOutBy: f.a.id });
    const mailedEnrollment = await prisma.enrollment.findFirstOrThrow({
      where: { campaignId: f.b.id, heldOutBy: null, arm: "treatment" },
    });
    const mailedEvent = { ...heldEvent, eventId: mailedEnrollment.entryEventId };
    expect(await getEntryEventStatus(prisma, mailedEvent)).not.toHaveProperty("heldOutBy");
    expect(await getEntryEventDetail(prisma, mailedEvent)).toMatchObject({ heldOutBy: null });
    // B's own holdout was drawn from the accounts A had not mailed... none: A mailed the other 12, so B holds out none of them.
    const bOwnHoldout = await prisma.holdoutAssignment.findMany({ where: { campaignId: f.b.id, arm: "holdout" } });
    const aMailed = new Set(
      (
        await prisma.mailPiece.findMany({
          where: { campaignId: f.a.id },
          include: { contact: { select: { accountId: true } } },
        })
      ).map((p) => p.contact!.accountId!),
    );
    expect(bOwnHoldout.filter((h) => aMailed.has(h.accountId))).toEqual([]);
  }, 120_000);

  it("two campaigns going live at the same moment over one audience never both mail an account one of them holds out", async () => {
    const f = await twoDrafts(20, 0.25);
    await Promise.all([
      goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.a.id, actor: f.actor }),
      goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.b.id, actor: f.actor }),
    ]);
    await drain(prisma, testClock(), f.workspaceId, {}, "single");
    // And a third going live while the workers admit the first two's entries.
    const c = await prisma.campaign.create({
      data: {
        ...(({ id, createdAt, updatedAt, status, wentLiveAt, entryPolicyFrozenAt, ...rest }) => rest)(f.a),
        name: "Campaign C",
        status: "draft",
        giftOptions: [],
      },
    });
    const d = await prisma.campaign.create({
      data: {
        ...(({ id, createdAt, updatedAt, status, wentLiveAt, entryPolicyFrozenAt, ...rest }) => rest)(f.a),
        name: "Campaign D",
        status: "draft",
        giftOptions: [],
      },
    });
    await goLive(prisma, { workspaceId: f.workspaceId, campaignId: c.id, actor: f.actor });
    await Promise.all([
      drain(prisma, testClock(), f.workspaceId, {}, "single"),
      goLive(prisma, { workspaceId: f.workspaceId, campaignId: d.id, actor: f.actor }),
    ]);
    await drain(prisma, testClock(), f.workspaceId, {}, "single");
    const { heldOut, mailed } = await outcome([f.a.id, f.b.id, c.id, d.id]);
    expect(heldOut.length).toBeGreaterThan(0);
    const mailedAccounts = new Set(mailed.map((m) => m.accountId));
    expect(heldOut.filter((h) => mailedAccounts.has(h.accountId))).toEqual([]);
    expect(mailed.length).toBeGreaterThan(0);
  }, 120_000);
});
