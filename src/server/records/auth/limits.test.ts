import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { resolvedAddressHeaders } from "@/server/ground/http/client-address";
import { callerFor, createOwnerWorkspace, TEST_PASSWORD, uniq } from "@/test/factories";
import { testDatabase } from "@/test/database";
import { authorizeCredentials, SIGN_IN_FAILED_MESSAGE } from "./options";
import { WRONG_CREDENTIALS_MESSAGE } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/** A fresh address per test, so tests never share a window. */
const address = () => `198.51.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
const from = (ip: string) => resolvedAddressHeaders(ip);
const outcome = (p: Promise<unknown>) =>
  p.then(
    (user) => ({ ok: true as const, user }),
    (error: Error) => ({ ok: false as const, message: error.message }),
  );

describe("sign-up is limited per address", () => {
  it("the 11th sign-up from one address in an hour is refused with 429 and writes nothing; another address is not affected", async () => {
    const ip = address();
    const caller = await callerFor(prisma, null, from(ip));
    const signUp = (tag: string) =>
      caller.auth.signUp({
        name: "Flood",
        email: `${tag}@flood.example`,
        password: "a long passphrase",
        workspaceName: `Flood ${tag}`,
      });
    for (let i = 0; i < 10; i++) await signUp(uniq());
    const tag = uniq();
    const refused = await signUp(tag).catch((error: TRPCError) => error);
    expect(refused).toBeInstanceOf(TRPCError);
    expect(refused).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(
        /^Too many accounts were created from your network\. Try again in \d+ (minutes?|seconds?)\.$/,
      ),
    });
    expect(await prisma.user.count({ where: { email: `${tag}@flood.example` } })).toBe(0);
    expect(await prisma.workspace.count({ where: { name: `Flood ${tag}` } })).toBe(0);
    const other = await callerFor(prisma, null, from(address()));
    await expect(
      other.auth.signUp({
        name: "Ada",
        email: `${uniq()}@example.test`,
        password: "a long passphrase",
        workspaceName: "Ada's",
      }),
    ).resolves.toMatchObject({ workspaceId: expect.any(String) });
  });

  it("invalid sign-ups do not use up the allowance", async () => {
    const caller = await callerFor(prisma, null, from(address()));
    for (let i = 0; i < 12; i++)
      await caller.auth.signUp({ name: "", email: "nope", password: "x", workspaceName: "" }).catch(() => undefined);
    await expect(
      caller.auth.signUp({
        name: "Ada",
        email: `${uniq()}@example.test`,
        password: "a long passphrase",
        workspaceName: "Ada's",
      }),
    ).resolves.toBeDefined();
  });
});

describe("sign-in limits cannot lock a person out from elsewhere", () => {
  it("wrong passwords from one address lock that address for that email only, with back-off; the owner still signs in from theirs", async () => {
    const { user } = await createOwnerWorkspace(prisma);
    const attacker = address();
    const results = [];
    for (let i = 0; i < 8; i++)
      results.push(await outcome(authorizeCredentials({ email: user.email, password: `guess ${i}` }, from(attacker))));
    // Five guesses a minute, then the address waits (back-off); the sentence says how long.
    expect(results.slice(0, 5).map((r) => r.ok || r.message)).toEqual(Array(5).fill(WRONG_CREDENTIALS_MESSAGE));
    expect(
      results
        .slice(5)
        .every(
          (r) =>
            !r.ok &&
            /^Too many sign-in attempts for this email from your network\. Wait \d+ (second|minute)s? and try again\.$/.test(
              r.message,
            ),
        ),
    ).toBe(true);
    // Even the right password waits at that address ...
    expect(
      await outcome(authorizeCredentials({ email: user.email, password: TEST_PASSWORD }, from(attacker))),
    ).toMatchObject({ ok: false });
    // ... but the owner, from their own address, is not locked out.
    expect(
      await outcome(authorizeCredentials({ email: user.email, password: TEST_PASSWORD }, from(address()))),
    ).toMatchObject({ ok: true, user: { id: user.id } });
  });

  it("only failed attempts count: the owner signs in again and again from one address, and a stranger's guesses still lock that address", async () => {
    const { user } = await createOwnerWorkspace(prisma);
    const office = address();
    for (let i = 0; i < 15; i++)
      expect(
        await outcome(authorizeCredentials({ email: user.email, password: TEST_PASSWORD }, from(office))),
      ).toMatchObject({ ok: true });
    // Four typos between them still leave room for the right password.
    for (let i = 0; i < 4; i++)
      expect(await outcome(authorizeCredentials({ email: user.email, password: `typo ${i}` }, from(office)))).toEqual({
        ok: false,
        message: WRONG_CREDENTIALS_MESSAGE,
      });
    expect(
      await outcome(authorizeCredentials({ email: user.email, password: TEST_PASSWORD }, from(office))),
    ).toMatchObject({ ok: true });
    // The fifth failure of the minute, then even the right password waits.
    await outcome(authorizeCredentials({ email: user.email, password: "typo 5" }, from(office)));
    expect(
      await outcome(authorizeCredentials({ email: user.email, password: TEST_PASSWORD }, from(office))),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/^Too many sign-in attempts for this email/) });
  });

  it("one address cannot try many accounts without limit", async () => {
    const sprayer = address();
    const results = [];
    for (let i = 0; i < 52; i++)
      results.push(
        await outcome(authorizeCredentials({ email: `${uniq()}@nobody.example`, password: "guess" }, from(sprayer))),
      );
    expect(
      results.filter((r) => !r.ok && r.message.startsWith("Too many sign-in attempts from your network")).length,
    ).toBeGreaterThan(0);
  });

  it("an email of several kilobytes, or with NUL, is a wrong sign-in, never a database error in the answer", async () => {
    for (const email of [
      `${"a".repeat(6000)}@example.test`,
      "a\u0000@example.test",
      `${Math.random().toString(36).repeat(400)}@x.example`,
    ]) {
      const result = await outcome(authorizeCredentials({ email, password: "whatever" }, from(address())));
      expect(result).toEqual({ ok: false, message: WRONG_CREDENTIALS_MESSAGE });
    }
  });

  it("an unexpected failure is told as one plain sentence", () => {
    expect(SIGN_IN_FAILED_MESSAGE).not.toMatch(/prisma|database|sql/i);
  });
});
