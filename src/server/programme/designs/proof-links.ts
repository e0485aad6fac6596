import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "@/server/ground/db";
import { baseUrl } from "@/server/ground/platform/base-url";
import { serviceSecret } from "@/server/ground/platform/service-secrets";

/** How long a proof link handed to an agent works. */
export const PROOF_LINK_TTL_MS = 24 * 60 * 60_000;
/** A printed piece's proof shows a person's address: its link works for an hour. */
export const PIECE_PROOF_LINK_TTL_MS = 60 * 60_000;

/** The things a proof link names (what it shows is re-checked against the workspace when opened). */
export interface ProofTarget {
  kind: "design" | "draft" | "piece";
  id: string;
  workspaceId: string;
  contactId?: string | null;
}

const message = (t: ProofTarget, expires: number) =>
  `${t.kind}|${t.id}|${t.workspaceId}|${t.contactId ?? ""}|${expires}`;

async function sign(db: Db, t: ProofTarget, expires: number): Promise<string> {
  const secret = await serviceSecret(db, "proof-links");
  return createHmac("sha256", secret).update(message(t, expires)).digest("base64url");
}

/**
 * A link to a proof PDF that works without a session until it expires (for agents and for sharing
 * with a colleague); the owner's browser opens the same path with its session.
 */
export async function proofUrl(
  db: Db,
  t: ProofTarget,
  now = Date.now(),
  ttlMs = t.kind === "piece" ? PIECE_PROOF_LINK_TTL_MS : PROOF_LINK_TTL_MS,
): Promise<string> {
  const expires = now + ttlMs;
  const q = new URLSearchParams({
    workspaceId: t.workspaceId,
    ...(t.contactId ? { contactId: t.contactId } : {}),
    expires: String(expires),
    signature: await sign(db, t, expires),
  });
  return `${baseUrl()}/api/${t.kind}s/${t.id}/proof?${q}`;
}

/** True when the link's signature is right and it has not expired. */
export async function verifyProofLink(
  db: Db,
  t: ProofTarget,
  expires: string | null,
  signature: string | null,
  now = Date.now(),
): Promise<boolean> {
  if (!expires || !signature || !/^\d{1,15}$/.test(expires) || Number(expires) < now) return false;
  const expected = Buffer.from(await sign(db, t, Number(expires)));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
