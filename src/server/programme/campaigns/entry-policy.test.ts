import { beforeAll, describe, expect, it } from "vitest";
import type { EntryPolicy, PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { drain, testClock } from "@/test/lifecycle-fixtures";
import { ZCampaignDraft } from "./schema";
import { sendToContacts } from "./send-to";
import { changeCampaignState, createDraft, goLive } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const TERMINAL = ["completed", "held_out", "skipped", "failed"] as const;

async function draftWith(opts: {
  entryPolicy: EntryPolicy;
  acceptsApiEvents?: boolean;
  sendAt?: Date | null;
  holdoutShare?: number;
  accounts?: number;
}) {
  const o = await createOwnerWorkspace(prisma);
  const { audience, contacts } = await createAudience(prisma, o.workspaceId, {
    accounts: opts.accounts ?? 10,
    perAccount: 2,
  });
  const contract = await prisma.fulfilmentContract.create({
    data: { workspaceId: o.workspaceId, name: "Sandbox", format: "postcard", unitCostCents: 120, status: "approved" },
  });
  const actor = { kind: "user" as const, id: o.user.id, label: o.user.email };
  const draft = ZCampaignDraft.parse({
    name: "Mail the audience",
    format: "postcard",
    audienceId: audience.id,
    acceptsApiEvents: opts.acceptsApiEvents ?? false,
    entryPolicy: opts.entryPolicy,
    sendAt: opts.sendAt ?? null,
    holdoutShare: opts.holdoutShare ?? 0.2,
    frequencyCapContact: null,
    frequencyCapAccount: null,
    frequencyWindowDays: 30,
    reviewGate: "none",
    budgetCents: 100_000,
    fulfilmentContractId: contract.id,
    destinationUrl: "https://acme.example/hello",
    headline: "{{firstName}}, welcome",
    bodyTemplate: "Hi {{firstName}} at {{company}}",
    signOff: "Sam",
    endsAt: null,
  });
  const campaign = await createDraft(prisma, { workspaceId: o.workspaceId, input: draft, actor });
  return { ...o, audience, contacts, contract, actor, campaign };
}

type Fixture = Awaited<ReturnType<typeof draftWith>>;

async function newMember(f: Fixture, name: string) {
  const contact = await prisma.contact.create({
    data: {
      workspaceId: f.workspaceId,
      firstName: name,
      lastName: "Late",
      email: `${name.toLowerCase()}.${f.workspaceId}@example.test`,
      addressLine1: "1 Main St",
      city: "Springfield",
      region: "IL",
      postalCode: "62701",
      country: "US",
      addressStatus: "deliverable",
    },
  });
  await prisma.audienceMember.create({
    data: { audienceId: f.audience.id, contactId: contact.id, workspaceId: f.workspaceId },
  });
  return contact;
}

async function settle(f: Fixture, clock: { now: () => Date }) {
  await drain(prisma, clock, f.workspaceId);
  return prisma.entryEvent.findMany({
    where: { campaignId: f.campaign.id },
    include: { enrollment: { include: { mailPiece: true } } },
  });
}

describe("entry policy audience_at_go_live", () => {
  it("enters every audience contact once at go-live; held-out accounts get nothing; later joiners are not entered", async () => {
    const f = await draftWith({ entryPolicy: "audience_at_go_live" });
    const live = await goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor });
    expect(live.entered).toBe(20);
    expect(live.arms).toEqual({ accounts: 10, heldOut: 2, heldOutByOthers: 0, heldOutByProgramme: 0 });

    const events = await settle(f, testClock());
    expect(events).toHaveLength(20);
    expect(new Set(events.map((e) => e.contactId))).toEqual(new Set(f.contacts.map((c) => c.id)));
    expect(events.every((e) => e.source === "go_live")).toBe(true);
    expect(events.every((e) => (TERMINAL as readonly string[]).includes(e.status))).toBe(true);
    const held = await prisma.holdoutAssignment.findMany({ where: { campaignId: f.campaign.id, arm: "holdout" } });
    const heldContacts = new Set(
      f.contacts.filter((c) => held.some((h) => h.accountId === c.accountId)).map((c) => c.id),
    );
    expect(heldContacts.size).toBe(4);
    for (const e of events) {
      if (heldContacts.has(e.contactId!))
        expect(e).toMatchObject({ status: "held_out", enrollment: { arm: "holdout", mailPiece: null } });
      else
        expect(e).toMatchObject({
          status: "completed",
          enrollment: { arm: "treatment", mailPiece: { status: "mailed" } },
        });
    }

    // Someone added afterwards is not entered by this policy.
    const late = await newMember(f, "Lena");
    expect(await prisma.entryEvent.count({ where: { campaignId: f.campaign.id, contactId: late.id } })).toBe(0);
  }, 120_000);

  it("waits for sendAt: nothing moves before it, everything after", async () => {
    const sendAt = new Date(Date.now() + 3 * 86_400_000);
    const f = await draftWith({ entryPolicy: "audience_at_go_live", sendAt, holdoutShare: 0 });
    await goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor });
    const clock = testClock();
    let events = await settle(f, clock);
    expect(events).toHaveLength(20);
    expect(events.every((e) => e.status === "accepted" && e.runAfter.getTime() === sendAt.getTime())).toBe(true);
    // Pausing and resuming wakes the campaign's events, but not before sendAt.
    await changeCampaignState(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      change: "pause",
      actor: f.actor,
    });
    await changeCampaignState(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      change: "resume",
      actor: f.actor,
    });
    events = await settle(f, clock);
    expect(events.every((e) => e.status === "accepted")).toBe(true);
    expect(await prisma.mailPiece.count({ where: { campaignId: f.campaign.id } })).toBe(0);

    clock.advance(3 * 86_400_000 + 1000);
    events = await settle(f, clock);
    expect(events.filter((e) => e.status === "completed")).toHaveLength(20);
  }, 120_000);

  it("refuses to go live with policy none and no API entry, writing nothing", async () => {
    const f = await draftWith({ entryPolicy: "none", acceptsApiEvents: false });
    await expect(
      goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor }),
    ).rejects.toMatchObject({
      code: "invalid_state",
      message: expect.stringContaining("choose who gets this"),
    });
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).toMatchObject({
      status: "draft",
      wentLiveAt: null,
    });
    expect(await prisma.entryEvent.count({ where: { campaignId: f.campaign.id } })).toBe(0);
    expect(await prisma.holdoutAssignment.count({ where: { campaignId: f.campaign.id } })).toBe(0);
  }, 120_000);

  it("policy none with API entry goes live and enters nobody by itself", async () => {
    const f = await draftWith({ entryPolicy: "none", acceptsApiEvents: true });
    const live = await goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor });
    expect(live.entered).toBe(0);
    await newMember(f, "Nadia");
    expect(await prisma.entryEvent.count({ where: { campaignId: f.campaign.id } })).toBe(0);
  }, 120_000);
});

