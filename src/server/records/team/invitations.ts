import type { MembershipRole, PrismaClient } from "@/generated/prisma/client";
import { requireVerifiedEmail } from "@/server/ground/access/email-verified";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { randomBase62, sha256Hex } from "@/server/ground/platform/random";
import { enqueueEmail } from "@/server/records/email/outbox";
import { invitationEmail } from "@/server/records/email/templates/invitation";

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;
const TOKEN_PREFIX = "inv_";

export const hashInviteToken = (token: string) => sha256Hex(token);

/**
 * Invites `email` to the workspace with `role`, and queues the email with the link. A person who
 * has not verified their own address cannot invite; an address already a member is refused with
 * nothing written. A second invitation to the same address replaces the first (its link stops working).
 */
export async function inviteToWorkspace(
  db: PrismaClient,
  p: {
    workspaceId: string;
    inviter: { id: string; email: string; name: string };
    email: string;
    role: Exclude<MembershipRole, "owner">;
    approvalLimitCents?: number | null;
    actor: Actor;
    now?: Date;
  },
) {
  const now = p.now ?? new Date();
  await requireVerifiedEmail(db, p.inviter.id);
  const existing = await db.membership.findFirst({
    where: { workspaceId: p.workspaceId, user: { email: p.email } },
    select: { id: true },
  });
  if (existing)
    throw new AppError("conflict", `${p.email} is already a member of this workspace. Nothing was sent.`, {
      errors: [{ pointer: "/email", detail: "Already a member of this workspace." }],
    });
  const token = `${TOKEN_PREFIX}${randomBase62(32)}`;
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  const approvalLimitCents = p.role === "approver" ? (p.approvalLimitCents ?? null) : null;
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { name: true } });
  const write = async (tx: Db) => {
    await tx.invitation.updateMany({
      where: { workspaceId: p.workspaceId, email: p.email, acceptedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    const invitation = await tx.invitation.create({
      data: {
        workspaceId: p.workspaceId,
        email: p.email,
        role: p.role,
        approvalLimitCents,
        tokenHash: hashInviteToken(token),
        invitedByUserId: p.inviter.id,
        expiresAt,
      },
    });
    await enqueueEmail(tx, {
      ...invitationEmail({
        workspaceName: workspace.name,
        invitedBy: { name: p.inviter.name || p.inviter.email, email: p.inviter.email },
        role: p.role,
        approvalLimitCents,
        token,
        expiresAt,
      }),
      to: p.email,
      workspaceId: p.workspaceId,
    });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "team.invited",
      { type: "invitation", id: invitation.id },
      {
        email: p.email,
        role: p.role,
        approvalLimitCents,
      },
    );
    return invitation;
  };
  const invitation = await db.$transaction((tx) => write(tx));
  return { id: invitation.id, email: invitation.email, role: invitation.role, approvalLimitCents, expiresAt };
}

/** Withdraws a pending invitation: its link stops working at once. */
export async function revokeInvitation(db: Db, p: { workspaceId: string; invitationId: string; actor: Actor }) {
  const updated = await db.invitation.updateMany({
    where: { id: p.invitationId, workspaceId: p.workspaceId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (updated.count !== 1) throw new AppError("not_found", "No pending invitation with that id in this workspace.");
  await recordAudit(db, p.workspaceId, p.actor, "team.invitation_revoked", { type: "invitation", id: p.invitationId });
  return { id: p.invitationId, revoked: true };
}

/** Why a link no longer works, in a sentence; null while it does. */
function unusable(inv: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date) {
  if (inv.acceptedAt) return "This invitation has already been used. Sign in to reach the workspace.";
  if (inv.revokedAt) return "This invitation was withdrawn. Ask the person who invited you for a new one.";
  if (inv.expiresAt <= now) return "This invitation has expired. Ask the person who invited you for a new one.";
  return null;
}

const NOT_VALID = "This invitation link is not valid. Check that you opened the whole link from the email.";

/** What the invitation page shows before anyone accepts: the workspace, the role, the address, and whether it still works. */
export async function describeInvitation(db: Db, p: { token: string; now?: Date }) {
  const inv = await db.invitation.findUnique({
    where: { tokenHash: hashInviteToken(p.token) },
    include: { workspace: { select: { name: true } } },
  });
  if (!inv) throw new AppError("not_found", NOT_VALID);
  return {
    workspaceName: inv.workspace.name,
    email: inv.email,
    role: inv.role,
    approvalLimitCents: inv.approvalLimitCents,
    expiresAt: inv.expiresAt,
    problem: unusable(inv, p.now ?? new Date()),
  };
}

/**
 * The person `user` accepts the invitation the token names, in the caller's transaction: once
 * (a second or concurrent acceptance is refused), before it expires, and only with the invited
 * address. Returns the membership made.
 */
export async function acceptInvitationIn(
  tx: Db,
  p: { token: string; user: { id: string; email: string }; now?: Date },
) {
  const now = p.now ?? new Date();
  const inv = await tx.invitation.findUnique({ where: { tokenHash: hashInviteToken(p.token) } });
  if (!inv) throw new AppError("not_found", NOT_VALID);
  const problem = unusable(inv, now);
  if (problem) throw new AppError("invalid_state", problem);
  if (inv.email !== p.user.email.toLowerCase())
    throw new AppError(
      "forbidden",
      `This invitation is for ${inv.email}, not ${p.user.email}: use the invited address.`,
    );
  // The claim: of concurrent acceptances exactly one updates the row; the others find it used.
  const claimed = await tx.invitation.updateMany({
    where: { id: inv.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
    data: { acceptedAt: now, acceptedByUserId: p.user.id },
  });
  if (claimed.count !== 1)
    throw new AppError("invalid_state", "This invitation has already been used. Sign in to reach the workspace.");
  const member = await tx.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: inv.workspaceId, userId: p.user.id } },
  });
  if (member) throw new AppError("conflict", "You are already a member of this workspace.");
  const membership = await tx.membership.create({
    data: {
      workspaceId: inv.workspaceId,
      userId: p.user.id,
      role: inv.role,
      approvalLimitCents: inv.approvalLimitCents,
    },
  });
  // Opening the emailed link proves the address.
  await tx.user.updateMany({ where: { id: p.user.id, emailVerifiedAt: null }, data: { emailVerifiedAt: now } });
  await recordAudit(
    tx,
    inv.workspaceId,
    { kind: "user", id: p.user.id, label: p.user.email },
    "team.joined",
    { type: "invitation", id: inv.id },
    { role: inv.role },
  );
  return { workspaceId: inv.workspaceId, role: membership.role };
}
