import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { hashToken } from "@/server/records/oauth/authorize";
import { verifyAccessToken } from "@/server/records/oauth/tokens";
import { testDatabase } from "@/test/database";
import { addTeammate, callerFor, createOwnerWorkspace, TEST_PASSWORD, uniq } from "@/test/factories";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code: string; message: string }) => e,
  );

/** A workspace whose owner has verified their address, so they may invite. */
async function team() {
  const o = await createOwnerWorkspace(prisma);
  await prisma.user.update({ where: { id: o.user.id }, data: { emailVerifiedAt: new Date() } });
  return { ...o, api: await callerFor(prisma, o.user) };
}

/** The token in the invitation email last queued for `email`. */
async function emailedToken(email: string) {
  const message = await prisma.emailMessage.findFirstOrThrow({
    where: { to: email, kind: "invitation" },
    orderBy: { createdAt: "desc" },
  });
  const link = /https?:\/\/\S+\/invite\/(inv_[A-Za-z0-9]+)/.exec(message.text);
  expect(link, message.text).not.toBeNull();
  return link?.[1] ?? "";
}

const written = async (workspaceId: string) => ({
  invitations: await prisma.invitation.count({ where: { workspaceId } }),
  emails: await prisma.emailMessage.count({ where: { workspaceId } }),
  members: await prisma.membership.count({ where: { workspaceId } }),
});

