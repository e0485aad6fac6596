import type { TMergeValues } from "./merge-fields";

/** The contact fields a piece uses (a Contact row with its account). */
export interface RecipientContact {
  id: string;
  firstName: string;
  lastName: string;
  title: string | null;
  email: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  account: { name: string; domain: string | null } | null;
}

/** A contact's custom fields (string key/value) when the contact carries them; none otherwise. */
export function customFieldsOf(contact: object): Record<string, string> {
  const raw = (contact as { customFields?: unknown }).customFields;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
  return Object.fromEntries(Object.entries(raw as Record<string, unknown>).filter(([, v]) => typeof v === "string" || typeof v === "number").map(([k, v]) => [k, String(v)]));
}

export function mergeValues(c: RecipientContact): TMergeValues {
  return {
    firstName: c.firstName,
    lastName: c.lastName,
    fullName: `${c.firstName} ${c.lastName}`.trim(),
    title: c.title,
    email: c.email,
    company: c.account?.name ?? null,
    companyDomain: c.account?.domain ?? null,
    city: c.city,
    region: c.region,
    country: c.country,
    custom: customFieldsOf(c),
  };
}

/** The address block as printed: name, title and company, street lines, city line, country. */
export function addressBlock(c: {
  firstName: string;
  lastName: string;
  title: string | null;
  company: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
}): string[] {
  const postcodeFirst = ["DE", "FR", "ES", "IT", "NL", "BE", "AT", "CH", "DK", "SE", "NO", "FI", "PL", "PT", "CZ"].includes(c.country ?? "");
  const cityLine =
    c.country === "GB"
      ? [c.city, c.postalCode]
      : postcodeFirst
        ? [`${c.postalCode ?? ""} ${c.city ?? ""}`.trim()]
        : [`${c.city ?? ""}${c.region ? `, ${c.region}` : ""} ${c.postalCode ?? ""}`.trim()];
  return [
    `${c.firstName} ${c.lastName}`.trim(),
    c.title && c.company ? `${c.title}, ${c.company}` : (c.company ?? c.title ?? ""),
    c.addressLine1 ?? "",
    c.addressLine2 ?? "",
    ...cityLine.map((l) => l ?? ""),
    c.country && c.country !== "US" ? c.country : "",
  ].filter((line) => line.trim() !== "");
}

/** True when the street lines name a post-office box (gifts never ship to one). */
export function isPoBox(c: { addressLine1: string | null; addressLine2: string | null }): boolean {
  return /\b(p\.?\s*o\.?\s*box|post\s+office\s+box|postfach|boite\s+postale|apartado\s+postal|pmb\s+\d)/i.test(`${c.addressLine1 ?? ""} ${c.addressLine2 ?? ""}`);
}
