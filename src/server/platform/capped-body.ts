/**
 * Reads the body of a Request or Response, at most `maxBytes` of it: null as soon as it is longer
 * (by its Content-Length or by what arrives), so an oversized body is never held in memory.
 */
export async function readCappedBody(message: { body: ReadableStream<Uint8Array> | null; headers: Headers }, maxBytes: number): Promise<Buffer | null> {
  if (Number(message.headers.get("content-length") ?? 0) > maxBytes) return null;
  if (!message.body) return Buffer.alloc(0);
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