describe("team invitations", () => {
  it("emails a single-use link that a new person signs up through, joining with the role and no workspace of their own", async () => {
    const t = await team();
    const email = `${uniq()}@example.test`;
    const invited = await t.api.team.invite({
      workspaceId: t.workspaceId,
      email: email.toUpperCase(),
      role: "approver",
      approvalLimitCents: 50_000,
    });
    expect(invited).toMatchObject({ email, role: "approver", approvalLimitCents: 50_000 });
    expect(invited.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const listed = await t.api.team.members({ workspaceId: t.workspaceId });
    expect(listed.invitations.map((i) => i.email)).toEqual([email]);
    const token = await emailedToken(email);

    const anon = await callerFor(prisma, null);
    expect(await anon.team.invitation({ token })).toMatchObject({ email, role: "approver", problem: null });
    const joined = await anon.auth.signUp({ name: "Ada", email, password: TEST_PASSWORD, inviteToken: token });
    expect(joined.workspaceId).toBe(t.workspaceId);
    const user = await prisma.user.findUniqueOrThrow({ where: { email }, include: { memberships: true } });
    expect(user.memberships).toMatchObject([
      { workspaceId: t.workspaceId, role: "approver", approvalLimitCents: 50_000 },
    ]);
    expect(user.emailVerifiedAt).not.toBeNull();

    // Used once: a second sign-up through it is refused and creates no one.
    const again = await refusal(
      anon.auth.signUp({ name: "Eve", email: `${uniq()}@example.test`, password: TEST_PASSWORD, inviteToken: token }),
    );
    expect(again).toMatchObject({
      code: "CONFLICT",
      message: "This invitation has already been used. Sign in to reach the workspace.",
    });
    expect(await prisma.user.count({ where: { name: "Eve" } })).toBe(0);
    expect((await t.api.team.members({ workspaceId: t.workspaceId })).invitations).toEqual([]);
  });

  it("refuses an expired link, one for another address and an unknown one, writing nothing", async () => {
    const t = await team();
    const email = `${uniq()}@example.test`;
    await t.api.team.invite({ workspaceId: t.workspaceId, email, role: "member" });
    const token = await emailedToken(email);
    const other = await createOwnerWorkspace(prisma);
    const wrong = await refusal((await callerFor(prisma, other.user)).team.accept({ token }));
    expect(wrong).toMatchObject({
      code: "FORBIDDEN",
      message: `This invitation is for ${email}, not ${other.user.email}: use the invited address.`,
    });

    await prisma.invitation.updateMany({
      where: { workspaceId: t.workspaceId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const anon = await callerFor(prisma, null);
    const expired = await refusal(
      anon.auth.signUp({ name: "Late", email, password: TEST_PASSWORD, inviteToken: token }),
    );
    expect(expired).toMatchObject({
      code: "CONFLICT",
      message: "This invitation has expired. Ask the person who invited you for a new one.",
    });
    expect(await prisma.user.count({ where: { email } })).toBe(0);

    const unknown = await refusal(
      anon.auth.signUp({ name: "X", email, password: TEST_PASSWORD, inviteToken: "inv_nope" }),
    );
    expect(unknown).toMatchObject({ code: "NOT_FOUND" });
    expect(await prisma.user.count({ where: { email } })).toBe(0);
    expect(await prisma.membership.count({ where: { workspaceId: t.workspaceId } })).toBe(1);
  });

  it("refuses bad invitations with a clear 4xx and nothing written", async () => {
    const t = await team();
    const member = await addTeammate(prisma, t.workspaceId, "member");
    const before = await written(t.workspaceId);

    const already = await refusal(
      t.api.team.invite({ workspaceId: t.workspaceId, email: member.email, role: "viewer" }),
    );
    expect(already).toMatchObject({
      code: "CONFLICT",
      message: `${member.email} is already a member of this workspace. Nothing was sent.`,
    });

    for (const role of ["owner", "boss"]) {
      const bad = await refusal(
        t.api.team.invite({ workspaceId: t.workspaceId, email: "x@example.test", role: role as "admin" }),
      );
      expect(bad?.code).toBe("BAD_REQUEST");
      expect(bad?.message).toContain(
        "role must be one of admin, approver, member, viewer (the owner's role comes only by transferring ownership).",
      );
    }

    const byMember = await refusal(
      (await callerFor(prisma, member)).team.invite({
        workspaceId: t.workspaceId,
        email: "y@example.test",
        role: "viewer",
      }),
    );
    expect(byMember).toMatchObject({
      code: "FORBIDDEN",
      message: "This needs the admin role or higher (owner, admin); you are a member in this workspace.",
    });

    const unverified = await createOwnerWorkspace(prisma);
    const fresh = await refusal(
      (await callerFor(prisma, unverified.user)).team.invite({
        workspaceId: unverified.workspaceId,
        email: "z@example.test",
        role: "viewer",
      }),
    );
    expect(fresh).toMatchObject({
      code: "FORBIDDEN",
      message: "Verify your email address before you invite anyone: open the verification link we emailed you.",
    });
    expect(await written(unverified.workspaceId)).toEqual({ invitations: 0, emails: 0, members: 1 });
    expect(await written(t.workspaceId)).toEqual(before);
  });

  it("makes one membership from parallel acceptances of one invitation", async () => {
    const t = await team();
    const person = await createOwnerWorkspace(prisma);
    await t.api.team.invite({ workspaceId: t.workspaceId, email: person.user.email, role: "viewer" });
    const token = await emailedToken(person.user.email);
    const api = await callerFor(prisma, person.user);
    const results = await Promise.allSettled([1, 2, 3, 4].map(() => api.team.accept({ token })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "CONFLICT" });
    expect(await prisma.membership.count({ where: { workspaceId: t.workspaceId, userId: person.user.id } })).toBe(1);
  });

  it("withdraws an invitation: its link stops working", async () => {
    const t = await team();
    const email = `${uniq()}@example.test`;
    const inv = await t.api.team.invite({ workspaceId: t.workspaceId, email, role: "viewer" });
    const token = await emailedToken(email);
    await t.api.team.revokeInvite({ workspaceId: t.workspaceId, invitationId: inv.id });
    const anon = await callerFor(prisma, null);
    expect(await anon.team.invitation({ token })).toMatchObject({
      problem: "This invitation was withdrawn. Ask the person who invited you for a new one.",
    });
    expect(await refusal(t.api.team.revokeInvite({ workspaceId: t.workspaceId, invitationId: inv.id }))).toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("team members", () => {
  it("removing a member ends their access at once: sessions, agents and the API keys they made", async () => {
    const t = await team();
    const admin = await addTeammate(prisma, t.workspaceId, "admin");
    const asAdmin = await callerFor(prisma, admin);
    const key = await asAdmin.apiKey.create({
      workspaceId: t.workspaceId,
      name: "theirs",
      scopes: ["post_entry_events"],
    });
    const client = await prisma.oAuthClient.create({
      data: { clientId: `https://${uniq()}.example/client.json`, source: "cimd", name: "Agent", redirectUris: [] },
    });
    const resource = "https://dm.example/api/mcp";
    const grant = await prisma.oAuthGrant.create({
      data: { workspaceId: t.workspaceId, userId: admin.id, clientId: client.id, scopes: ["workspace:read"], resource },
    });
    const token = `dma_${uniq()}`;
    await prisma.oAuthToken.create({
      data: {
        grantId: grant.id,
        kind: "access",
        hash: hashToken(token),
        scopes: ["workspace:read"],
        resource,
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    expect(await verifyAccessToken(prisma, token, resource)).toMatchObject({ ok: true, auth: { role: "admin" } });

    expect(await t.api.team.remove({ workspaceId: t.workspaceId, userId: admin.id })).toMatchObject({
      removed: true,
      agentsRevoked: 1,
      apiKeys: 1,
      keyHandling: "revoke",
    });
    expect(await refusal(asAdmin.workspace.summary({ workspaceId: t.workspaceId }))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await verifyAccessToken(prisma, token, resource)).toMatchObject({ ok: false });
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: key.key.id } })).revokedAt).not.toBeNull();
  });

  it("hands a removed member's keys to the owner when the owner chooses", async () => {
    const t = await team();
    const admin = await addTeammate(prisma, t.workspaceId, "admin");
    const key = await (await callerFor(prisma, admin)).apiKey.create({
      workspaceId: t.workspaceId,
      name: "kept",
      scopes: ["post_conversions"],
    });
    await t.api.team.remove({ workspaceId: t.workspaceId, userId: admin.id, keys: "hand_to_owner" });
    expect(await prisma.apiKey.findUniqueOrThrow({ where: { id: key.key.id } })).toMatchObject({
      revokedAt: null,
      createdByUserId: t.user.id,
    });
  });

  it("changes a member's role; only an approver keeps an approval limit", async () => {
    const t = await team();
    const viewer = await addTeammate(prisma, t.workspaceId, "viewer");
    await t.api.team.changeRole({
      workspaceId: t.workspaceId,
      userId: viewer.id,
      role: "approver",
      approvalLimitCents: 1000,
    });
    expect(await prisma.membership.findFirstOrThrow({ where: { userId: viewer.id } })).toMatchObject({
      role: "approver",
      approvalLimitCents: 1000,
    });
    await t.api.team.changeRole({
      workspaceId: t.workspaceId,
      userId: viewer.id,
      role: "member",
      approvalLimitCents: 1000,
    });
    expect(await prisma.membership.findFirstOrThrow({ where: { userId: viewer.id } })).toMatchObject({
      role: "member",
      approvalLimitCents: null,
    });
  });

  it("never leaves the workspace without its owner: the owner is neither removed nor demoted, only replaced by a transfer", async () => {
    const t = await team();
    const admin = await addTeammate(prisma, t.workspaceId, "admin");
    const asAdmin = await callerFor(prisma, admin);
    expect(await refusal(asAdmin.team.remove({ workspaceId: t.workspaceId, userId: t.user.id }))).toMatchObject({
      code: "CONFLICT",
      message: "The workspace's owner cannot be removed. Transfer ownership first.",
    });
    expect(
      await refusal(t.api.team.changeRole({ workspaceId: t.workspaceId, userId: t.user.id, role: "admin" })),
    ).toMatchObject({
      code: "CONFLICT",
      message: "The owner's role changes only by transferring ownership (the workspace always has exactly one owner).",
    });
    expect(
      await refusal(asAdmin.team.transferOwnership({ workspaceId: t.workspaceId, userId: admin.id })),
    ).toMatchObject({
      code: "FORBIDDEN",
    });
    expect(
      await prisma.membership.findFirstOrThrow({ where: { userId: t.user.id, workspaceId: t.workspaceId } }),
    ).toMatchObject({ role: "owner" });

    await t.api.team.transferOwnership({ workspaceId: t.workspaceId, userId: admin.id });
    const roles = await prisma.membership.findMany({
      where: { workspaceId: t.workspaceId },
      select: { userId: true, role: true },
    });
    expect(new Map(roles.map((r) => [r.userId, r.role]))).toEqual(
      new Map([
        [t.user.id, "admin"],
        [admin.id, "owner"],
      ]),
    );
  });
});
