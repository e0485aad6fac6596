import { execFile } from "node:child_process";
import http from "node:http";
import { promisify } from "node:util";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAIN_MAX_BYTES, drainRest, dropBody, readCappedBody } from "./capped-body";

/** A body of `chunks` chunks of `size` bytes, counting what was read and whether it was cancelled. */
function counted(chunks: number, size = 1024) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled === chunks) return controller.close();
        seen.pulled++;
        controller.enqueue(new Uint8Array(size).fill(97));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { message: { body, headers: new Headers() }, seen };
}

const run = promisify(execFile);
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("readCappedBody", () => {
  it("returns a body within its cap whole", async () => {
    const { message, seen } = counted(4);
    expect((await readCappedBody(message, 4096))?.byteLength).toBe(4096);
    expect(seen.cancelled).toBe(false);
  });

  it("refuses a request's body by its Content-Length, then reads it and drops it", async () => {
    const { message, seen } = counted(4);
    message.headers.set("content-length", "4097");
    expect(await readCappedBody(message, 4096, "drain")).toBeNull();
    await settle();
    expect(seen.pulled).toBe(4);
  });

  it("leaves a body declared longer than the drain's bound unread (the MCP endpoint's answer then closes the connection)", async () => {
    const { message, seen } = counted(4);
    message.headers.set("content-length", String(DRAIN_MAX_BYTES + 1));
    expect(dropBody(message)).toBe(false);
    expect(await readCappedBody(message, 4096, "drain")).toBeNull();
    await settle();
    expect(seen.pulled).toBe(0);
  });

  it("cancels a response's body refused by its Content-Length (cancel is the default)", async () => {
    const { message, seen } = counted(4);
    message.headers.set("content-length", "4097");
    expect(await readCappedBody(message, 4096)).toBeNull();
    expect(seen).toEqual({ pulled: 0, cancelled: true });
  });

  it("returns null once a request's body passes its cap, then reads the rest to its end and drops it", async () => {
    const { message, seen } = counted(100);
    expect(await readCappedBody(message, 4096, "drain")).toBeNull();
    await settle();
    expect(seen.pulled).toBe(100);
    expect(seen.cancelled).toBe(false);
  });

  it("drops at most 64 times the cap of a small body, then cancels it", async () => {
    const { message, seen } = counted(100);
    expect(await readCappedBody(message, 1024, "drain")).toBeNull();
    await settle();
    expect(seen).toEqual({ pulled: 2 + 65, cancelled: true });
  });

  it("cancels a response's body at its cap", async () => {
    const { message, seen } = counted(100);
    expect(await readCappedBody(message, 4096, "cancel")).toBeNull();
    expect(seen.pulled).toBe(5);
    expect(seen.cancelled).toBe(true);
  });

  it("gives up on a body that stops arriving once its time is up", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull: () => new Promise(() => {}),
      cancel: () => void (cancelled = true),
    });
    const started = Date.now();
    expect(await drainRest(body.getReader(), { bytes: 1024, ms: 50 })).toBe(0);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(cancelled).toBe(true);
  });

  it("drops at most its bound, then cancels", async () => {
    const { message, seen } = counted(100);
    expect(await drainRest(message.body.getReader(), { bytes: 10 * 1024, ms: 60_000 })).toBe(11 * 1024);
    expect(seen.pulled).toBe(11);
    expect(seen.cancelled).toBe(true);
  });
});

/**
 * A client still sending when the answer comes, in a process of its own that is busy (a loaded
 * machine's) while the server answers: 4 MiB chunked, 30 times; prints how each ended.
 */
const CLIENT = `
const http = require("node:http");
const port = Number(process.argv[1]);
const send = () => new Promise((resolve) => {
  const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/api/mcp", headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" } }, (res) => {
    res.resume();
    res.on("end", () => resolve(String(res.statusCode)));
  });
  req.on("error", (e) => resolve(e.code));
  const chunk = Buffer.alloc(64 * 1024, "a");
  let sent = 0;
  const pump = () => { while (sent < 4 * 1024 * 1024) { sent += chunk.length; if (!req.write(chunk)) return void req.once("drain", pump); } req.end(); };
  req.write('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"');
  pump();
  const until = Date.now() + 100;
  while (Date.now() < until);
});
(async () => { const out = []; for (let i = 0; i < 30; i++) out.push(await send()); console.log(JSON.stringify(out)); })();
`;

/**
 * An App Router route's request as Next.js builds it (a Request whose body is the Node request,
 * next/dist/server/web/spec-extension/adapters/next-request.js), answered 413 as soon as its body
 * passes the cap, as the MCP endpoint answers. With the body cancelled and the connection closed
 * instead, about a third of these ended in EPIPE (the connection reset on unread data, the 413 lost).
 */
describe("an oversized chunked request's 413", () => {
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      const request = new Request("http://localhost/api/mcp", {
        method: "POST",
        headers: { "content-type": "application/json" },
        // Node's fetch streams an async iterable of chunks (the request itself); BodyInit does not name one.
        body: req as unknown as BodyInit,
        duplex: "half",
      } as RequestInit);
      const bytes = await readCappedBody(request, 256 * 1024, "drain").catch(() => undefined);
      res.writeHead(bytes === null ? 413 : 200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "too large" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reaches a busy client every time, not a reset connection", async () => {
    const { stdout } = await run(process.execPath, ["-e", CLIENT, String(port)], { timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual(Array(30).fill("413"));
  }, 90_000);
});
