import type { MembershipRole } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { ConfigError } from "@/server/ground/platform/config";
import { hashInviteToken, INVITATION_DAYS } from "@/server/records/team/invitations";

/** The demo's team beside the owner: one person per role, and one invitation still waiting. */
const TEAM: { email: string; name: string; role: Exclude<MembershipRole, "owner">; approvalLimitCents?: number }[] = [
  { email: "admin@acme.example", name: "Priya Natarajan", role: "admin" },
  { email: "approver@acme.example", name: "Jordan Blake", role: "approver", approvalLimitCents: 50_000 },
  { email: "member@acme.example", name: "Chris Okafor", role: "member" },
  { email: "viewer@acme.example", name: "Dana Lindqvist", role: "viewer" },
];
const INVITED = { email: "newhire@acme.example", role: "member" as const };

export interface DemoTeam {
  /** Each signs in with the owner's demo password. */
  members: { email: string; role: MembershipRole }[];
  /** Open {base_url}/invite/{token} to accept it as INVITED.email. */
  pendingInvitation: { email: string; role: MembershipRole; token: string };
}

export async function seedTeam(
  db: Db,
  p: { workspaceId: string; ownerId: string; passwordHash: string; derive: (label: string, length: number) => string },
): Promise<DemoTeam> {
  const now = new Date();
  // The owner may invite: a demo address counts as verified.
  await db.user.updateMany({ where: { id: p.ownerId, emailVerifiedAt: null }, data: { emailVerifiedAt: now } });
  for (const person of TEAM) {
    const existing = await db.user.findUnique({
      where: { email: person.email },
      include: { memberships: { include: { workspace: { select: { isDemo: true } } } } },
    });
    if (existing?.memberships.some((m) => !m.workspace.isDemo))
      throw new ConfigError(
        `The demo seed stops: ${person.email} is a real user's account, and the seed never changes real accounts.`,
      );
    const user = await db.user.upsert({
      where: { email: person.email },
      create: { email: person.email, name: person.name, passwordHash: p.passwordHash, emailVerifiedAt: now },
      update: { passwordHash: p.passwordHash },
    });
    const limit = person.approvalLimitCents ?? null;
    await db.membership.upsert({
      where: { workspaceId_userId: { workspaceId: p.workspaceId, userId: user.id } },
      create: { workspaceId: p.workspaceId, userId: user.id, role: person.role, approvalLimitCents: limit },
      update: { role: person.role, approvalLimitCents: limit },
    });
  }
  const token = `inv_${p.derive("invitation", 32)}`;
  const tokenHash = hashInviteToken(token);
  // Kept pending: a run renews its expiry, and re-opens it if someone accepted it on an earlier run.
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  await db.invitation.upsert({
    where: { tokenHash },
    create: {
      workspaceId: p.workspaceId,
      email: INVITED.email,
      role: INVITED.role,
      tokenHash,
      invitedByUserId: p.ownerId,
      expiresAt,
    },
    update: { expiresAt, acceptedAt: null, acceptedByUserId: null, revokedAt: null },
  });
  return {
    members: TEAM.map((t) => ({ email: t.email, role: t.role })),
    pendingInvitation: { ...INVITED, token },
  };
}
