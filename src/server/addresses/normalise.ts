import { countryRules } from "@/server/addresses/metadata";
import { findRegion, toCountryCode } from "@/server/addresses/countries";
import { canonicalPostalCode } from "./postal-code";

export { canonicalPostalCode };

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
 * Spain's post prints the province's name (28013 Madrid, Madrid), though Google's data keys its
 * provinces by their codes (M, B): there the name is kept.
 */
const REGION_NAME_PRINTED = new Set(["ES"]);

/**
 * A region in the form the country's post writes it (Google's address metadata): Massachusetts →
 * MA, 東京 → 東京都, г. Москва → Москва, Milano → MI; written in Latin script where the post's form is
 * in another, in the data's Latin form (Tokyo-to → Tokyo, Moscow → Moskva). A country whose post
 * prints no region, or a region the data does not know, keeps it as written.
 */
export function canonicalRegion(country: string, raw: string): string {
  const region = raw.replace(/\s+/gu, " ").trim();
  if (!countryRules(country)?.usesRegion) return region;
  const known = findRegion(country, region);
  if (!known) return region;
  if (REGION_NAME_PRINTED.has(country)) return known.names[0] ?? known.key;
  // An address written in Latin script keeps its region in Latin script (Japan Post and Russian Post read both).
  if (known.latin && NON_LATIN.test(known.key) && !NON_LATIN.test(region)) return known.latin;
  return known.key;
}

/** Letters of a script other than Latin. */
const NON_LATIN = /(?!\p{Script=Latin})\p{L}/u;

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
