import type { AddressFields } from "@/server/records/addresses/normalise";

/**
 * What an address verifier says about an address, as print vendors word it (Lob's US and
 * international verifications, PostGrid, Google's Address Validation): deliverable; deliverable but
 * a unit (suite, floor, apartment) is missing, wrong or unnecessary; or undeliverable. And
 * `not_verified`: the verifier looked nothing up (the sandbox; a vendor's test key, which answers
 * only its documented test addresses): neither deliverable nor undeliverable.
 */
export const VERIFICATION_VERDICTS = [
  "deliverable",
  "deliverable_missing_unit",
  "deliverable_unnecessary_unit",
  "undeliverable",
  "not_verified",
] as const;
export type TVerificationVerdict = (typeof VERIFICATION_VERDICTS)[number];

/**
 * How a verifier answers: `live` looks the address up (a vendor's live key); `test` is a vendor's
 * test mode (answers made up from the request, not the postal database); `sandbox` is the free
 * built-in stand-in. Only a live answer says anything about the address.
 */
export const VERIFICATION_MODES = ["live", "test", "sandbox"] as const;
export type TVerificationMode = (typeof VERIFICATION_MODES)[number];

export interface TVerification {
  verdict: TVerificationVerdict;
  /** The vendor's own word for it (e.g. Lob's deliverable_incorrect_unit, no_match), kept for people. */
  vendorVerdict: string;
  /** The address as the vendor standardised it, when it returned one. */
  standardised: AddressFields | null;
}

/** A verifier the service can call: the sandbox, or a vendor's adapter. */
export interface AddressVerifier {
  /** Stable name ("sandbox", "lob"). */
  readonly name: string;
  /**
   * The name its answers are cached under: the name and the verification mode (Lob's test keys
   * answer by what the address says, live keys by looking it up), so that an answer made in one mode
   * is never used in the other. The name when there is one mode.
   */
  readonly cacheName?: string;
  /** For people: "Sandbox (deterministic, free)", "Lob". */
  readonly label: string;
  /** Whether its answers come from looking addresses up (live) or not (test, sandbox). */
  readonly mode: TVerificationMode;
  /** What one verification costs, in cents, for a domestic (US) and an international address. */
  costCents(country: string | null): number;
  /** Verifies one address (a normalised one with an ISO country code). Throws VerifierError. */
  verify(address: AddressFields): Promise<TVerification>;
}

/**
 * A verifier's failure: `retryAfterMs` when the vendor asked to slow down (429), `permanent` when
 * retrying this address cannot help, `fatal` when no address can be verified (a refused key).
 */
export class VerifierError extends Error {
  override name = "VerifierError";
  constructor(
    message: string,
    readonly detail: {
      status?: number;
      code?: string;
      retryAfterMs?: number;
      permanent?: boolean;
      fatal?: boolean;
    } = {},
  ) {
    super(message);
  }
}

/** The mailability reason a verification adds, if any. */
export function verificationReason(v: TVerification | null | undefined): "missing_unit" | "undeliverable" | null {
  if (!v) return null;
  if (v.verdict === "undeliverable") return "undeliverable";
  if (v.verdict === "deliverable_missing_unit") return "missing_unit";
  return null;
}
