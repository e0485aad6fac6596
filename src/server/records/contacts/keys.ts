import freeEmailDomains from "free-email-domains";
import { addressKey, recipientKey } from "@/server/records/addresses/checks";

const FREE_MAIL = new Set<string>(freeEmailDomains);

/** A mailbox address as we keep it: trimmed and lower-cased; null when it is not one. */
export function normaliseEmail(input: string | null | undefined): string | null {
  const email = input
    ?.trim()
    .toLowerCase()
    .replace(/^mailto:/, "");
  if (!email) return null;
  // One @, a local part and a domain with a dot, no spaces: what a mail server would accept as an address.
  return /^[^\s@<>(),;:"]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/.test(email)
    ? email
    : null;
}

export function emailDomain(email: string | null | undefined): string | null {
  const at = email?.lastIndexOf("@") ?? -1;
  return at > 0 ? email!.slice(at + 1).toLowerCase() : null;
}

/** Webmail and consumer mailbox domains (gmail.com, web.de, ...): they never stand for a company. */
export function isFreeMailDomain(domain: string | null | undefined): boolean {
  return domain ? FREE_MAIL.has(domain.toLowerCase()) : false;
}

/**
 * A web domain from what people write in a "Website" or "Domain" column: `https://www.acme.com/about`,
 * `www.acme.com`, `Acme.com`. Null when it is not a domain.
 */
export function toDomain(input: string | null | undefined): string | null {
  let s = input?.trim().toLowerCase();
  if (!s) return null;
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/^[^@/]*@/, "");
  s = s
    .split(/[/?#:]/)[0]
    .replace(/^www\d?\./, "")
    .replace(/\.$/, "");
  return /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/.test(s) &&
    /[a-z]/.test(s.split(".").pop()!)
    ? s
    : null;
}

/** A company's domain from its contact's email, unless the email is a free-mail one. */
export function companyDomainOf(email: string | null | undefined): string | null {
  const domain = emailDomain(email);
  return domain && !isFreeMailDomain(domain) ? domain : null;
}

export interface KeyedFields {
  firstName: string;
  lastName: string;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
}

/**
 * The derived columns every write of a contact keeps up to date: `addressKey` (the normalised
 * address the suppression gate and duplicate checks use) and `matchKey` (name and address: how a
 * row without email or CRM id finds its contact). Null without a street address.
 */
export function contactKeys(c: KeyedFields): { addressKey: string | null; matchKey: string | null } {
  if (!c.addressLine1?.trim()) return { addressKey: null, matchKey: null };
  const key = addressKey(c);
  const hasName = Boolean(c.firstName.trim() || c.lastName.trim());
  return { addressKey: key, matchKey: hasName ? recipientKey(c, key) : null };
}
