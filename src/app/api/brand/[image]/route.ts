import { getSessionUser } from "@/server/records/auth/session";
import { getBrandImage } from "@/server/programme/brand/service";
import { getDb } from "@/server/ground/db";
import { fileResponse, notFound } from "@/server/programme/designs/proof-access";
import { isIdShaped } from "@/server/ground/platform/stored-text";
import { imageAssetAsync } from "@/server/ground/render/images";

export const dynamic = "force-dynamic";

/** GET /api/brand/logo?workspaceId=… (or /signature): the brand kit's image as a PNG, for members (an SVG is rasterised, never served as SVG). */
export async function GET(req: Request, { params }: { params: Promise<{ image: string }> }) {
  const { image } = await params;
  if (image !== "logo" && image !== "signature") return notFound();
  const workspaceId = new URL(req.url).searchParams.get("workspaceId") ?? "";
  const user = await getSessionUser();
  const db = getDb();
  if (
    !user ||
    !isIdShaped(workspaceId) ||
    !(await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId: user.id } } }))
  )
    return notFound();
  const stored = await getBrandImage(db, { workspaceId, which: image });
  if (!stored) return notFound();
  const asset = await imageAssetAsync(stored.bytes, stored.type, 800);
  if (asset?.mime !== "image/png") return notFound();
  return fileResponse(asset.bytes, "image/png", `${image}.png`);
}
