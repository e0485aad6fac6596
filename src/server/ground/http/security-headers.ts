/**
 * Headers on every response: no framing (consent and confirmation pages must never be framed), no
 * sniffing. next.config.ts sets them for what Next answers; the direct API doors set the same.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};
