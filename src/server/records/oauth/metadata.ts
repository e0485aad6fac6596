import { SERVICE_NAME } from "@/server/ground/platform/version";
import { MCP_SCOPES } from "./scopes";
import { mcpResource, OAUTH_PATHS } from "./config";

/** RFC 9728 Protected Resource Metadata of the MCP endpoint. */
export function protectedResourceMetadata(base: string) {
  return {
    resource: mcpResource(base),
    authorization_servers: [base],
    scopes_supported: [...MCP_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: `${SERVICE_NAME} MCP server`,
    resource_documentation: `${base}/auth.md`,
    resource_policy_uri: `${base}/agents/policy.md`,
  };
}

/** RFC 8414 Authorization Server Metadata; the issuer is the service's base address. */
export function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${base}${OAUTH_PATHS.token}`,
    registration_endpoint: `${base}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${base}${OAUTH_PATHS.revoke}`,
    scopes_supported: [...MCP_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/auth.md`,
  };
}

/** The WWW-Authenticate challenge of the MCP endpoint (RFC 9728 section 5.1). */
export function bearerChallenge(base: string, extra?: { error?: string; description?: string; scope?: string }) {
  const parts = [`resource_metadata="${base}${OAUTH_PATHS.protectedResource}"`];
  if (extra?.error) parts.push(`error="${extra.error}"`);
  if (extra?.description) parts.push(`error_description="${extra.description.replace(/"/g, "'")}"`);
  if (extra?.scope) parts.push(`scope="${extra.scope}"`);
  return `Bearer ${parts.join(", ")}`;
}
