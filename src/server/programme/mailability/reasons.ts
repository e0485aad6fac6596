import { z } from "zod";

/** Why a contact cannot (or cannot yet) be mailed: a closed list, named the same in the UI, the docs and the MCP tools. */
export const MAILABILITY_REASONS = [
  "missing_name",
  "missing_address",
  "missing_city",
  "missing_postal_code",
  "invalid_postal_code",
  "invalid_region",
  "unknown_country",
  "unsupported_country",
  "po_box",
  "missing_unit",
  "undeliverable",
  "duplicate_address",
  "duplicate_contact",
  "suppressed",
  "address_too_long",
] as const;
export type TMailabilityReason = (typeof MAILABILITY_REASONS)[number];
export const ZMailabilityReason = z.enum(MAILABILITY_REASONS);

export const MAILABILITY_STATUSES = ["mailable", "fixable", "unmailable"] as const;
export type TMailabilityStatus = (typeof MAILABILITY_STATUSES)[number];

/** What each reason means, in a few words, for people (the audit page) and agents (tool descriptions). */
export const REASON_LABELS: Record<TMailabilityReason, string> = {
  missing_name: "No recipient name",
  missing_address: "No street address",
  missing_city: "No city",
  missing_postal_code: "No postal code",
  invalid_postal_code: "Postal code does not fit the country's format, or does not match the region or state",
  invalid_region: "Region missing where the post requires one, or not of that country",
  unknown_country: "No country, or not a country",
  unsupported_country: "No approved printer mails to the country",
  po_box: "A PO box: letters and postcards arrive, gifts cannot",
  missing_unit: "The verifier says a suite, floor or apartment is missing",
  undeliverable: "Undeliverable (the address verifier, a returned piece or the CRM)",
  duplicate_address: "Another contact in the audience at the same address (informational)",
  duplicate_contact: "The same person at the same address as another contact in the audience",
  suppressed: "On the suppression list (contact, email, address, account or domain)",
  address_too_long: "Does not fit the format's address block",
};

/**
 * What each reason means in full, and what to do about it: the docs page (/docs/mailability) and
 * the MCP resource print these.
 */
export const REASON_DETAILS: Record<TMailabilityReason, { means: string; blocks: string; fix: string }> = {
  missing_name: {
    means: "Neither a first nor a last name.",
    blocks: "Every format.",
    fix: "Add the person's name in the CRM or on the contact.",
  },
  missing_address: {
    means: "No street line (address line 1).",
    blocks: "Every format.",
    fix: "Add the street address.",
  },
  missing_city: {
    means:
      "No city or town, in a country whose post requires one (Google's address metadata; Japan's, for one, does not).",
    blocks: "Every format.",
    fix: "Add the city.",
  },
  missing_postal_code: {
    means: "No postal code, in a country whose post requires one (Google's address metadata says which).",
    blocks: "Every format.",
    fix: "Add the postal code.",
  },
  invalid_postal_code: {
    means:
      "The postal code does not fit the country's pattern, or fits it but does not match the region or state given (Google's address metadata: 90210 is not in DC; 530-0001 is a code of 大阪府, not of 東京都): the audit's table then names the region the code is of.",
    blocks: "Every format.",
    fix: "A code a spreadsheet damaged (a ZIP+4 run together, a missing hyphen or space, lower case; a lost leading zero where the region's codes confirm it) gets a suggested correction. A code one digit short where nothing confirms a lost leading zero (DE, FR: 8033 in München), or one that does not match its region, needs a person: correct the code, or the region.",
  },
  invalid_region: {
    means:
      "The state, province or prefecture is missing where the country's post requires one (US, CA, AU, IT, ES, JP, CN, KR, RU, BR, IN, ...), or is not one of the country's regions where its post prints a region (Google's address metadata). A region in another accepted form (Massachusetts, Tokyo, Moskva, Milano, JP-13) is the region; where the post prints no region (GB, DE, FR, NL) it is not checked.",
    blocks: "Every format.",
    fix: "Write the region as the post does (MA, 東京都, Москва, MI), or correct it by hand.",
  },
  unknown_country: {
    means: "No country, or a value that is not a country (i18n-iso-countries).",
    blocks: "Every format.",
    fix: "A country written as a name (Deutschland, United Kingdom, USA) is suggested as its ISO code.",
  },
  unsupported_country: {
    means:
      "No approved printer contract mails to the country (for a campaign: its own contract). Not judged while the workspace has no approved printer.",
    blocks: "Every format.",
    fix: "Approve a printer that covers the country in Settings → Printing, or leave these contacts out.",
  },
  po_box: {
    means: "The street lines name a post-office box (PO Box, Postfach, Boîte postale, Apartado, PMB).",
    blocks: "Gifts only: a parcel needs a street address. Informational for postcards, letters and notes.",
    fix: "For a gift campaign, give a street address.",
  },
  missing_unit: {
    means:
      "The address verifier says the building is right but a suite, floor or apartment is missing or wrong (Lob: deliverable_missing_unit or deliverable_incorrect_unit; international: deliverable_missing_info).",
    blocks: "Every format: the piece may not reach the person.",
    fix: "Add the suite or floor to address line 2.",
  },
  undeliverable: {
    means:
      "The address verifier says the post cannot deliver there, or the contact is marked undeliverable (a returned piece, the CRM).",
    blocks: "Every format.",
    fix: "Find the current address.",
  },
  duplicate_address: {
    means: "Another contact in the same audience has the same normalised address (colleagues at one office).",
    blocks: "Nothing: informational.",
    fix: "Nothing needed; the holdout is drawn per account.",
  },
  duplicate_contact: {
    means:
      "The same person (name) at the same normalised address as an earlier contact of the audience; the lifecycle mails one of them once.",
    blocks: "Every format, for the later contact.",
    fix: "Merge the two contacts in the CRM.",
  },
  suppressed: {
    means: "The contact, its email, its address, its account or its domain is on the suppression list.",
    blocks: "Every format.",
    fix: "Nothing, unless the suppression is a mistake (Suppressions).",
  },
  address_too_long: {
    means:
      "The printed address (name, company and the country's address lines as formatted for it) does not fit the address block of the format at the smallest type size the layout allows: a line would break, or there are too many lines.",
    blocks:
      "Every format (each measured against its own block; an audience audit without a campaign measures against the smallest block, a 4 × 6 in postcard's).",
    fix: "Shorten the street or company line (abbreviations such as St, Ave, Ste), or use a larger format.",
  },
};

/**
 * Reasons that only inform for this format: several people of one company share its office
 * address; a PO box stops gifts only.
 */
export function isInformational(reason: TMailabilityReason, format: string | null): boolean {
  if (reason === "duplicate_address") return true;
  if (reason === "po_box") return format !== "gift";
  return false;
}
