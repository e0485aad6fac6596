import "server-only";
import { OAuthError, ServerError, TooManyRequestsError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { getDb } from "@/server/db";
import { LIMITS } from "@/server/rate-limits/limits";
import { consume } from "@/server/rate-limits/service";
import { readCappedBody } from "@/server/platform/capped-body";
import { clientAddress } from "@/server/rest/client-address";
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
    console.error("[oauth]", error);
    error = new ServerError("The request could not be handled.");
  }
  const e = error as OAuthError;
  const status = e.errorCode === "invalid_client" ? 401 : e.errorCode === "too_many_requests" ? 429 : e.errorCode === "server_error" ? 500 : 400;
  return oauthJson(e.toResponseObject(), status);
}

/** Reads an application/x-www-form-urlencoded body (OAuth endpoints take nothing else). */
export async function readForm(req: Request): Promise<Record<string, string>> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) return {};
  const params = new URLSearchParams(await req.text());
  const form: Record<string, string> = {};
  for (const [k, v] of params) form[k] = v;
  return form;
}

export async function readJsonBody(req: Request): Promise<unknown> {
  const bytes = await readCappedBody(req, CLIENT_METADATA_MAX_BYTES);
  if (!bytes) return null;
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
}

/** Per-address limit on registration and token requests; throws a 429 OAuth error past it. */
export async function limitOAuth(req: Request) {
  const decision = await consume(getDb(), `oauth:${clientAddress(req)}`, LIMITS.oauthPerIp);
  if (!decision.allowed) throw new TooManyRequestsError(`Too many requests; try again in ${decision.resetSeconds} s.`);
}

export function preflight() {
  return new Response(null, { status: 204, headers: { ...OAUTH_CORS, "Access-Control-Max-Age": "86400" } });
}
