/** What the Authorization header holds: nothing usable, or a bearer token. */
export type Credential = { kind: "none" } | { kind: "bearer"; token: string };

export function readBearer(header: string | null): Credential {
  const match = header?.match(/^Bearer(?:[ \t]+(\S*))?\s*$/i);
  return match ? { kind: "bearer", token: match[1] ?? "" } : { kind: "none" };
}

/** RFC 6750 challenges. */
export const challenge = {
  missing: 'Bearer realm="direct-mail"',
  invalid:
    'Bearer realm="direct-mail", error="invalid_token", error_description="The API key is malformed, unknown or revoked."',
  insufficientScope: (scope: string) =>
    `Bearer realm="direct-mail", error="insufficient_scope", scope="${scope}", error_description="This key lacks the ${scope} scope."`,
};
