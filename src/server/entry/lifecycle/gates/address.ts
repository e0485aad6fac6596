import { allCountries } from "country-region-data";
import countries from "i18n-iso-countries";
import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";

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

/**
 * Address review (gate 3): the fields a postal service needs, a postal code and a region that fit
 * the country (country data from i18n-iso-countries, country-region-data and postcode-validator),
 * and no undeliverable marker. Returns the problems in words; none means the address may be mailed.
 */
export function reviewAddress(a: PostalAddress): string[] {
  const problems: string[] = [];
  if (a.addressStatus === "undeliverable") problems.push(`marked undeliverable${a.undeliverableReason ? ` (${a.undeliverableReason})` : ""}`);
  if (!a.firstName.trim() && !a.lastName.trim()) problems.push("no recipient name");
  if (!a.addressLine1?.trim()) problems.push("no street address");
  if (!a.city?.trim()) problems.push("no city");
  const country = a.country?.trim().toUpperCase() ?? "";
  if (!country) {
    problems.push("no country");
    return problems;
  }
  if (!countries.isValid(country)) {
    problems.push(`unknown country code ${country}`);
    return problems;
  }
  const postal = a.postalCode?.trim() ?? "";
  if (postcodeValidatorExistsForCountry(country)) {
    if (!postal) problems.push("no postal code");
    else if (!postcodeValidator(postal, country)) problems.push(`postal code ${postal} does not fit ${country}`);
  }
  const region = a.region?.trim() ?? "";
  const known = regionsByCountry.get(country as never) ?? [];
  if (!region) {
    if (REGION_REQUIRED.has(country)) problems.push(`no state or province (required in ${country})`);
  } else if (known.length && !known.some((r) => r.short === region.toUpperCase() || r.name === region.toLowerCase())) {
    problems.push(`region ${region} is not a region of ${country}`);
  }
  return problems;
}

const squash = (s: string | null | undefined) => (s ?? "").toUpperCase().normalize("NFKD").replace(/[^A-Z0-9]+/g, " ").trim();

/** A normalised postal address, for suppression by address and duplicate detection. */
export function addressKey(a: Pick<PostalAddress, "addressLine1" | "addressLine2" | "city" | "postalCode" | "country">): string {
  return [a.country, a.postalCode, a.city, a.addressLine1, a.addressLine2].map(squash).join("|");
}

/** The same person at the same address: two contacts with this key in one campaign are duplicates. */
export function recipientKey(a: PostalAddress): string {
  return `${squash(a.firstName)} ${squash(a.lastName)}|${addressKey(a)}`;
}
