import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getDb } from "@/server/db";
import { AppError } from "@/server/errors";
import { clientAddress } from "@/server/http/client-address";
import { problemResponse, toAppError } from "@/server/http/problem-response";
import { appErrorFromDatabase } from "@/server/platform/database-errors";
import { REST_BODY_LIMIT_BYTES } from "@/server/rate-limits/limits";
import { createCallerFactory, type TrpcContext } from "@/server/trpc";
import { admitRestCall } from "./admission";
import { readBearer } from "./authorization";
import { checkJsonContentType, parseJsonObject, unreadBody } from "./body";
import { admissionVerdict, operations } from "./handler";
import { webHeadersOf, writeAnswer, writeResponse } from "./node-answer";
import { rateLimitHeaders } from "./rate-limit-headers";
import { restRouter } from "./router";

/**
 * POST /api/v1/campaigns/{campaignId}/events, the API's hot path, answered on node:http by the
 * production server (scripts/serve.ts) without the Web API Request and Response, their streams
 * and trpc-to-openapi, which together cost more CPU than the call's two statements (docs/benchmarks.md).
 * It makes the same checks in the same order as the /api/v1 door (handler.ts, sharing its code
 * for the admission, the body and the problems), runs the same tRPC procedure (its middlewares,
 * input and output schemas) with the input built as trpc-to-openapi builds it, and answers byte
 * for byte as that door does (direct-doors.test.ts compares them). It takes only the requests
 * whose reading cannot differ from the Web API's: an id of plain characters, no query string,
 * one Authorization and Content-Type at most, a Content-Length within the limit and no
 * Transfer-Encoding. Anything else is left to the door.
 */

const operation = operations.find((op) => op.operationId === "postEntryEvent")!;
const route = new RegExp(`^/api${operation.path.replace("{campaignId}", "([A-Za-z0-9_-]{1,64})")}$`);
if (operation.method !== "POST" || operation.paramNames.join() !== "campaignId") throw new Error("postEntryEvent is no longer POST …/{campaignId}/…: revisit entry-event-door.ts.");
const createCaller = createCallerFactory(restRouter);
const procedurePath = operation.procedurePath.split(".");

interface FastHeaders {
  authorization: string | null;
  contentType: string | null;
  contentLength: number;
}

/** Answers the request and returns true when it is one this path takes; otherwise returns false having done nothing. */
export function serveEntryEventPost(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "POST") return false;
  const match = route.exec(req.url ?? "");
  if (!match) return false;
  const headers = fastHeaders(req.rawHeaders);
  if (!headers) return false;
  answer(req, res, match[1], headers).catch((error) => {
    console.error(`[api] ${req.method} ${req.url}: the answer could not be written`, error);
    res.destroy();
  });
  return true;
}

/** The headers this path reads, trimmed as a Web API Headers trims them; null when one is repeated or the body's length is not a Content-Length within the limit. */
function fastHeaders(raw: string[]): FastHeaders | null {
  let authorization: string | null = null;
  let contentType: string | null = null;
  let contentLength: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    switch (name.length) {
      case 13:
        if (name.toLowerCase() !== "authorization") continue;
        if (authorization !== null) return null;
        authorization = trim(raw[i + 1]);
        break;
      case 12:
        if (name.toLowerCase() !== "content-type") continue;
        if (contentType !== null) return null;
        contentType = trim(raw[i + 1]);
        break;
      case 14:
        if (name.toLowerCase() !== "content-length") continue;
        if (contentLength !== null) return null;
        contentLength = trim(raw[i + 1]);
        break;
      case 17:
        if (name.toLowerCase() === "transfer-encoding") return null;
        break;
    }
  }
  if (contentLength === null || !/^\d{1,5}$/.test(contentLength) || Number(contentLength) > REST_BODY_LIMIT_BYTES) return null;
  return { authorization, contentType, contentLength: Number(contentLength) };
}

const trim = (value: string) => value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");

/** The body, all `length` bytes of it; null when the connection ends first. */
function readBody(req: IncomingMessage, length: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length)));
    req.on("error", () => resolve(null));
    req.on("close", () => resolve(null));
  });
}

async function answer(req: IncomingMessage, res: ServerResponse, campaignId: string, headers: FastHeaders): Promise<void> {
  const instance = req.url!;
  const db = getDb();
  const body = readBody(req, headers.contentLength);
  try {
    const credential = readBearer(headers.authorization);
    const admission = await admitRestCall(db, {
      secret: credential.kind === "bearer" ? credential.token : null,
      operationId: operation.operationId,
      address: clientAddress(req.headers),
    });
    const limitHeaders = rateLimitHeaders(admission.decision);
    const fail = (error: AppError, extra: Record<string, string> = {}) => writeResponse(res, problemResponse(error, instance, { ...limitHeaders, ...extra }));
    const verdict = admissionVerdict(credential, admission, operation);
    if ("refused" in verdict) return await fail(verdict.refused, verdict.headers);

    let parsed: Record<string, unknown>;
    try {
      checkJsonContentType(headers.contentType);
      const bytes = await body;
      if (!bytes) throw unreadBody();
      parsed = parseJsonObject(bytes, operation.paramNames);
    } catch (error) {
      return await fail(error as AppError);
    }

    const responseHeaders: Record<string, string> = {};
    const context: TrpcContext = {
      db,
      get headers() {
        return webHeadersOf(req);
      },
      getUser: async () => null,
      apiKey: verdict.key,
      responseHeaders,
    };
    // As trpc-to-openapi builds it: the body's members, then the path parameter, spread (a member
    // named __proto__ stays a member).
    const input = { ...parsed, campaignId };
    let output: unknown;
    try {
      const procedure = procedurePath.reduce<unknown>((at, segment) => (at as Record<string, unknown>)[segment], createCaller(context)) as (input: unknown) => Promise<unknown>;
      output = await procedure(input);
    } catch (failure) {
      const appError = toAppError(failure, operation.bodyFields);
      if (appError.code === "internal") console.error(`[rest] ${operation.operationId} failed`, failure);
      return await fail(appError);
    }
    writeAnswer(res, operation.successStatus, { "Content-Type": "application/json", "Cache-Control": "no-store", ...limitHeaders, ...responseHeaders }, JSON.stringify(output));
  } catch (error) {
    console.error(`[rest] ${operation.operationId} failed before the procedure`, error);
    await writeResponse(res, problemResponse(appErrorFromDatabase(error) ?? new AppError("internal"), instance));
  }
}
