import type { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { callerFor, createOwnerWorkspace, uniq } from "@/test/factories";
import { enqueueEmail } from "./outbox";
import { redactSecretLinks } from "./sender";
import { testEmail } from "./templates/test-email";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const message = (workspaceId: string | null, to = `${uniq()}@example.test`) =>
  enqueueEmail(prisma, {
    to,
    workspaceId,
    ...testEmail({ workspaceId: workspaceId ?? "", workspaceName: "Acme", requestedBy: "Ada", setup: "the log" }),
  }).then((m) => m!);

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("accepted");
    },
    (error: TRPCError) => ({ code: error.code, message: error.message }),
  );

describe("Settings → Email: the outbox", () => {
  it("lists the workspace's messages newest first, a page at a time, never another's or account mail", async () => {
    const { user, workspaceId } = await createOwnerWorkspace(prisma);
    const other = await createOwnerWorkspace(prisma);
    const first = await message(workspaceId);
    const second = await message(workspaceId);
    const third = await message(workspaceId);
    const theirs = await message(other.workspaceId);
    await message(null, user.email);
    const owner = await callerFor(prisma, user);

    const page1 = await owner.email.outbox({ workspaceId, take: 2 });
    expect(page1.messages.map((m) => m.messageId)).toEqual([third.id, second.id]);
    expect(page1.messages[0]).toMatchObject({
      to: third.to,
      kind: "test",
      status: "queued",
      attempts: 0,
      subject: "Test email from Acme",
    });
    const page2 = await owner.email.outbox({ workspaceId, take: 2, cursor: page1.nextCursor });
    expect(page2).toEqual({ messages: [expect.objectContaining({ messageId: first.id })], nextCursor: null });
    expect(await owner.email.counts({ workspaceId })).toEqual({ queued: 3, sending: 0, sent: 0, failed: 0 });

    expect(await refusal(owner.email.message({ workspaceId, messageId: theirs.id }))).toEqual({
      code: "NOT_FOUND",
      message: "No such message in this workspace's outbox.",
    });
    expect(await refusal(owner.email.outbox({ workspaceId, take: 2, cursor: theirs.id }))).toMatchObject({
      code: "NOT_FOUND",
    });
    const detail = await owner.email.message({ workspaceId, messageId: first.id });
    expect(detail.text).toContain("Email works");
    expect(detail.html).toContain("<h1");
  });

  it("sends a failed message again, refuses a sent one and one whose single-use link was cut, writing nothing", async () => {
    const { user, workspaceId } = await createOwnerWorkspace(prisma);
    const owner = await callerFor(prisma, user);
    const failed = await message(workspaceId);
    await prisma.emailMessage.update({
      where: { id: failed.id },
      data: { status: "failed", attempts: 7, lastError: "Could not reach the SMTP server: ECONNREFUSED" },
    });
    const retried = await owner.email.retry({ workspaceId, messageId: failed.id });
    expect(retried).toMatchObject({
      status: "queued",
      attempts: 0,
      lastError: "Could not reach the SMTP server: ECONNREFUSED",
    });
    expect(
      await prisma.auditLogEntry.count({ where: { workspaceId, action: "email.retried", targetId: failed.id } }),
    ).toBe(1);

    const sent = await message(workspaceId);
    await prisma.emailMessage.update({ where: { id: sent.id }, data: { status: "sent", sentAt: new Date() } });
    expect(await refusal(owner.email.retry({ workspaceId, messageId: sent.id }))).toEqual({
      code: "CONFLICT",
      message: "This message was already sent.",
    });

    const cut = await message(workspaceId);
    await prisma.emailMessage.update({
      where: { id: cut.id },
      data: { status: "failed", text: redactSecretLinks("Open https://x.test/invite/abcdefghijklmnopqrstuvwxyz") },
    });
    expect(await refusal(owner.email.retry({ workspaceId, messageId: cut.id }))).toEqual({
      code: "CONFLICT",
      message:
        "This message held a single-use link, removed when it failed; send a new one instead (for an invitation, invite again).",
    });
    expect(await prisma.emailMessage.findUniqueOrThrow({ where: { id: cut.id } })).toMatchObject({ status: "failed" });
    expect(await prisma.auditLogEntry.count({ where: { workspaceId, action: "email.retried" } })).toBe(1);
  });

  it("queues a test message to the person asking, at most ten an hour per workspace", async () => {
    const { user, workspaceId } = await createOwnerWorkspace(prisma);
    const owner = await callerFor(prisma, user);
    const queued = await owner.email.sendTest({ workspaceId });
    expect(queued).toEqual({ messageId: expect.stringMatching(/^eml_/), to: user.email });
    const row = await prisma.emailMessage.findUniqueOrThrow({ where: { id: queued.messageId! } });
    expect(row).toMatchObject({ to: user.email, userId: user.id, workspaceId, kind: "test", status: "queued" });
    expect(row.text).toContain(`/w/${workspaceId}/settings/email`);
    for (let i = 1; i < 10; i++) await owner.email.sendTest({ workspaceId });
    expect(await refusal(owner.email.sendTest({ workspaceId }))).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/^This workspace sent 10 test emails this hour\. Try again in /),
    });
    expect(await prisma.emailMessage.count({ where: { workspaceId, kind: "test" } })).toBe(10);
  });

  it("is not for someone outside the workspace, nor for a member", async () => {
    const { workspaceId } = await createOwnerWorkspace(prisma);
    const stranger = await createOwnerWorkspace(prisma);
    expect(
      await refusal((await callerFor(prisma, stranger.user)).email.outbox({ workspaceId, take: 5 })),
    ).toMatchObject({
      code: "NOT_FOUND",
    });
    await prisma.membership.create({ data: { workspaceId, userId: stranger.user.id, role: "member" } });
    const member = await callerFor(prisma, stranger.user);
    expect(await refusal(member.email.outbox({ workspaceId, take: 5 }))).toMatchObject({ code: "FORBIDDEN" });
    expect(await refusal(member.email.sendTest({ workspaceId }))).toMatchObject({ code: "FORBIDDEN" });
    expect(await prisma.emailMessage.count({ where: { workspaceId } })).toBe(0);
  });
});