describe("entry policy audience_joins", () => {
  it("enters the audience at go-live and each contact added later, once, until the campaign ends", async () => {
    const f = await draftWith({ entryPolicy: "audience_joins", holdoutShare: 0 });
    // Added while a draft: entered at go-live with everyone else, not twice.
    const early = await newMember(f, "Ezra");
    const live = await goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor });
    expect(live.entered).toBe(21);

    const late = await newMember(f, "Lena");
    const lateEvents = await prisma.entryEvent.findMany({ where: { campaignId: f.campaign.id, contactId: late.id } });
    expect(lateEvents).toMatchObject([{ source: "audience_join", status: "accepted" }]);

    // Removed and added again (a CRM sync flapping): still one entry.
    await prisma.audienceMember.delete({
      where: { audienceId_contactId: { audienceId: f.audience.id, contactId: late.id } },
    });
    await prisma.audienceMember.create({
      data: { audienceId: f.audience.id, contactId: late.id, workspaceId: f.workspaceId },
    });
    // Many at once (an import): one set-based entry for all.
    const batch = await Promise.all(
      ["Ana", "Ben", "Cy"].map((n) =>
        prisma.contact.create({
          data: {
            workspaceId: f.workspaceId,
            firstName: n,
            lastName: "Bulk",
            email: `${n}.${f.workspaceId}@example.test`,
          },
        }),
      ),
    );
    await prisma.audienceMember.createMany({
      data: batch.map((c) => ({ audienceId: f.audience.id, contactId: c.id, workspaceId: f.workspaceId })),
    });

    const events = await settle(f, testClock());
    expect(events).toHaveLength(25);
    const perContact = new Map<string, number>();
    for (const e of events) perContact.set(e.contactId!, (perContact.get(e.contactId!) ?? 0) + 1);
    expect([...perContact.values()].every((n) => n === 1)).toBe(true);
    expect(events.find((e) => e.contactId === early.id)!.source).toBe("go_live");
    expect(events.filter((e) => e.source === "audience_join")).toHaveLength(4);
    expect(events.find((e) => e.contactId === late.id)).toMatchObject({ status: "completed" });
    // The bulk contacts have no address: the lifecycle's address gate skips them, as for any entry.
    for (const c of batch) expect(events.find((e) => e.contactId === c.id)).toMatchObject({ status: "skipped" });

    await changeCampaignState(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      change: "end",
      actor: f.actor,
    });
    await newMember(f, "Zoe");
    expect(await prisma.entryEvent.count({ where: { campaignId: f.campaign.id } })).toBe(25);
  }, 120_000);

  it("does not enter joiners of another workspace's audience or of a draft", async () => {
    const f = await draftWith({ entryPolicy: "audience_joins" });
    await newMember(f, "Dora");
    expect(await prisma.entryEvent.count({ where: { campaignId: f.campaign.id } })).toBe(0);
  }, 120_000);
});

