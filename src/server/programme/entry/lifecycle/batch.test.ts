import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { requestDraftGeneration } from "@/server/programme/drafts/service";
import { eraseContact } from "@/server/programme/erasure/erase-contact";
import { adapterFor } from "@/server/programme/fulfilment/registry";
import { loadPiecePdf } from "@/server/records/pieces/print-file";
import { testDatabase } from "@/test/database";
import { drainJobs } from "@/test/jobs";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const actor = { kind: "system" as const, id: null, label: "test" };

/** A live campaign whose drafts were rendered while it was a draft, for all but its last contact (who "joins later"). */
async function draftedCampaign() {
  const f = await liveCampaign(prisma, { accounts: 4, perAccount: 2, campaign: { status: "draft" } });
  const late = f.contacts[f.contacts.length - 1];
  await prisma.audienceMember.delete({
    where: { audienceId_contactId: { audienceId: f.audience.id, contactId: late.id } },
  });
  await requestDraftGeneration(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor });
  expect(await drainJobs(prisma, { workspaceId: f.workspaceId })).toEqual(["succeeded"]);
  await prisma.audienceMember.create({
    data: { audienceId: f.audience.id, contactId: late.id, workspaceId: f.workspaceId },
  });
  await prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "live" } });
  return { ...f, late };
}

