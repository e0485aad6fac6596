import { hotSql } from "@/server/platform/hot-transaction";
import { type PrismaClient, Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db";
import { addressBlock } from "@/server/designs/recipient";
import { postalAddressOf } from "@/server/fulfilment/addresses";
import { draftForPiece } from "@/server/drafts/service";
import { pricePerPiece } from "@/server/fulfilment/prices";
import type { RunnerDeps } from "./runner";
import { batchContacts } from "./batch-contacts";
import { setEnrollmentStatus } from "./enrollment-status";
import type { EventContext } from "./snapshot";

/**
 * Pieces for a batch's recipients from their approved drafts, one statement per campaign: each
 * piece refers to its draft's print file (stored once, never copied; the drafts are locked FOR
 * SHARE so none changes before the pieces are written), and its copy, page count and response
 * codes are copied by the database, with the address as printed. Recipients without a draft for
 * the workspace's plan (they entered after the drafts were made, or the plan changed since) are
 * `missing`: the batch renders theirs outside its transaction. A recipient whose draft's codes a
 * piece already carries (a second entry) is a `repeat`: the single path renders it with fresh codes.
 */
export async function preparePiecesFromDrafts(db: Db, ctxs: EventContext[], now: Date) {
  /** Event id -> its new piece's id. */
  const prepared = new Map<string, string>();
  /** Enrollment id -> the price of its new piece (its budget hold, made next in the same round). */
  const costs = new Map<string, number>();
  const missing: EventContext[] = [];
  const repeat: EventContext[] = [];
  const byCampaign = new Map<string, EventContext[]>();
  for (const ctx of ctxs) byCampaign.set(ctx.campaign.id, [...(byCampaign.get(ctx.campaign.id) ?? []), ctx]);
  for (const group of byCampaign.values()) {
    const { campaign, event } = group[0];
    const contactIds = group.map((c) => c.event.contactId);
    const drafts = new Map(
      (
        await hotSql<{ contactId: string; specimen: boolean; used: boolean }>(db, Prisma.sql`
          SELECT d."contactId", d.specimen,
                 EXISTS (SELECT 1 FROM "MailPiece" m WHERE m.sid = d.sid) OR EXISTS (SELECT 1 FROM "MailPiece" m WHERE m."responseCode" = d."responseCode") AS used
            FROM "Draft" d WHERE d."campaignId" = ${campaign.id} AND d."contactId" = ANY(${contactIds}::text[])
             FOR SHARE OF d`)
      ).map((d) => [d.contactId, d]),
    );
    const specimen = campaign.plan === "audit";
    const ready: EventContext[] = [];
    for (const ctx of group) {
      const draft = drafts.get(ctx.event.contactId);
      if (!draft || draft.specimen !== specimen) missing.push(ctx);
      else if (draft.used) repeat.push(ctx);
      else ready.push(ctx);
    }
    if (ready.length === 0) continue;
    const contacts = await batchContacts(db, event.workspaceId, ready.map((c) => c.event.contactId));
    const rows = ready.map((ctx) => {
      const contact = contacts.get(ctx.event.contactId)!;
      const lines = addressBlock({ ...contact, company: contact.account?.name ?? null });
      const costCents = campaign.contract ? pricePerPiece(campaign.contract, contact.country) : 0;
      return { enrollmentId: ctx.enrollmentId!, contactId: contact.id, costCents, recipient: { name: `${contact.firstName} ${contact.lastName}`, lines, address: postalAddressOf({ ...contact, company: contact.account?.name ?? null }) } };
    });
    const inserted = await hotSql<{ id: string; enrollmentId: string }>(db, Prisma.sql`
      INSERT INTO "MailPiece" (id, "workspaceId", "campaignId", "enrollmentId", "contactId", sid, "responseCode", status, "costCents",
                               recipient, copy, "printDraftId", pages, vendor, "renderedAt", "createdAt", "updatedAt")
      SELECT 'pc_' || replace(gen_random_uuid()::text, '-', ''), d."workspaceId", d."campaignId", x."enrollmentId", d."contactId", d.sid, d."responseCode",
             'approved'::"MailPieceStatus", x."costCents", x.recipient,
             jsonb_build_object('headline', COALESCE(d.blocks->>'headline', ''), 'body', COALESCE(d.blocks->>'body', ''), 'signOff', COALESCE(d.blocks->>'signOff', '')),
             d.id, d.pages, ${campaign.contract?.vendor ?? "sandbox"}, ${now.toISOString()}::timestamptz AT TIME ZONE 'UTC', timezone('UTC', now()), timezone('UTC', now())
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x("enrollmentId" text, "contactId" text, "costCents" int, recipient jsonb)
        JOIN "Draft" d ON d."campaignId" = ${campaign.id} AND d."contactId" = x."contactId"
      RETURNING id, "enrollmentId"`);
    const done = new Map(inserted.map((r) => [r.enrollmentId, r.id]));
    await setEnrollmentStatus(db, [...done.keys()], "in_fulfilment");
    for (const ctx of ready) if (done.has(ctx.enrollmentId!)) prepared.set(ctx.event.id, done.get(ctx.enrollmentId!)!);
    for (const row of rows) costs.set(row.enrollmentId, row.costCents);
  }
  return { prepared, costs, missing, repeat };
}

/**
 * The render stage: each recipient's draft rendered and kept, outside any transaction and without
 * the event's lock (rendering is the slowest thing the lifecycle does), so the next step finds it
 * approved and makes the piece from it. A recipient whose render fails goes one at a time.
 */
export async function renderMissingDrafts(prisma: PrismaClient, ctxs: EventContext[], now: Date, deps: Pick<RunnerDeps, "log">) {
  const done: string[] = [];
  const failed: string[] = [];
  for (const ctx of ctxs) {
    try {
      await draftForPiece(prisma, { workspaceId: ctx.event.workspaceId, campaign: ctx.campaign, contactId: ctx.event.contactId, plan: ctx.campaign.plan, now });
      done.push(ctx.event.id);
    } catch (error) {
      deps.log(`rendering the draft of event ${ctx.event.id} failed`, error);
      failed.push(ctx.event.id);
    }
  }
  return { done, failed };
}
