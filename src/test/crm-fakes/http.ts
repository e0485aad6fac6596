import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeServer {
  url: string;
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void | Promise<void>;

/** A local HTTP server on a free port (or the given one) of 127.0.0.1. */
export async function listen(handler: Handler, port = 0): Promise<FakeServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      Promise.resolve(handler(req, Buffer.concat(chunks).toString("utf8"), res)).catch((error) => {
        if (!res.headersSent) json(res, 500, { message: String(error) });
      });
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json;charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export const correlationId = () => crypto.randomUUID();
