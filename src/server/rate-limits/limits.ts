/**
 * Every named limit of the service, in one place. Counters live in the database, so every app
 * instance on one PostgreSQL shares them.
 */
export interface LimitDefinition {
  /** Name used in the RateLimit-Policy header. */
  policy: string;
  limit: number;
  windowSeconds: number;
}

export const LIMITS = {
  /** Each workspace REST endpoint, per API key (spec section 8). */
  restEndpointPerKey: { policy: "per-key-endpoint", limit: 60, windowSeconds: 60 },
  /** Sign-in attempts per email address. */
  signInPerEmail: { policy: "sign-in", limit: 10, windowSeconds: 15 * 60 },
  /** Public calculators, per client IP. */
  calculatorsPerIp: { policy: "per-ip", limit: 300, windowSeconds: 60 },
  /** OAuth client registration and token requests, per client IP. */
  oauthPerIp: { policy: "oauth-per-ip", limit: 60, windowSeconds: 60 },
} as const satisfies Record<string, LimitDefinition>;

/** Largest accepted REST request body. */
export const REST_BODY_LIMIT_BYTES = 16 * 1024;
