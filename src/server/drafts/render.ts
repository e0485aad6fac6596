import type { Design } from "@/generated/prisma/client";
import { brandForRender } from "@/server/brand/service";
import type { Db } from "@/server/db";
import { standardDesign } from "@/server/designs/compose";
import { toDesignLike } from "@/server/designs/service";
import { vendorPrintingAddress } from "@/server/fulfilment/address-printing";
import type { CampaignRenderContext, RenderedDraft } from "./render-draft";

export { type CampaignRenderContext, type RenderedDraft, renderDraft, responseLink } from "./render-draft";

export async function loadRenderContext(db: Db, p: { workspaceId: string; campaign: CampaignRenderContext["campaign"] & { design?: Design | null } }): Promise<CampaignRenderContext> {
  const [brand, workspace, design, printer] = await Promise.all([
    brandForRender(db, { workspaceId: p.workspaceId }),
    db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true } }),
    p.campaign.design !== undefined ? Promise.resolve(p.campaign.design) : p.campaign.designId ? db.design.findFirst({ where: { id: p.campaign.designId, workspaceId: p.workspaceId } }) : Promise.resolve(null),
    db.campaign.findFirst({ where: { id: p.campaign.id, workspaceId: p.workspaceId }, select: { fulfilmentContract: { select: { vendor: true } } } }),
  ]);
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
    renderedAt: now,
  };
}
