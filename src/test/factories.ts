import { randomBytes } from "node:crypto";
import type { MembershipRole, Plan, PrismaClient } from "@/generated/prisma/client";
import { hashPassword } from "@/server/records/auth/password";
import { contactKeys } from "@/server/records/contacts/keys";

export const uniq = (prefix = "t") => `${prefix}${randomBytes(5).toString("hex")}`;

let cachedHash: Promise<string> | undefined;
/** One real argon2 hash of "correct horse battery", reused to keep factories fast. */
export const TEST_PASSWORD = "correct horse battery";
const testPasswordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD));

/** A person who owns a fresh workspace of their own. */
export async function createOwnerWorkspace(prisma: PrismaClient, opts: { plan?: Plan; name?: string } = {}) {
  const tag = uniq();
  const user = await prisma.user.create({
    data: { email: `${tag}@example.test`, name: `Owner ${tag}`, passwordHash: await testPasswordHash() },
  });
  const workspace = await prisma.workspace.create({
    data: {
      name: opts.name ?? `Workspace ${tag}`,
      slug: `ws-${tag}`,
      plan: opts.plan ?? "paid",
      memberships: { create: { userId: user.id, role: "owner" } },
    },
  });
  return { user, workspace, workspaceId: workspace.id };
}

/** A person who joins an existing workspace with `role` (verified unless told otherwise). */
export async function addTeammate(
  prisma: PrismaClient,
  workspaceId: string,
  role: MembershipRole,
  opts: { approvalLimitCents?: number; verified?: boolean } = {},
) {
  const tag = uniq();
  const user = await prisma.user.create({
    data: {
      email: `${tag}@example.test`,
      name: `${role} ${tag}`,
      passwordHash: await testPasswordHash(),
      emailVerifiedAt: opts.verified === false ? null : new Date(),
    },
  });
  await prisma.membership.create({
    data: { workspaceId, userId: user.id, role, approvalLimitCents: opts.approvalLimitCents ?? null },
  });
  return user;
}

/** Accounts with contacts (full US addresses) and an audience holding all of them. */
export async function createAudience(
  prisma: PrismaClient,
  workspaceId: string,
  opts: { accounts?: number; perAccount?: number } = {},
) {
  const accounts = opts.accounts ?? 4;
  const perAccount = opts.perAccount ?? 2;
  const audience = await prisma.audience.create({ data: { workspaceId, name: `Audience ${uniq()}` } });
  const contacts = [];
  for (let a = 0; a < accounts; a++) {
    const domain = `${uniq("acct")}.example`;
    const account = await prisma.account.create({ data: { workspaceId, name: `Account ${a}`, domain } });
    for (let c = 0; c < perAccount; c++) {
      const contact = await prisma.contact.create({
        data: {
          workspaceId,
          accountId: account.id,
          firstName: `First${a}${c}`,
          lastName: "Tester",
          email: `p${c}@${domain}`,
          addressLine1: `${100 + a} Main St`,
          addressLine2: `Suite ${c + 1}`,
          city: "Boston",
          region: "MA",
          postalCode: "02116",
          country: "US",
          addressStatus: "deliverable",
          ...contactKeys({
            firstName: `First${a}${c}`,
            lastName: "Tester",
            addressLine1: `${100 + a} Main St`,
            addressLine2: `Suite ${c + 1}`,
            city: "Boston",
            region: "MA",
            postalCode: "02116",
            country: "US",
          }),
        },
      });
      await prisma.audienceMember.create({ data: { audienceId: audience.id, contactId: contact.id, workspaceId } });
      contacts.push(contact);
    }
  }
  return { audience, contacts };
}

/** The owner UI's tRPC API as the browser of `user` calls it (same procedures, checks and errors). */
export async function callerFor(
  prisma: PrismaClient,
  user: { id: string; email: string; name?: string | null } | null,
  headers: Record<string, string> = {},
) {
  const { createAppCaller } = await import("@/server/doors/routers");
  return createAppCaller({
    db: prisma,
    headers: new Headers(headers),
    getUser: async () => (user ? { id: user.id, email: user.email, name: user.name ?? "" } : null),
  });
}