describe("the lifecycle in batches", () => {
  it("prints each recipient's approved draft as it is, and renders a draft for a recipient who joined later outside the step", async () => {
    const f = await draftedCampaign();
    const before = new Map(
      (await prisma.draft.findMany({ where: { campaignId: f.campaign.id } })).map((d) => [d.contactId, d]),
    );
    expect(before.size).toBe(7);
    const events = await Promise.all(f.contacts.map((c) => postEvent(prisma, f, c.id)));
    await drain(prisma, testClock(), f.workspaceId);
    for (const e of events) {
      const row = await eventRow(prisma, e.eventId);
      expect(row.status).toBe("completed");
      const piece = row.enrollment!.mailPiece!;
      const draft =
        before.get(row.contactId!) ??
        (await prisma.draft.findUniqueOrThrow({
          where: { campaignId_contactId: { campaignId: f.campaign.id, contactId: row.contactId! } },
        }));
      // The printed piece is the draft: its codes, its copy, its print file and page count.
      expect([piece.sid, piece.responseCode, piece.pages, piece.status]).toEqual([
        draft.sid,
        draft.responseCode,
        draft.pages,
        "mailed",
      ]);
      expect(Buffer.from((await loadPiecePdf(prisma, piece.id))!).equals(Buffer.from(draft.pdf))).toBe(true);
      expect(piece.copy).toEqual({
        headline: (draft.blocks as Record<string, string>).headline,
        body: (draft.blocks as Record<string, string>).body,
        signOff: (draft.blocks as Record<string, string>).signOff,
      });
    }
    // The recipient who joined later now has a draft of their own, the one that was printed.
    expect(await prisma.draft.count({ where: { campaignId: f.campaign.id, contactId: f.late.id } })).toBe(1);
    const campaign = await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } });
    expect(campaign).toMatchObject({ spentCents: 8 * 120, reservedCents: 0 });
    expect(await prisma.sandboxPrintJob.count({ where: { workspaceId: f.workspaceId } })).toBe(8);
  }, 60_000);

  it("a batch whose vendor call fails is moved one event at a time: every event still ends once, with one piece and one charge", async () => {
    const f = await draftedCampaign();
    const events = await Promise.all(f.contacts.map((c) => postEvent(prisma, f, c.id)));
    let failures = 0;
    await drain(prisma, testClock(), f.workspaceId, {
      adapterFor: (vendor, db) => {
        const real = adapterFor(vendor, db);
        return {
          vendor,
          submit: (job) => real.submit(job),
          submitStored: async () => {
            failures++;
            throw new Error("the vendor's batch endpoint is down");
          },
        };
      },
    });
    expect(failures).toBeGreaterThan(0);
    const rows = await Promise.all(events.map((e) => eventRow(prisma, e.eventId)));
    expect(rows.map((r) => r.status)).toEqual(events.map(() => "completed"));
    expect(await prisma.mailPiece.count({ where: { campaignId: f.campaign.id } })).toBe(8);
    expect(await prisma.budgetReservation.count({ where: { campaignId: f.campaign.id, status: "charged" } })).toBe(8);
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).toMatchObject({
      spentCents: 8 * 120,
      reservedCents: 0,
    });
  }, 60_000);

  it("an event reads processing while the vendor has its piece, and enrolled once printed, looking again in an hour for the post", async () => {
    const f = await draftedCampaign();
    const events = await Promise.all(f.contacts.slice(0, 7).map((c) => postEvent(prisma, f, c.id)));
    const clock = testClock();
    const seen: string[] = [];
    await drain(prisma, clock, f.workspaceId, {
      adapterFor: (vendor, db) => {
        const real = adapterFor(vendor, db);
        return {
          vendor,
          submit: (job) => real.submit(job),
          // Printed today, not yet in the post: what a vendor answers before its tracking says mailed.
          submitStored: async (pieceIds) => {
            seen.push(
              ...(
                await prisma.entryEvent.findMany({
                  where: { id: { in: events.map((e) => e.eventId) } },
                  select: { status: true },
                })
              ).map((r) => r.status),
            );
            const jobs = await real.submitStored!(pieceIds);
            return new Map([...jobs].map(([id, job]) => [id, { ...job, mailedAt: null }]));
          },
        };
      },
    });
    // What a client polling an entry's status read during the vendor's call.
    expect(seen).toEqual(events.map(() => "processing"));
    for (const e of events) {
      const row = await eventRow(prisma, e.eventId);
      expect({
        status: row.status,
        attempts: row.attempts,
        locked: row.lockToken !== null,
        piece: row.enrollment!.mailPiece!.status,
        hold: row.enrollment!.reservation!.status,
      }).toEqual({ status: "enrolled", attempts: 0, locked: false, piece: "printed", hold: "held" });
      expect(row.runAfter.getTime() - clock.now().getTime()).toBeGreaterThan(3_500_000);
    }
  }, 60_000);

  it("stores each print file once: a piece prints its draft's file, keeps it when the draft changes or is deleted, and loses it when its contact is erased", async () => {
    const f = await draftedCampaign();
    const [a, b, c] = f.contacts;
    const events = await Promise.all([a, b, c].map((x) => postEvent(prisma, f, x.id)));
    await drain(prisma, testClock(), f.workspaceId);
    const pieces = await Promise.all(
      events.map(async (e) => (await eventRow(prisma, e.eventId)).enrollment!.mailPiece!),
    );
    const drafts = await Promise.all(
      [a, b, c].map((x) =>
        prisma.draft.findUniqueOrThrow({
          where: { campaignId_contactId: { campaignId: f.campaign.id, contactId: x.id } },
        }),
      ),
    );
    for (const [i, piece] of pieces.entries()) {
      // Not a copy: the piece refers to its draft, whose bytes are its print file.
      expect(
        await prisma.mailPiece.findUniqueOrThrow({
          where: { id: piece.id },
          select: { proofPdf: true, printDraftId: true },
        }),
      ).toEqual({ proofPdf: null, printDraftId: drafts[i].id });
      expect(Buffer.from((await loadPiecePdf(prisma, piece.id))!).equals(Buffer.from(drafts[i].pdf))).toBe(true);
    }
    // The draft's PDF written again: the piece keeps the file it was printed from, as its own.
    await prisma.draft.update({ where: { id: drafts[0].id }, data: { pdf: new Uint8Array([37, 80, 68, 70, 45]) } });
    expect(
      await prisma.mailPiece.findUniqueOrThrow({ where: { id: pieces[0].id }, select: { printDraftId: true } }),
    ).toEqual({ printDraftId: null });
    expect(Buffer.from((await loadPiecePdf(prisma, pieces[0].id))!).equals(Buffer.from(drafts[0].pdf))).toBe(true);
    // The draft deleted by itself: the same.
    await prisma.draft.delete({ where: { id: drafts[1].id } });
    expect(Buffer.from((await loadPiecePdf(prisma, pieces[1].id))!).equals(Buffer.from(drafts[1].pdf))).toBe(true);
    // The contact erased: their draft goes, and with it the piece's print file.
    await eraseContact(prisma, { workspaceId: f.workspaceId, contactId: c.id, actor });
    expect(
      await prisma.mailPiece.findUniqueOrThrow({
        where: { id: pieces[2].id },
        select: { proofPdf: true, printDraftId: true },
      }),
    ).toEqual({ proofPdf: null, printDraftId: null });
    expect(await prisma.draft.count({ where: { id: drafts[2].id } })).toBe(0);
  }, 60_000);
});
