import type { SuppressionKind } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { addressKey, type PostalAddress } from "@/server/records/addresses/checks";

export interface SuppressionSubject extends PostalAddress {
  id: string;
  email: string | null;
  accountId: string | null;
  accountDomain: string | null;
}

/**
 * Every suppression entry that would stop this contact: by contact, email, address, account or
 * domain (only the kinds in `only`, when given: an audit skips the address key when no address is suppressed).
 */
export function suppressionKeys(
  c: SuppressionSubject,
  only?: ReadonlySet<SuppressionKind>,
): { kind: SuppressionKind; value: string }[] {
  const keys: { kind: SuppressionKind; value: string }[] = [{ kind: "contact", value: c.id }];
  const email = c.email?.trim().toLowerCase();
  if (email) {
    keys.push({ kind: "email", value: email });
    const domain = email.split("@")[1];
    if (domain) keys.push({ kind: "domain", value: domain });
  }
  if (c.accountId) keys.push({ kind: "account", value: c.accountId });
  if (c.accountDomain) keys.push({ kind: "domain", value: c.accountDomain.toLowerCase() });
  if (c.addressLine1 && (!only || only.has("address"))) keys.push({ kind: "address", value: addressKey(c) });
  return keys;
}

/** Gate 2: whether any of the contact's keys is on the workspace's suppression list. */
export async function isSuppressed(db: Db, workspaceId: string, contact: SuppressionSubject): Promise<boolean> {
  const hit = await db.suppression.findFirst({
    where: { workspaceId, OR: suppressionKeys(contact).map((k) => ({ kind: k.kind, value: k.value })) },
    select: { id: true },
  });
  return hit !== null;
}
