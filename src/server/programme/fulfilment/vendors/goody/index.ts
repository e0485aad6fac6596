import type { Db } from "@/server/ground/db";
import { openConnection } from "../../connections";
import { goodyApiUrl } from "./api";
import { type GoodyGift, GoodyGiftVendor } from "./vendor";

/** The gift a piece ships as: its campaign's Goody product, from the brand kit's company (else the workspace). */
async function giftOfPiece(db: Db, pieceId: string): Promise<GoodyGift | null> {
  const piece = await db.mailPiece.findUnique({
    where: { id: pieceId },
    select: {
      workspaceId: true,
      campaign: { select: { giftProductId: true } },
      workspace: { select: { name: true, brandKit: { select: { companyName: true } } } },
    },
  });
  const productId = piece?.campaign?.giftProductId;
  if (!piece || !productId) return null;
  const fromName = piece.workspace.brandKit?.companyName?.trim() || piece.workspace.name;
  return { productId, fromName };
}

/** Goody's adapter over the workspace connections (GOODY_API_URL, else Goody's production API). */
export function goodyVendor(db: Db): GoodyGiftVendor {
  return new GoodyGiftVendor({
    baseUrl: goodyApiUrl(),
    account: (connectionId) => openConnection(db, connectionId),
    giftOf: (pieceId) => giftOfPiece(db, pieceId),
  });
}
