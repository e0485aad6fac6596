import type { Db } from "@/server/ground/db";
import type { RecipientContact } from "@/server/programme/designs/recipient";
import { draftRecipientState } from "./recipient-digest";
import type { CampaignRenderContext } from "./render-draft";
import type { TDraftBlocks } from "./schema";

/**
 * The recipient's piece for the lifecycle: their approved draft as it was rendered (its PDF, text and
 * response codes), or, for a recipient who entered after drafts were made, a draft rendered now and
 * kept. A draft rendered under another plan (the specimen mark), or for a recipient whose contact
 * now prints differently (an address, name or merge field corrected since: ./recipient-digest.ts),
 * is rendered again for the contact as it is now, with the same copy and codes, and kept; a second
 * piece for the same recipient gets fresh response codes. `storedIn` names the draft
 * whose stored PDF is the one returned (null for a PDF rendered for this piece alone): the piece
 * prints that draft's file instead of a copy. The draft's row is locked (FOR SHARE) first, so its
 * PDF does not change before the caller's transaction ends. `contact` is the recipient as the
 * caller read it for the piece's address (so the piece's record and its print file agree); without
 * it the contact is read here. In a module of its own, which loads
 * the renderer only to render: the lifecycle's runner imports it, and most pieces print a draft
 * rendered before the campaign went live.
 */
export async function draftForPiece(
  db: Db,
  p: {
    workspaceId: string;
    campaign: {
      id: string;
      name: string;
      format: "postcard" | "letter" | "handwritten" | "gift";
      headline: string;
      bodyTemplate: string;
      signOff: string;
      designId: string | null;
    };
    contactId: string;
    plan: "audit" | "paid";
    now: Date;
    contact?: RecipientContact & { customFields?: unknown };
    /** What the campaign's renders share (brand kit, design), loaded once for the caller's many recipients: keyed by campaign. */
    renderContexts?: Map<string, Promise<CampaignRenderContext>>;
  },
) {
  const specimen = p.plan === "audit";
  await db.$queryRaw`SELECT id FROM "Draft" WHERE "campaignId" = ${p.campaign.id} AND "contactId" = ${p.contactId} FOR SHARE`;
  const draft = await db.draft.findUnique({
    where: { campaignId_contactId: { campaignId: p.campaign.id, contactId: p.contactId } },
  });
  const codesUsed = draft
    ? (await db.mailPiece.count({ where: { OR: [{ sid: draft.sid }, { responseCode: draft.responseCode }] } })) > 0
    : false;
  const contact =
    p.contact ??
    (await db.contact.findFirstOrThrow({
      where: { id: p.contactId, workspaceId: p.workspaceId },
      include: { account: { select: { name: true, domain: true } } },
    }));
  // Printed as it is only while it prints its recipient as they are now; a draft made before the
  // digest was kept (unknown) is rendered again too (why: recipient-digest.ts draftRecipientState).
  if (
    draft &&
    draft.specimen === specimen &&
    !codesUsed &&
    draftRecipientState(draft.recipientDigest, contact) === "current"
  ) {
    return {
      sid: draft.sid,
      responseCode: draft.responseCode,
      blocks: draft.blocks as Record<string, string>,
      pdf: Buffer.from(draft.pdf),
      pages: draft.pages,
      draftId: draft.id,
      storedIn: draft.id,
    };
  }
  // The renderer (fonts, layout, PDF: about 200 ms of a worker's CPU to load) only for a recipient without a draft that prints them as they are.
  const { draftData, loadRenderContext, renderDraft } = await import("./render");
  let loading = p.renderContexts?.get(p.campaign.id);
  if (!loading) {
    loading = loadRenderContext(db, { workspaceId: p.workspaceId, campaign: p.campaign });
    p.renderContexts?.set(p.campaign.id, loading);
  }
  const ctx = await loading;
  const rendered = await renderDraft(
    ctx,
    contact,
    (draft?.overrides as TDraftBlocks | null) ?? null,
    draft && !codesUsed ? { sid: draft.sid, responseCode: draft.responseCode } : undefined,
  );
  if (codesUsed)
    return {
      sid: rendered.sid,
      responseCode: rendered.responseCode,
      blocks: rendered.blocks,
      pdf: rendered.pdf,
      pages: rendered.pages,
      draftId: draft!.id,
      storedIn: null,
    };
  const data = draftData(rendered, p.now);
  const saved = await db.draft.upsert({
    where: { campaignId_contactId: { campaignId: p.campaign.id, contactId: p.contactId } },
    create: {
      workspaceId: p.workspaceId,
      campaignId: p.campaign.id,
      contactId: p.contactId,
      designId: p.campaign.designId,
      ...data,
    },
    update: data,
    select: { id: true },
  });
  return {
    sid: rendered.sid,
    responseCode: rendered.responseCode,
    blocks: rendered.blocks,
    pdf: rendered.pdf,
    pages: rendered.pages,
    draftId: saved.id,
    storedIn: saved.id,
  };
}
