import { AppError } from "@/server/ground/errors";
import type { Db } from "@/server/ground/db";
import { composePiece } from "@/server/programme/designs/compose";
import type { TGiftItem } from "@/server/programme/designs/gift-catalog";
import { loadRenderContext } from "@/server/programme/drafts/render";
import { responseLink } from "@/server/programme/drafts/response-link";
import { layoutPiece, piecePdf } from "@/server/ground/render";

/**
 * The piece's note card rendered again naming another gift (the one its recipient chose on the
 * claim page): the same design, brand kit, text as approved and response link; only the gift differs.
 */
export async function renderPieceWithGift(
  db: Db,
  p: { workspaceId: string; pieceId: string; giftItem: TGiftItem },
): Promise<Buffer> {
  const piece = await db.mailPiece.findFirstOrThrow({
    where: { id: p.pieceId, workspaceId: p.workspaceId },
    select: {
      copy: true,
      responseCode: true,
      contact: { include: { account: { select: { name: true, domain: true } } } },
      campaign: { include: { design: true } },
    },
  });
  if (!piece.contact)
    throw new AppError("invalid_state", "This piece's contact was deleted, so its gift is not printed.");
  const ctx = await loadRenderContext(db, { workspaceId: p.workspaceId, campaign: piece.campaign });
  const copy = (piece.copy ?? {}) as { headline?: string; body?: string; signOff?: string };
  const url = responseLink(piece.responseCode);
  const composed = composePiece({
    title: `${piece.campaign.name}: ${piece.contact.firstName} ${piece.contact.lastName}`.trim(),
    brand: ctx.brand,
    design: { ...ctx.design, giftItem: p.giftItem },
    campaignCopy: piece.campaign,
    contact: piece.contact,
    response: { url: `${url}?via=qr`, label: url.replace(/^https?:\/\//, "") },
    specimen: ctx.specimen,
  });
  // The text exactly as approved on the piece (it was filled for this recipient when it was made).
  const text = {
    ...composed.blocks,
    headline: copy.headline ?? composed.blocks.headline,
    body: copy.body ?? composed.blocks.body,
    signOff: copy.signOff ?? composed.blocks.signOff,
  };
  return piecePdf(layoutPiece({ ...composed.input, text }));
}
