import { VendorError } from "../../adapter";
import { HandwryttenFailure } from "./http";

/**
 * Handwrytten's answers as closed reasons. Its reference documents 400, 401 and 500 answers with a
 * sentence (`message`) and no machine code, and its SDK (src/http-client.ts) reads 401/403 as a
 * refused key, 404 as not found, 429 (with Retry-After) as a rate limit and 5xx as a server error.
 * Only a refused key suspends contracts; a plan or payment problem is the owner's to settle and the
 * key still works.
 */
export function explainHandwryttenError(error: unknown): VendorError {
  if (error instanceof VendorError) return error;
  if (!(error instanceof HandwryttenFailure))
    return new VendorError(
      `Handwrytten could not be reached (${(error as Error)?.message ?? "network error"}); the note is tried again after a look-up.`,
      "vendor_unavailable",
    );
  const { status } = error;
  const said = error.message ? `: ${error.message.replace(/[.\s]+$/, "")}` : "";
  const detail = { status: status ?? undefined };
  if (status === null)
    return new VendorError(
      `Handwrytten could not be reached (${error.message}); the note is tried again after a look-up.`,
      "vendor_unavailable",
    );
  if (status === 429)
    return new VendorError(
      "Handwrytten asked us to slow down (429); the note is tried again shortly.",
      "rate_limited",
      {
        ...detail,
        retryAfterMs: (error.retryAfterSeconds ?? 5) * 1000,
      },
    );
  if (status === 401 || status === 403)
    return new VendorError(
      `Handwrytten refused the workspace's API key${said}. The owner must connect Handwrytten again in Settings → Printing.`,
      "key_revoked",
      detail,
    );
  if (status === 404) return new VendorError(`Handwrytten does not know this order${said}.`, "not_found", detail);
  if (status === 402 || /credit|payment|balance|funds|invoice|limit/i.test(error.message))
    return new VendorError(
      `Handwrytten refused the note: the Handwrytten account cannot pay for it${said}. Settle it at Handwrytten; the note is tried again.`,
      "account_limit",
      detail,
    );
  if (status >= 500)
    return new VendorError(
      `Handwrytten answered ${status}${said}; the note is tried again after a look-up.`,
      "vendor_unavailable",
      detail,
    );
  if (/address|zip|postal|city|state|country|recipient|sender/i.test(error.message))
    return new VendorError(`Handwrytten refused the address${said}.`, "address_refused", detail);
  return new VendorError(`Handwrytten refused the note${said}.`, "file_refused", detail);
}
