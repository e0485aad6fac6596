import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { enterAudienceAtGoLive } from "@/server/programme/campaigns/entry-policy";
import { updateDraft } from "@/server/programme/campaigns/service";
import { testDatabase } from "@/test/database";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const DAY = 86_400_000;

const piecesOf = (campaignId: string) => prisma.mailPiece.count({ where: { campaignId } });

describe("one entry per contact per campaign (already_enrolled)", () => {
  for (const mode of ["batch", "single"] as const) {
    it(`two entry events for one contact with different idempotency keys, processed together, mail one piece (${mode})`, async () => {
      const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
      const contact = f.contacts[0].id;
      const [a, b] = await Promise.all([postEvent(prisma, f, contact), postEvent(prisma, f, contact)]);
      expect(a.eventId).not.toBe(b.eventId);
      await drain(prisma, testClock(), f.workspaceId, {}, mode);
      const rows = [await eventRow(prisma, a.eventId), await eventRow(prisma, b.eventId)];
      expect(rows.map((r) => r.status).sort()).toEqual(["completed", "skipped"]);
      expect(rows.find((r) => r.status === "skipped")).toMatchObject({
        skipReason: "already_enrolled",
        enrollment: null,
      });
      expect(await piecesOf(f.campaign.id)).toBe(1);
      expect(await prisma.sandboxPrintJob.count({ where: { workspaceId: f.workspaceId } })).toBe(1);
    });
  }

  it("skips a later entry of a contact whose piece was mailed, even under a frequency cap (no waiting for it)", async () => {
    const f = await liveCampaign(prisma, {
      accounts: 1,
      perAccount: 1,
      campaign: { frequencyCapContact: 1, frequencyWindowDays: 30 },
    });
    const clock = testClock();
    const first = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    clock.advance(5 * DAY);
    const second = await postEvent(prisma, f, f.contacts[0].id, clock.now());
    await drain(prisma, clock, f.workspaceId);
    expect((await eventRow(prisma, first.eventId)).status).toBe("completed");
    expect(await eventRow(prisma, second.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "already_enrolled",
      enrollment: null,
    });
    expect(await piecesOf(f.campaign.id)).toBe(1);
  });

  it("a held-out contact entering again is skipped too, and an entry the audience policy made counts as the entry", async () => {
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1, holdoutAccounts: 1 });
    const held = f.contacts.find((c) => c.accountId === f.accountIds[0])!;
    const mailed = f.contacts.find((c) => c.accountId === f.accountIds[1])!;
    // The audience policy enters everyone (its own idempotency keys), then an API client enters them again.
    await enterAudienceAtGoLive(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      audienceId: f.audience.id,
      sendAt: null,
      now: new Date(),
    });
    const clock = testClock();
    await drain(prisma, clock, f.workspaceId);
    const again = [await postEvent(prisma, f, held.id), await postEvent(prisma, f, mailed.id)];
    await drain(prisma, clock, f.workspaceId);
    for (const { eventId } of again)
      expect(await eventRow(prisma, eventId)).toMatchObject({ status: "skipped", skipReason: "already_enrolled" });
    const events = await prisma.entryEvent.findMany({ where: { campaignId: f.campaign.id, source: "go_live" } });
    expect(events.map((e) => e.status).sort()).toEqual(["completed", "held_out"]);
    expect(await prisma.enrollment.count({ where: { campaignId: f.campaign.id } })).toBe(2);
    expect(await piecesOf(f.campaign.id)).toBe(1);
  });

  it("a contact whose first event was skipped before entering (suppressed then) may enter later", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    const contactId = f.contacts[0].id;
    const suppression = await prisma.suppression.create({
      data: { workspaceId: f.workspaceId, kind: "contact", value: contactId, reason: "opt_out" },
    });
    const clock = testClock();
    const first = await postEvent(prisma, f, contactId);
    await drain(prisma, clock, f.workspaceId);
    await prisma.suppression.delete({ where: { id: suppression.id } });
    const second = await postEvent(prisma, f, contactId);
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, first.eventId)).toMatchObject({ status: "skipped", skipReason: "suppressed" });
    expect(await eventRow(prisma, second.eventId)).toMatchObject({ status: "completed" });
  });

  it("with reentryAfterDays, admits the contact again once that many days have passed since its last entry", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1, campaign: { reentryAfterDays: 30 } });
    const contactId = f.contacts[0].id;
    const clock = testClock();
    const first = await postEvent(prisma, f, contactId);
    await drain(prisma, clock, f.workspaceId);
    clock.advance(10 * DAY);
    const early = await postEvent(prisma, f, contactId, clock.now());
    await drain(prisma, clock, f.workspaceId);
    clock.advance(21 * DAY);
    const later = await postEvent(prisma, f, contactId, clock.now());
    await drain(prisma, clock, f.workspaceId);
    expect((await eventRow(prisma, first.eventId)).status).toBe("completed");
    expect(await eventRow(prisma, early.eventId)).toMatchObject({ status: "skipped", skipReason: "already_enrolled" });
    expect(await eventRow(prisma, later.eventId)).toMatchObject({ status: "completed" });
    expect(await piecesOf(f.campaign.id)).toBe(2);
  });

  it("reentryAfterDays is frozen at go-live: a live campaign's is not edited", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    await expect(
      updateDraft(prisma, {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        input: { reentryAfterDays: 7 },
        actor: { kind: "system", id: null, label: "test" },
      }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).reentryAfterDays).toBeNull();
  });
});
