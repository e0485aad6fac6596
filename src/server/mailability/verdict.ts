import { addressProblems, type PostalAddress } from "@/server/entry/lifecycle/gates/address";
import { isPoBox } from "@/server/designs/recipient";
import { INFORMATIONAL_REASONS, MAX_ADDRESS_LINE, type TMailabilityReason, type TMailabilityStatus } from "./reasons";
import { suggestFix, type TAddressFix } from "./suggest";

export interface TVerdict {
  status: TMailabilityStatus;
  reasons: TMailabilityReason[];
  /** The correction that makes it mailable, when there is one (fixable). */
  suggestion?: TAddressFix;
}

export interface VerdictContext {
  suppressed: boolean;
  /** Countries the workspace's approved printers mail to; null when it has no approved printer yet. */
  coveredCountries: ReadonlySet<string> | null;
  /** Another contact in the audience is the same person at the same address (this one comes later). */
  duplicateContact?: boolean;
  /** Another contact in the audience shares the address. */
  duplicateAddress?: boolean;
}

/**
 * One contact's mailability: every reason that applies, and whether it is mailable, fixable (a
 * likely correction makes it mailable) or unmailable. The address reasons are the lifecycle's own
 * address review, so the audit and the mail never disagree.
 */
export function verdictOf(c: PostalAddress, ctx: VerdictContext): TVerdict {
  const reasons = new Set<TMailabilityReason>(addressProblems(c).map((p) => p.code));
  const country = c.country?.trim().toUpperCase() ?? "";
  if (ctx.coveredCountries && country && !reasons.has("unknown_country") && !ctx.coveredCountries.has(country)) reasons.add("unsupported_country");
  if (isPoBox(c)) reasons.add("po_box");
  if (ctx.suppressed) reasons.add("suppressed");
  if (ctx.duplicateContact) reasons.add("duplicate_contact");
  else if (ctx.duplicateAddress) reasons.add("duplicate_address");
  if ([c.addressLine1, c.addressLine2, c.city].some((l) => (l?.trim().length ?? 0) > MAX_ADDRESS_LINE)) reasons.add("address_too_long");

  const list = [...reasons];
  const blocking = list.filter((r) => !INFORMATIONAL_REASONS.has(r));
  if (blocking.length === 0) return { status: "mailable", reasons: list };
  // Fixable: the only blocking reason is a postal code with a likely correction.
  const suggestion = blocking.length === 1 && blocking[0] === "invalid_postal_code" ? suggestFix(c) : null;
  return suggestion ? { status: "fixable", reasons: list, suggestion } : { status: "unmailable", reasons: list };
}
