import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { baseUrl } from "../platform/base-url";
import { SECURITY_HEADERS } from "./security-headers";

/**
 * HTTP methods outside the seven that routes can take (TRACE, PROPFIND, ...) never reach a route:
 * the production server (scripts/serve.ts) answers them 405 with `Allow`, and adds `Allow` to the
 * 405s Next gives for a standard method a route does not export. (The fetch API cannot even build
 * a request for TRACE or CONNECT, which is why Next answered those with 500.) Node itself answers
 * 400 to a method it cannot parse. Imported by that server directly: no path aliases here.
 */
export const ROUTE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The methods a path answers, for `Allow`. The API doors under /api/v1 and /api/tools compute their
 * own from their operations; this covers the App Router's routes and pages (pages answer GET and
 * HEAD). Only ever used on a 405, so a route added later without an entry here still works; its
 * 405 just names the methods of a page.
 */
export function allowedMethods(path: string): string {
  const routes: [RegExp, string][] = [
    [/^\/api\/mcp(\/server-card)?$/, "POST"],
    [/^\/api\/mcp\/server-card$/, "GET, HEAD"],
    [/^\/oauth\/(token|register|revoke)$/, "POST, OPTIONS"],
    [/^\/oauth\/authorize\/decision$/, "POST"],
    [/^\/api\/trpc\//, "GET, POST"],
    [/^\/api\/auth\//, "GET, POST"],
  ];
  return routes.find(([pattern]) => pattern.test(path))?.[1] ?? "GET, HEAD";
}

/** The path of a request target, without its query. */
const pathOf = (url: string | undefined) => (url ?? "/").split("?")[0];

/**
 * Answers a request whose method no route takes with a 405 problem document, and returns true;
 * returns false for the seven route methods.
 */
export function refuseUnknownMethod(
  req: IncomingMessage,
  res: ServerResponse,
  allow: (path: string) => string = allowedMethods,
): boolean {
  if (req.method && ROUTE_METHODS.has(req.method)) return false;
  const path = pathOf(req.url);
  const body = JSON.stringify({
    type: `${baseUrl()}/problems/method-not-allowed`,
    title: "Method not allowed",
    status: 405,
    detail: `This service does not answer ${String(req.method).slice(0, 20)} here; the Allow header lists the methods it takes.`,
    instance: path,
  });
  // The connection closes after the answer: whatever body the request carries is not read, nor taken for a next request.
  answeredSockets.add(req.socket);
  res.writeHead(405, {
    ...SECURITY_HEADERS,
    Allow: allow(path),
    "Content-Type": "application/problem+json",
    "Cache-Control": "no-store",
    "Content-Length": Buffer.byteLength(body),
    Connection: "close",
  });
  res.end(body);
  req.resume();
  return true;
}

/** Connections already answered and closing: what the parser finds on them afterwards gets no second answer. */
const answeredSockets = new WeakSet<object>();

/** Gives a 405 that a route answers without `Allow` (Next's default for a method the route does not export) the methods of its path. */
export function addAllowToMethodNotAllowed(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    if (status === 405 && !res.hasHeader("allow")) {
      const headers = rest.find((r) => r !== null && typeof r === "object") as Record<string, unknown> | undefined;
      const hasAllow = headers && Object.keys(headers).some((k) => k.toLowerCase() === "allow");
      if (!hasAllow) res.setHeader("Allow", allowedMethods(pathOf(req.url)));
    }
    return writeHead(status, ...rest);
  }) as ServerResponse["writeHead"];
}

/**
 * What Node's HTTP parser refuses before any route sees it (a method it cannot parse, headers over
 * its size limit, a malformed request line), answered as a problem document like every other
 * refusal instead of Node's bare status line: `server.on("clientError", answerClientError)`.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable || answeredSockets.has(socket)) {
    socket.destroy();
    return;
  }
  const [status, reason, slug, title, detail, extra] =
    error.code === "HPE_INVALID_METHOD"
      ? [
          405,
          "Method Not Allowed",
          "method-not-allowed",
          "Method not allowed",
          "This service answers GET, HEAD, POST, PUT, PATCH, DELETE and OPTIONS.",
          `Allow: ${[...ROUTE_METHODS].join(", ")}\r\n`,
        ]
      : error.code === "HPE_HEADER_OVERFLOW"
        ? [
            431,
            "Request Header Fields Too Large",
            "headers-too-large",
            "The request's headers are too large",
            "The request's headers are larger than this service reads (16 KiB).",
            "",
          ]
        : [
            400,
            "Bad Request",
            "malformed-request",
            "The request could not be read",
            "The request is not valid HTTP/1.1.",
            "",
          ];
  const body = JSON.stringify({ type: `${baseUrl()}/problems/${slug}`, title, status, detail, instance: "/" });
  const security = Object.entries(SECURITY_HEADERS)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  // An answer to HEAD has no body.
  const head = error.rawPacket?.subarray(0, 5).toString("latin1") === "HEAD ";
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\n${security}${extra}Connection: close\r\n\r\n${head ? "" : body}`,
  );
}

/** Why a request target cannot be served, or null: only a path (`/…`) or an absolute http(s) address names a page here. */
function targetProblem(url: string | undefined): string | null {
  const target = url ?? "";
  // The asterisk form (`OPTIONS * HTTP/1.1`, also sent with GET) and anything else that is not a path:
  // Next would fail to build a URL from it (500, "Invalid URL").
  if (!target.startsWith("/") && !/^https?:\/\/[^/?#\s]+(\/|$)/i.test(target))
    return "The request target must be a path beginning with / (the asterisk form, *, names no resource of this service).";
  try {
    decodeURIComponent(pathOf(target));
    return null;
  } catch {
    return "The address is not valid: every % must be followed by two hexadecimal digits that encode UTF-8.";
  }
}

/**
 * Answers a request whose target Next could not use (`*`, anything that is not a path, a `%` not
 * followed by two hex digits, or bytes that are not UTF-8) with a 400 problem document, and returns
 * true; Next would fail on it.
 */
export function refuseMalformedTarget(req: IncomingMessage, res: ServerResponse): boolean {
  const detail = targetProblem(req.url);
  if (!detail) return false;
  const body = JSON.stringify({
    type: `${baseUrl()}/problems/malformed-request`,
    title: "The request could not be read",
    status: 400,
    detail,
    instance: "/",
  });
  answeredSockets.add(req.socket);
  res.writeHead(400, {
    ...SECURITY_HEADERS,
    "Content-Type": "application/problem+json",
    "Cache-Control": "no-store",
    "Content-Length": Buffer.byteLength(body),
    Connection: "close",
  });
  res.end(body);
  req.resume();
  return true;
}
