import { createHash } from "node:crypto";
import {
  InvalidClientError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  UnsupportedGrantTypeError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { PrismaClient } from "@/generated/prisma/client";
import type { MembershipRole } from "@/generated/prisma/enums";
import type { Db } from "@/server/ground/db";
import { randomBase62 } from "@/server/ground/platform/random";
import { hashToken } from "./authorize";
import { isPossibleClientId } from "./clients";
import { OAUTH_LIFETIMES, TOKEN_PREFIX } from "./config";
import { parseScopeParam } from "./scopes";

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** Issues a fresh access token and refresh token for a grant (both stored as hashes only). */
async function issueTokens(
  db: Db,
  grant: { id: string },
  scopes: string[],
  resource: string,
  now: Date,
): Promise<TokenResponse> {
  const access = `${TOKEN_PREFIX.access}${randomBase62(40)}`;
  const refresh = `${TOKEN_PREFIX.refresh}${randomBase62(40)}`;
  await db.oAuthToken.createMany({
    data: [
      {
        grantId: grant.id,
        kind: "access",
        hash: hashToken(access),
        scopes,
        resource,
        expiresAt: new Date(now.getTime() + OAUTH_LIFETIMES.accessTokenSeconds * 1000),
      },
      {
        grantId: grant.id,
        kind: "refresh",
        hash: hashToken(refresh),
        scopes,
        resource,
        expiresAt: new Date(now.getTime() + OAUTH_LIFETIMES.refreshTokenSeconds * 1000),
      },
    ],
  });
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: OAUTH_LIFETIMES.accessTokenSeconds,
    refresh_token: refresh,
    scope: scopes.join(" "),
  };
}

/** Revokes every live token of a grant (a replayed code or refresh token, a revoked refresh token). */
async function revokeGrantTokens(db: Db, grantId: string, now: Date) {
  await db.oAuthToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: now } });
}

function pkceMatches(verifier: string, challenge: string) {
  return createHash("sha256").update(verifier).digest("base64url") === challenge;
}

type Form = Record<string, string | undefined>;

/** The token endpoint (OAuth 2.1 section 3.2): authorization_code with PKCE, and refresh_token with rotation. */
export async function tokenRequest(prisma: PrismaClient, form: Form, now = new Date()): Promise<TokenResponse> {
  if (form.grant_type === "authorization_code") return exchangeCode(prisma, form, now);
  if (form.grant_type === "refresh_token") return refresh(prisma, form, now);
  if (!form.grant_type) throw new InvalidRequestError("grant_type is required.");
  throw new UnsupportedGrantTypeError(
    `grant_type ${form.grant_type} is not supported; use authorization_code or refresh_token.`,
  );
}

async function clientOf(db: Db, clientId: string | undefined) {
  if (!clientId) throw new InvalidClientError("client_id is required (public clients identify themselves with it).");
  if (!isPossibleClientId(clientId)) throw new InvalidClientError("Unknown client_id.");
  const client = await db.oAuthClient.findUnique({ where: { clientId } });
  if (!client) throw new InvalidClientError("Unknown client_id.");
  return client;
}

async function exchangeCode(prisma: PrismaClient, form: Form, now: Date) {
  for (const k of ["code", "redirect_uri", "code_verifier"] as const)
    if (!form[k]) throw new InvalidRequestError(`${k} is required.`);
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(form.code_verifier!))
    throw new InvalidRequestError("code_verifier must be 43 to 128 unreserved characters.");
  const client = await clientOf(prisma, form.client_id);
  return prisma
    .$transaction(async (tx) => {
      const code = await tx.oAuthAuthorizationCode.findUnique({ where: { codeHash: hashToken(form.code!) } });
      if (!code || code.clientId !== client.id)
        throw new InvalidGrantError("The authorization code is not valid for this client.");
      // One use only: a replayed code also revokes what the first use issued (RFC 6749 section 4.1.2).
      const consumed = await tx.oAuthAuthorizationCode.updateMany({
        where: { id: code.id, consumedAt: null },
        data: { consumedAt: now },
      });
      if (consumed.count !== 1) {
        if (code.grantId) await revokeGrantTokens(tx, code.grantId, now);
        return { replayed: true as const };
      }
      if (code.expiresAt <= now) throw new InvalidGrantError("The authorization code has expired.");
      if (code.redirectUri !== form.redirect_uri)
        throw new InvalidGrantError("redirect_uri does not match the one of the authorization request.");
      if (!pkceMatches(form.code_verifier!, code.codeChallenge))
        throw new InvalidGrantError("The PKCE code_verifier does not match the code_challenge.");
      if (form.resource && form.resource !== code.resource)
        throw new InvalidTargetError("resource does not match the one of the authorization request.");
      const grant = code.grantId ? await tx.oAuthGrant.findUnique({ where: { id: code.grantId } }) : null;
      if (!grant || grant.revokedAt) throw new InvalidGrantError("The access this code was for has been revoked.");
      return issueTokens(tx, grant, code.scopes, code.resource, now);
    })
    .then((result) => {
      // Thrown outside the transaction so that the revocation above is kept.
      if ("replayed" in result)
        throw new InvalidGrantError("The authorization code was already used; the tokens it gave are revoked.");
      return result;
    });
}

