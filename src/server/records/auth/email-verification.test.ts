import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { isEmailVerified } from "@/server/ground/access/email-verified";
import { resolvedAddressHeaders } from "@/server/ground/http/client-address";
import { testDatabase } from "@/test/database";
import { callerFor, uniq } from "@/test/factories";
import { deliverQueued, linkIn, mailTo } from "@/test/mail-delivery";
import { startSmtpServer, type TestSmtpServer } from "@/test/smtp-server";
import { ALREADY_VERIFIED_MESSAGE, VERIFY_LINK_UNUSABLE_MESSAGE } from "./email-verification";

let prisma: PrismaClient;
let smtp: TestSmtpServer;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

const address = () => `192.0.2.${Math.floor(Math.random() * 250) + 1}`;

async function signUp() {
  const email = `${uniq()}@example.test`;
  const caller = await callerFor(prisma, null, resolvedAddressHeaders(address()));
  const { userId } = await caller.auth.signUp({
    name: "Ada Okafor",
    email,
    password: "a long passphrase",
    workspaceName: "Acme",
  });
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } });
  return { user, me: await callerFor(prisma, user) };
}

async function verificationLink(email: string) {
  await deliverQueued(prisma, smtp, { to: email, kind: "email_verification" });
  const mail = mailTo(smtp, email).filter((m) => m.parsed.subject?.startsWith("Verify your email"));
  const last = mail[mail.length - 1];
  if (!last) throw new Error(`No verification email for ${email}`);
  return {
    mail: last,
    token: linkIn(last.parsed.text ?? "", "/verify-email/")
      .pathname.split("/")
      .pop()!,
  };
}

describe("email verification", () => {
  it("a new account is emailed a link at sign-up; using it verifies the address, once", async () => {
    const { user, me } = await signUp();
    expect(await isEmailVerified(prisma, user.id)).toBe(false);
    await expect(me.auth.emailStatus()).resolves.toEqual({ email: user.email, verified: false });

    const { mail, token } = await verificationLink(user.email);
    expect(mail.parsed.text).toContain("Direct Mail Programme");
    expect(mail.parsed.text).toContain("not invite anyone");

    const anon = await callerFor(prisma, null);
    await expect(anon.auth.verifyEmail({ token })).resolves.toEqual({ email: user.email });
    expect(await isEmailVerified(prisma, user.id)).toBe(true);
    await expect(me.auth.emailStatus()).resolves.toEqual({ email: user.email, verified: true });

    const verifiedAt = (await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerifiedAt;
    const again = await anon.auth.verifyEmail({ token }).catch((e) => e);
    expect(again).toBeInstanceOf(TRPCError);
    expect(again).toMatchObject({ code: "CONFLICT", message: VERIFY_LINK_UNUSABLE_MESSAGE });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerifiedAt).toEqual(verifiedAt);
  });

  it("sending the link again voids the earlier one; a verified person cannot ask again", async () => {
    const { user, me } = await signUp();
    const first = await verificationLink(user.email);
    await expect(me.auth.resendVerification()).resolves.toEqual({ email: user.email });
    const second = await verificationLink(user.email);
    expect(second.token).not.toBe(first.token);

    const anon = await callerFor(prisma, null);
    await expect(anon.auth.verifyEmail({ token: first.token })).rejects.toMatchObject({
      message: VERIFY_LINK_UNUSABLE_MESSAGE,
    });
    expect(await isEmailVerified(prisma, user.id)).toBe(false);
    await anon.auth.verifyEmail({ token: second.token });
    expect(await isEmailVerified(prisma, user.id)).toBe(true);

    const emails = await prisma.emailMessage.count({ where: { to: user.email } });
    await expect(me.auth.resendVerification()).rejects.toMatchObject({
      code: "CONFLICT",
      message: ALREADY_VERIFIED_MESSAGE,
    });
    expect(await prisma.emailMessage.count({ where: { to: user.email } })).toBe(emails);
  });

  it("an unknown or malformed token is refused and nothing changes", async () => {
    const anon = await callerFor(prisma, null);
    await expect(anon.auth.verifyEmail({ token: "short" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(anon.auth.verifyEmail({ token: `${uniq()}${uniq()}${uniq()}` })).rejects.toMatchObject({
      code: "CONFLICT",
      message: VERIFY_LINK_UNUSABLE_MESSAGE,
    });
  });

  it("signed out, the status and a new link need a session", async () => {
    const anon = await callerFor(prisma, null);
    await expect(anon.auth.emailStatus()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anon.auth.resendVerification()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
