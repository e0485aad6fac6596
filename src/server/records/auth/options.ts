import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/server/ground/db";
import { LIMITS } from "@/server/ground/rate-limits/limits";
import { consumeAll, releaseAll } from "@/server/ground/rate-limits/service";
import { waitText } from "@/server/ground/rate-limits/wait-text";
import { clientAddress } from "@/server/ground/http/client-address";
import { unstorableReason } from "@/server/ground/platform/stored-text";
import { PASSWORD_MAX } from "./password";
import { verifyCredentials, WRONG_CREDENTIALS_MESSAGE } from "./service";
import { safeCallback } from "./callback-url";

export const SIGN_IN_FAILED_MESSAGE = "Signing in failed on our side. Try again in a moment.";

/**
 * Checks an email and password. Failed attempts are counted per client address (any email) and per
 * (email, address) pair with back-off, so a stranger's guesses wait at the stranger's address and
 * never lock the person out from their own; a successful sign-in gives its count back, so a person
 * who signs in often (or a team behind one office address) is never limited. An email no account
 * can have is a wrong sign-in at once. Only sentences meant for people leave this function:
 * next-auth puts the message in the sign-in page's URL, so an unexpected failure is logged and told
 * as SIGN_IN_FAILED_MESSAGE.
 */
export async function authorizeCredentials(
  credentials: Record<string, unknown> | undefined,
  headers: Record<string, string | string[] | undefined> | Headers | undefined,
): Promise<{ id: string; email: string; name: string; epoch: number }> {
  const email = String(credentials?.email ?? "")
    .trim()
    .toLowerCase();
  const password = String(credentials?.password ?? "");
  if (
    !email ||
    !password ||
    email.length > 254 ||
    password.length > PASSWORD_MAX ||
    unstorableReason(email) ||
    unstorableReason(password)
  ) {
    throw new Error(WRONG_CREDENTIALS_MESSAGE);
  }
  try {
    const db = getDb();
    const address = clientAddress(headers ?? {});
    const now = new Date();
    const addressBucket = `sign-in-ip:${address}`;
    const pairBucket = `sign-in:${address}:${email}`;
    const perAddress = await consumeAll(db, addressBucket, [LIMITS.signInPerIp], now);
    if (!perAddress.allowed)
      throw new SignInRefusal(
        `Too many sign-in attempts from your network. Wait ${waitText(perAddress.resetSeconds)} and try again.`,
      );
    const perPair = await consumeAll(db, pairBucket, LIMITS.signInPerEmailAndIp, now);
    if (!perPair.allowed)
      throw new SignInRefusal(
        `Too many sign-in attempts for this email from your network. Wait ${waitText(perPair.resetSeconds)} and try again.`,
      );
    const user = await verifyCredentials(db, email, password);
    if (!user) throw new SignInRefusal(WRONG_CREDENTIALS_MESSAGE);
    await releaseAll(db, addressBucket, [LIMITS.signInPerIp], now);
    await releaseAll(db, pairBucket, LIMITS.signInPerEmailAndIp, now);
    return user;
  } catch (error) {
    if (error instanceof SignInRefusal) throw new Error(error.message);
    console.error("[auth] sign-in failed", error);
    throw new Error(SIGN_IN_FAILED_MESSAGE);
  }
}

/** A refusal whose sentence may be shown. */
class SignInRefusal extends Error {}

/**
 * Owner sign-in: email and password, checked against our own user table; no outside service.
 * Sessions are signed JWT cookies. The signing secret is NEXTAUTH_SECRET, or one the service made
 * and keeps in its database (see runtime/boot.ts).
 */
export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: 7 * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
  pages: { signIn: "/sign-in", error: "/sign-in" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      authorize: (credentials, req) => authorizeCredentials(credentials, req?.headers),
    }),
  ],
  callbacks: {
    /** The session remembers the person's sessionEpoch at sign-in; a password reset raises it and so ends the session (session.ts). */
    jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.epoch = (user as { epoch?: number }).epoch ?? 0;
      }
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) {
        session.user.id = token.sub;
        session.user.epoch = typeof token.epoch === "number" ? token.epoch : 0;
      }
      return session;
    },
    /** Only paths of this site (callback-url.ts): `/\evil.example`, `//evil.example` and other sites go to the workspaces instead. */
    redirect({ url, baseUrl }) {
      if (url.startsWith("/")) return `${baseUrl}${safeCallback(url)}`;
      try {
        const target = new URL(url);
        if (target.origin === new URL(baseUrl).origin)
          return `${baseUrl}${safeCallback(`${target.pathname}${target.search}${target.hash}`)}`;
      } catch {
        /* not a URL: the default below */
      }
      return `${baseUrl}${safeCallback(null)}`;
    },
  },
};
