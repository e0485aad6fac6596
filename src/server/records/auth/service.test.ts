import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/ground/errors";
import { testDatabase } from "@/test/database";
import { uniq } from "@/test/factories";
import type { PrismaClient } from "@/generated/prisma/client";
import { ZSignUpInput } from "@/server/records/auth/schema";
import { DUPLICATE_EMAIL_MESSAGE, signUp, verifyCredentials } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const input = (email: string) =>
  ZSignUpInput.parse({ name: "Ada Okafor", email, password: "a long passphrase", workspaceName: "Okafor Labs" });

describe("signUp", () => {
  it("creates the person, a workspace on the audit plan with them as owner, and an audit entry", async () => {
    const email = `${uniq()}@Example.test`;
    const { userId, workspaceId } = await signUp(prisma, input(email));
    const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.email).toBe(email.toLowerCase());
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.passwordHash).not.toContain("a long passphrase");
    const workspace = await prisma.workspace.findUniqueOrThrow({
      where: { id: workspaceId },
      include: { memberships: true },
    });
    expect(workspace).toMatchObject({ name: "Okafor Labs", plan: "audit", isDemo: false });
    expect(workspace.id).toMatch(/^ws_[0-9a-f]{32}$/);
    expect(workspace.memberships).toEqual([expect.objectContaining({ userId, role: "owner" })]);
    const log = await prisma.auditLogEntry.findMany({ where: { workspaceId } });
    expect(log).toEqual([expect.objectContaining({ action: "workspace.created", actorKind: "user", actorId: userId })]);
  });

  it("refuses a duplicate email (any case) with a clear message and writes nothing", async () => {
    const email = `${uniq()}@example.test`;
    const { userId } = await signUp(prisma, input(email));
    const secondName = `Second ${uniq()}`;
    const error = await signUp(prisma, { ...input(email.toUpperCase()), workspaceName: secondName }).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "conflict",
      message: DUPLICATE_EMAIL_MESSAGE,
      errors: [{ pointer: "/email", detail: DUPLICATE_EMAIL_MESSAGE }],
    });
    expect(await prisma.user.count({ where: { email: { equals: email, mode: "insensitive" } } })).toBe(1);
    expect(await prisma.workspace.count({ where: { name: secondName } })).toBe(0);
    expect(await prisma.membership.count({ where: { userId } })).toBe(1);
  });

  it("validates the input before anything is written", () => {
    const result = ZSignUpInput.safeParse({ name: "", email: "not-an-email", password: "short", workspaceName: "x" });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path.join("."), i.message]));
    expect(messages).toEqual({
      name: "Enter your name.",
      email: "Enter a valid email address, like ada@example.com.",
      password: "A password has at least 8 characters.",
      workspaceName: "A workspace name has at least 2 characters.",
    });
  });
});

describe("verifyCredentials", () => {
  it("returns the person for the right password and records the sign-in", async () => {
    const email = `${uniq()}@example.test`;
    const { userId } = await signUp(prisma, input(email));
    const user = await verifyCredentials(prisma, ` ${email.toUpperCase()} `, "a long passphrase");
    expect(user).toEqual({ id: userId, email, name: "Ada Okafor", epoch: 0 });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: userId } })).lastSignInAt).toBeInstanceOf(Date);
  });

  it("returns null for a wrong password and for an unknown email, changing nothing", async () => {
    const email = `${uniq()}@example.test`;
    const { userId } = await signUp(prisma, input(email));
    expect(await verifyCredentials(prisma, email, "a wrong passphrase")).toBeNull();
    expect(await verifyCredentials(prisma, `${uniq()}@example.test`, "a long passphrase")).toBeNull();
    expect((await prisma.user.findUniqueOrThrow({ where: { id: userId } })).lastSignInAt).toBeNull();
  });
});
