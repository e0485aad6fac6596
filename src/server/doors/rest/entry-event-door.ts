import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getDb } from "@/server/ground/db";
import { AppError, isAppError } from "@/server/ground/errors";
import { clientAddress } from "@/server/ground/http/client-address";
import { problemResponse, toAppError } from "@/server/ground/http/problem-response";
import { appErrorFromDatabase } from "@/server/ground/platform/database-errors";
import { REST_BODY_LIMIT_BYTES } from "@/server/ground/rate-limits/limits";
import { TRPCError } from "@trpc/server";
import type { PrismaClient } from "@/generated/prisma/client";
import type { AuthenticatedKey } from "@/server/ground/access/principals";
import { acceptEntryEvent } from "@/server/programme/entry/service";
import { ZEntryEventAccepted, ZPostEntryEventInput } from "@/server/programme/entry/schema";
import { findUnstorableText } from "@/server/ground/platform/stored-text";
import { admitRestCall } from "./admission";
import { readBearer } from "./authorization";
import { checkJsonContentType, parseJsonObject, unreadBody } from "./body";
import { admissionVerdict, operations } from "./handler";
import { writeAnswer, writeResponse } from "./node-answer";
import { rateLimitHeaders } from "./rate-limit-headers";

/**
 * POST /api/v1/campaigns/{campaignId}/events, the API's hot path, answered on node:http by the
 * production server (scripts/serve.ts) without the Web API Request and Response, their streams,
 * trpc-to-openapi and tRPC's middleware chain, which together cost more CPU than the call's two
 * statements (docs/benchmarks.md). It makes the same checks in the same order as the /api/v1 door
 * (handler.ts, sharing its code for the admission, the body and the problems), then what the
 * procedure does (`postEntryEvent` below), and answers byte for byte as that door does
 * (direct-doors-fast-path.test.ts compares them). It takes only the requests whose reading cannot
 * differ from the Web API's: an id of plain characters, no query string, one Authorization and
 * Content-Type at most, a Content-Length within the limit and no Transfer-Encoding. Anything else
 * is left to the door.
 */

const found = operations.find((op) => op.operationId === "postEntryEvent");
if (!found) throw new Error("The REST table has no postEntryEvent operation for the fast path to serve");
const operation = found;
const route = new RegExp(`^/api${operation.path.replace("{campaignId}", "([A-Za-z0-9_-]{1,64})")}$`);
if (operation.method !== "POST" || operation.paramNames.join() !== "campaignId")
  throw new Error("postEntryEvent is no longer POST …/{campaignId}/…: revisit entry-event-door.ts.");

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
  if (contentLength === null || !/^\d{1,5}$/.test(contentLength) || Number(contentLength) > REST_BODY_LIMIT_BYTES)
    return null;
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

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  campaignId: string,
  headers: FastHeaders,
): Promise<void> {
  // Node sets url on every request a server receives; only a hand-made IncomingMessage lacks it.
  const instance = req.url ?? "/";
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
    const fail = (error: AppError, extra: Record<string, string> = {}) =>
      writeResponse(res, problemResponse(error, instance, { ...limitHeaders, ...extra }));
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

    // As trpc-to-openapi builds the input: the body's members, then the path parameter, spread (a
    // member named __proto__ stays a member).
    const outcome = await postEntryEvent(db, verdict.key, { ...parsed, campaignId });
    if (outcome instanceof AppError) return await fail(outcome);
    writeAnswer(
      res,
      operation.successStatus,
      { "Content-Type": "application/json", "Cache-Control": "no-store", ...limitHeaders, Location: outcome.location },
      outcome.body,
    );
  } catch (error) {
    console.error(`[rest] ${operation.operationId} failed before the procedure`, error);
    await writeResponse(res, problemResponse(appErrorFromDatabase(error) ?? new AppError("internal"), instance));
  }
}

/**
 * The procedure entryEvents.post (entry/router.ts) as its tRPC caller runs it, without tRPC's
 * machinery (its middlewares cost a tenth of this path's CPU): the storable-text check
 * (trpc.ts's storableInput), the input schema, the service, the output schema, and every failure
 * turned into the AppError the /api/v1 door makes of the caller's error (`toAppError`). The key
 * and its scope are checked by the door already (apiKeyProcedure checks them again there).
 */
async function postEntryEvent(
  db: PrismaClient,
  key: AuthenticatedKey,
  raw: Record<string, unknown>,
): Promise<{ body: string; location: string } | AppError> {
  const unstorable = findUnstorableText(raw);
  if (unstorable) {
    return new AppError("validation_failed", `${unstorable.detail} Nothing was written.`, {
      errors: [{ pointer: unstorable.pointer, detail: unstorable.detail }],
    });
  }
  const input = ZPostEntryEventInput.safeParse(raw);
  if (!input.success)
    return toAppError(new TRPCError({ code: "BAD_REQUEST", cause: input.error }), operation.bodyFields);
  let accepted: Awaited<ReturnType<typeof acceptEntryEvent>>;
  try {
    accepted = await acceptEntryEvent(db, {
      workspaceId: key.workspaceId,
      apiKeyId: key.id,
      source: "api",
      input: input.data,
    });
  } catch (error) {
    const appError = toAppError(error, operation.bodyFields);
    if (appError.code === "internal") console.error(`[rest] ${operation.operationId} failed`, error);
    else if (!isAppError(error))
      console.warn(`[trpc] ${operation.procedurePath}: ${appError.code} from the database`, error);
    return appError;
  }
  const output = ZEntryEventAccepted.safeParse(accepted);
  if (!output.success)
    return toAppError(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: output.error }), operation.bodyFields);
  return {
    body: JSON.stringify(output.data),
    location: `/api/v1/campaigns/${encodeURIComponent(input.data.campaignId)}/events/${accepted.eventId}`,
  };
}
