import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { contactKeys } from "@/server/records/contacts/keys";
import { campaignReadiness } from "@/server/programme/campaigns/readiness";
import { draftsCardSentence, draftSummary, getDraft, requestDraftGeneration } from "@/server/programme/drafts/service";
import { loadPiecePdf } from "@/server/records/pieces/print-file";
import { testDatabase } from "@/test/database";
import { drainJobs } from "@/test/jobs";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { hasPoppler, pdfText } from "@/test/pdf-tools";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const actor = { kind: "system" as const, id: null, label: "test" };
/** A batch's steps (transactions) when some of its recipients' drafts are rendered on the way: up to the render, then on to the vendor. */
const STEPS_FOR_RENDERED = 2;
const text = (pdf: Uint8Array) => pdfText(Buffer.from(pdf)).replace(/\s+/g, " ");

/**
 * A live campaign whose drafts were rendered while it was a draft, for contacts that carry custom
 * fields (a merge field prints one); then, before anyone enters, one contact's address is
 * corrected and another's draft is made to look as drafts made before digests were kept did.
 */
async function correctedAfterDrafts() {
  const f = await liveCampaign(prisma, {
    accounts: 2,
    perAccount: 2,
    campaign: { status: "draft", bodyTemplate: "Hi {{firstName}} at {{company}}, tier {{custom.tier|none}}." },
  });
  // Custom fields written in one key order; read back in the database's (the digest must not care).
  for (const [i, c] of f.contacts.entries())
    await prisma.contact.update({
      where: { id: c.id },
      data: { customFields: { zone: `z${i}`, tier: "gold", a: String(i) } },
    });
  await requestDraftGeneration(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor });
  expect(await drainJobs(prisma, { workspaceId: f.workspaceId })).toEqual(["succeeded"]);
  const [moved, same, legacy] = f.contacts;
  const before = new Map(
    (await prisma.draft.findMany({ where: { campaignId: f.campaign.id } })).map((d) => [d.contactId, d]),
  );
  expect([...before.values()].every((d) => d.recipientDigest !== null)).toBe(true);
  const oldStreet = moved.addressLine1!;
  // The address corrected after the drafts were made (and no new drafts generated).
  const address = {
    addressLine1: "742 Evergreen Terrace",
    addressLine2: null,
    city: "Springfield",
    region: "IL",
    postalCode: "62704",
    country: "US",
  };
  await prisma.contact.update({
    where: { id: moved.id },
    data: { ...address, ...contactKeys({ firstName: moved.firstName, lastName: moved.lastName, ...address }) },
  });
  // A draft from before this change: no digest, its contact unchanged.
  await prisma.draft.update({ where: { id: before.get(legacy.id)!.id }, data: { recipientDigest: null } });
  return { ...f, moved, same, legacy, before, oldStreet };
}

