import { printedName } from "@/server/records/addresses/scripts";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import { type PrismaClient, Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { addressBlock } from "@/server/programme/designs/recipient";
import { postalAddressOf } from "@/server/programme/fulfilment/addresses";
import { draftForPiece } from "@/server/programme/drafts/piece-draft";
import type { CampaignRenderContext } from "@/server/programme/drafts/render-draft";
import { draftRecipientState } from "@/server/programme/drafts/recipient-digest";
import { pieceCostCents } from "@/server/records/pieces/contract-price";
import type { RunnerDeps } from "./runner";
import { type BatchContact, batchContacts } from "./batch-contacts";
import { setEnrollmentStatus } from "./enrollment-status";
import { groupBy } from "./group-by";
import type { EventContext } from "./snapshot";

const byCampaign = (ctx: EventContext) => ctx.campaign.id;

/** A round's recipients sorted by their drafts (findPieceDrafts). */
export interface PieceDrafts {
  /** An approved draft for the workspace's plan, its codes on no piece yet: the piece is made from it. */
  ready: EventContext[];
  /** No draft for the plan (they entered after the drafts were made, or the plan changed since): rendered outside the transaction. */
  missing: EventContext[];
  /**
   * A draft that no longer prints its recipient as they are (their address, name or merge fields
   * changed since it was rendered, or it was rendered before drafts kept what they printed):
   * rendered again outside the transaction, as a missing one, with its copy and codes.
   */
  stale: EventContext[];
  /** The draft's codes are on a piece already (a second entry): the single path renders it with fresh codes. */
  repeat: EventContext[];
  /** The round's recipients as read once for their drafts, by contact id: insertPiecesFromDrafts writes each piece's address from the same read. */
  contacts: Map<string, BatchContact>;
}

/**
 * Sorts a round's recipients by their drafts, and locks the drafts FOR SHARE so none changes before
 * the pieces are written. Asked before the round's enrollments are written, so an enrollment whose
 * piece is made in the same round is written once, already in fulfilment (an update of a row its
 * own transaction inserted checks every foreign key again, and rewrites each of its indexes).
 *
 * Each recipient's draft and its codes' pieces are looked up one by one through their unique
 * indexes (LATERAL … LIMIT 1), whatever the planner believes of the tables' contents: joined as
 * sets, a campaign's drafts were read whole for every batch once its statistics were out of date
 * (20,000 drafts for 100 pieces), and the pieces scanned whole to check the codes.
 */
export async function findPieceDrafts(db: Db, ctxs: EventContext[]): Promise<PieceDrafts> {
  const out: PieceDrafts = { ready: [], missing: [], stale: [], repeat: [], contacts: new Map() };
  for (const group of groupBy(ctxs, byCampaign)) {
    const { campaign, event } = group[0];
    const drafts = new Map(
      (
        await hotSql<{ contactId: string; specimen: boolean; recipientDigest: string | null; used: boolean }>(
          db,
          Prisma.sql`
          SELECT d."contactId", d.specimen, d."recipientDigest", used.hit IS NOT NULL AS used
            FROM unnest(${group.map((c) => c.event.contactId)}::text[]) AS u("contactId")
            CROSS JOIN LATERAL (SELECT d."contactId", d.specimen, d."recipientDigest", d.sid, d."responseCode" FROM "Draft" d
                                 WHERE d."campaignId" = ${campaign.id} AND d."contactId" = u."contactId" LIMIT 1 FOR SHARE) d
            LEFT JOIN LATERAL (SELECT 1 AS hit FROM "MailPiece" m WHERE m.sid = d.sid OR m."responseCode" = d."responseCode" LIMIT 1) used ON true`,
        )
      ).map((d) => [d.contactId, d]),
    );
    const specimen = campaign.plan === "audit";
    const usable = group.filter((ctx) => {
      const draft = drafts.get(ctx.event.contactId);
      return draft && draft.specimen === specimen && !draft.used;
    });
    // The recipients of usable drafts, read once for the round: compared here with what their drafts
    // printed, and written as the pieces' addresses by insertPiecesFromDrafts (the statement it ran itself before).
    const contacts = usable.length
      ? await batchContacts(
          db,
          event.workspaceId,
          usable.map((c) => c.event.contactId),
        )
      : new Map<string, BatchContact>();
    for (const [id, contact] of contacts) out.contacts.set(id, contact);
    for (const ctx of group) {
      const draft = drafts.get(ctx.event.contactId);
      const contact = contacts.get(ctx.event.contactId);
      if (!draft || draft.specimen !== specimen) out.missing.push(ctx);
      else if (draft.used) out.repeat.push(ctx);
      // No such contact in the workspace: the render stage says so (and the event goes one at a time).
      else if (!contact) out.missing.push(ctx);
      // A draft made before its contact was corrected would print the old address: never printed
      // as it is. A draft without a digest (made before drafts kept one) cannot be shown current
      // cheaply, so it is rendered again too (recipient-digest.ts draftRecipientState).
      else if (draftRecipientState(draft.recipientDigest, contact) !== "current") out.stale.push(ctx);
      else out.ready.push(ctx);
    }
  }
  return out;
}

/**
 * Pieces for the recipients findPieceDrafts found ready, one statement per campaign: each piece
 * refers to its draft's print file (stored once, never copied), and its copy, page count and
 * response codes are copied by the database, with the address as printed, from the contacts
 * findPieceDrafts read (the same read its drafts were found current by). Their enrollments go
 * into fulfilment, except those `written` in fulfilment already (made in this round).
 */
export async function insertPiecesFromDrafts(
  db: Db,
  ready: EventContext[],
  contacts: Map<string, BatchContact>,
  now: Date,
  written: Set<string>,
) {
  /** Event id -> its new piece's id. */
  const prepared = new Map<string, string>();
  /** Enrollment id -> the price of its new piece (its budget hold, made next in the same round). */
  const costs = new Map<string, number>();
  for (const group of groupBy(ready, byCampaign)) {
    const { campaign } = group[0];
    const rows = group.map((ctx) => {
      const contact = contacts.get(ctx.event.contactId)!;
      const lines = addressBlock({ ...contact, company: contact.account?.name ?? null });
      const costCents = pieceCostCents(campaign, contact.country);
      return {
        enrollmentId: ctx.enrollmentId!,
        contactId: contact.id,
        costCents,
        recipient: {
          name: printedName(contact),
          lines,
          address: postalAddressOf({ ...contact, company: contact.account?.name ?? null }),
        },
      };
    });
    const inserted = await hotSql<{ id: string; enrollmentId: string }>(
      db,
      Prisma.sql`
      INSERT INTO "MailPiece" (id, "workspaceId", "campaignId", "enrollmentId", "contactId", sid, "responseCode", status, "costCents",
                               recipient, copy, "printDraftId", pages, vendor, "renderedAt", "createdAt", "updatedAt")
      SELECT 'pc_' || replace(gen_random_uuid()::text, '-', ''), d."workspaceId", d."campaignId", x."enrollmentId", d."contactId", d.sid, d."responseCode",
             'approved'::"MailPieceStatus", x."costCents", x.recipient,
             jsonb_build_object('headline', COALESCE(d.blocks->>'headline', ''), 'body', COALESCE(d.blocks->>'body', ''), 'signOff', COALESCE(d.blocks->>'signOff', '')),
             d.id, d.pages, ${campaign.contract?.vendor ?? "sandbox"}, ${now.toISOString()}::timestamptz AT TIME ZONE 'UTC', timezone('UTC', now()), timezone('UTC', now())
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x("enrollmentId" text, "contactId" text, "costCents" int, recipient jsonb)
        CROSS JOIN LATERAL (SELECT d.id, d."workspaceId", d."campaignId", d."contactId", d.sid, d."responseCode", d.blocks, d.pages FROM "Draft" d
                             WHERE d."campaignId" = ${campaign.id} AND d."contactId" = x."contactId" LIMIT 1) d
      RETURNING id, "enrollmentId"`,
    );
    // The drafts are locked since findPieceDrafts: each has its piece, or the step fails whole
    // (nothing written; its events go one at a time) rather than leave an enrollment in
    // fulfilment without one.
    if (inserted.length !== rows.length)
      throw new Error(`${rows.length - inserted.length} of ${rows.length} pieces found no draft to be made from`);
    const done = new Map(inserted.map((r) => [r.enrollmentId, r.id]));
    await setEnrollmentStatus(
      db,
      [...done.keys()].filter((id) => !written.has(id)),
      "in_fulfilment",
    );
    for (const ctx of group) prepared.set(ctx.event.id, done.get(ctx.enrollmentId!)!);
    for (const row of rows) costs.set(row.enrollmentId, row.costCents);
  }
  return { prepared, costs };
}

/**
 * The render stage: each recipient's draft rendered and kept (a recipient without one, or whose
 * draft no longer prints them as they are: draftForPiece renders it again for the contact as it is
 * now, with its copy and codes), outside any transaction and without the event's lock (rendering is
 * the slowest thing the lifecycle does), so the next step finds it approved and current and makes
 * the piece from it. A recipient whose render fails goes one at a time.
 */
export async function renderMissingDrafts(
  prisma: PrismaClient,
  ctxs: EventContext[],
  now: Date,
  deps: Pick<RunnerDeps, "log">,
) {
  const done: string[] = [];
  const failed: string[] = [];
  // The brand kit (with its images) and the design read once per campaign, not once per recipient.
  const renderContexts = new Map<string, Promise<CampaignRenderContext>>();
  for (const ctx of ctxs) {
    try {
      await draftForPiece(prisma, {
        workspaceId: ctx.event.workspaceId,
        campaign: ctx.campaign,
        contactId: ctx.event.contactId,
        plan: ctx.campaign.plan,
        now,
        renderContexts,
      });
      done.push(ctx.event.id);
    } catch (error) {
      deps.log(`rendering the draft of event ${ctx.event.id} failed`, error);
      failed.push(ctx.event.id);
    }
  }
  return { done, failed };
}
