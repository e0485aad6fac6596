import type { AddressFields } from "@/server/records/addresses/normalise";
import { type AddressVerifier, type TVerification, VerifierError } from "./types";

/** Verifications in flight at once (Lob allows 150 requests per 5 seconds per key). */
export const VERIFY_CONCURRENCY = 4;
/** Tries per address when the vendor answers 429 or fails on its side. */
export const VERIFY_TRIES = 5;

export interface VerifyOutcome {
  results: Map<string, TVerification>;
  /** Addresses the vendor refused to verify (bad input), with its sentence. */
  refused: Map<string, string>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Verifies addresses (by cache key), a few at a time. A 429 waits as long as the vendor asks and
 * tries again; a failure on the vendor's side is tried again with backoff; an address the vendor
 * refuses is reported and skipped; a refused key (fatal) or a vendor still failing after
 * VERIFY_TRIES throws, so the job stops and resumes from its checkpoint.
 */
export async function verifyAddresses(
  verifier: AddressVerifier,
  items: { key: string; address: AddressFields }[],
  opts: { concurrency?: number; wait?: (ms: number) => Promise<void> } = {},
): Promise<VerifyOutcome> {
  const wait = opts.wait ?? sleep;
  const results = new Map<string, TVerification>();
  const refused = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      for (let attempt = 1; ; attempt++) {
        try {
          results.set(item.key, await verifier.verify(item.address));
          break;
        } catch (error) {
          const e =
            error instanceof VerifierError
              ? error
              : new VerifierError(error instanceof Error ? error.message : String(error));
          if (e.detail.fatal) throw e;
          if (e.detail.permanent) {
            refused.set(item.key, e.message);
            break;
          }
          if (attempt >= VERIFY_TRIES) throw e;
          await wait(e.detail.retryAfterMs ?? Math.min(30_000, 500 * 2 ** attempt));
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? VERIFY_CONCURRENCY, items.length) }, worker));
  return { results, refused };
}
