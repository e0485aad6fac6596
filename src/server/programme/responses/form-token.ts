import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "@/server/ground/db";
import { randomBase62 } from "@/server/ground/platform/random";
import { serviceSecret } from "@/server/ground/platform/service-secrets";

const SECRET_NAME = "response-page-forms";
/** How long a rendered form may be sent (a page left open overnight is rendered again with what was typed). */
export const FORM_TOKEN_TTL_MS = 12 * 60 * 60_000;
const NONCE_LENGTH = 16;

/**
 * The hidden token of a hosted page's form: a one-time nonce, when it was issued, and an HMAC of
 * both with the page's code under a secret of the service. It stops posts that were not made from
 * the page itself (a forged form on another site cannot read it), and its nonce is the identity of
 * the post's occurrence: sending the same rendered form twice records one reply.
 */
export interface FormToken {
  nonce: string;
  issuedAt: Date;
}

const sign = (secret: string, code: string, nonce: string, issuedAtSeconds: number) =>
  createHmac("sha256", secret).update(`${code}\n${nonce}\n${issuedAtSeconds}`).digest("base64url");

export async function issueFormToken(db: Db, code: string, now = new Date()): Promise<string> {
  const secret = await serviceSecret(db, SECRET_NAME);
  const nonce = randomBase62(NONCE_LENGTH);
  const issued = Math.floor(now.getTime() / 1000);
  return `${nonce}.${issued}.${sign(secret, code, nonce, issued)}`;
}

export type TokenCheck = { ok: true; token: FormToken } | { ok: false; reason: "missing" | "invalid" | "expired" };

export async function checkFormToken(
  db: Db,
  code: string,
  raw: string | undefined,
  now = new Date(),
): Promise<TokenCheck> {
  if (!raw) return { ok: false, reason: "missing" };
  const match = /^([0-9A-Za-z]{16})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(raw);
  if (!match) return { ok: false, reason: "invalid" };
  const [, nonce, issuedText, mac] = match;
  const issued = Number(issuedText);
  const expected = Buffer.from(sign(await serviceSecret(db, SECRET_NAME), code, nonce, issued));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: "invalid" };
  const age = now.getTime() - issued * 1000;
  // A token from the future (beyond a little clock skew between instances) is not one we issued.
  if (age > FORM_TOKEN_TTL_MS || age < -5 * 60_000) return { ok: false, reason: "expired" };
  return { ok: true, token: { nonce, issuedAt: new Date(issued * 1000) } };
}
