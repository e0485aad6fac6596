import type { MembershipRole, PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";

/** The workspace's people with their roles, and the invitations still waiting. */
export async function listTeam(db: Db, p: { workspaceId: string; now?: Date }) {
  const now = p.now ?? new Date();
  const [members, invitations] = await Promise.all([
    db.membership.findMany({
      where: { workspaceId: p.workspaceId },
      select: {
        role: true,
        approvalLimitCents: true,
        createdAt: true,
        user: { select: { id: true, name: true, email: true, emailVerifiedAt: true } },
      },
      orderBy: { createdAt: "asc" },
    }),
    db.invitation.findMany({
      where: { workspaceId: p.workspaceId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      select: { id: true, email: true, role: true, approvalLimitCents: true, expiresAt: true, createdAt: true },
      orderBy: { createdAt: "desc" },
    }),
  ]);
  return {
    members: members.map((m) => ({
      userId: m.user.id,
      name: m.user.name,
      email: m.user.email,
      emailVerified: m.user.emailVerifiedAt != null,
      role: m.role,
      approvalLimitCents: m.approvalLimitCents,
      joinedAt: m.createdAt,
    })),
    invitations,
  };
}

async function requireMember(db: Db, workspaceId: string, userId: string) {
  const membership = await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
  if (!membership) throw new AppError("not_found", "That person is not a member of this workspace.");
  return membership;
}

const OWNER_FIXED =
  "The owner's role changes only by transferring ownership (the workspace always has exactly one owner).";

/** Gives a member another role (never the owner's: that is a transfer). */
export async function changeRole(
  db: Db,
  p: {
    workspaceId: string;
    userId: string;
    role: Exclude<MembershipRole, "owner">;
    approvalLimitCents?: number | null;
    actor: Actor;
  },
) {
  const membership = await requireMember(db, p.workspaceId, p.userId);
  if (membership.role === "owner") throw new AppError("invalid_state", OWNER_FIXED);
  const approvalLimitCents = p.role === "approver" ? (p.approvalLimitCents ?? null) : null;
  await db.membership.update({ where: { id: membership.id }, data: { role: p.role, approvalLimitCents } });
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "team.role_changed",
    { type: "user", id: p.userId },
    {
      from: membership.role,
      to: p.role,
      approvalLimitCents,
    },
  );
  return { userId: p.userId, role: p.role, approvalLimitCents };
}

/**
 * Removes a person from the workspace, at once: their sessions no longer reach it (every request
 * checks the membership), their agents' grants and tokens are revoked, and the API keys they made
 * are revoked or kept as the owner's. The owner cannot be removed.
 */
export async function removeMember(
  db: PrismaClient,
  p: { workspaceId: string; userId: string; keys: "revoke" | "hand_to_owner"; actor: Actor; now?: Date },
) {
  const now = p.now ?? new Date();
  return db.$transaction(async (tx) => {
    const membership = await requireMember(tx, p.workspaceId, p.userId);
    if (membership.role === "owner")
      throw new AppError("invalid_state", "The workspace's owner cannot be removed. Transfer ownership first.");
    await tx.membership.delete({ where: { id: membership.id } });
    const grants = await tx.oAuthGrant.findMany({
      where: { workspaceId: p.workspaceId, userId: p.userId, revokedAt: null },
      select: { id: true },
    });
    const grantIds = grants.map((g) => g.id);
    await tx.oAuthGrant.updateMany({ where: { id: { in: grantIds } }, data: { revokedAt: now } });
    await tx.oAuthToken.updateMany({ where: { grantId: { in: grantIds }, revokedAt: null }, data: { revokedAt: now } });
    const keyWhere = { workspaceId: p.workspaceId, createdByUserId: p.userId, revokedAt: null };
    let keys: number;
    if (p.keys === "revoke") {
      keys = (await tx.apiKey.updateMany({ where: keyWhere, data: { revokedAt: now, revokedByUserId: p.actor.id } }))
        .count;
    } else {
      const owner = await tx.membership.findFirstOrThrow({
        where: { workspaceId: p.workspaceId, role: "owner" },
        select: { userId: true },
      });
      keys = (await tx.apiKey.updateMany({ where: keyWhere, data: { createdByUserId: owner.userId } })).count;
    }
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "team.removed",
      { type: "user", id: p.userId },
      {
        role: membership.role,
        agentsRevoked: grantIds.length,
        apiKeys: { count: keys, handling: p.keys },
      },
    );
    return { userId: p.userId, removed: true, agentsRevoked: grantIds.length, apiKeys: keys, keyHandling: p.keys };
  });
}

/** The owner hands the workspace to another member, who becomes its owner; the former owner becomes an admin. */
export async function transferOwnership(
  db: PrismaClient,
  p: { workspaceId: string; fromUserId: string; toUserId: string; actor: Actor },
) {
  if (p.fromUserId === p.toUserId) throw new AppError("invalid_state", "You already own this workspace.");
  return db.$transaction(async (tx) => {
    const from = await requireMember(tx, p.workspaceId, p.fromUserId);
    if (from.role !== "owner") throw new AppError("forbidden", "Only the workspace owner can transfer ownership.");
    const to = await requireMember(tx, p.workspaceId, p.toUserId);
    await tx.membership.update({ where: { id: from.id }, data: { role: "admin", approvalLimitCents: null } });
    await tx.membership.update({ where: { id: to.id }, data: { role: "owner", approvalLimitCents: null } });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "team.ownership_transferred",
      { type: "user", id: p.toUserId },
      {
        from: p.fromUserId,
        previousRole: to.role,
      },
    );
    return { ownerUserId: p.toUserId, formerOwnerRole: "admin" as const };
  });
}
