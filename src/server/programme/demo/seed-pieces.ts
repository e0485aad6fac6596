import type { Campaign } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { addressBlock } from "@/server/programme/designs/recipient";
import { draftData, loadRenderContext, renderDraft } from "@/server/programme/drafts/render";
import { sandboxTrackingEvents } from "@/server/programme/fulfilment/sandbox-post";
import { recordTracking } from "@/server/programme/fulfilment/tracking";

const DAY = 86_400_000;

/**
 * Pieces the demo's live API-entry campaign already sent to treatment-arm contacts a week ago
 * (so their sids can be reported against, and the frequency cap has something to count), with the
 * sandbox post's tracking events up to delivery (or a return to the sender). On the
 * audit plan they are drafts: rendered, never mailed. Sids and codes come from `derive`, so the
 * seed prints the same ones on every run.
 */
export async function seedPieces(
  db: Db,
  p: {
    workspaceId: string;
    plan: "audit" | "paid";
    campaign: Campaign;
    candidates: string[];
    count: number;
    derive: (label: string, length: number) => string;
    /** Mailed this many days ago (default 7). */
    daysAgo?: number;
    /** The post returned these pieces to the sender instead of delivering them. */
    returned?: boolean;
  },
) {
  const treatment = await db.holdoutAssignment.findMany({
    where: { campaignId: p.campaign.id, arm: "treatment" },
    select: { accountId: true },
  });
  const contacts = await db.contact.findMany({
    where: { id: { in: p.candidates }, accountId: { in: treatment.map((t) => t.accountId) } },
    include: { account: true },
    orderBy: { crmId: "asc" },
    take: p.count,
  });
  const ctx = await loadRenderContext(db, { workspaceId: p.workspaceId, campaign: p.campaign });
  const contract = p.campaign.fulfilmentContractId
    ? await db.fulfilmentContract.findUnique({ where: { id: p.campaign.fulfilmentContractId } })
    : null;
  const now = new Date();
  const mailedAt = new Date(now.getTime() - (p.daysAgo ?? 7) * DAY);
  const pieces: { contactId: string; sid: string; responseCode: string }[] = [];
  for (const contact of contacts) {
    const sid = p.derive(`sid:${contact.crmId}`, 16);
    const responseCode = p.derive(`code:${contact.crmId}`, 10);
    pieces.push({ contactId: contact.id, sid, responseCode });
    if (await db.mailPiece.findUnique({ where: { sid }, select: { id: true } })) continue;
    const recipient = { ...contact, company: contact.account?.name ?? null };
    const lines = addressBlock(recipient);
    const draft = await renderDraft(ctx, contact, null, { sid, responseCode });
    const copy = { headline: draft.blocks.headline, body: draft.blocks.body, signOff: draft.blocks.signOff };
    // The recipient's draft, as the lifecycle keeps it (drafts/piece-draft.ts draftForPiece): the
    // campaign's drafts list shows it, and the piece refers to its print file instead of a copy.
    // Rendered now, by the seed, after the campaign and brand kit it made: not out of date.
    // A draft already there with other codes (a lifecycle run before this seed) is not this piece's print file: the piece keeps its own.
    const saved = await db.draft.upsert({
      where: { campaignId_contactId: { campaignId: p.campaign.id, contactId: contact.id } },
      create: {
        workspaceId: p.workspaceId,
        campaignId: p.campaign.id,
        contactId: contact.id,
        designId: p.campaign.designId,
        ...draftData(draft, now),
      },
      update: {},
      select: { id: true, sid: true },
    });
    const printFile = saved.sid === sid ? { printDraftId: saved.id } : { proofPdf: new Uint8Array(draft.pdf) };
    const mailed = p.plan === "paid";
    // A mailed piece came the way every piece comes: an entry event posted for its contact, its
    // treatment enrollment, then the piece. So the campaign's events table, Results and the status
    // read count it like any other (a rendered draft on the audit plan has no entry behind it).
    const enrollmentId = mailed
      ? await seedEntry(db, {
          workspaceId: p.workspaceId,
          campaignId: p.campaign.id,
          contact,
          key: p.derive(`event:${contact.crmId}`, 16),
          at: mailedAt,
        })
      : null;
    const piece = await db.mailPiece.create({
      data: {
        enrollmentId,
        workspaceId: p.workspaceId,
        campaignId: p.campaign.id,
        contactId: contact.id,
        sid,
        responseCode,
        status: mailed ? "mailed" : "rendered",
        costCents: contract?.unitCostCents ?? 0,
        recipient: { name: `${contact.firstName} ${contact.lastName}`, lines },
        copy: { ...copy },
        ...printFile,
        renderedAt: mailedAt,
        printedAt: mailed ? mailedAt : null,
        mailedAt: mailed ? mailedAt : null,
        createdAt: mailedAt,
      },
    });
    if (mailed) {
      await db.$executeRaw`UPDATE "Campaign" SET "spentCents" = "spentCents" + ${contract?.unitCostCents ?? 0} WHERE id = ${p.campaign.id}`;
      // The sandbox post's events, a real day apart: delivered on the fifth day, or returned on the sixth.
      await recordTracking(db, {
        workspaceId: p.workspaceId,
        pieceId: piece.id,
        events: sandboxTrackingEvents({ pieceId: piece.id, mailedAt, returns: !!p.returned, now, dayMs: DAY }),
        now,
      });
    }
  }
  return pieces;
}

/** The completed entry event and the mailed treatment enrollment behind a demo piece; returns the enrollment's id. */
async function seedEntry(
  db: Db,
  p: {
    workspaceId: string;
    campaignId: string;
    contact: { id: string; accountId: string | null };
    key: string;
    at: Date;
  },
) {
  const event = await db.entryEvent.create({
    data: {
      workspaceId: p.workspaceId,
      campaignId: p.campaignId,
      contactId: p.contact.id,
      source: "api",
      idempotencyKey: `demo-signup-${p.key}`,
      fingerprint: "demo",
      occurredAt: new Date(p.at.getTime() - 3_600_000),
      status: "completed",
      completedAt: p.at,
      createdAt: new Date(p.at.getTime() - 3_600_000),
    },
  });
  const enrollment = await db.enrollment.create({
    data: {
      workspaceId: p.workspaceId,
      campaignId: p.campaignId,
      contactId: p.contact.id,
      accountId: p.contact.accountId,
      entryEventId: event.id,
      arm: "treatment",
      status: "mailed",
      createdAt: p.at,
    },
  });
  return enrollment.id;
}
