import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";

/**
 * The user's membership of a workspace. A workspace the user does not belong to is reported as
 * not found, exactly like one that does not exist.
 */
export async function requireMembership(db: Db, params: { userId: string; workspaceId: string }) {
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: params.workspaceId, userId: params.userId } },
    select: {
      role: true,
      approvalLimitCents: true,
      workspace: { select: { id: true, name: true, plan: true, slug: true } },
    },
  });
  if (!membership) throw new AppError("not_found", "No such workspace.");
  return membership;
}
