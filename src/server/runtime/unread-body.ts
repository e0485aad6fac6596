import type { IncomingMessage } from "node:http";
import { drainBounds } from "@/server/ground/platform/capped-body";

/**
 * What a client still sends of a request's body once its answer has gone (a body over its limit,
 * or one its handler never read) is read and dropped, so that the connection can serve the next
 * request, but only within drainBounds(): past 16 MiB more, or 10 s, the connection is closed.
 * (Node itself drops it for as long as the client keeps sending.) The answer has been written by
 * then, so the client has had the time and the bytes to read it (RFC 9112 §9.6).
 *
 * Call it before Node's own handler of the answer's "finish" (prependOnceListener): the body is
 * then read here, and Node leaves it alone instead of dropping it without counting.
 */
export function boundUnreadBody(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  const bounds = drainBounds();
  let dropped = 0;
  const close = () => {
    clearTimeout(timer);
    req.socket?.destroy();
  };
  const timer = setTimeout(close, bounds.ms);
  timer.unref();
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > bounds.bytes) close();
  });
  req.once("end", () => clearTimeout(timer));
  req.once("close", () => clearTimeout(timer));
  req.resume();
}
