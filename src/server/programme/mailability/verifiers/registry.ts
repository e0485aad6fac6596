import { LobVerifier } from "./lob";
import { SandboxVerifier } from "./sandbox";
import type { AddressVerifier } from "./types";

/** Prices used for Lob unless configured: a cost estimate shown before a run, not a quote from Lob. */
export const DEFAULT_LOB_US_CENTS = 5;
export const DEFAULT_LOB_INTL_CENTS = 25;

const cents = (raw: string | undefined, fallback: number) => {
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= 10_000 ? n : fallback;
};

let override: AddressVerifier | null = null;
/** Tests: use this verifier instead of the configured one (null restores it). */
export function setAddressVerifierForTests(v: AddressVerifier | null) {
  override = v;
}

/**
 * The verifier every workspace of this service uses: Lob when `LOB_API_KEY` is set (with
 * `LOB_API_URL`, `LOB_US_VERIFICATION_CENTS` and `LOB_INTL_VERIFICATION_CENTS`), otherwise the
 * sandbox.
 */
export function addressVerifier(env: Record<string, string | undefined> = process.env): AddressVerifier {
  if (override) return override;
  const key = env.LOB_API_KEY?.trim();
  if (!key) return new SandboxVerifier();
  return new LobVerifier({
    apiKey: key,
    baseUrl: env.LOB_API_URL?.trim() || undefined,
    usCents: cents(env.LOB_US_VERIFICATION_CENTS, DEFAULT_LOB_US_CENTS),
    intlCents: cents(env.LOB_INTL_VERIFICATION_CENTS, DEFAULT_LOB_INTL_CENTS),
  });
}