describe("send to one more person", () => {
  it("enters contacts of the audience by hand, once each, and says who had entered already", async () => {
    const f = await draftWith({ entryPolicy: "none", acceptsApiEvents: true, holdoutShare: 0 });
    await goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor });
    const [a, b] = f.contacts;
    const first = await sendToContacts(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      contactIds: [a.id],
      source: "owner",
      actor: f.actor,
    });
    expect(first).toMatchObject([{ contactId: a.id, entered: true }]);
    const second = await sendToContacts(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      contactIds: [a.id, b.id],
      source: "agent",
      actor: f.actor,
    });
    expect(second).toMatchObject([
      { contactId: a.id, entered: false, eventId: first[0].eventId },
      { contactId: b.id, entered: true },
    ]);
    const events = await settle(f, testClock());
    expect(events.map((e) => [e.contactId, e.source, e.status]).sort()).toEqual(
      [
        [a.id, "owner", "completed"],
        [b.id, "agent", "completed"],
      ].sort(),
    );
  }, 120_000);

  it("refuses unknown contacts, contacts outside the audience and campaigns that are not live, writing nothing", async () => {
    const f = await draftWith({ entryPolicy: "none", acceptsApiEvents: true });
    const send = (contactIds: string[]) =>
      sendToContacts(prisma, {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        contactIds,
        source: "owner",
        actor: f.actor,
      });
    await expect(send([f.contacts[0].id])).rejects.toMatchObject({ code: "campaign_not_live" });
    await goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor });
    await expect(send([f.contacts[0].id, "ctc_nope"])).rejects.toMatchObject({
      code: "contact_not_found",
      errors: [{ pointer: "/contactIds/1" }],
    });
    const outsider = await prisma.contact.create({
      data: { workspaceId: f.workspaceId, firstName: "Out", lastName: "Side" },
    });
    await expect(send([outsider.id, f.contacts[0].id])).rejects.toMatchObject({
      code: "contact_not_in_audience",
      errors: [{ pointer: "/contactIds/0" }],
    });
    const other = await draftWith({ entryPolicy: "none", acceptsApiEvents: true });
    await expect(send([other.contacts[0].id])).rejects.toMatchObject({ code: "contact_not_found" });
    expect(await prisma.entryEvent.count({ where: { campaignId: f.campaign.id } })).toBe(0);
  }, 120_000);
});
