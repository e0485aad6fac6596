import { isPoBox } from "@/server/programme/designs/recipient";
import { addressProblems, type PostalAddress } from "@/server/records/addresses/checks";
import type { TFormat } from "@/server/ground/render/page-specs";
import {
  addressBlockLines,
  fitsBlock,
  SMALLEST_BLOCK,
  type TBlockSpec,
} from "@/server/records/addresses/address-block";
import { fieldChanges, normaliseAddress, type TAddressFix } from "@/server/records/addresses/normalise";
import { isInformational, MAILABILITY_REASONS, type TMailabilityReason, type TMailabilityStatus } from "./reasons";
import { type TVerification, verificationReason } from "./verifiers/types";

export interface TVerdict {
  status: TMailabilityStatus;
  /** Every reason that applies, in the closed list's order (informational ones included). */
  reasons: TMailabilityReason[];
  /** The correction that makes it mailable (fixable only): the fields to change and their new values. */
  suggestion?: TAddressFix;
}

/** A contact as the verdict reads it: its name, address and (for the printed block) title and company. */
export interface TAuditContact extends PostalAddress {
  title?: string | null;
  company?: string | null;
}

/** What is the same for every contact of one audit (or one campaign's lifecycle step). */
export interface TSharedFacts {
  /** The campaign's format; null for an audience audit (a PO box then only informs). */
  format: TFormat | null;
  /** The address block addresses are measured against. */
  block: TBlockSpec;
  /** Countries the approved printers (a campaign: its contract) mail to; null when there is none yet (not judged). */
  coveredCountries: ReadonlySet<string> | null;
}

/** What is known about one contact beyond its own fields. */
export interface TContactFacts {
  suppressed: boolean;
  /** An earlier contact of the audience (or an enrollment of the campaign) is the same person at the same address. */
  duplicateContact?: boolean;
  /** Another contact of the audience has the same address. */
  duplicateAddress?: boolean;
  /** The address verifier's cached answer for the contact's normalised address, when there is one. */
  verification?: TVerification | null;
}

export const AUDIENCE_FACTS: TSharedFacts = { format: null, block: SMALLEST_BLOCK, coveredCountries: null };

const ORDER = new Map(MAILABILITY_REASONS.map((r, i) => [r, i]));

function reasonsOf(c: TAuditContact, shared: TSharedFacts, own: TContactFacts): TMailabilityReason[] {
  const reasons = new Set<TMailabilityReason>(addressProblems(c).map((p) => p.code));
  const country = c.country?.trim().toUpperCase() ?? "";
  if (shared.coveredCountries && country && !reasons.has("unknown_country") && !shared.coveredCountries.has(country))
    reasons.add("unsupported_country");
  if (isPoBox(c)) reasons.add("po_box");
  const verified = verificationReason(own.verification);
  if (verified) reasons.add(verified);
  if (own.suppressed) reasons.add("suppressed");
  if (own.duplicateContact) reasons.add("duplicate_contact");
  else if (own.duplicateAddress) reasons.add("duplicate_address");
  if (c.addressLine1?.trim() && !fitsBlock(addressBlockLines(c), shared.block)) reasons.add("address_too_long");
  return [...reasons].sort((a, b) => ORDER.get(a)! - ORDER.get(b)!);
}

/** The reasons that stop mail in this format (the others only inform). */
export function blockingReasons(reasons: TMailabilityReason[], format: string | null): TMailabilityReason[] {
  return reasons.filter((r) => !isInformational(r, format));
}

/**
 * One contact's mailability: every reason that applies, and whether it is mailable, fixable (the
 * normalised address, the suggested fix, would be mailable) or unmailable. Pure: the database facts
 * come in `shared` and `own`, so the audit (a batch at a time) and the lifecycle's suppression and
 * address gates (one contact at a time) evaluate exactly this function and cannot disagree.
 */
export function verdictOf(c: TAuditContact, shared: TSharedFacts, own: TContactFacts): TVerdict {
  const reasons = reasonsOf(c, shared, own);
  if (blockingReasons(reasons, shared.format).length === 0) return { status: "mailable", reasons };
  const fix = fieldChanges(c, normaliseAddress(c));
  if (fix && blockingReasons(reasonsOf({ ...c, ...fix }, shared, own), shared.format).length === 0)
    return { status: "fixable", reasons, suggestion: fix };
  return { status: "unmailable", reasons };
}

/**
 * What the lifecycle does with a verdict: its suppression gate skips `suppressed`, its address gate
 * skips `address_duplicate` for a duplicate person and `address_invalid` for any other blocking
 * reason; `reasons` are the audit's reasons for it, recorded on the event.
 */
export function lifecycleOutcome(
  v: TVerdict,
  format: string | null,
): { gate: "ok" | "suppressed" | "address_invalid" | "address_duplicate"; reasons: TMailabilityReason[] } {
  const blocking = blockingReasons(v.reasons, format);
  if (blocking.length === 0) return { gate: "ok", reasons: [] };
  if (blocking.includes("suppressed")) return { gate: "suppressed", reasons: ["suppressed"] };
  const address = blocking.filter((r) => r !== "duplicate_contact");
  if (address.length) return { gate: "address_invalid", reasons: address };
  return { gate: "address_duplicate", reasons: ["duplicate_contact"] };
}
