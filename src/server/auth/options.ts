import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/server/db";
import { LIMITS } from "@/server/rate-limits/limits";
import { consume } from "@/server/rate-limits/service";
import { verifyCredentials, WRONG_CREDENTIALS_MESSAGE } from "./service";

export const TOO_MANY_SIGN_INS_MESSAGE = "Too many sign-in attempts for this email. Wait 15 minutes and try again.";

/**
 * Owner sign-in: email and password, checked against our own user table; no outside service.
 * Sessions are signed JWT cookies. The signing secret is NEXTAUTH_SECRET, or one the service made
 * and keeps in its database (see platform/boot.ts).
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
      async authorize(credentials) {
        const email = String(credentials?.email ?? "").trim().toLowerCase();
        const password = String(credentials?.password ?? "");
        if (!email || !password) throw new Error(WRONG_CREDENTIALS_MESSAGE);
        const db = getDb();
        const decision = await consume(db, `sign-in:${email}`, LIMITS.signInPerEmail);
        if (!decision.allowed) throw new Error(TOO_MANY_SIGN_INS_MESSAGE);
        const user = await verifyCredentials(db, email, password);
        if (!user) throw new Error(WRONG_CREDENTIALS_MESSAGE);
        return user;
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) session.user.id = token.sub;
      return session;
    },
  },
};