describe("a recipient corrected after their draft was made", () => {
  it("is counted out of date by the drafts' summary, readiness and the go-live card, without holding the campaign back, until the drafts are generated again", async () => {
    const f = await correctedAfterDrafts();
    const p = { workspaceId: f.workspaceId, campaignId: f.campaign.id };
    const summary = await draftSummary(prisma, p);
    // The legacy draft's contact was not written since it was rendered: not counted (but rendered again at entry, to the same).
    const sentence =
      "1 draft is out of date: its recipient changed since it was made; generate again to review it; otherwise its piece is rendered again for the recipient as they are now when they enter.";
    expect(summary).toMatchObject({
      total: 4,
      outOfDate: 1,
      inputsChanged: 0,
      recipientChanged: 1,
      recipientChangedSentence: sentence,
    });
    // A custom field the copy does not print, and the email it does not print, changed: still current.
    await prisma.contact.update({
      where: { id: f.same.id },
      data: {
        customFields: { zone: "z9", tier: "gold", a: "1", "Last activity": "yesterday" },
        email: `moved-${f.same.id}@example.test`,
      },
    });
    expect(await draftSummary(prisma, p)).toMatchObject({ outOfDate: 1, recipientChanged: 1 });
    // Said, not a blocker: the piece prints the recipient as they are.
    expect((await campaignReadiness(prisma, p)).items.find((i) => i.key === "drafts")).toMatchObject({
      ok: true,
      detail: sentence,
    });
    // The owner's go-live does not look through the recipients: its readiness counts none.
    expect(await draftSummary(prisma, p, { recipients: false })).toMatchObject({
      total: 4,
      outOfDate: 0,
      recipientChanged: 0,
      unmailable: 0,
    });
    expect(await draftsCardSentence(prisma, p)).toContain(
      "1 whose recipient changed since it was made (generate again to review it)",
    );
    const [moved, same] = [f.before.get(f.moved.id)!, f.before.get(f.same.id)!];
    expect(await getDraft(prisma, { workspaceId: f.workspaceId, draftId: moved.id })).toMatchObject({
      outOfDate: true,
      recipientChanged: true,
    });
    expect(await getDraft(prisma, { workspaceId: f.workspaceId, draftId: same.id })).toMatchObject({
      outOfDate: false,
      recipientChanged: false,
    });
    // Its contact written after a digest-less draft was rendered: counted too (a hint; the lifecycle renders such a draft again anyway).
    await prisma.contact.update({ where: { id: f.legacy.id }, data: { title: "CFO" } });
    expect(await draftSummary(prisma, p)).toMatchObject({ outOfDate: 2, recipientChanged: 2 });
    // A change to the copy as well: each draft counted once.
    await prisma.campaign.update({
      where: { id: f.campaign.id },
      data: { copyChangedAt: new Date(Date.now() + 1000) },
    });
    expect(await draftSummary(prisma, p)).toMatchObject({
      total: 4,
      outOfDate: 4,
      inputsChanged: 4,
      recipientChanged: 2,
    });
    expect((await campaignReadiness(prisma, p)).items.find((i) => i.key === "drafts")?.detail).toBe(
      "4 of 4 drafts were rendered before the latest change to the copy, design or brand kit: generate them again. 2 drafts are out of date: their recipient changed since they were made; generate again to review them; otherwise their pieces are rendered again for the recipient as they are now when they enter.",
    );
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { copyChangedAt: null } });
    // Generated again: up to date.
    await requestDraftGeneration(prisma, { ...p, actor });
    expect(await drainJobs(prisma, { workspaceId: f.workspaceId })).toEqual(["succeeded"]);
    expect(await draftSummary(prisma, p)).toMatchObject({
      outOfDate: 0,
      recipientChanged: 0,
      recipientChangedSentence: null,
    });
    expect(await draftsCardSentence(prisma, p)).not.toContain("recipient changed");
    // Corrected again, once live: the owner is told the piece is rendered again when they enter.
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "live" } });
    await prisma.contact.update({ where: { id: f.moved.id }, data: { lastName: "Simpson" } });
    expect((await draftSummary(prisma, p)).recipientChangedSentence).toBe(
      "1 draft is out of date: its recipient changed since it was made; its piece is rendered again for the recipient as they are now when they enter.",
    );
  }, 60_000);

  for (const mode of ["batch", "single"] as const) {
    it(`${mode} path: prints the corrected address (a draft rendered again, with its codes), and an unchanged recipient's draft byte for byte`, async () => {
      const f = await correctedAfterDrafts();
      await prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "live" } });
      const logged: string[] = [];
      const events = new Map<string, string>();
      for (const c of [f.moved, f.same, f.legacy]) events.set(c.id, (await postEvent(prisma, f, c.id)).eventId);
      let steps = 0;
      await drain(
        prisma,
        testClock(),
        f.workspaceId,
        { log: (line) => logged.push(line), beforeStep: async () => void steps++ },
        mode,
      );
      // Nothing failed over to another path on the way, and the batch did not go round: a draft
      // rendered again matched its recipient the next step (a digest the batch's contact read
      // computed differently would render it again each step, until the batch gave up to the single path).
      expect(logged).toEqual([]);
      if (mode === "batch") expect(steps).toBe(STEPS_FOR_RENDERED);
      const piece = async (contactId: string) => {
        const row = await eventRow(prisma, events.get(contactId)!);
        expect(row.status).toBe("completed");
        return row.enrollment!.mailPiece!;
      };
      const draftOf = (contactId: string) =>
        prisma.draft.findUniqueOrThrow({ where: { campaignId_contactId: { campaignId: f.campaign.id, contactId } } });

      // The corrected recipient: their draft rendered again for the new address, keeping its codes.
      const moved = await piece(f.moved.id);
      const old = f.before.get(f.moved.id)!;
      const redrawn = await draftOf(f.moved.id);
      expect([redrawn.id, redrawn.sid, redrawn.responseCode]).toEqual([old.id, old.sid, old.responseCode]);
      expect(redrawn.renderedAt.getTime()).toBeGreaterThan(old.renderedAt.getTime());
      expect(redrawn.recipientDigest).not.toBe(old.recipientDigest);
      expect([moved.sid, moved.responseCode]).toEqual([old.sid, old.responseCode]);
      const movedPdf = (await loadPiecePdf(prisma, moved.id))!;
      expect(Buffer.from(movedPdf).equals(Buffer.from(redrawn.pdf))).toBe(true);
      expect(Buffer.from(movedPdf).equals(Buffer.from(old.pdf))).toBe(false);
      // The piece's record says what was printed.
      expect((moved.recipient as { lines: string[] }).lines).toEqual(
        expect.arrayContaining(["742 Evergreen Terrace", "Springfield, IL 62704"]),
      );
      expect(JSON.stringify(moved.recipient)).not.toContain(f.oldStreet);
      if (hasPoppler) {
        const printed = text(movedPdf);
        expect(printed).toContain("742 Evergreen Terrace");
        expect(printed).toContain("Springfield, IL 62704");
        expect(printed).not.toContain(f.oldStreet);
        expect(printed).toContain("tier gold");
        expect(text(old.pdf)).toContain(f.oldStreet);
      }

      // The unchanged recipient: the draft's own PDF, not rendered again.
      const same = await piece(f.same.id);
      const kept = await draftOf(f.same.id);
      const was = f.before.get(f.same.id)!;
      expect(kept.renderedAt.getTime()).toBe(was.renderedAt.getTime());
      expect(Buffer.from(kept.pdf).equals(Buffer.from(was.pdf))).toBe(true);
      expect(Buffer.from((await loadPiecePdf(prisma, same.id))!).equals(Buffer.from(was.pdf))).toBe(true);
      expect(
        await prisma.mailPiece.findUniqueOrThrow({ where: { id: same.id }, select: { printDraftId: true } }),
      ).toEqual({ printDraftId: was.id });

      // A draft made before digests were kept is rendered again (same codes and recipient), and keeps a digest from now on.
      const legacy = await piece(f.legacy.id);
      const renewed = await draftOf(f.legacy.id);
      const legacyBefore = f.before.get(f.legacy.id)!;
      expect([legacy.sid, renewed.sid]).toEqual([legacyBefore.sid, legacyBefore.sid]);
      expect(renewed.renderedAt.getTime()).toBeGreaterThan(legacyBefore.renderedAt.getTime());
      expect(renewed.recipientDigest).toBe(legacyBefore.recipientDigest);
      expect(Buffer.from((await loadPiecePdf(prisma, legacy.id))!).equals(Buffer.from(renewed.pdf))).toBe(true);

      // Every piece charged once.
      expect(await prisma.mailPiece.count({ where: { campaignId: f.campaign.id } })).toBe(3);
      expect(await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).toMatchObject({
        spentCents: 3 * 120,
        reservedCents: 0,
      });
      // Nothing is out of date any more: each printed draft prints its recipient as they are.
      expect(await draftSummary(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id })).toMatchObject({
        recipientChanged: 0,
        recipientChangedSentence: null,
      });
    }, 120_000);
  }
});
