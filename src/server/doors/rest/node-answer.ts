import type { IncomingMessage, ServerResponse } from "node:http";
import { CLIENT_ADDRESS_HEADER, CLIENT_ADDRESS_SEAL_HEADER } from "@/server/ground/http/client-address";
import { SECURITY_HEADERS } from "@/server/ground/http/security-headers";

/**
 * Writing the doors' answers on node:http (the production server, scripts/serve.ts). A Web API
 * Response and a plain answer (status, headers, text) come out byte for byte alike: the security
 * headers next.config.ts gives every response first, then the answer's own as a Web Headers
 * object lists them (lower case, sorted by name, repeated names joined), then the length.
 */

/** The request's headers as a Web API Headers, as Next would build them, with the client's address the server resolved (a copy the client sent is dropped). */
export function webHeadersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    if (name !== CLIENT_ADDRESS_HEADER && name !== CLIENT_ADDRESS_SEAL_HEADER)
      headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  for (const name of [CLIENT_ADDRESS_HEADER, CLIENT_ADDRESS_SEAL_HEADER]) {
    const resolved = req.headers[name];
    if (typeof resolved === "string") headers.set(name, resolved);
  }
  return headers;
}

/** Writes a Web API Response. */
export async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  for (const name in SECURITY_HEADERS) res.setHeader(name, SECURITY_HEADERS[name]);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (response.status !== 204 && response.status !== 304) res.setHeader("Content-Length", body.byteLength);
  res.end(body);
}

const SECURITY_RAW = Object.entries(SECURITY_HEADERS).flat();

/**
 * Writes an answer with a text body (not 204 or 304), header values that need no trimming and
 * none of the security headers among its own:
 * what `writeResponse(res, new Response(body, { status, headers }))` writes, without building the
 * Response, its Headers and its body stream.
 */
export function writeAnswer(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  const own: [string, string][] = [];
  for (const name in headers) {
    const lower = name.toLowerCase();
    const same = own.find((entry) => entry[0] === lower);
    if (same) same[1] = `${same[1]}, ${headers[name]}`;
    else own.push([lower, headers[name]]);
  }
  own.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const raw = SECURITY_RAW.slice();
  for (const [name, value] of own) raw.push(name, value);
  raw.push("Content-Length", String(Buffer.byteLength(body)));
  res.writeHead(status, raw);
  res.end(body);
}
