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

/** What each reason means, for people (the audit page) and agents (tool descriptions, /docs). */
export const REASON_LABELS: Record<TMailabilityReason, string> = {
  missing_name: "No recipient name",
  missing_address: "No street address",
  missing_city: "No city",
  missing_postal_code: "No postal code",
  invalid_postal_code: "Postal code does not fit the country's format",
  invalid_region: "State or province missing or not of that country",
  unknown_country: "No country, or not an ISO 3166-1 country",
  unsupported_country: "No approved printer mails to the country",
  po_box: "A PO box: letters and postcards arrive, gifts cannot",
  undeliverable: "Marked undeliverable (a returned piece, the CRM or a person)",
  duplicate_address: "Another contact in the audience at the same address (informational)",
  duplicate_contact: "The same person at the same address as another contact in the audience",
  suppressed: "On the suppression list (contact, email, address, account or domain)",
  address_too_long: "An address line longer than an envelope's address block (40 characters)",
};

/**
 * Reasons that only inform: they do not stop a postcard or a letter (several people of one company
 * share its office address; a PO box stops gifts only, and the lifecycle skips gifts to one).
 */
export const INFORMATIONAL_REASONS: ReadonlySet<TMailabilityReason> = new Set(["duplicate_address", "po_box"]);

/** The longest address line that fits the address block of every format (USPS: 40 characters). */
export const MAX_ADDRESS_LINE = 40;
