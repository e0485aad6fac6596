import type { LimitDecision } from "@/server/ground/rate-limits/service";

/**
 * Rate-limit headers on every REST response: the IETF httpapi RateLimit-Policy and RateLimit
 * fields (draft-ietf-httpapi-ratelimit-headers), and the common X-RateLimit-* trio
 * (X-RateLimit-Reset is the Unix time, in seconds, when the window ends).
 */
export function rateLimitHeaders(decision: LimitDecision, now = new Date()): Record<string, string> {
  return {
    "RateLimit-Policy": `"${decision.policy}";q=${decision.limit};w=${decision.windowSeconds}`,
    RateLimit: `"${decision.policy}";r=${decision.remaining};t=${decision.resetSeconds}`,
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(Math.ceil(now.getTime() / 1000) + decision.resetSeconds),
  };
}
