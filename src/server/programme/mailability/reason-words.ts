import { addressProblems, type PostalAddress } from "@/server/records/addresses/checks";
import type { TMailabilityReason } from "./reasons";

/**
 * A contact's reasons in a few lower-case words each, for a sentence that names the person
 * ("Li Wei: no street address, no city"): the address checks' own words where they say more
 * (which postal code, which region), the audit's meaning otherwise. The reasons are the verdict's
 * (verdict.ts), so the words never say more or less than the audit and the lifecycle decide.
 */
export function reasonPhrases(contact: PostalAddress, reasons: readonly TMailabilityReason[]): string[] {
  const problems = new Map<string, string>();
  for (const p of addressProblems(contact)) if (!problems.has(p.code)) problems.set(p.code, p.message);
  const country = contact.country?.trim().toUpperCase() || "the country";
  return reasons.map((r) => {
    switch (r) {
      case "invalid_region":
        // "no state or province (required in US)" reads as a sentence of its own; the missing state is enough here.
        return contact.region?.trim() ? (problems.get(r) ?? "a region not of the country") : "no state or province";
      case "invalid_postal_code":
      case "unknown_country":
      case "missing_name":
      case "missing_address":
      case "missing_city":
      case "missing_postal_code":
        return problems.get(r) ?? PHRASES[r];
      case "undeliverable":
        return problems.get(r) ?? "undeliverable, says the address verifier";
      case "unsupported_country":
        return `no approved printer mails to ${country}`;
      default:
        return PHRASES[r];
    }
  });
}

const PHRASES: Record<TMailabilityReason, string> = {
  missing_name: "no recipient name",
  missing_address: "no street address",
  missing_city: "no city",
  missing_postal_code: "no postal code",
  invalid_postal_code: "a postal code that does not fit the country or its region",
  invalid_region: "no state or province",
  unknown_country: "no country",
  unsupported_country: "no approved printer mails to the country",
  po_box: "a PO box, where a gift cannot go",
  missing_unit: "a suite, floor or apartment missing, says the address verifier",
  undeliverable: "undeliverable",
  duplicate_address: "another contact at the same address",
  duplicate_contact: "the same person at the same address as another recipient",
  suppressed: "on the suppression list",
  address_too_long: "an address too long for the address block",
};
