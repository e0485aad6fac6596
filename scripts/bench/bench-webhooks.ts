/**
 * npm run bench:webhooks: outbound webhook delivery on PostgreSQL.
 *
 * 1. Throughput: N entry events of a live campaign become `completed` in one statement; the
 *    database's trigger writes N `entry_event.completed` events with their deliveries (the outbox),
 *    and one delivery worker (as every worker process runs it: batches of 16, up to 64 requests in flight) signs and
 *    POSTs them to a local receiver until all are delivered: deliveries per second. In the same
 *    run, the reference: the same N bodies signed and POSTed to the same receiver with the same
 *    concurrency (64) and no database at all.
 * 2. Lag: entry events completed at a steady 200 a second for 20 s; for each, the time from its
 *    completion (the event's timestamp) to its arrival at the receiver: p50 / p99.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { sendDelivery } from "@/server/programme/webhooks/http-send";
import { signedHeaders } from "@/server/programme/webhooks/secrets";
import { createEndpoint } from "@/server/programme/webhooks/service";
import { startWebhookWorker } from "@/server/programme/webhooks/worker";
import { emptyBenchDatabase } from "./fixture";

const N = Number(process.env.BENCH_EVENTS ?? 5000);
const RATE = 200;
const SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 20);
const CONCURRENCY = 64;

process.env.WEBHOOK_TEST_ALLOW_LOCAL_URLS = "1";
process.env.CRM_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");

function receiver() {
  const arrivals: { at: number; timestamp: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { timestamp: string };
      arrivals.push({ at: Date.now(), timestamp: body.timestamp });
      res.writeHead(204).end();
    });
  });
  return new Promise<{ url: string; arrivals: typeof arrivals; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        arrivals,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function waitFor(check: () => Promise<boolean>, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("timed out");
}

async function main() {
  const db = await emptyBenchDatabase();
  const raw = new pg.Client({ connectionString: db.url });
  await raw.connect();
  const hooks = await receiver();
  try {
    const ws = await db.workspace();
    const owner = { kind: "system" as const, id: null, label: "bench" };
    const { secret } = await createEndpoint(db.prisma, {
      workspaceId: ws.id,
      url: hooks.url,
      events: ["entry_event.completed"],
      actor: owner,
    });
    const total = N + RATE * SECONDS;
    // A live campaign and `total` contacts, each with an entry event the lifecycle is working on.
    const {
      rows: [campaign],
    } = await raw.query(
      `INSERT INTO "Campaign" ("workspaceId", name, format, status, "updatedAt") VALUES ($1, 'Bench', 'postcard', 'live', now()) RETURNING id`,
      [ws.id],
    );
    await raw.query(
      `WITH c AS (INSERT INTO "Contact" ("workspaceId", "firstName", "lastName", email, "updatedAt")
                  SELECT $1, 'First' || g, 'Last' || g, 'p' || g || '@bench.example', now() FROM generate_series(1, $3::int) g RETURNING id)
       INSERT INTO "EntryEvent" ("workspaceId", "campaignId", "contactId", "idempotencyKey", fingerprint, "occurredAt", status, "updatedAt")
       SELECT $1, $2, c.id, 'k-' || c.id, 'f', now(), 'processing', now() FROM c`,
      [ws.id, campaign.id, total],
    );
    const { rows: ids } = await raw.query<{ id: string }>(
      `SELECT id FROM "EntryEvent" WHERE "workspaceId" = $1 ORDER BY id`,
      [ws.id],
    );

    // 1. Throughput.
    const first = ids.slice(0, N).map((r) => r.id);
    await raw.query(
      `UPDATE "EntryEvent" SET status = 'completed', "completedAt" = now() AT TIME ZONE 'UTC' WHERE id = ANY($1)`,
      [first],
    );
    const started = performance.now();
    const worker = startWebhookWorker(db.prisma, { pollMs: 50 });
    await waitFor(
      async () => (await db.prisma.webhookDelivery.count({ where: { workspaceId: ws.id, status: "succeeded" } })) >= N,
      600_000,
    );
    const serviceSeconds = (performance.now() - started) / 1000;

    // The reference: the same bodies, signed, POSTed with the same concurrency, no database.
    const events = await db.prisma.webhookEvent.findMany({ where: { workspaceId: ws.id }, take: N });
    const refStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < events.length) {
          const e = events[next++];
          const body = JSON.stringify({ id: e.id, type: e.type, timestamp: new Date().toISOString(), data: e.data });
          await sendDelivery(hooks.url, signedHeaders([secret], e.id, new Date(), body), body);
        }
      }),
    );
    const refSeconds = (performance.now() - refStarted) / 1000;
    console.log(
      `Throughput: ${N} entry_event.completed deliveries in ${serviceSeconds.toFixed(2)} s = ${Math.round(N / serviceSeconds)}/s`,
    );
    console.log(
      `Reference (the same ${N} signed POSTs, ${CONCURRENCY} in flight, no database): ${refSeconds.toFixed(2)} s = ${Math.round(N / refSeconds)}/s`,
    );
    console.log(`Ratio: ${(refSeconds / serviceSeconds).toFixed(2)} of the reference`);

    // 2. Lag at a steady 200 entry events a second.
    hooks.arrivals.length = 0;
    const steady = ids.slice(N).map((r) => r.id);
    const tick = 50;
    const perTick = (RATE * tick) / 1000;
    const t0 = Date.now();
    for (let i = 0; i * perTick < steady.length; i++) {
      const due = t0 + i * tick;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      await raw.query(
        `UPDATE "EntryEvent" SET status = 'completed', "completedAt" = clock_timestamp() AT TIME ZONE 'UTC' WHERE id = ANY($1)`,
        [steady.slice(i * perTick, (i + 1) * perTick)],
      );
    }
    await waitFor(async () => hooks.arrivals.length >= steady.length, 120_000);
    const lags = hooks.arrivals.map((a) => a.at - Date.parse(a.timestamp));
    console.log(
      `Lag at ${RATE} entry events/s for ${SECONDS} s (completion to arrival): p50 ${pct(lags, 50)} ms, p99 ${pct(lags, 99)} ms, max ${Math.max(...lags)} ms`,
    );
    await worker.stop();
  } finally {
    await hooks.close();
    await raw.end();
    await db.drop();
  }
}

await main();
