import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { resolvedAddressHeaders } from "@/server/ground/http/client-address";
import { testDatabase } from "@/test/database";
import { callerFor, createOwnerWorkspace, TEST_PASSWORD, uniq } from "@/test/factories";
import { deliverQueued, linkIn, mailTo } from "@/test/mail-delivery";
import { startSmtpServer, type TestSmtpServer } from "@/test/smtp-server";
import { issueAccountToken } from "./account-tokens";
import { authorizeCredentials } from "./options";
import { RESET_LINK_UNUSABLE_MESSAGE, RESET_REQUESTED_MESSAGE } from "./password-reset";
import { sessionIsCurrent } from "./session-epoch";

let prisma: PrismaClient;
let smtp: TestSmtpServer;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

const address = () => `203.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
const anon = () => callerFor(prisma, null, resolvedAddressHeaders(address()));
const NEW_PASSWORD = "a brand new passphrase";

/** Asks for a reset, sends it through the SMTP server, and returns the token from the link in the message. */
async function resetLinkFor(email: string) {
  const before = mailTo(smtp, email).length;
  await (await anon()).auth.requestPasswordReset({ email });
  await deliverQueued(prisma, smtp, { to: email, kind: "password_reset" });
  await smtp.waitFor(smtp.received.length);
  const mail = mailTo(smtp, email).filter((m) => m.parsed.subject?.includes("new password"));
  expect(mail.length).toBeGreaterThan(before ? 0 : 0);
  const last = mail[mail.length - 1]!;
  return { mail: last, link: linkIn(last.parsed.text ?? "", "/reset-password/") };
}

describe("auth.requestPasswordReset", () => {
  it("answers the same for a known and an unknown address, and emails only the known one", async () => {
    const { user } = await createOwnerWorkspace(prisma);
    const stranger = `${uniq()}@nobody.example`;
    const known = await (await anon()).auth.requestPasswordReset({ email: user.email.toUpperCase() });
    const unknown = await (await anon()).auth.requestPasswordReset({ email: stranger });
    expect(known).toEqual(unknown);
    expect(known).toEqual({ message: RESET_REQUESTED_MESSAGE });
    expect(await prisma.emailMessage.count({ where: { to: stranger } })).toBe(0);
    expect(await prisma.accountToken.count({ where: { email: stranger } })).toBe(0);
    expect(await prisma.emailMessage.count({ where: { to: user.email, kind: "password_reset" } })).toBe(1);
  });

  it("the message arrives over SMTP with a plain-text part, the product's name and a one-hour link", async () => {
    const { user } = await createOwnerWorkspace(prisma);
    const { mail, link } = await resetLinkFor(user.email);
    expect(mail.parsed.text).toContain("Direct Mail Programme");
    expect(mail.parsed.html).toContain(link.href);
    expect(link.pathname).toMatch(/^\/reset-password\/[A-Za-z0-9_-]{40,}$/);
    const token = await prisma.accountToken.findFirstOrThrow({ where: { userId: user.id, purpose: "password_reset" } });
    const minutes = (token.expiresAt.getTime() - token.createdAt.getTime()) / 60_000;
    expect(Math.round(minutes)).toBe(60);
    // Once sent, the stored copy no longer holds the working link.
    const stored = await prisma.emailMessage.findFirstOrThrow({ where: { to: user.email, kind: "password_reset" } });
    expect(stored.text).not.toContain(link.pathname);
  });

  it("a bad address is a 400 naming the field, and nothing is written", async () => {
    const refused = await (await anon()).auth.requestPasswordReset({ email: "not an address" }).catch((e) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect(refused.code).toBe("BAD_REQUEST");
  });

  it("past three links an hour for one address, the answer is the same and nothing more is sent", async () => {
    const { user } = await createOwnerWorkspace(prisma);
    for (let i = 0; i < 5; i++)
      expect(await (await anon()).auth.requestPasswordReset({ email: user.email })).toEqual({
        message: RESET_REQUESTED_MESSAGE,
      });
    expect(await prisma.emailMessage.count({ where: { to: user.email, kind: "password_reset" } })).toBe(3);
  });
});

describe("auth.resetPassword", () => {
  it("sets the password from the emailed link once, ends earlier sessions, verifies the address and says so by email", async () => {
    const { user } = await createOwnerWorkspace(prisma);
    const signedIn = await authorizeCredentials(
      { email: user.email, password: TEST_PASSWORD },
      resolvedAddressHeaders(address()),
    );
    expect(await sessionIsCurrent(prisma, user.id, signedIn.epoch)).toBe(true);

    const { link } = await resetLinkFor(user.email);
    const token = link.pathname.split("/").pop()!;
    await expect((await anon()).auth.resetPassword({ token, password: NEW_PASSWORD })).resolves.toEqual({
      email: user.email,
    });

    expect(await sessionIsCurrent(prisma, user.id, signedIn.epoch)).toBe(false);
    await expect(
      authorizeCredentials({ email: user.email, password: TEST_PASSWORD }, resolvedAddressHeaders(address())),
    ).rejects.toThrow(/not right/);
    const fresh = await authorizeCredentials(
      { email: user.email, password: NEW_PASSWORD },
      resolvedAddressHeaders(address()),
    );
    expect(await sessionIsCurrent(prisma, user.id, fresh.epoch)).toBe(true);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerifiedAt).not.toBeNull();

    await deliverQueued(prisma, smtp, { to: user.email, kind: "password_changed" });
    const changed = mailTo(smtp, user.email).find((m) => m.parsed.subject?.includes("password was changed"));
    expect(changed?.parsed.text).toContain("every other session was signed out");
  });

  it("a reused link is refused with 409 and writes nothing", async () => {
    const { user } = await createOwnerWorkspace(prisma);
    const { link } = await resetLinkFor(user.email);
    const token = link.pathname.split("/").pop()!;
    await (await anon()).auth.resetPassword({ token, password: NEW_PASSWORD });
    const before = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    const emails = await prisma.emailMessage.count({ where: { to: user.email } });

    const refused = await (await anon()).auth.resetPassword({ token, password: "someone else's pass" }).catch((e) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect(refused).toMatchObject({ code: "CONFLICT", message: RESET_LINK_UNUSABLE_MESSAGE });
    const after = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.sessionEpoch).toBe(before.sessionEpoch);
    expect(await prisma.emailMessage.count({ where: { to: user.email } })).toBe(emails);
  });

  it("an expired link (over an hour old) is refused and writes nothing", async () => {
    const { user } = await createOwnerWorkspace(prisma);
    const { token } = await issueAccountToken(prisma, {
      userId: user.id,
      email: user.email,
      purpose: "password_reset",
      now: new Date(Date.now() - 61 * 60 * 1000),
    });
    const before = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    const refused = await (await anon()).auth.resetPassword({ token, password: NEW_PASSWORD }).catch((e) => e);
    expect(refused).toMatchObject({ code: "CONFLICT", message: RESET_LINK_UNUSABLE_MESSAGE });
    const after = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after).toEqual(before);
    expect(await prisma.accountToken.count({ where: { userId: user.id, usedAt: { not: null } } })).toBe(0);
  });

  it("two resets with one link at once: one wins, the other is refused", async () => {
    const { user } = await createOwnerWorkspace(prisma);
    const { token } = await issueAccountToken(prisma, {
      userId: user.id,
      email: user.email,
      purpose: "password_reset",
    });
    const results = await Promise.allSettled([
      (await anon()).auth.resetPassword({ token, password: "first passphrase" }),
      (await anon()).auth.resetPassword({ token, password: "second passphrase" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).sessionEpoch).toBe(1);
  });

  it("a short password is refused before the link is used", async () => {
    const { user } = await createOwnerWorkspace(prisma);
    const { token } = await issueAccountToken(prisma, {
      userId: user.id,
      email: user.email,
      purpose: "password_reset",
    });
    const refused = await (await anon()).auth.resetPassword({ token, password: "short" }).catch((e) => e);
    expect(refused).toMatchObject({ code: "BAD_REQUEST" });
    expect(await prisma.accountToken.count({ where: { userId: user.id, usedAt: null } })).toBe(1);
  });

  it("is limited per client address like sign-in: the sixth wrong link in a minute is a 429", async () => {
    const caller = await anon();
    const tries = [];
    for (let i = 0; i < 6; i++)
      tries.push(
        await caller.auth
          .resetPassword({ token: `x${uniq()}${uniq()}${uniq()}`, password: NEW_PASSWORD })
          .catch((e) => e),
      );
    expect(tries.slice(0, 5).every((e) => e.code === "CONFLICT")).toBe(true);
    expect(tries[5]).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(
        /^Too many password reset attempts from your network\. Try again in \d+ seconds?\.$/,
      ),
    });
  });
});
