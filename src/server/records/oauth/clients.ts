import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { Readable } from "node:stream";
import {
  CustomOAuthError,
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidRequestError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { OAuthClientMetadataSchema } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { OAuthClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { readCappedBody } from "@/server/ground/platform/capped-body";
import { randomBase62 } from "@/server/ground/platform/random";
import { findUnstorableText, unstorableReason } from "@/server/ground/platform/stored-text";
import { isPrivateAddress, isPublicHost, pinnedLookup, RefusedAddress } from "./public-address";

/** Longest client metadata (registration body or CIMD document) we read. */
export const CLIENT_METADATA_MAX_BYTES = 16 * 1024;
/** A Client ID Metadata Document is fetched again after this long. */
export const CIMD_CACHE_SECONDS = 60 * 60;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** OAuth 2.1 / MCP: redirect URIs are https, http on a loopback host, or a native app's private scheme. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL.`;
  }
  if (url.hash) return `${uri} must not have a fragment.`;
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:")
    return LOOPBACK.has(url.hostname) ? null : `${uri}: plain http is allowed only for localhost.`;
  if (["javascript:", "data:", "file:", "vbscript:", "blob:"].includes(url.protocol))
    return `${uri} uses a scheme that cannot receive a code.`;
  return url.protocol.includes(".") || /^[a-z][a-z0-9+-]*:$/.test(url.protocol)
    ? null
    : `${uri} has an unusable scheme.`;
}

export function isLoopbackRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === "http:" && LOOPBACK.has(url.hostname);
  } catch {
    return false;
  }
}

/** Longest client_id looked up or stored (a CIMD URL included): every id is an index entry. */
export const MAX_CLIENT_ID_LENGTH = 1024;
/** Most redirect URIs a client registers, and the longest one. */
export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2000;

/** Validates client metadata (RFC 7591 section 2) for a public client using PKCE. */
function checkMetadata(raw: unknown) {
  const unstorable = findUnstorableText(raw);
  if (unstorable)
    throw new InvalidClientMetadataError(
      `${unstorable.pointer.slice(1).replace(/\//g, ".") || "metadata"}: ${unstorable.detail}`,
    );
  const uris = (raw as { redirect_uris?: unknown } | null)?.redirect_uris;
  if (Array.isArray(uris) && uris.length > MAX_REDIRECT_URIS)
    throw new InvalidClientMetadataError(`redirect_uris: at most ${MAX_REDIRECT_URIS} redirect URIs per client.`);
  if (Array.isArray(uris) && uris.some((u) => typeof u === "string" && u.length > MAX_REDIRECT_URI_LENGTH)) {
    throw new InvalidClientMetadataError(
      `redirect_uris: a redirect URI has at most ${MAX_REDIRECT_URI_LENGTH} characters.`,
    );
  }
  const parsed = OAuthClientMetadataSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidClientMetadataError(`${issue.path.join(".") || "metadata"}: ${issue.message}`);
  }
  const m = parsed.data;
  if (m.redirect_uris.length === 0)
    throw new CustomOAuthError("invalid_redirect_uri", "redirect_uris must name at least one URI.");
  for (const uri of m.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new CustomOAuthError("invalid_redirect_uri", problem);
  }
  const grantTypes = m.grant_types ?? ["authorization_code", "refresh_token"];
  const unsupported = grantTypes.filter((g) => g !== "authorization_code" && g !== "refresh_token");
  if (unsupported.length) throw new InvalidClientMetadataError(`Unsupported grant_types: ${unsupported.join(", ")}.`);
  if (m.response_types?.some((r) => r !== "code"))
    throw new InvalidClientMetadataError("Only the response type code is supported.");
  return { ...m, grant_types: grantTypes, response_types: ["code"], token_endpoint_auth_method: "none" as const };
}

/**
 * Dynamic Client Registration (RFC 7591). Every client is public (PKCE, no secret): a requested
 * token_endpoint_auth_method is replaced with "none", which the response says (section 3.2.1).
 */
export async function registerClient(db: Db, body: unknown) {
  const metadata = checkMetadata(body);
  const clientId = `mcp_${randomBase62(24)}`;
  const client = await db.oAuthClient.create({
    data: {
      clientId,
      source: "dcr",
      name: (metadata.client_name ?? "").trim().slice(0, 100) || "Unnamed agent",
      redirectUris: metadata.redirect_uris,
      metadata,
    },
  });
  return { ...metadata, client_id: clientId, client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000) };
}

/** A CIMD client_id: an https URL with a path, no fragment, no credentials (draft-ietf-oauth-client-id-metadata-document). */
export function isMetadataDocumentUrl(clientId: string): boolean {
  if (!clientId.startsWith("https://")) return false;
  try {
    const url = new URL(clientId);
    return url.pathname.length > 1 && !url.hash && !url.username && !url.password;
  } catch {
    return false;
  }
}

