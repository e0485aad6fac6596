import { toCountryCode } from "@/server/contacts/countries";
import { regionsOf } from "@/server/entry/lifecycle/gates/address";

/** The address fields the audit normalises (the contact's own, as stored). */
export interface AddressFields {
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
}
export type TAddressFieldName = keyof AddressFields;
export const ADDRESS_FIELD_NAMES: TAddressFieldName[] = ["addressLine1", "addressLine2", "city", "region", "postalCode", "country"];

/** A correction of some address fields: only the fields that change, with their new value. */
export type TAddressFix = Partial<Record<TAddressFieldName, string>>;

const space = (s: string | null) => {
  if (s == null) return null;
  const t = s.replace(/\s+/gu, " ").trim();
  return t || null;
};

/**
 * A postal code as the country's post writes it, from the forms people and spreadsheets leave:
 * lower case, a missing or misplaced space or hyphen, a leading zero lost (a number column), a
 * ZIP+4 run together. No kept library formats postal codes (postcode-validator only checks them),
 * so the canonical forms of the countries below are written out here; any other country's code is
 * only trimmed and upper-cased.
 */
export function canonicalPostalCode(country: string, raw: string): string {
  const upper = raw.toUpperCase().replace(/\s+/g, " ").trim();
  const compact = upper.replace(/[^A-Z0-9]/g, "");
  const digits = upper.replace(/\D/g, "");
  switch (country) {
    case "US":
      if (/^\d{3,4}$/.test(compact)) return compact.padStart(5, "0");
      if (/^\d{9}$/.test(compact)) return `${compact.slice(0, 5)}-${compact.slice(5)}`;
      if (/^\d{8}$/.test(compact) && /^\d{4}[-\s]\d{4}$/.test(upper)) return `0${compact.slice(0, 4)}-${compact.slice(4)}`;
      return /^\d{5}$/.test(compact) ? compact : upper;
    case "GB":
    case "IE":
      // The inward code is always the last three characters (digit, letter, letter).
      return /^[A-Z0-9]{5,7}$/.test(compact) && (country === "GB" ? /\d[A-Z]{2}$/.test(compact) : true) ? `${compact.slice(0, -3)} ${compact.slice(-3)}` : upper;
    case "CA":
      return /^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(compact) ? `${compact.slice(0, 3)} ${compact.slice(3)}` : upper;
    case "NL":
      return /^\d{4}[A-Z]{2}$/.test(compact) ? `${compact.slice(0, 4)} ${compact.slice(4)}` : upper;
    case "JP":
      return digits.length === 7 && compact === digits ? `${digits.slice(0, 3)}-${digits.slice(3)}` : upper;
    case "BR":
      return digits.length === 8 && compact === digits ? `${digits.slice(0, 5)}-${digits.slice(5)}` : upper;
    case "PL":
      return digits.length === 5 && compact === digits ? `${digits.slice(0, 2)}-${digits.slice(2)}` : upper;
    case "SE":
      return digits.length === 5 && compact === digits ? `${digits.slice(0, 3)} ${digits.slice(3)}` : upper;
    case "DE":
    case "FR":
    case "ES":
    case "IT":
      // A five-digit code a number column cut to four (a leading zero: Dresden 01067, Nice 06000).
      return compact === digits && digits.length === 4 ? digits.padStart(5, "0") : compact === digits && digits.length === 5 ? digits : upper;
    default:
      return upper;
  }
}

/**
 * Countries whose post writes the region as its code on the envelope (MA, ON, NSW, SP). Elsewhere a
 * region's name is what people write and read (Tokyo, Bayern, Kent), so it is never turned into a code.
 */
const REGION_CODE_COUNTRIES = new Set(["US", "CA", "AU", "BR"]);

/** A region as its postal code where the post writes codes (Massachusetts → MA, ontario → ON); elsewhere as written. */
export function canonicalRegion(country: string, raw: string): string {
  const region = raw.replace(/\s+/gu, " ").trim();
  const known = REGION_CODE_COUNTRIES.has(country) ? regionsOf(country) : [];
  if (!known.length) return region;
  const upper = region.toUpperCase();
  const byCode = known.find((r) => r.short === upper);
  if (byCode) return byCode.short;
  const lower = region.toLowerCase();
  const byName = known.find((r) => r.name === lower) ?? known.find((r) => r.name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "") === lower.normalize("NFKD").replace(/[\u0300-\u036f]/g, ""));
  return byName?.short ? byName.short : region;
}

/**
 * The address as the service would keep it: spaces collapsed, the country as its ISO code, the
 * region as its postal code, the postal code in the country's own form. The original stays on the
 * contact; this form is shown beside it, and where it makes a problem go away it is the suggested fix.
 */
export function normaliseAddress(a: AddressFields): AddressFields {
  const country = a.country ? (toCountryCode(a.country) ?? space(a.country)) : null;
  const code = country && /^[A-Z]{2}$/.test(country) ? country : "";
  const region = space(a.region);
  const postalCode = space(a.postalCode);
  return {
    addressLine1: space(a.addressLine1),
    addressLine2: space(a.addressLine2),
    city: space(a.city),
    region: region && code ? canonicalRegion(code, region) : region,
    postalCode: postalCode && code ? canonicalPostalCode(code, postalCode) : postalCode,
    country,
  };
}

/** The fields of `next` that differ from `a` (null when none does). */
export function fieldChanges(a: AddressFields, next: AddressFields): TAddressFix | null {
  const fix: TAddressFix = {};
  for (const f of ADDRESS_FIELD_NAMES) if ((next[f] ?? null) !== (a[f] ?? null) && next[f] != null) fix[f] = next[f]!;
  return Object.keys(fix).length ? fix : null;
}
