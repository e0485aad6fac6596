import "server-only";
import { getDb } from "@/server/ground/db";
import { appErrorFromDatabase } from "@/server/ground/platform/database-errors";
import { AppError } from "@/server/ground/errors";
import { LIMITS } from "@/server/ground/rate-limits/limits";
import { consume } from "@/server/ground/rate-limits/service";
import { restRouter } from "@/server/doors/rest/router";
import { clientAddress } from "@/server/ground/http/client-address";
import { dispatchOperation } from "./openapi-dispatch";
import { listOperations, matchOperation, restPath, unreadableQueryParameter } from "./operations";
import { problemResponse, toAppError } from "@/server/ground/http/problem-response";
import { rateLimitHeaders } from "./rate-limit-headers";

const operations = listOperations(restRouter).filter((op) => op.path.startsWith("/tools/"));

/** Open CORS: the calculators are public and read-only. */
export const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type",
  "Access-Control-Expose-Headers":
    "RateLimit, RateLimit-Policy, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset",
  "Access-Control-Max-Age": "86400",
};

/** The methods every calculator takes. */
export const TOOLS_ALLOW = "GET, OPTIONS";

/** Answers depend only on their parameters: caches may keep them for a day. */
const CACHE = "public, max-age=86400";

/**
 * The /api/tools door: CORS preflight, routing, a generous per-address rate limit (429), then
 * the calculator procedure; invalid parameters give a 400 problem naming each with its bound.
 */
export async function handleToolsRequest(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const instance = url.pathname;
  if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS_HEADERS });
  const found = matchOperation(operations, req.method, restPath(url, false));
  if (found.kind === "none")
    return problemResponse(
      new AppError("not_found", "There is no calculator at this address; see /openapi.json."),
      instance,
      CORS_HEADERS,
    );
  if (found.kind === "method_not_allowed") {
    return problemResponse(new AppError("method_not_allowed", "Calculators answer GET."), instance, {
      ...CORS_HEADERS,
      Allow: TOOLS_ALLOW,
    });
  }
  const { operation } = found;
  const db = getDb();
  try {
    const decision = await consume(db, `tools:${clientAddress(req.headers)}`, LIMITS.calculatorsPerIp);
    const headers = { ...CORS_HEADERS, ...rateLimitHeaders(decision) };
    if (!decision.allowed) {
      return problemResponse(
        new AppError(
          "rate_limited",
          `Calculators answer ${decision.limit} requests a minute per address; try again in ${decision.resetSeconds} s.`,
        ),
        instance,
        {
          ...headers,
          "Retry-After": String(decision.resetSeconds),
        },
      );
    }
    const unreadable = unreadableQueryParameter(url, operation.bodyFields);
    if (unreadable) {
      return problemResponse(
        new AppError("invalid_parameters", `1 parameter is not valid: ${unreadable.name}.`, {
          errors: [{ parameter: unreadable.name, detail: unreadable.detail }],
        }),
        instance,
        headers,
      );
    }
    const result = await dispatchOperation(req, restPath(url), { db, headers: req.headers, getUser: async () => null });
    if (result.failure !== undefined || result.status >= 400) {
      const appError = toAppError(result.failure, operation.bodyFields, "query");
      if (appError.code === "internal") console.error(`[tools] ${operation.operationId} failed`, result.failure);
      return problemResponse(appError, instance, headers);
    }
    return new Response(result.body, {
      status: 200,
      headers: { "Content-Type": "application/json", "Cache-Control": CACHE, ...headers },
    });
  } catch (error) {
    console.error(`[tools] ${operation.operationId} failed before the procedure`, error);
    return problemResponse(appErrorFromDatabase(error) ?? new AppError("internal"), instance, CORS_HEADERS);
  }
}
