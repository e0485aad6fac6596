import { createHash, randomBytes } from "node:crypto";
import type { AccountToken, AccountTokenPurpose } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";

/** How long each kind of link works. */
export const ACCOUNT_TOKEN_TTL_MS: Record<AccountTokenPurpose, number> = {
  password_reset: 60 * 60 * 1000,
  email_verification: 7 * 24 * 60 * 60 * 1000,
};

export const hashAccountToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A fresh single-use token for the person: the caller emails it; only its hash is kept. */
export async function issueAccountToken(
  db: Db,
  p: { userId: string; email: string; purpose: AccountTokenPurpose; now?: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const now = p.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + ACCOUNT_TOKEN_TTL_MS[p.purpose]);
  await db.accountToken.create({
    data: { userId: p.userId, email: p.email, purpose: p.purpose, tokenHash: hashAccountToken(token), expiresAt },
  });
  return { token, expiresAt };
}

/**
 * Uses the token once: marks it used and returns it, or returns null when it is unknown, expired or
 * already used. The mark is one conditional update, so two requests with one token cannot both win.
 */
export async function consumeAccountToken(
  db: Db,
  token: string,
  purpose: AccountTokenPurpose,
  now = new Date(),
): Promise<AccountToken | null> {
  const tokenHash = hashAccountToken(token);
  const { count } = await db.accountToken.updateMany({
    where: { tokenHash, purpose, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (count !== 1) return null;
  return db.accountToken.findUnique({ where: { tokenHash } });
}
