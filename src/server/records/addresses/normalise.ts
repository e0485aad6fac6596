import { countryRules } from "@/server/records/addresses/metadata";
import {
  findRegion,
  postalCodeOfAnotherRegion,
  regionInScript,
  toCountryCode,
} from "@/server/records/addresses/countries";
import { regionMismatchWords } from "@/server/records/addresses/checks";
import { canonicalPostalCode, restoresLeadingZero } from "./postal-code";

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
export const ADDRESS_FIELD_NAMES: TAddressFieldName[] = [
  "addressLine1",
  "addressLine2",
  "city",
  "region",
  "postalCode",
  "country",
];

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
 * MA, 東京 → 東京都, г. Москва → Москва, Milano → MI; in the script the address is written in
 * (`address`: its street lines and city): an address written in Latin letters only keeps its region
 * in the data's Latin form (Tokyo-to → Tokyo, Moscow → Moskva), one written in another script takes
 * the post's own form (Moscow in a Cyrillic address → Москва), and a region written in its own script
 * is never transliterated. A country whose post prints no region, or a region the data does not
 * know, keeps it as written.
 */
export function canonicalRegion(
  country: string,
  raw: string,
  address: readonly (string | null | undefined)[] = [],
): string {
  const region = raw.replace(/\s+/gu, " ").trim();
  if (!countryRules(country)?.usesRegion) return region;
  const known = findRegion(country, region);
  if (!known) return region;
  if (REGION_NAME_PRINTED.has(country)) return known.names[0] ?? known.key;
  return regionInScript(known, region, address);
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
    region: region && code ? canonicalRegion(code, region, [a.addressLine1, a.addressLine2, a.city]) : region,
    postalCode: postalCode && code ? postalCodeAsRead(code, postalCode, region).postalCode : postalCode,
    country,
  };
}

/**
 * The postal code in the country's own form. A leading zero a number column dropped is put back
 * only where the region given confirms it, its codes beginning as the code would (2116 in MA is
 * 02116, a Boston ZIP): "9501" in CA stays as written, since 09501 is no Californian ZIP and showing
 * it would make a guess look like a correction. Where nothing can confirm it (a country whose post
 * prints no region, such as DE and FR, or a region whose codes the data does not give) the code
 * stays as written too: München's "8033" is more likely a code cut short (8033x) than Zwickau's 08033.
 */
function postalCodeAsRead(
  country: string,
  written: string,
  region: string | null,
): { postalCode: string; zero: "put_back" | "unconfirmed" | null; padded: string } {
  const padded = canonicalPostalCode(country, written);
  if (!restoresLeadingZero(country, written)) return { postalCode: padded, zero: null, padded };
  const rules = countryRules(country);
  const known = rules?.usesRegion && rules.regions.length ? findRegion(country, region) : null;
  const confirmed = !!known?.postalPrefix && known.postalPrefix.test(padded);
  return confirmed
    ? { postalCode: padded, zero: "put_back", padded }
    : { postalCode: written, zero: "unconfirmed", padded };
}

/**
 * What normalising the address found in its postal code, in words, for the person checking it
 * beside the original (the audit's table): a leading zero put back, or not put back because nothing
 * confirms it (the region given, or a country whose post prints no region); or a code that fits the
 * country but is of another region than the one given, naming the region it is of.
 */
export function normalisationNotes(a: AddressFields): string[] {
  const country = a.country ? (toCountryCode(a.country) ?? space(a.country)) : null;
  const postalCode = space(a.postalCode);
  if (!postalCode || !country || !/^[A-Z]{2}$/.test(country)) return [];
  const region = space(a.region);
  const read = postalCodeAsRead(country, postalCode, region);
  if (read.zero === "put_back")
    return [`Postal code ${postalCode} read as ${read.padded} (a spreadsheet drops leading zeros).`];
  if (read.zero === "unconfirmed") {
    const rules = countryRules(country);
    const known = region ? findRegion(country, region) : null;
    if (!rules?.usesRegion || !rules.regions.length || (known && !known.postalPrefix)) {
      return [
        `Postal code ${postalCode} left as written: it does not fit ${country}, and nothing in the address confirms that a leading zero was lost (${read.padded}); a digit may be missing elsewhere.`,
      ];
    }
    return [
      known
        ? `Postal code ${postalCode} left as written: ${read.padded}, with a lost leading zero put back, is not a postal code of ${region}.`
        : `Postal code ${postalCode} left as written: without a known ${country === "US" ? "state" : "region"}, a lost leading zero (${read.padded}) cannot be confirmed.`,
    ];
  }
  // The code as the country writes it (530 0001 → 530-0001): a code its fix would not make mailable says why.
  const other = region ? postalCodeOfAnotherRegion(country, region, read.postalCode) : null;
  if (other) {
    const words = regionMismatchWords(country, read.postalCode, region!, other.codeOf, [
      a.addressLine1,
      a.addressLine2,
      a.city,
    ]);
    return [
      `${words.charAt(0).toUpperCase()}${words.slice(1)}: correct the postal code or the ${countryRules(country)?.regionKind ?? "region"}.`,
    ];
  }
  return [];
}

/** The fields of `next` that differ from `a` (null when none does). */
export function fieldChanges(a: AddressFields, next: AddressFields): TAddressFix | null {
  const fix: TAddressFix = {};
  for (const f of ADDRESS_FIELD_NAMES) if ((next[f] ?? null) !== (a[f] ?? null) && next[f] != null) fix[f] = next[f]!;
  return Object.keys(fix).length ? fix : null;
}
