import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "./database";

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

/**
 * The set-up every webhook delivery test shares: the test database, local URLs allowed (the
 * receiver listens on 127.0.0.1), the key that seals signing secrets, and one receiver for the file.
 * Its fields are filled before the file's first test.
 */
export function webhookTestBed() {
  const bed = {} as { prisma: PrismaClient; receiver: Awaited<ReturnType<typeof webhookReceiver>> };
  beforeAll(async () => {
    process.env.WEBHOOK_TEST_ALLOW_LOCAL_URLS = "1";
    // Signing secrets are sealed with the service's key (required on PostgreSQL, as for CRM credentials).
    process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 9).toString("base64");
    bed.prisma = (await testDatabase()).prisma;
    bed.receiver = await webhookReceiver();
  });
  afterAll(async () => {
    delete process.env.WEBHOOK_TEST_ALLOW_LOCAL_URLS;
    await bed.receiver?.stop();
  });
  return bed;
}
