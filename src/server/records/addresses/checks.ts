import countries from "i18n-iso-countries";
import { countryRules, type TRegion } from "@/server/records/addresses/metadata";
import { keyWords, plainWord } from "@/server/records/addresses/words";
import {
  findRegion,
  postalCodeOfAnotherRegion,
  regionInScript,
  toCountryCode,
} from "@/server/records/addresses/countries";
import { canonicalPostalCode } from "@/server/records/addresses/postal-code";

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

/** What can be wrong with a postal address, as the mailability audit names it (src/server/programme/mailability). */
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
 * Address review (gate 3): the fields the country's post requires, a postal code that fits its
 * pattern, a region that is one of the country's where its post writes a region, and no
 * undeliverable marker. The rules are Google's address metadata (addresses/metadata.ts):
 * Japan's post needs no city line, Germany's and Britain's no region, Italy's its province. Each
 * problem has its code (the audit's reason) and its words; none means the address may be mailed.
 * The lifecycle and the audit both read this, so they agree.
 */
export function addressProblems(a: PostalAddress): { code: TAddressProblemCode; message: string }[] {
  const problems: { code: TAddressProblemCode; message: string }[] = [];
  const add = (code: TAddressProblemCode, message: string) => problems.push({ code, message });
  if (a.addressStatus === "undeliverable")
    add("undeliverable", `marked undeliverable${a.undeliverableReason ? ` — ${a.undeliverableReason}` : ""}`);
  if (!a.firstName.trim() && !a.lastName.trim()) add("missing_name", "no recipient name");
  if (!a.addressLine1?.trim()) add("missing_address", "no street address");
  const country = a.country?.trim().toUpperCase() ?? "";
  const rules = country && countries.isValid(country) ? countryRules(country) : null;
  // Where the data does not know the country, a city is asked for, as Google's defaults do.
  if (!a.city?.trim() && (rules?.require ?? "AC").includes("C")) add("missing_city", "no city");
  if (!country) {
    add("unknown_country", "no country");
    return problems;
  }
  if (!countries.isValid(country)) {
    add("unknown_country", `unknown country code ${country}`);
    return problems;
  }
  if (!rules) return problems;
  const postal = a.postalCode?.trim() ?? "";
  if (!postal) {
    if (rules.require.includes("Z")) add("missing_postal_code", "no postal code");
  } else if (rules.postalCode && !rules.postalCode.test(postal)) {
    add("invalid_postal_code", `postal code ${postal} does not fit ${country}`);
  }
  const region = a.region?.trim() ?? "";
  const known = region && rules.usesRegion && rules.regions.length ? findRegion(country, region) : null;
  if (!region) {
    if (rules.require.includes("S")) add("invalid_region", `no state or province (required in ${country})`);
  } else if (rules.usesRegion && rules.regions.length && !known) {
    add("invalid_region", `region ${region} is not a region of ${country}`);
  }
  // A code of the right form but of another region (Google's data gives each region's first digits):
  // the code and the region disagree, and the words say so, not that the code is malformed.
  const other =
    known && !problems.some((p) => p.code === "invalid_postal_code")
      ? postalCodeOfAnotherRegion(country, region, postal)
      : null;
  if (other)
    add(
      "invalid_postal_code",
      regionMismatchWords(country, postal, region, other.codeOf, [a.addressLine1, a.addressLine2, a.city]),
    );
  return problems;
}

/**
 * A postal code that fits the country but not the region given, in words that name both fields and
 * the region the code is of: "postal code 530-0001 does not match the prefecture 東京都 (it is a code
 * of 大阪府)", "postal code 90210 does not match the state DC (it is a code of CA)".
 */
export function regionMismatchWords(
  country: string,
  postal: string,
  region: string,
  codeOf: TRegion | null,
  address: readonly (string | null | undefined)[] = [],
): string {
  const kind = countryRules(country)?.regionKind ?? "region";
  return `postal code ${postal} does not match the ${kind} ${region}${codeOf ? ` (it is a code of ${regionInScript(codeOf, region, address)})` : ""}`;
}

/** The problems of an address in words (the lifecycle's address review). */
export function reviewAddress(a: PostalAddress): string[] {
  return addressProblems(a).map((p) => p.message);
}

const squash = (s: string | null | undefined) =>
  plainWord(s ?? "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** A postal code as the key reads it: the country's own form without spaces, a US ZIP+4 as its ZIP. */
function keyPostalCode(country: string, raw: string | null | undefined): string {
  if (!raw?.trim()) return "";
  const canonical = /^[A-Z]{2}$/.test(country) ? canonicalPostalCode(country, raw) : raw;
  const compact = plainWord(canonical).replace(/[^\p{L}\p{N}]+/gu, "");
  return country === "US" && /^\d{9}$/.test(compact) ? compact.slice(0, 5) : compact;
}

/**
 * A normalised postal address, for suppression by address and duplicate detection, so that one
 * address written two ways has one key: the country as its ISO code (a name such as "Deutschland"
 * too); the postal code in the country's own form ("2116" → "02116", "e145ab" → "E14 5AB", a ZIP+4
 * as its ZIP); city and street lines without case, accents or punctuation, and with each street
 * type and unit word in one form (words.ts: 77 Elm Street = 77 Elm St, Suite 5 = Ste 5,
 * Friedrichstraße = Friedrichstr.). The two street lines are read as one (a unit on either line).
 */
export function addressKey(
  a: Pick<PostalAddress, "addressLine1" | "addressLine2" | "city" | "postalCode" | "country">,
): string {
  const written = a.country?.trim() ?? "";
  const country = /^[A-Za-z]{2}$/.test(written)
    ? written.toUpperCase()
    : written
      ? (toCountryCode(written) ?? written)
      : "";
  const street = [a.addressLine1, a.addressLine2]
    .map((l) => keyWords(country, l))
    .filter(Boolean)
    .join(" ");
  return [squash(country), keyPostalCode(country, a.postalCode), keyWords(country, a.city), street].join("|");
}

/**
 * The same person at the same address: two contacts with this key in one campaign are duplicates.
 * `key` is the address's addressKey when the caller already has it.
 */
export function recipientKey(
  a: Pick<
    PostalAddress,
    "firstName" | "lastName" | "addressLine1" | "addressLine2" | "city" | "postalCode" | "country"
  >,
  key = addressKey(a),
): string {
  return `${squash(a.firstName)} ${squash(a.lastName)}|${key}`;
}
