/**
 * What is read of a request body after it went over its cap, and for how long, before it is
 * cancelled: the client is still sending, and a connection closed on unread data is reset, which
 * can destroy the 413 on its way (RFC 9112 §9.6 asks for a staged close). Reading and dropping the
 * rest lets the answer arrive first. Past these bounds the body is cancelled: on Next's routes that
 * resets the connection; the /api/v1 doors (runtime/direct-doors.ts) read and drop the rest, and
 * the server's front door closes the connection past the same bounds again (runtime/unread-body.ts).
 * At most 64 times the body's own cap, so a 16 KiB form's drain ends at 1 MiB.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
export const DRAIN_MAX_MS = 10_000;
const DRAIN_CAP_MULTIPLE = 64;

/** How much of an oversized body is drained, and for how long, for a body capped at `cap` bytes (none: the largest bound). */
export const drainBounds = (cap = Infinity) => ({
  bytes: Math.min(DRAIN_MAX_BYTES, DRAIN_CAP_MULTIPLE * cap),
  ms: DRAIN_MAX_MS,
});

/** The body's length by its Content-Length header (0 when it has none: chunked, or no body). */
export const declaredLength = (message: { headers: Headers }) => Number(message.headers.get("content-length") ?? 0);

/** After the cap: "drain" for a request a client is sending, "cancel" (the default) for a response this server fetched. */
export type TOverCap = "drain" | "cancel";

/**
 * Reads the body of a Request or Response, at most `maxBytes` of it: null as soon as it is longer
 * (by its Content-Length or by what arrives), so an oversized body is never held in memory. The
 * rest of an oversized request's body is read and dropped in the background (drainRest).
 */
export async function readCappedBody(
  message: { body: ReadableStream<Uint8Array> | null; headers: Headers },
  maxBytes: number,
  overCap: TOverCap = "cancel",
): Promise<Buffer | null> {
  const bounds = drainBounds(maxBytes);
  if (declaredLength(message) > maxBytes) {
    // A body declared longer than the drain's bound is left unread (the MCP endpoint's answer then closes the connection).
    if (overCap === "drain") dropBody(message, bounds);
    else await message.body?.cancel().catch(() => {});
    return null;
  }
  if (!message.body) return Buffer.alloc(0);
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      if (overCap === "drain") void drainRest(reader, bounds);
      else await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads and drops, in the background, the body of a request answered without it (413, 415): true
 * when all of it can be (the connection may stay open), false when its Content-Length is over the
 * bound, so the answer should close the connection (Connection: close).
 */
export function dropBody(
  message: { body: ReadableStream<Uint8Array> | null; headers: Headers },
  bounds = drainBounds(),
): boolean {
  if (declaredLength(message) > bounds.bytes) return false;
  if (message.body && !message.body.locked) void drainRest(message.body.getReader(), bounds);
  return true;
}

/**
 * Reads and drops what is left of a body, then cancels it once `bounds.bytes` have been dropped
 * or `bounds.ms` have passed, whether or not anything arrives meanwhile. Never throws: a
 * connection the client or the server closes ends the read.
 */
export async function drainRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  bounds = drainBounds(),
): Promise<number> {
  let dropped = 0;
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), bounds.ms);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return dropped;
      dropped += value.byteLength;
      if (dropped > bounds.bytes) {
        await reader.cancel();
        return dropped;
      }
    }
  } catch {
    // The stream ended with an error (the connection closed): nothing is left to read.
    return dropped;
  } finally {
    clearTimeout(timer);
  }
}
