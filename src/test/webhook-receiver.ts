import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  json: {
    id: string;
    type: string;
    version: number;
    timestamp: string;
    workspaceId: string;
    data: Record<string, unknown>;
  };
}

/**
 * A local HTTP receiver for webhook tests: records every request, and answers with the status
 * `answer()` gives (200 unless changed), with the headers it gives. `stop()` closes it; `start()` opens it again on the same port.
 */
export async function webhookReceiver() {
  const received: ReceivedWebhook[] = [];
  let answer: () => number | { status: number; headers: Record<string, string> } = () => 200;
  let server: http.Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          received.push({ headers: req.headers as Record<string, string>, body, json: JSON.parse(body) });
          const given = answer();
          const { status, headers } = typeof given === "number" ? { status: given, headers: {} } : given;
          res
            .writeHead(status, { "content-type": "text/plain", ...headers })
            .end(status < 300 ? "ok" : "receiver says no");
        });
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    received,
    get url() {
      return `http://127.0.0.1:${port}/hooks`;
    },
    answerWith(fn: () => number | { status: number; headers: Record<string, string> }) {
      answer = fn;
    },
    start: listen,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}
