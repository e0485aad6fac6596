import type { Campaign } from "@/generated/prisma/client";
import type { RenderBrand } from "@/server/programme/brand/service";
import { composePiece, type DesignLike } from "@/server/programme/designs/compose";
import { fieldsUsed } from "@/server/programme/designs/merge-fields";
import { isPoBox, type RecipientContact } from "@/server/programme/designs/recipient";
import { newResponseCode, newSid } from "@/server/programme/fulfilment/identifiers";
import { layoutPiece, piecePdf } from "@/server/ground/render";
import { recipientDigest } from "./recipient-digest";
import { responseLink } from "./response-link";
import type { TDraftBlocks } from "./schema";

/**
 * One recipient's draft from what the campaign shares: no database, so the drafts job can run it
 * on its render threads (./render-pool.ts) as well as on the calling thread.
 */

/** What every draft of one campaign shares, loaded once per batch. */
export interface CampaignRenderContext {
  workspaceId: string;
  campaign: Pick<Campaign, "id" | "name" | "format" | "headline" | "bodyTemplate" | "signOff" | "designId">;
  design: DesignLike;
  brand: RenderBrand;
  specimen: boolean;
  /** The campaign's print vendor, when it prints the address block itself (Lob); null for the sandbox. */
  addressPrintedBy: string | null;
}

export interface RenderedDraft {
  blocks: Record<string, string>;
  overflowing: boolean;
  missingData: boolean;
  missingFields: string[];
  issues: { block: string; kind: string; message: string }[];
  specimen: boolean;
  sid: string;
  responseCode: string;
  pdf: Buffer;
  pages: number;
  /** What it printed of its recipient (./recipient-digest.ts), kept on the draft: the lifecycle prints it only while its contact still gives the same. */
  recipientDigest: string;
}

/** Renders one recipient's piece: merge fields filled, their own copy if any, their response link in the QR code. */
export async function renderDraft(
  ctx: CampaignRenderContext,
  contact: RecipientContact,
  override: TDraftBlocks | null,
  codes?: { sid: string; responseCode: string },
): Promise<RenderedDraft> {
  const sid = codes?.sid ?? newSid();
  const responseCode = codes?.responseCode ?? newResponseCode();
  const url = responseLink(responseCode);
  const composed = composePiece({
    title: `${ctx.campaign.name}: ${contact.firstName} ${contact.lastName}`.trim(),
    brand: ctx.brand,
    design: ctx.design,
    campaignCopy: ctx.campaign,
    override,
    contact,
    response: { url: `${url}?via=qr`, label: url.replace(/^https?:\/\//, "") },
    specimen: ctx.specimen,
    addressPrintedBy: ctx.addressPrintedBy,
  });
  const rendered = layoutPiece(composed.input);
  const issues: RenderedDraft["issues"] = rendered.issues.map((i) => ({ ...i }));
  if (composed.missing.length) {
    issues.push({
      block: "recipient",
      kind: "missing_data",
      message: `No value for ${composed.missing.map((f) => `{{${f}}}`).join(", ")} and no fallback: the text has a gap there. Add a fallback such as {{${composed.missing[0]}|…}} or fill the contact's field.`,
    });
  }
  if (ctx.design.format === "gift" && isPoBox(contact)) {
    issues.push({
      block: "address",
      kind: "po_box",
      message: "The address is a PO box; gifts ship to a street address only, so this recipient will be skipped.",
    });
  }
  return {
    blocks: composed.blocks,
    overflowing: rendered.issues.some((i) => i.kind === "overflow"),
    missingData: composed.missing.length > 0 || issues.some((i) => i.kind === "po_box"),
    missingFields: composed.missing,
    issues,
    specimen: ctx.specimen,
    sid,
    responseCode,
    pdf: await piecePdf(rendered),
    pages: rendered.scene.pages.length,
    // From the very contact this render read, so the digest says what the PDF carries.
    recipientDigest: recipientDigest(contact, Object.values(composed.templates).flatMap(fieldsUsed)),
  };
}
