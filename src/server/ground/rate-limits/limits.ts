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
  /**
   * Sign-in attempts per email address and client address, in three windows: a back-off (five a
   * minute, then ten a quarter hour, then thirty a day). Keyed on the pair, so a stranger's wrong
   * guesses wait at the stranger's address and never lock the person out from their own.
   */
  signInPerEmailAndIp: [
    { policy: "sign-in-minute", limit: 5, windowSeconds: 60 },
    { policy: "sign-in", limit: 10, windowSeconds: 15 * 60 },
    { policy: "sign-in-day", limit: 30, windowSeconds: 24 * 60 * 60 },
  ],
  /** Sign-in attempts per client address, whatever the email: one address cannot try account after account. */
  signInPerIp: { policy: "sign-in-per-ip", limit: 50, windowSeconds: 15 * 60 },
  /**
   * Password resets (setting the new password from a link) per client address, with the sign-in
   * back-off: a link's token cannot be guessed, but each try costs a password hash.
   */
  passwordResetPerIp: [
    { policy: "password-reset-minute", limit: 5, windowSeconds: 60 },
    { policy: "password-reset", limit: 10, windowSeconds: 15 * 60 },
    { policy: "password-reset-day", limit: 30, windowSeconds: 24 * 60 * 60 },
  ],
  /** Reset links asked for per client address (any email): one address cannot mail account after account. */
  passwordResetRequestPerIp: { policy: "password-reset-request-per-ip", limit: 20, windowSeconds: 60 * 60 },
  /** Reset links mailed to one address: past this the request is answered the same but sends nothing. */
  passwordResetRequestPerEmail: { policy: "password-reset-request-per-email", limit: 3, windowSeconds: 60 * 60 },
  /** Verification links a person asks to be sent again. */
  verificationResendPerUser: { policy: "verification-resend-per-user", limit: 5, windowSeconds: 60 * 60 },
  /** Accounts created per client address (each is a password hash and a workspace). */
  signUpPerIp: { policy: "sign-up-per-ip", limit: 10, windowSeconds: 60 * 60 },
  /** Public calculators, per client IP. */
  calculatorsPerIp: { policy: "per-ip", limit: 300, windowSeconds: 60 },
  /** OAuth client registration and token requests, per client IP. */
  oauthPerIp: { policy: "oauth-per-ip", limit: 60, windowSeconds: 60 },
  /** Test emails an admin sends from Settings → Email, per workspace. */
  emailTestPerWorkspace: { policy: "email-test-per-workspace", limit: 10, windowSeconds: 60 * 60 },
  /** Form posts (reply, claim, decline) to one hosted response page, whoever sends them. */
  responseFormPerCode: { policy: "response-form-per-code", limit: 10, windowSeconds: 60 * 60 },
  /** Form posts to any hosted response page from one client address (an office shares one address). */
  responseFormPerIp: { policy: "response-form-per-ip", limit: 30, windowSeconds: 10 * 60 },
} as const satisfies Record<string, LimitDefinition | readonly LimitDefinition[]>;

/** Largest accepted REST request body. */
export const REST_BODY_LIMIT_BYTES = 16 * 1024;
