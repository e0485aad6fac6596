import { addressBlockLines } from "@/server/records/addresses/address-block";
import { printedName } from "@/server/records/addresses/scripts";
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
  return Object.fromEntries(
    Object.entries(raw as Record<string, unknown>)
      .filter(([, v]) => typeof v === "string" || typeof v === "number")
      .map(([k, v]) => [k, String(v)]),
  );
}

export function mergeValues(c: RecipientContact): TMergeValues {
  return {
    firstName: c.firstName,
    lastName: c.lastName,
    // Family name first for a name in Japanese script (山田 太郎), as the address block prints it.
    fullName: printedName(c),
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

/**
 * The address block as printed: name, title and company, then the street, city and country lines
 * as the country's post writes them (src/server/records/addresses/address-block.ts, which the
 * mailability audit measures against the format's block).
 */
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
  return addressBlockLines(c);
}

const PO_BOX =
  /\b(p\.?\s*o\.?\s*box|post\s+office\s+box|postfach|boite\s+postale|b\.?\s?p\.?\s+\d|apartado(\s+postal)?|caixa\s+postal|casilla(\s+de\s+correo)?|pmb\s+\d|po\s+box)|私書箱/i;

/**
 * True when the street lines name a post-office box (gifts never ship to one): PO Box, Postfach,
 * Boîte postale (BP), Apartado, Caixa Postal, Casilla, a private mailbox (PMB), 私書箱.
 */
export function isPoBox(c: { addressLine1: string | null; addressLine2: string | null }): boolean {
  const text = `${c.addressLine1 ?? ""} ${c.addressLine2 ?? ""}`;
  return PO_BOX.test(/^[\x20-\x7e]*$/.test(text) ? text : text.normalize("NFKD").replace(/[\u0300-\u036f]/g, ""));
}
