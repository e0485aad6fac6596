import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { randomBase62 } from "@/server/ground/platform/random";
import { requireMembership } from "@/server/ground/access/membership";
import { type MetadataFetcher, resolveClient } from "./clients";
import { mcpResource, OAUTH_LIFETIMES, TOKEN_PREFIX } from "./config";
import { parseScopeParam, type TMcpScope } from "./scopes";

export const AUTHORIZE_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "resource",
] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>;

export interface ValidAuthorization {
  client: OAuthClient;
  redirectUri: string;
  scopes: TMcpScope[];
  state?: string;
  codeChallenge: string;
  resource: string;
}

/** The request cannot say where to send the person back: show the error, never redirect. */
export class AuthorizeErrorPage extends Error {}

/** An error sent back to the client's redirect URI (RFC 6749 section 4.1.2.1). */
export class AuthorizeRedirectError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly redirectUri: string,
    readonly state: string | undefined,
    /** The client's row id: the browser is sent back automatically only to a client this person approved before. */
    readonly clientRowId: string,
  ) {
    super(description);
  }
}

/**
 * Validates an authorization request. Until the client and its exactly matching redirect URI are
 * known, failures are shown to the person; after that they go back to the client.
 */
export async function validateAuthorizeRequest(
  db: Db,
  base: string,
  p: AuthorizeParams,
  opts: { fetcher?: MetadataFetcher } = {},
): Promise<ValidAuthorization> {
  let client: OAuthClient;
  try {
    client = await resolveClient(db, p.client_id ?? null, opts);
  } catch (error) {
    // OAuth errors are sentences for the person; anything else is not shown.
    if (error instanceof OAuthError) throw new AuthorizeErrorPage(error.message);
    throw error;
  }
  let redirectUri = p.redirect_uri;
  if (!redirectUri) {
    if (client.redirectUris.length !== 1)
      throw new AuthorizeErrorPage("redirect_uri is required: this client registered more than one.");
    redirectUri = client.redirectUris[0];
  }
  if (!client.redirectUris.includes(redirectUri))
    throw new AuthorizeErrorPage("This redirect_uri is not one the client registered (they must match exactly).");
  const fail = (error: string, description: string) =>
    new AuthorizeRedirectError(error, description, redirectUri, p.state, client.id);
  if (p.response_type !== "code") throw fail("unsupported_response_type", "Only response_type=code is supported.");
  if (!p.code_challenge || !/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge))
    throw fail("invalid_request", "A PKCE code_challenge (S256, 43 characters) is required.");
  if (p.code_challenge_method !== "S256") throw fail("invalid_request", "code_challenge_method must be S256.");
  const scopes = parseScopeParam(p.scope);
  if (!scopes) throw fail("invalid_scope", "The request names a scope this server does not offer.");
  const resource = p.resource ?? mcpResource(base);
  if (resource !== mcpResource(base)) throw fail("invalid_target", `Tokens here are for ${mcpResource(base)} only.`);
  return { client, redirectUri, scopes, state: p.state, codeChallenge: p.code_challenge, resource };
}

/** A token that ties the consent form to the signed-in person and this exact request (CSRF). */
export function consentToken(secret: string, userId: string, p: AuthorizeParams): string {
  const material = [userId, ...AUTHORIZE_PARAMS.map((k) => p[k] ?? "")].join("\n");
  return createHmac("sha256", secret).update(material).digest("base64url");
}

export function consentTokenMatches(secret: string, userId: string, p: AuthorizeParams, token: string | null): boolean {
  if (!token) return false;
  const expected = Buffer.from(consentToken(secret, userId, p));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function hashToken(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/**
 * Has this person approved this client (a grant of theirs, not revoked)? Only then are errors sent
 * back to it automatically, and only then does the consent page stop warning that it is new.
 * Anyone's approval elsewhere counts for nothing: anyone can register a client and approve it in a
 * workspace of their own.
 */
export async function clientApprovedBy(db: Db, clientId: string, userId: string | null | undefined) {
  if (!userId) return false;
  return (await db.oAuthGrant.count({ where: { clientId, userId, revokedAt: null } })) > 0;
}

/**
 * The owner approved: record (or widen) the grant for this client in this workspace and issue a
 * one-time authorization code bound to the redirect URI, the PKCE challenge and the resource.
 */
export async function approveAuthorization(
  db: Db,
  p: { auth: ValidAuthorization; workspaceId: string; user: { id: string; email: string }; now?: Date },
) {
  const now = p.now ?? new Date();
  const membership = await requireMembership(db, { userId: p.user.id, workspaceId: p.workspaceId });
  if (membership.role !== "owner") throw new AuthorizeErrorPage("Only the workspace owner can connect an agent.");
  const existing = await db.oAuthGrant.findFirst({
    where: { workspaceId: p.workspaceId, clientId: p.auth.client.id, userId: p.user.id, revokedAt: null },
  });
  const grant = existing
    ? await db.oAuthGrant.update({
        where: { id: existing.id },
        data: { scopes: p.auth.scopes, resource: p.auth.resource },
      })
    : await db.oAuthGrant.create({
        data: {
          workspaceId: p.workspaceId,
          userId: p.user.id,
          clientId: p.auth.client.id,
          scopes: p.auth.scopes,
          resource: p.auth.resource,
        },
      });
  const code = `${TOKEN_PREFIX.code}${randomBase62(40)}`;
  await db.oAuthAuthorizationCode.create({
    data: {
      codeHash: hashToken(code),
      clientId: p.auth.client.id,
      workspaceId: p.workspaceId,
      userId: p.user.id,
      grantId: grant.id,
      redirectUri: p.auth.redirectUri,
      codeChallenge: p.auth.codeChallenge,
      scopes: p.auth.scopes,
      resource: p.auth.resource,
      expiresAt: new Date(now.getTime() + OAUTH_LIFETIMES.codeSeconds * 1000),
    },
  });
  const actor: Actor = { kind: "user", id: p.user.id, label: p.user.email };
  await recordAudit(
    db,
    p.workspaceId,
    actor,
    existing ? "agent.grant.renewed" : "agent.grant.created",
    { type: "oauth_grant", id: grant.id },
    { client: p.auth.client.name, scopes: p.auth.scopes },
  );
  return { code, grant };
}

/** Where the browser goes after the decision (RFC 6749 4.1.2, RFC 9207 iss). */
export function redirectBack(redirectUri: string, params: Record<string, string | undefined>) {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
