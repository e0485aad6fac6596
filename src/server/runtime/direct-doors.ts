import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError } from "@/server/ground/errors";
import { handleRestRequest, restAllow } from "@/server/doors/rest/handler";
import { problemResponse } from "@/server/ground/http/problem-response";
import { handleToolsRequest, TOOLS_ALLOW } from "@/server/doors/rest/tools-handler";
import { serveEntryEventPost } from "@/server/doors/rest/entry-event-door";
import { webHeadersOf, writeResponse } from "@/server/doors/rest/node-answer";
import type { DirectDoors } from "./door-registry";

type WebHandler = (req: Request) => Promise<Response>;

interface Door {
  prefix: string;
  /** Exactly the methods the door's App Router route exports; Next keeps HEAD and its automatic OPTIONS. */
  methods: ReadonlySet<string>;
  handler: WebHandler;
}

/**
 * The workspace REST API and the calculators, answered by the same handlers as their App Router
 * routes (src/app/api/v1, src/app/api/tools), without Next's per-request routing and rendering
 * machinery, which costs more than the work of an /api/v1 call (docs/benchmarks.md).
 */
export const DOORS: readonly Door[] = [
  { prefix: "/api/v1/", methods: new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]), handler: handleRestRequest },
  {
    prefix: "/api/tools/",
    methods: new Set(["GET", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]),
    handler: handleToolsRequest,
  },
];

/**
 * The door for a request, or null to leave it to Next: other paths, other methods, and paths Next
 * would redirect first (a trailing slash, repeated slashes or backslashes).
 */
export function doorFor(method: string | undefined, url: string | undefined): Door | null {
  if (!method || !url) return null;
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  if (path.endsWith("/") || path.includes("//") || path.includes("\\")) return null;
  return DOORS.find((door) => path.startsWith(door.prefix) && door.methods.has(method)) ?? null;
}

/**
 * The request as the Web API Request the handlers take, as Next would build it, with the client's
 * address the server resolved (scripts/serve.ts; TRUST_PROXY) in CLIENT_ADDRESS_HEADER: a copy the
 * client sent itself is dropped.
 */
function toRequest(req: IncomingMessage): Request {
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", "http://localhost"), {
    method: req.method,
    headers: webHeadersOf(req),
    body: hasBody ? bodyStream(req) : null,
    duplex: "half",
  } as RequestInit);
}

/**
 * The request body as a web stream that a handler may stop reading (a body over its limit):
 * what still arrives is then read and dropped, never pushed into the closed stream (Node's
 * Readable.toWeb does that, and throws outside any handler), so the connection can serve the next
 * request; once the answer is written, only within bounds (front-door.ts, unread-body.ts).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.on("end", () => {
          if (open) controller.close();
          open = false;
        });
        req.on("error", (error) => {
          if (open) controller.error(error);
          open = false;
        });
        req.on("aborted", () => {
          if (open) controller.error(new Error("The client ended the request before its body."));
          open = false;
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        open = false;
        req.resume();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** Runs a Web API handler for a node:http request and writes its response, with the security headers next.config.ts gives every response. */
export async function serveWithHandler(handler: WebHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let response: Response;
  try {
    response = await handler(toRequest(req));
  } catch (error) {
    console.error(`[api] ${req.method} ${req.url} failed`, error);
    response = problemResponse(new AppError("internal"), (req.url ?? "/").split("?")[0]);
  }
  await writeResponse(res, response);
}

/**
 * The doors, with or without the fast path for POST /api/v1/campaigns/{id}/events
 * (rest/entry-event-door.ts), which answers byte for byte as the /api/v1 door does; the server
 * takes it, and its test compares the two.
 */
export function makeDirectDoors(p: { entryEventFastPath: boolean }): DirectDoors {
  return {
    prefixes: DOORS.map((door) => door.prefix),
    allow(path) {
      if (path.startsWith("/api/v1/")) return restAllow(path);
      if (path.startsWith("/api/tools/")) return TOOLS_ALLOW;
      return null;
    },
    serve(req, res) {
      if (p.entryEventFastPath && serveEntryEventPost(req, res)) return true;
      const door = doorFor(req.method, req.url);
      if (!door) return false;
      serveWithHandler(door.handler, req, res).catch((error) => {
        console.error(`[api] ${req.method} ${req.url}: the answer could not be written`, error);
        res.destroy();
      });
      return true;
    },
  };
}

export const directDoors: DirectDoors = makeDirectDoors({ entryEventFastPath: true });
