import { allCountries } from "country-region-data";
import countries from "i18n-iso-countries";
import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";
import { toCountryCode } from "@/server/contacts/countries";
import { canonicalPostalCode } from "@/server/mailability/postal-code";

/** Countries whose post needs a state or province on the envelope. */
export const REGION_REQUIRED = new Set(["US", "CA", "AU"]);

export interface PostalAddress {
  firstName: string;
  lastName: string;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  addressStatus: "unverified" | "deliverable" | "undeliverable";
  undeliverableReason?: string | null;
}

const regionsByCountry = new Map(allCountries.map(([, code, regions]) => [code, regions.map(([name, short]) => ({ name: name.toLowerCase(), short: (short ?? "").toUpperCase() }))]));

/** What can be wrong with a postal address, as the mailability audit names it (src/server/mailability). */
export type TAddressProblemCode =
  | "undeliverable"
  | "missing_name"
  | "missing_address"
  | "missing_city"
  | "unknown_country"
  | "missing_postal_code"
  | "invalid_postal_code"
  | "invalid_region";

/**
 * Address review (gate 3): the fields a postal service needs, a postal code and a region that fit
 * the country (country data from i18n-iso-countries, country-region-data and postcode-validator),
 * and no undeliverable marker. Each problem has its code (the audit's reason) and its words; none
 * means the address may be mailed. The lifecycle and the audit both read this, so they agree.
 */
export function addressProblems(a: PostalAddress): { code: TAddressProblemCode; message: string }[] {
  const problems: { code: TAddressProblemCode; message: string }[] = [];
  const add = (code: TAddressProblemCode, message: string) => problems.push({ code, message });
  if (a.addressStatus === "undeliverable") add("undeliverable", `marked undeliverable${a.undeliverableReason ? ` (${a.undeliverableReason})` : ""}`);
  if (!a.firstName.trim() && !a.lastName.trim()) add("missing_name", "no recipient name");
  if (!a.addressLine1?.trim()) add("missing_address", "no street address");
  if (!a.city?.trim()) add("missing_city", "no city");
  const country = a.country?.trim().toUpperCase() ?? "";
  if (!country) {
    add("unknown_country", "no country");
    return problems;
  }
  if (!countries.isValid(country)) {
    add("unknown_country", `unknown country code ${country}`);
    return problems;
  }
  const postal = a.postalCode?.trim() ?? "";
  if (postcodeValidatorExistsForCountry(country)) {
    if (!postal) add("missing_postal_code", "no postal code");
    else if (!postcodeValidator(postal, country)) add("invalid_postal_code", `postal code ${postal} does not fit ${country}`);
  }
  const region = a.region?.trim() ?? "";
  const known = regionsOf(country);
  if (!region) {
    if (REGION_REQUIRED.has(country)) add("invalid_region", `no state or province (required in ${country})`);
  } else if (known.length && !known.some((r) => r.short === region.toUpperCase() || r.name === region.toLowerCase())) {
    add("invalid_region", `region ${region} is not a region of ${country}`);
  }
  return problems;
}

/** The problems of an address in words (the lifecycle's address review). */
export function reviewAddress(a: PostalAddress): string[] {
  return addressProblems(a).map((p) => p.message);
}

/** The regions of a country (country-region-data): lower-case name and upper-case postal code. */
export function regionsOf(country: string): { name: string; short: string }[] {
  return regionsByCountry.get(country as never) ?? [];
}

// Plain ASCII (most addresses) needs no Unicode decomposition: the same result, without its cost on imports.
const ASCII = /^[\x20-\x7e]*$/;
const squash = (s: string | null | undefined) => {
  const upper = (s ?? "").toUpperCase();
  return (ASCII.test(upper) ? upper : upper.normalize("NFKD")).replace(/[^A-Z0-9]+/g, " ").trim();
};

/**
 * A normalised postal address, for suppression by address and duplicate detection: the country as
 * its ISO code (a name such as "Deutschland" too) and the postal code in the country's own form
 * ("2116" → "02116", "e145ab" → "E14 5AB"), so that one address written two ways has one key.
 */
export function addressKey(a: Pick<PostalAddress, "addressLine1" | "addressLine2" | "city" | "postalCode" | "country">): string {
  const written = a.country?.trim() ?? "";
  const country = /^[A-Za-z]{2}$/.test(written) ? written.toUpperCase() : written ? (toCountryCode(written) ?? written) : "";
  const postal = a.postalCode && /^[A-Z]{2}$/.test(country) ? canonicalPostalCode(country, a.postalCode) : a.postalCode;
  return [country, postal, a.city, a.addressLine1, a.addressLine2].map(squash).join("|");
}

/**
 * The same person at the same address: two contacts with this key in one campaign are duplicates.
 * `key` is the address's addressKey when the caller already has it.
 */
export function recipientKey(a: Pick<PostalAddress, "firstName" | "lastName" | "addressLine1" | "addressLine2" | "city" | "postalCode" | "country">, key = addressKey(a)): string {
  return `${squash(a.firstName)} ${squash(a.lastName)}|${key}`;
}