export type MetadataFetcher = (url: string) => Promise<Response>;

/** Whether a client_id could name a client at all (bounded, storable text); an impossible one is just unknown. */
export function isPossibleClientId(clientId: string): boolean {
  return clientId.length <= MAX_CLIENT_ID_LENGTH && !unstorableReason(clientId);
}

/** Fetches and validates a Client ID Metadata Document, with a timeout and a size bound. */
async function fetchClientMetadataDocument(
  clientId: string,
  fetcher: MetadataFetcher,
  isPublic: (host: string) => Promise<boolean>,
) {
  // SSRF: the name must resolve to public addresses only (the fetch itself refuses redirects).
  if (!(await isPublic(new URL(clientId).hostname)))
    throw new InvalidClientError("The client metadata document is not on a public address.");
  let response: Response;
  try {
    response = await fetcher(clientId);
  } catch {
    throw new InvalidClientError("The client metadata document could not be fetched.");
  }
  if (!response.ok) throw new InvalidClientError(`The client metadata document answered ${response.status}.`);
  const bytes = await readCappedBody(response, CLIENT_METADATA_MAX_BYTES);
  if (!bytes) throw new InvalidClientError("The client metadata document is too large.");
  const text = new TextDecoder().decode(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidClientError("The client metadata document is not JSON.");
  }
  if ((json as { client_id?: unknown })?.client_id !== clientId)
    throw new InvalidClientError("The client metadata document's client_id is not its own URL.");
  try {
    return checkMetadata(json);
  } catch (error) {
    throw new InvalidClientError(`The client metadata document is not valid: ${(error as Error).message}`);
  }
}

/**
 * GETs a metadata document over a connection made only to an address the lookup checked (public
 * ones by default), so a name that was public when checked and points inside the network when
 * fetched (DNS rebinding) reaches nothing. Redirects are not followed (a 3xx is an error answer);
 * the whole exchange, body included, is bounded to five seconds.
 */
export function pinnedFetch(url: string, lookup: ReturnType<typeof pinnedLookup> = pinnedLookup()): Promise<Response> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, "");
    // An address literal is never looked up: it is checked here instead.
    if (isIP(host) && isPrivateAddress(host))
      return reject(new RefusedAddress(`${host} is not a public address; nothing was fetched.`));
    const client = target.protocol === "https:" ? https : http;
    const request = client.request(
      target,
      {
        method: "GET",
        headers: { Accept: "application/json", "User-Agent": "DirectMail-OAuth/1" },
        lookup: lookup as never,
        signal: AbortSignal.timeout(5000),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 599) {
          res.destroy();
          return reject(new Error(`An HTTP status the fetch cannot carry (${status}).`));
        }
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          for (const v of value === undefined ? [] : [value].flat()) headers.append(name, v);
        const withBody = status >= 200 && status < 300 && status !== 204 && status !== 205;
        if (!withBody) res.resume();
        resolve(
          new Response(withBody ? (Readable.toWeb(res) as ReadableStream<Uint8Array>) : null, { status, headers }),
        );
      },
    );
    request.on("error", reject);
    request.end();
  });
}

const defaultFetcher: MetadataFetcher = (url) => pinnedFetch(url);

/**
 * The client a client_id names: a registered one, or (for an https URL) the one its metadata
 * document describes, fetched and cached. Unknown ids are invalid_client.
 */
export async function resolveClient(
  db: Db,
  clientId: string | null,
  opts: { fetcher?: MetadataFetcher; isPublic?: (host: string) => Promise<boolean>; now?: Date } = {},
): Promise<OAuthClient> {
  if (!clientId) throw new InvalidRequestError("client_id is required.");
  if (!isPossibleClientId(clientId)) throw new InvalidClientError("Unknown client_id: register the client first.");
  const now = opts.now ?? new Date();
  const known = await db.oAuthClient.findUnique({ where: { clientId } });
  if (
    known &&
    (known.source === "dcr" ||
      (known.lastSeenAt && now.getTime() - known.lastSeenAt.getTime() < CIMD_CACHE_SECONDS * 1000))
  )
    return known;
  if (!isMetadataDocumentUrl(clientId)) throw new InvalidClientError("Unknown client_id: register the client first.");
  const metadata = await fetchClientMetadataDocument(
    clientId,
    opts.fetcher ?? defaultFetcher,
    opts.isPublic ?? isPublicHost,
  );
  const data = {
    name: (metadata.client_name ?? "").trim().slice(0, 100) || new URL(clientId).host,
    redirectUris: metadata.redirect_uris,
    metadata,
    lastSeenAt: now,
  };
  return db.oAuthClient.upsert({ where: { clientId }, create: { clientId, source: "cimd", ...data }, update: data });
}
