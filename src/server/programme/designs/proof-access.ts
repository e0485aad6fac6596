import { getSessionUser } from "@/server/records/auth/session";
import type { Db } from "@/server/ground/db";
import { isIdShaped } from "@/server/ground/platform/stored-text";
import { type ProofTarget, verifyProofLink } from "./proof-links";

/**
 * Who may open a proof: a signed-in member of its workspace, or anyone holding an unexpired signed
 * link (what agents are given). Anything else gets the same plain 404 as a missing proof.
 */
export async function mayOpenProof(
  db: Db,
  req: Request,
  target: Omit<ProofTarget, "workspaceId">,
): Promise<string | null> {
  const url = new URL(req.url);
  const workspaceId = url.searchParams.get("workspaceId") ?? "";
  // Ids no record can have are simply not found: they never reach the database.
  if (![workspaceId, target.id, ...(target.contactId ? [target.contactId] : [])].every(isIdShaped)) return null;
  const full = { ...target, workspaceId };
  if (await verifyProofLink(db, full, url.searchParams.get("expires"), url.searchParams.get("signature")))
    return workspaceId;
  const user = await getSessionUser();
  if (!user) return null;
  const member = await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId: user.id } } });
  return member ? workspaceId : null;
}

export const notFound = () =>
  new Response("Not found.", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

export function fileResponse(bytes: Buffer, type: "application/pdf" | "image/png", filename: string) {
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": type,
      "Content-Disposition": `inline; filename="${filename}"`,
      "Cache-Control": "private, max-age=60",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
