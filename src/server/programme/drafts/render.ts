import type { Design } from "@/generated/prisma/client";
import { brandForRender } from "@/server/programme/brand/service";
import type { Db } from "@/server/ground/db";
import { standardDesign } from "@/server/programme/designs/compose";
import { toDesignLike } from "@/server/programme/designs/service";
import { vendorPrintingAddress } from "@/server/programme/fulfilment/address-printing";
import type { CampaignRenderContext, RenderedDraft } from "./render-draft";

export { type CampaignRenderContext, type RenderedDraft, renderDraft } from "./render-draft";

/**
 * What rendering a campaign's pieces needs: the brand, the plan, the design and who prints the
 * address. Read one query after another: `db` may be a transaction (the lifecycle's step renders a
 * recipient's piece inside it), whose one connection must not be given a query while it runs one.
 */
export async function loadRenderContext(
  db: Db,
  p: { workspaceId: string; campaign: CampaignRenderContext["campaign"] & { design?: Design | null } },
): Promise<CampaignRenderContext> {
  const brand = await brandForRender(db, { workspaceId: p.workspaceId });
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true } });
  const design =
    p.campaign.design !== undefined
      ? p.campaign.design
      : p.campaign.designId
        ? await db.design.findFirst({ where: { id: p.campaign.designId, workspaceId: p.workspaceId } })
        : null;
  const printer = await db.campaign.findFirst({
    where: { id: p.campaign.id, workspaceId: p.workspaceId },
    select: { fulfilmentContract: { select: { vendor: true } } },
  });
  return {
    workspaceId: p.workspaceId,
    campaign: p.campaign,
    design: design ? toDesignLike(design) : standardDesign(p.campaign.format, Boolean(brand.logo)),
    brand,
    specimen: workspace.plan === "audit",
    addressPrintedBy: vendorPrintingAddress(printer?.fulfilmentContract?.vendor),
  };
}

/** The columns a rendered draft writes. */
export function draftData(r: RenderedDraft, now: Date) {
  return {
    blocks: r.blocks,
    overflowing: r.overflowing,
    missingData: r.missingData,
    missingFields: r.missingFields,
    issues: r.issues,
    specimen: r.specimen,
    sid: r.sid,
    responseCode: r.responseCode,
    pdf: new Uint8Array(r.pdf),
    pdfBytes: r.pdf.length,
    pages: r.pages,
    recipientDigest: r.recipientDigest,
    renderedAt: now,
  };
}
