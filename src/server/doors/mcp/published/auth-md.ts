import { API_KEY_SCOPES } from "@/server/ground/access/principals";
import { scopeDescriptions } from "@/server/records/api-keys/schema";
import { mcpResource, OAUTH_LIFETIMES, OAUTH_PATHS } from "@/server/records/oauth/config";
import { MCP_SCOPES, mcpScopeDescriptions } from "@/server/records/oauth/scopes";
import { SERVICE_NAME } from "@/server/ground/platform/version";
import { LIMITS } from "@/server/ground/rate-limits/limits";

const minutes = (s: number) => `${s / 60} minutes`;
const days = (s: number) => `${s / 86400} days`;

/** /auth.md: how an agent gets access. Every scope, path and lifetime comes from the code. */
export function authMarkdown(base: string): string {
  return `# How an agent gets access to ${SERVICE_NAME}

An agent (an MCP client) never asks anyone for a password or an API key. It connects to the MCP
server at \`${mcpResource(base)}\`, and the workspace owner approves it in a browser with OAuth 2.1.

## The flow

1. Call \`${mcpResource(base)}\` without a token. The answer is \`401\` with
   \`WWW-Authenticate: Bearer resource_metadata="${base}${OAUTH_PATHS.protectedResource}"\`.
2. Read that Protected Resource Metadata (RFC 9728). It names the authorization server, \`${base}\`,
   whose metadata (RFC 8414) is at \`${base}${OAUTH_PATHS.authorizationServer}\`.
3. Identify your client, either way:
   - with a Client ID Metadata Document: use its https URL as \`client_id\`; it must list your
     \`redirect_uris\` and its own URL as \`client_id\`;
   - or register with Dynamic Client Registration (RFC 7591): \`POST ${base}${OAUTH_PATHS.register}\` with
     \`client_name\` and \`redirect_uris\`. Every client is public: no secret, \`token_endpoint_auth_method\` is \`none\`.
   Redirect URIs are https, http on localhost, or a private app scheme, and must match exactly.
4. Send the person's browser to \`${base}${OAUTH_PATHS.authorize}\` with \`response_type=code\`, your
   \`client_id\` and \`redirect_uri\`, a PKCE \`code_challenge\` with \`code_challenge_method=S256\` (the only
   method), a \`state\`, the \`scope\` you need and \`resource=${mcpResource(base)}\` (RFC 8707).
5. The owner signs in to ${SERVICE_NAME} (afresh if they have no session) and sees your client's
   name, where the answer goes (with a warning for localhost and for a client they never
   approved before), the workspace, and the scopes in plain words. They approve or deny.
6. Exchange the code at \`${base}${OAUTH_PATHS.token}\` (\`grant_type=authorization_code\`, \`code\`,
   \`redirect_uri\`, \`code_verifier\`, \`client_id\`). A code works once, for ${OAUTH_LIFETIMES.codeSeconds} seconds.
7. Call the MCP server with \`Authorization: Bearer <access token>\`.

## Tokens

- Access tokens last ${minutes(OAUTH_LIFETIMES.accessTokenSeconds)} and are bound to \`${mcpResource(base)}\`: no other
  resource accepts them.
- Refresh tokens last ${days(OAUTH_LIFETIMES.refreshTokenSeconds)} and rotate: each works once
  (\`grant_type=refresh_token\`) and returns a new pair. Using one twice revokes every token of the grant.
- Revoke a token at \`${base}${OAUTH_PATHS.revoke}\` (RFC 7009); it revokes the grant's whole token family.
- The owner can revoke an agent at any time in Settings, Connected agents; its tokens stop at once.
- The server stores only hashes of codes and tokens.
- Registration and token requests are limited to ${LIMITS.oauthPerIp.limit} a minute per address.

## Scopes

${MCP_SCOPES.map((s) => `- \`${s}\`: ${mcpScopeDescriptions[s]}`).join("\n")}

A tool call that needs a scope the token lacks gets \`403\` with
\`WWW-Authenticate: Bearer error="insufficient_scope", scope="..."\`; ask the owner again for the wider scope.

No scope lets an agent print, approve or spend: those requests create confirmation cards that
only a person can accept, in the browser. Read the [agent policy](${base}/agents/policy.md) before any write.

## What API keys are for

Workspace API keys are for servers, not agents: a CRM or a backend posts entry events and reports
conversions to the REST API under \`${base}/api/v1\` ([OpenAPI](${base}/openapi.json)). The owner creates
them in Settings, API keys. Their scopes:

${API_KEY_SCOPES.map((s) => `- \`${s}\`: ${scopeDescriptions[s]}`).join("\n")}

An agent never asks a person for an API key; it uses OAuth as above.
`;
}
