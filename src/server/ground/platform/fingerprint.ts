import { sha256Hex } from "./random";

/**
 * A stable hash of a request's meaningful values, to tell an idempotent retry (same values) from
 * the reuse of an identity with other values. Keys are sorted; undefined becomes null.
 */
export function fingerprint(values: Record<string, string | number | boolean | null | undefined>): string {
  const canonical = Object.keys(values)
    .sort()
    .map((k) => [k, values[k] ?? null]);
  return sha256Hex(JSON.stringify(canonical));
}
