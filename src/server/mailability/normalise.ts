import { toCountryCode } from "@/server/contacts/countries";
import { regionsOf } from "@/server/entry/lifecycle/gates/address";
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
