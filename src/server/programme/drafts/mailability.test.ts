import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { contactKeys } from "@/server/records/contacts/keys";
import { testDatabase } from "@/test/database";
import { callerFor, createAudience, createOwnerWorkspace } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { mailabilitySentence } from "./mailability";
import {
  draftSummary,
  draftsCardSentence,
  draftsJobStatus,
  getDraft,
  listDrafts,
  requestDraftGeneration,
} from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const actor = { kind: "user" as const, id: null, label: "owner@example.test" };

const LI_WEI = {
  firstName: "Li",
  lastName: "Wei",
  title: "CTO",
  addressLine1: null,
  addressLine2: null,
  city: null,
  region: null,
  postalCode: null,
  country: "US",
};
const PRIYA = {
  firstName: "Priya",
  lastName: "Shah",
  addressLine1: "1 Infinite Loop",
  addressLine2: null,
  city: "Cupertino",
  region: "CA",
  postalCode: "9501",
  country: "US",
};

/** Writes a contact's fields and the keys every write keeps (address key, match key). */
async function setContact(id: string, data: Record<string, string | null>) {
  const c = await prisma.contact.update({ where: { id }, data });
  await prisma.contact.update({ where: { id }, data: contactKeys(c) });
}

describe("drafts whose recipients cannot be mailed (the walk's Li Wei)", () => {
  it("are counted, named with the audit's reasons and filtered, judged now; the lifecycle then skips exactly them, for the same reasons", async () => {
    const f = await liveCampaign(prisma, {
      accounts: 2,
      perAccount: 2,
      campaign: { status: "draft", wentLiveAt: null, entryPolicyFrozenAt: null },
    });
    const p = { workspaceId: f.workspaceId, campaignId: f.campaign.id };
    await setContact(f.contacts[0].id, LI_WEI);
    await requestDraftGeneration(prisma, { ...p, actor });
    expect(await drainJobs(prisma, { workspaceId: f.workspaceId })).toEqual(["succeeded"]);
    const li = (await listDrafts(prisma, { ...p, take: 10 })).drafts.find((d) => d.contactId === f.contacts[0].id)!;

    const sentence =
      "3 of 4 drafts can be mailed; 1 recipient cannot and is skipped when they enter (Li Wei: no street address, no city, no postal code, no state or province).";
    const reasons = ["missing_address", "missing_city", "missing_postal_code", "invalid_region"];
    expect(await draftSummary(prisma, p)).toMatchObject({
      total: 4,
      missingData: 0,
      mailable: 3,
      unmailable: 1,
      unmailableRecipients: [
        {
          draftId: li.id,
          contactId: f.contacts[0].id,
          contactName: "Li Wei",
          reasons,
          detail: "no street address, no city, no postal code, no state or province",
        },
      ],
      mailabilitySentence: sentence,
    });
    // Each row and the draft itself say so; the others can be mailed.
    expect(li).toMatchObject({
      mailable: false,
      unmailableReasons: reasons,
      unmailableDetail: "no street address, no city, no postal code, no state or province",
    });
    expect(
      (await listDrafts(prisma, { ...p, take: 10 })).drafts
        .filter((d) => d.mailable)
        .map((d) => [d.unmailableReasons, d.unmailableDetail]),
    ).toEqual([
      [[], null],
      [[], null],
      [[], null],
    ]);
    expect(await getDraft(prisma, { ...p, draftId: li.id })).toMatchObject({
      contactName: "Li Wei",
      mailable: false,
      unmailableReasons: reasons,
      unmailableDetail: "no street address, no city, no postal code, no state or province",
    });
    expect(await listDrafts(prisma, { ...p, filter: "unmailable", take: 10 })).toMatchObject({
      drafts: [{ id: li.id, contactName: "Li Wei", mailable: false }],
      nextCursor: null,
    });
    // The readiness item (not a blocker: the lifecycle skips them), the go-live card an agent asks for, and drafts_generate's result say the same.
    const caller = await callerFor(prisma, f.user);
    expect((await caller.campaign.readiness(p)).items.find((i) => i.key === "drafts")).toEqual({
      key: "drafts",
      label: "Drafts up to date, each fitting and with its merge data",
      ok: true,
      detail: sentence,
      fix: `/campaigns/${f.campaign.id}#drafts`,
    });
    expect(await draftsCardSentence(prisma, p)).toBe(
      ` 4 drafts are approved with it, none rewritten for its recipient. ${sentence}`,
    );
    const job = await prisma.job.findFirstOrThrow({ where: { workspaceId: f.workspaceId, kind: "drafts_generate" } });
    expect((await draftsJobStatus(prisma, { workspaceId: f.workspaceId, jobId: job.id })).mailability).toMatchObject({
      total: 4,
      unmailable: 1,
      sentence,
    });

    // Judged now, not when rendered: a postal code that fits no Californian ZIP, and a suppression, count at once.
    await setContact(f.contacts[1].id, PRIYA);
    const suppressed = await prisma.contact.findUniqueOrThrow({ where: { id: f.contacts[2].id } });
    await prisma.suppression.create({
      data: { workspaceId: f.workspaceId, kind: "email", value: suppressed.email!, reason: "opt_out" },
    });
    const first = await listDrafts(prisma, { ...p, filter: "unmailable", take: 2 });
    expect(first.drafts).toHaveLength(2);
    expect(first.nextCursor).toBe(first.drafts[1].id);
    const second = await listDrafts(prisma, { ...p, filter: "unmailable", take: 2, cursor: first.nextCursor });
    expect(second.nextCursor).toBeNull();
    const flagged = [...first.drafts, ...second.drafts];
    expect(Object.fromEntries(flagged.map((d) => [d.contactName, [d.unmailableReasons, d.unmailableDetail]]))).toEqual({
      "Li Wei": [reasons, "no street address, no city, no postal code, no state or province"],
      "Priya Shah": [["invalid_postal_code"], "postal code 9501 does not fit US"],
      [`${suppressed.firstName} ${suppressed.lastName}`]: [["suppressed"], "on the suppression list"],
    });
    expect(await draftSummary(prisma, p)).toMatchObject({
      total: 4,
      mailable: 1,
      unmailable: 3,
      mailabilitySentence: expect.stringMatching(
        /^1 of 4 drafts can be mailed; 3 recipients cannot and are skipped when they enter \(.+\)\.$/,
      ),
    });

    // Live: the lifecycle's gates skip the three, with the reasons the drafts gave, and mail the fourth.
    await prisma.campaign.update({
      where: { id: f.campaign.id },
      data: { status: "live", wentLiveAt: new Date(), entryPolicyFrozenAt: new Date() },
    });
    const clock = testClock();
    const events = new Map<string, string>();
    for (const c of f.contacts) events.set(c.id, (await postEvent(prisma, f, c.id, clock.now())).eventId);
    await drain(prisma, clock, f.workspaceId);
    for (const d of flagged) {
      const e = await eventRow(prisma, events.get(d.contactId)!);
      expect([e.status, e.skipReason, e.mailabilityReasons], d.contactName).toEqual([
        "skipped",
        d.unmailableReasons[0] === "suppressed" ? "suppressed" : "address_invalid",
        d.unmailableReasons,
      ]);
    }
    expect((await eventRow(prisma, events.get(f.contacts[3].id)!)).enrollment?.mailPiece?.status).toBe("mailed");
  }, 180_000);

  it("a duplicate person in the audience and an address too long for the block are flagged as the audit flags them", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "paid" });
    const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 1, perAccount: 3 });
    // The third contact is the first one again (same name, same address), created later: the audit's duplicate_contact.
    await setContact(contacts[2].id, {
      firstName: contacts[0].firstName,
      lastName: contacts[0].lastName,
      addressLine2: contacts[0].addressLine2,
    });
    await setContact(contacts[1].id, {
      addressLine2:
        "Attn: Accounts Payable Department, Building 7 East Wing, Mail Stop 4400-B, Receiving Dock Entrance C, Third Floor Reception Desk Beside The Lifts",
    });
    const campaign = await prisma.campaign.create({
      data: {
        workspaceId: o.workspaceId,
        name: "Dupes",
        format: "postcard",
        audienceId: audience.id,
        headline: "Hi {{firstName}}",
        bodyTemplate: "Hello.",
        signOff: "Sam",
      },
    });
    const p = { workspaceId: o.workspaceId, campaignId: campaign.id };
    await requestDraftGeneration(prisma, { ...p, actor });
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    const s = await draftSummary(prisma, p);
    expect(s).toMatchObject({ total: 3, mailable: 1, unmailable: 2 });
    const named = [
      "First00 Tester: the same person at the same address as another recipient",
      "First01 Tester: an address too long for the address block",
    ];
    expect(Object.fromEntries(s.unmailableRecipients.map((r) => [r.contactId, r.reasons]))).toEqual({
      [contacts[2].id]: ["duplicate_contact"],
      [contacts[1].id]: ["address_too_long"],
    });
    expect(
      [named.join("; "), [...named].reverse().join("; ")].map(
        (list) => `1 of 3 drafts can be mailed; 2 recipients cannot and are skipped when they enter (${list}).`,
      ),
    ).toContain(s.mailabilitySentence);
  }, 120_000);

  it("the sentence names three recipients and counts the rest", () => {
    const named = [
      { contactName: "Li Wei", detail: "no street address" },
      { contactName: "Priya Shah", detail: "postal code 9501 does not fit US" },
      { contactName: "Ana García", detail: "on the suppression list" },
    ];
    expect(mailabilitySentence(1200, 5, named)).toBe(
      "1,195 of 1,200 drafts can be mailed; 5 recipients cannot and are skipped when they enter (Li Wei: no street address; Priya Shah: postal code 9501 does not fit US; Ana García: on the suppression list; and 2 more).",
    );
    expect(mailabilitySentence(1, 1, named.slice(0, 1))).toBe(
      "0 of 1 draft can be mailed; 1 recipient cannot and is skipped when they enter (Li Wei: no street address).",
    );
  });
});
