/** Lifetimes and addresses of the OAuth authorization server for agents. */
export const OAUTH_LIFETIMES = {
  /** An authorization code is exchanged within this time, once. */
  codeSeconds: 120,
  /** Access tokens are short-lived... */
  accessTokenSeconds: 15 * 60,
  /** ...and refreshed with a refresh token that rotates on every use. */
  refreshTokenSeconds: 30 * 24 * 60 * 60,
} as const;

/** Prefixes that make a stray token recognisable in a log. */
export const TOKEN_PREFIX = { access: "dma_", refresh: "dmr_", code: "dmc_" } as const;

export const OAUTH_PATHS = {
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke",
  protectedResource: "/.well-known/oauth-protected-resource/api/mcp",
  authorizationServer: "/.well-known/oauth-authorization-server",
} as const;

/** The MCP endpoint, which is also the RFC 8707 resource every token is bound to. */
export const MCP_PATH = "/api/mcp";
export function mcpResource(base: string): string {
  return `${base}${MCP_PATH}`;
}
