import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { AppError } from "@/server/errors";
import { handleRestRequest } from "@/server/rest/handler";
import { problemResponse } from "@/server/rest/problem-response";
import { handleToolsRequest } from "@/server/rest/tools-handler";
import type { DirectDoors } from "./door-registry";
import { SECURITY_HEADERS } from "./security-headers";

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
 * machinery, which costs more than the work of an /api/v1 call (README, Benchmarks).
 */
export const DOORS: readonly Door[] = [
  { prefix: "/api/v1/", methods: new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]), handler: handleRestRequest },
  { prefix: "/api/tools/", methods: new Set(["GET", "OPTIONS", "POST"]), handler: handleToolsRequest },
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

/** The request as the Web API Request the handlers take, as Next would build it (x-forwarded-for from the socket). */
function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  if (!headers.has("x-forwarded-for") && req.socket.remoteAddress) headers.set("x-forwarded-for", req.socket.remoteAddress);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", "http://localhost"), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    duplex: "half",
  } as RequestInit);
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
  const body = Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (response.status !== 204 && response.status !== 304) res.setHeader("Content-Length", body.byteLength);
  res.end(body);
}

export const directDoors: DirectDoors = {
  prefixes: DOORS.map((door) => door.prefix),
  serve(req, res) {
    const door = doorFor(req.method, req.url);
    if (!door) return false;
    serveWithHandler(door.handler, req, res).catch((error) => {
      console.error(`[api] ${req.method} ${req.url}: the answer could not be written`, error);
      res.destroy();
    });
    return true;
  },
};
