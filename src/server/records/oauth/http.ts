import "server-only";
import {
  InvalidRequestError,
  OAuthError,
  ServerError,
  TooManyRequestsError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { getDb } from "@/server/ground/db";
import { LIMITS } from "@/server/ground/rate-limits/limits";
import { consume } from "@/server/ground/rate-limits/service";
import { readCappedBody } from "@/server/ground/platform/capped-body";
import { appErrorFromDatabase } from "@/server/ground/platform/database-errors";
import { findUnstorableText } from "@/server/ground/platform/stored-text";
import { clientAddress } from "@/server/ground/http/client-address";
import { CLIENT_METADATA_MAX_BYTES } from "./clients";

/** Token and registration responses are never cached (RFC 6749 section 5.1). */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };
/** Browser-based agents call these endpoints from their own origin. */
export const OAUTH_CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization, MCP-Protocol-Version",
};

export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return Response.json(body, { status, headers: { ...NO_STORE, ...OAUTH_CORS, ...headers } });
}

/** An OAuth error response: 401 for invalid_client, 429 when limited, 500 for server_error, else 400. */
export function oauthError(error: unknown): Response {
  if (!(error instanceof OAuthError)) {
    const caused = appErrorFromDatabase(error);
    console.error("[oauth]", error);
    error = caused ? new InvalidRequestError(caused.message) : new ServerError("The request could not be handled.");
  }
  const e = error as OAuthError;
  const status =
    e.errorCode === "invalid_client"
      ? 401
      : e.errorCode === "too_many_requests"
        ? 429
        : e.errorCode === "server_error"
          ? 500
          : 400;
  return oauthJson(e.toResponseObject(), status);
}

/** Largest form an OAuth endpoint reads (a handful of short fields). */
export const OAUTH_FORM_MAX_BYTES = 16 * 1024;

/**
 * Reads an application/x-www-form-urlencoded body (OAuth endpoints take nothing else): at most
 * 16 KiB, and no field may hold NUL or broken Unicode (invalid_request, nothing looked up).
 */
export async function readForm(req: Request): Promise<Record<string, string>> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.trim().toLowerCase().startsWith("application/x-www-form-urlencoded")) return {};
  const bytes = await readCappedBody(req, OAUTH_FORM_MAX_BYTES, "drain").catch(() => {
    throw new InvalidRequestError("The request body could not be read to its end.");
  });
  if (!bytes) throw new InvalidRequestError(`The request body is larger than ${OAUTH_FORM_MAX_BYTES / 1024} KiB.`);
  const form: Record<string, string> = Object.create(null);
  for (const [k, v] of new URLSearchParams(new TextDecoder().decode(bytes))) form[k] = v;
  const unstorable = findUnstorableText(form);
  if (unstorable) throw new InvalidRequestError(unstorable.detail);
  return form;
}

/** A JSON body of at most 16 KiB (a leading byte-order mark is allowed), or null when it is none. */
export async function readJsonBody(req: Request): Promise<unknown> {
  const bytes = await readCappedBody(req, CLIENT_METADATA_MAX_BYTES, "drain").catch(() => null);
  if (!bytes) return null;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

/** Per-address limit on registration and token requests; throws a 429 OAuth error past it. */
export async function limitOAuth(req: Request) {
  const decision = await consume(getDb(), `oauth:${clientAddress(req.headers)}`, LIMITS.oauthPerIp);
  if (!decision.allowed) throw new TooManyRequestsError(`Too many requests; try again in ${decision.resetSeconds} s.`);
}

export function preflight() {
  return new Response(null, { status: 204, headers: { ...OAUTH_CORS, "Access-Control-Max-Age": "86400" } });
}
