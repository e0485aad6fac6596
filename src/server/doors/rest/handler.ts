import "server-only";
import type { AuthenticatedKey } from "@/server/ground/access/principals";
import { getDb } from "@/server/ground/db";
import { appErrorFromDatabase } from "@/server/ground/platform/database-errors";
import { AppError, NOT_FOUND_DETAIL } from "@/server/ground/errors";
import { restRouter } from "@/server/doors/rest/router";
import { challenge, type Credential, readBearer } from "./authorization";
import { type Admission, admitRestCall } from "./admission";
import { readJsonObject } from "./body";
import { clientAddress } from "@/server/ground/http/client-address";
import { dispatchOperation } from "./openapi-dispatch";
import { listOperations, matchOperation, restPath, type RestOperation, unreadableQueryParameter } from "./operations";
import { problemResponse, toAppError } from "@/server/ground/http/problem-response";
import { rateLimitHeaders } from "./rate-limit-headers";

/** Every published operation (the calculators too: their paths are under /tools). */
export const operations = listOperations(restRouter);

/** The methods a path under /api/v1 takes, for a 405's Allow (the union of all when the path names no operation). */
export function restAllow(path: string): string {
  const found = matchOperation(operations, "", path.replace(/^\/api(?=\/)/, ""));
  return (
    found.kind === "method_not_allowed"
      ? found.allow
      : [...new Set(operations.filter((op) => op.path.startsWith("/v1/")).map((op) => op.method))]
  ).join(", ");
}

/**
 * The key an admitted call proceeds with, or why it goes no further (in this order: the rate
 * limit, 429; no working key, 401; the scope, 403) with the headers that answer carries besides
 * the rate-limit ones. Shared by this door and the entry-event fast path (entry-event-door.ts).
 */
export function admissionVerdict(
  credential: Credential,
  { key, decision }: Admission,
  operation: RestOperation,
): { key: AuthenticatedKey } | { refused: AppError; headers: Record<string, string> } {
  if (!decision.allowed) {
    return {
      refused: new AppError(
        "rate_limited",
        `This key may call this endpoint ${decision.limit} times a minute; try again in ${decision.resetSeconds} s.`,
      ),
      headers: { "Retry-After": String(decision.resetSeconds) },
    };
  }
  if (!key) {
    const detail =
      credential.kind === "bearer"
        ? "The API key is malformed, unknown or revoked."
        : "Send a workspace API key as Authorization: Bearer <key>.";
    return {
      refused: new AppError("unauthenticated", detail),
      headers: { "WWW-Authenticate": credential.kind === "bearer" ? challenge.invalid : challenge.missing },
    };
  }
  if (operation.requiredScope && !key.scopes.includes(operation.requiredScope)) {
    return {
      refused: new AppError(
        "insufficient_scope",
        `This key lacks the ${operation.requiredScope} scope that this endpoint needs.`,
      ),
      headers: { "WWW-Authenticate": challenge.insufficientScope(operation.requiredScope) },
    };
  }
  return { key };
}

/**
 * The /api/v1 door. In order: route (404/405), credential (401), rate limit per key and endpoint
 * (429; unauthenticated calls count per client address), scope (403), body (415/413/400), then the
 * procedure (422 on invalid fields, its own problems, or success). Every answer of a known
 * endpoint carries the rate-limit headers; every failure is an RFC 9457 problem document.
 */
export async function handleRestRequest(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const instance = url.pathname;
  const found = matchOperation(operations, req.method, restPath(url, false));
  if (found.kind === "none") return problemResponse(new AppError("not_found", NOT_FOUND_DETAIL), instance);
  if (found.kind === "method_not_allowed") {
    return problemResponse(new AppError("method_not_allowed", `This path takes ${found.allow.join(", ")}.`), instance, {
      Allow: found.allow.join(", "),
    });
  }
  const { operation } = found;
  const db = getDb();

  try {
    const credential = readBearer(req.headers.get("authorization"));
    const { key, decision } = await admitRestCall(db, {
      secret: credential.kind === "bearer" ? credential.token : null,
      operationId: operation.operationId,
      address: clientAddress(req.headers),
    });
    const limitHeaders = rateLimitHeaders(decision);

    const fail = (error: AppError, extra: Record<string, string> = {}) =>
      problemResponse(error, instance, { ...limitHeaders, ...extra });
    const verdict = admissionVerdict(credential, { key, decision }, operation);
    if ("refused" in verdict) return fail(verdict.refused, verdict.headers);

    const unreadable = unreadableQueryParameter(url, operation.bodyFields);
    if (unreadable) {
      return fail(
        new AppError("validation_failed", `1 field is not valid: ${unreadable.name}. Nothing was written.`, {
          errors: [{ pointer: `/${unreadable.name}`, detail: unreadable.detail }],
        }),
      );
    }
    let body: Record<string, unknown> | undefined;
    if (req.method !== "GET") {
      const read = await readJsonObject(req, operation.paramNames).catch((error: AppError) => error);
      if (read instanceof AppError) return fail(read);
      body = read;
    }

    const responseHeaders: Record<string, string> = {};
    const context = { db, headers: req.headers, getUser: async () => null, apiKey: verdict.key, responseHeaders };
    const result = await dispatchOperation(req, restPath(url), context, body);
    if (result.failure !== undefined || result.status >= 400) {
      const appError = toAppError(result.failure, operation.bodyFields);
      if (appError.code === "internal") console.error(`[rest] ${operation.operationId} failed`, result.failure);
      return fail(appError);
    }
    return new Response(result.body, {
      status: operation.successStatus,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...limitHeaders, ...responseHeaders },
    });
  } catch (error) {
    console.error(`[rest] ${operation.operationId} failed before the procedure`, error);
    return problemResponse(appErrorFromDatabase(error) ?? new AppError("internal"), instance);
  }
}