async function refresh(prisma: PrismaClient, form: Form, now: Date) {
  if (!form.refresh_token) throw new InvalidRequestError("refresh_token is required.");
  const client = await clientOf(prisma, form.client_id);
  const result = await prisma.$transaction(async (tx) => {
    const token = await tx.oAuthToken.findUnique({
      where: { hash: hashToken(form.refresh_token!) },
      include: { grant: true },
    });
    if (token?.kind !== "refresh" || token.grant.clientId !== client.id)
      throw new InvalidGrantError("The refresh token is not valid for this client.");
    // Rotation: each refresh token works once; a second use means it leaked, so the family is revoked.
    const used = await tx.oAuthToken.updateMany({
      where: { id: token.id, usedAt: null, revokedAt: null },
      data: { usedAt: now },
    });
    if (used.count !== 1) {
      await revokeGrantTokens(tx, token.grantId, now);
      return { reused: true as const };
    }
    if (token.expiresAt <= now) throw new InvalidGrantError("The refresh token has expired.");
    if (token.grant.revokedAt) throw new InvalidGrantError("This agent's access has been revoked.");
    if (form.resource && form.resource !== token.resource)
      throw new InvalidTargetError("resource does not match the one the grant is for.");
    // A renewed consent may have narrowed the grant: tokens never carry more than it allows now.
    let scopes = token.scopes.filter((s) => token.grant.scopes.includes(s));
    if (form.scope) {
      const asked = parseScopeParam(form.scope);
      if (!asked || asked.some((s) => !scopes.includes(s)))
        throw new InvalidScopeError("A refresh can only keep or narrow the granted scopes.");
      scopes = asked;
    }
    return issueTokens(tx, token.grant, scopes, token.resource, now);
  });
  if ("reused" in result)
    throw new InvalidGrantError("The refresh token was already used or revoked; this grant's tokens are revoked.");
  return result;
}

/** RFC 7009: revoking either token revokes its whole family; unknown tokens are not an error. */
export async function revokeToken(db: Db, form: Form, now = new Date()) {
  if (!form.token) throw new InvalidRequestError("token is required.");
  const token = await db.oAuthToken.findUnique({
    where: { hash: hashToken(form.token) },
    include: { grant: { include: { client: true } } },
  });
  if (!token) return;
  if (form.client_id && token.grant.client.clientId !== form.client_id) return;
  await revokeGrantTokens(db, token.grantId, now);
}

export interface AgentAuth {
  token: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  expiresAt: number;
  resource: URL;
  workspaceId: string;
  grantId: string;
  /** The role of the person who connected the agent, now: the agent acts with it, never more. */
  role: MembershipRole;
  /** The client said at initialize that it can open a URL for the person (MCP URL-mode elicitation). */
  urlElicitation: boolean;
  /** The least severe MCP log level the client asked for (logging/setLevel); null: it never asked. */
  mcpLogLevel: string | null;
}

export type TokenCheck = { ok: true; auth: AgentAuth } | { ok: false; reason: string };

/**
 * Checks an access token presented to the MCP endpoint: ours, an access token, unexpired, not
 * revoked (nor its grant), and bound to this resource (RFC 8707 audience).
 */
export async function verifyAccessToken(
  db: Db,
  token: string,
  resource: string,
  now = new Date(),
): Promise<TokenCheck> {
  if (!token.startsWith(TOKEN_PREFIX.access))
    return { ok: false, reason: "The token is not an access token of this server." };
  const row = await db.oAuthToken.findUnique({
    where: { hash: hashToken(token) },
    include: { grant: { include: { client: true } } },
  });
  if (row?.kind !== "access") return { ok: false, reason: "The token is not an access token of this server." };
  if (row.revokedAt || row.grant.revokedAt) return { ok: false, reason: "The token has been revoked." };
  if (row.expiresAt <= now) return { ok: false, reason: "The token has expired." };
  if (row.resource !== resource) return { ok: false, reason: "The token was issued for another resource." };
  // The agent's access is the person's: it ends when they leave the workspace.
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: row.grant.workspaceId, userId: row.grant.userId } },
    select: { role: true },
  });
  if (!membership)
    return { ok: false, reason: "The person who connected this agent no longer belongs to the workspace." };
  if (!row.grant.lastUsedAt || now.getTime() - row.grant.lastUsedAt.getTime() > 60_000) {
    await db.oAuthGrant.update({ where: { id: row.grantId }, data: { lastUsedAt: now } });
  }
  return {
    ok: true,
    auth: {
      token,
      clientId: row.grant.client.clientId,
      clientName: row.grant.client.name,
      scopes: row.scopes.filter((s) => row.grant.scopes.includes(s)),
      expiresAt: Math.floor(row.expiresAt.getTime() / 1000),
      resource: new URL(row.resource),
      workspaceId: row.grant.workspaceId,
      grantId: row.grantId,
      role: membership.role,
      urlElicitation: Boolean(
        (row.grant.clientCapabilities as { elicitation?: { url?: unknown } } | null)?.elicitation?.url,
      ),
      mcpLogLevel: row.grant.mcpLogLevel,
    },
  };
}
