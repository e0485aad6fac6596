/**
 * npm run bench:api: POST entry events against the production build on a fresh PostgreSQL
 * database, at increasing fixed rates and at full throttle, then the same workload against a bare
 * node:http reference doing the same validated insert (scripts/bench/reference-server.ts). Prints
 * sustained requests/second, p50/p99 latency and the ratio between the two. Requests are spread
 * over many keys so the 60/minute/key limit never bites. The lifecycle worker is off in both.
 */
import path from "node:path";
import autocannon from "autocannon";
import { benchDatabase, startAndWait, stop } from "./fixture";

const PHASE_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATES = [100, 250, 500];
const OURS_PORT = 3400;
const REF_PORT = 3401;

interface Row {
  target: string;
  load: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function run(port: number, target: string, db: Awaited<ReturnType<typeof benchDatabase>>, keyOffset: { n: number }, rate?: number): Promise<Row> {
  const { acme, secrets } = db;
  let i = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: rate ? Math.min(100, Math.max(10, rate / 5)) : 32,
    duration: PHASE_SECONDS,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        method: "POST",
        path: `/api/v1/campaigns/${acme.campaigns.liveApiEntry}/events`,
        setupRequest: (request) => {
          const n = i++;
          const key = secrets[(keyOffset.n + n) % secrets.length];
          return {
            ...request,
            headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
            body: JSON.stringify({ contactId: acme.contacts.inAudience[n % acme.contacts.inAudience.length], idempotencyKey: `bench-${target}-${rate ?? "max"}-${n}` }),
          };
        },
      },
    ],
  });
  keyOffset.n += i;
  return {
    target,
    load: rate ? `${rate} req/s` : "max",
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

/** Latency of 404s that must not reveal existence: a missing campaign and another workspace's campaign. */
async function notFoundTiming(port: number, db: Awaited<ReturnType<typeof benchDatabase>>, keyOffset: { n: number }) {
  const out: { case: string; p50: number; p99: number; statuses: string }[] = [];
  for (const [label, campaignId] of [
    ["missing campaign", "cmp_00000000000000000000000000000000"],
    ["other workspace's campaign", db.globex.campaigns.liveApiEntry],
  ] as const) {
    let i = 0;
    const statuses = new Map<number, number>();
    const result = await autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: 10,
      duration: 5,
      overallRate: 50,
      requests: [
        {
          method: "POST",
          path: `/api/v1/campaigns/${campaignId}/events`,
          setupRequest: (request) => {
            const n = i++;
            return {
              ...request,
              headers: { "content-type": "application/json", authorization: `Bearer ${db.secrets[(keyOffset.n + n) % db.secrets.length]}` },
              body: JSON.stringify({ contactId: db.acme.contacts.inAudience[0], idempotencyKey: `nf-${label}-${n}` }),
            };
          },
          onResponse: (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1),
        },
      ],
    });
    keyOffset.n += i;
    out.push({ case: label, p50: result.latency.p50, p99: result.latency.p99, statuses: [...statuses].map(([s, n]) => `${n}x${s}`).join(" ") });
  }
  return out;
}

async function main() {
  // Each key may take 60 requests a minute: enough keys for every phase of both targets.
  const db = await benchDatabase(Number(process.env.BENCH_KEYS ?? 3000));
  const rows: Row[] = [];
  let notFound: Awaited<ReturnType<typeof notFoundTiming>> = [];
  try {
    for (const [target, port, start] of [
      ["ours", OURS_PORT, () => startAndWait(path.resolve("node_modules/.bin/next"), ["start", "-p", String(OURS_PORT)], { DATABASE_URL: db.url, WORKER: "off", SEED_DEMO: "false", NEXTAUTH_URL: `http://localhost:${OURS_PORT}`, NEXT_TELEMETRY_DISABLED: "1" }, `http://127.0.0.1:${OURS_PORT}/api/health`)],
      ["reference", REF_PORT, () => startAndWait(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", "scripts/bench/reference-server.ts"], { DATABASE_URL: db.url, PORT: String(REF_PORT) }, `http://127.0.0.1:${REF_PORT}/api/health`)],
    ] as const) {
      const server = await start();
      const keyOffset = { n: target === "ours" ? 0 : Math.floor(db.secrets.length / 2) };
      try {
        await run(port, `${target}-warmup`, db, keyOffset, 50);
        for (const rate of RATES) rows.push(await run(port, target, db, keyOffset, rate));
        rows.push(await run(port, target, db, keyOffset));
        if (target === "ours") notFound = await notFoundTiming(port, db, keyOffset);
      } finally {
        await stop(server);
      }
    }
  } finally {
    await db.drop();
  }
  console.log("\nPOST /api/v1/campaigns/{id}/events on PostgreSQL, %d s per phase\n", PHASE_SECONDS);
  console.log("| target | offered load | sustained req/s | p50 ms | p99 ms | non-2xx |");
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.target} | ${r.load} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} |`);
  console.log("\n404 timing at 50 req/s (nothing may reveal which ids exist):\n");
  console.log("| case | p50 ms | p99 ms | responses |");
  console.log("|---|---|---|---|");
  for (const r of notFound) console.log(`| ${r.case} | ${r.p50} | ${r.p99} | ${r.statuses} |`);
  const max = (t: string) => rows.find((r) => r.target === t && r.load === "max")!.rps;
  const at500 = rows.find((r) => r.target === "ours" && r.load === "500 req/s")!;
  console.log(`\nthroughput ratio ours/reference at full throttle: ${(max("ours") / max("reference")).toFixed(2)}`);
  console.log(`p99 at 500 req/s: ${at500.p99} ms (aim: under 50 ms)`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
