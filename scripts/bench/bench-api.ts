/**
 * npm run bench:api: POST entry events against the production server (scripts/serve.ts, as
 * `npm start` runs it) on a fresh PostgreSQL database, at increasing fixed rates and at full
 * throttle; at full throttle also the same build behind Next's own router (`next start`, which
 * serve.ts skips for /api/v1); and, in turns with the service at each load (both running side by
 * side, so the machine's load falls on both alike), the same workload against a bare node:http
 * reference making the same two prepared statements (scripts/bench/reference-server.ts).
 * Prints sustained requests/second, p50/p99 latency and, per load, the service's figures beside
 * its reference's with their ratio. Fixed rates are evenly
 * spaced arrivals with latency counted from each request's due time (paced-load.ts). Requests are spread
 * over many keys so the 60/minute/key limit never bites. The lifecycle worker is off in both.
 * It also measures the floor: the production server answering a /api/v1 request that needs no
 * database (404 for an unknown path), the most any /api/v1 endpoint could sustain here.
 */
import path from "node:path";
import autocannon from "autocannon";
import { benchDatabase, startAndWait, stop } from "./fixture";
import { pacedLoad } from "./paced-load";

type Db = Awaited<ReturnType<typeof benchDatabase>>;

const PHASE_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATES = [100, 250, 500];
const OURS_PORT = 3400;
const REF_PORT = 3401;
const NEXT_PORT = 3402;
/** The floor row: its 404s are the expected answer, so only errors and timeouts count as failures. */
const FLOOR = "ours, no database (404 for an unknown path)";
const VIA_NEXT = "ours through Next's router (next start)";

interface Row {
  target: string;
  load: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

function entryEventRequest(db: Db, target: string, rate: number | undefined, keyOffset: { n: number }, n: number) {
  const { acme, secrets } = db;
  return {
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${secrets[(keyOffset.n + n) % secrets.length]}`,
    },
    body: JSON.stringify({
      contactId: acme.contacts.inAudience[n % acme.contacts.inAudience.length],
      idempotencyKey: `bench-${target}-${rate ?? "max"}-${n}`,
    }),
  };
}

/** A fixed rate with evenly spaced arrivals (paced-load.ts), or full throttle from 32 connections (autocannon). */
async function run(
  port: number,
  target: string,
  db: Db,
  keyOffset: { n: number },
  rate?: number,
  path?: string,
  seconds = PHASE_SECONDS,
): Promise<Row> {
  const url = path ?? `/api/v1/campaigns/${db.acme.campaigns.liveApiEntry}/events`;
  if (rate) {
    const result = await pacedLoad({
      port,
      rate,
      seconds,
      request: (n) => ({ path: url, ...entryEventRequest(db, target, rate, keyOffset, n) }),
    });
    keyOffset.n += Math.round(rate * seconds);
    return {
      target,
      load: `${rate} req/s`,
      rps: result.rps,
      p50: result.p50,
      p99: result.p99,
      non2xx: result.failures,
    };
  }
  let i = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 32,
    duration: seconds,
    requests: [
      {
        method: "POST",
        path: url,
        setupRequest: (request) => ({ ...request, ...entryEventRequest(db, target, rate, keyOffset, i++) }),
      },
    ],
  });
  keyOffset.n += i;
  return {
    target,
    load: "max",
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: path ? result.errors + result.timeouts : result.non2xx + result.errors + result.timeouts,
  };
}

/** Latency of 404s that must not reveal existence: a missing campaign and another workspace's campaign. */
async function notFoundTiming(port: number, db: Db, keyOffset: { n: number }) {
  const out: { case: string; p50: number; p99: number; statuses: string }[] = [];
  for (const [label, campaignId] of [
    ["missing campaign", "cmp_00000000000000000000000000000000"],
    ["other workspace's campaign", db.globex.campaigns.liveApiEntry],
  ] as const) {
    const rate = 50;
    const result = await pacedLoad({
      port,
      rate,
      seconds: 5,
      request: (n) => ({
        path: `/api/v1/campaigns/${campaignId}/events`,
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${db.secrets[(keyOffset.n + n) % db.secrets.length]}`,
        },
        body: JSON.stringify({ contactId: db.acme.contacts.inAudience[0], idempotencyKey: `nf-${label}-${n}` }),
      }),
    });
    keyOffset.n += rate * 5;
    out.push({
      case: label,
      p50: result.p50,
      p99: result.p99,
      statuses: [...result.statuses].map(([s, n]) => `${n}x${s}`).join(" "),
    });
  }
  return out;
}

async function main() {
  // Each key may take 60 requests a minute: enough keys for every phase of both targets.
  const db = await benchDatabase(Number(process.env.BENCH_KEYS ?? 3000));
  const rows: Row[] = [];
  let notFound: Awaited<ReturnType<typeof notFoundTiming>> = [];
  try {
    const env = { DATABASE_URL: db.url, WORKER: "off", SEED_DEMO: "false", NEXT_TELEMETRY_DISABLED: "1" };
    // BENCH_CPU_PROFILE=dir: V8 CPU profiles of the service's and the reference's processes, written into dir when they stop.
    // (Node refuses --cpu-prof in NODE_OPTIONS: the tsx servers then run as node --cpu-prof --import tsx.)
    const profile = process.env.BENCH_CPU_PROFILE
      ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROFILE)}`]
      : [];
    // BENCH_SERVICE_NODE_OPTIONS: NODE_OPTIONS for the service's process only (e.g. a V8 heap flag to try).
    const start = (port: number, command: string[], withProfile: boolean, nodeOptions?: string) => {
      const [bin, ...args] =
        withProfile && profile.length
          ? [process.execPath, ...profile, "--import", "tsx", ...command.slice(1)]
          : command;
      const extra: Record<string, string> = nodeOptions
        ? { NODE_OPTIONS: [process.env.NODE_OPTIONS, nodeOptions].filter(Boolean).join(" ") }
        : {};
      return startAndWait(
        path.resolve(bin),
        args,
        { ...env, ...extra, PORT: String(port), NEXTAUTH_URL: `http://localhost:${port}` },
        `http://127.0.0.1:${port}/api/health`,
      );
    };
    // Each target its own third of the keys, so no target's requests count against another's limits.
    const keys = (i: number) => ({ n: Math.floor((db.secrets.length * i) / 3) });
    const ours = { target: "ours", port: OURS_PORT, keyOffset: keys(0) };
    const reference = { target: "reference", port: REF_PORT, keyOffset: keys(2) };

    // The service and its reference run side by side and are measured in turns, load by load (the
    // order alternating), so a change in this shared machine's load falls on both alike.
    const servers = [
      await start(
        OURS_PORT,
        ["node_modules/.bin/tsx", "scripts/serve.ts"],
        true,
        process.env.BENCH_SERVICE_NODE_OPTIONS,
      ),
      await start(
        REF_PORT,
        ["node_modules/.bin/tsx", "--conditions=react-server", "scripts/bench/reference-server.ts"],
        true,
      ),
    ];
    try {
      // Warm up at full throttle: the first thousands of requests run on cold code (JIT, lazily loaded modules).
      for (const t of [ours, reference])
        await run(t.port, `${t.target}-warmup`, db, t.keyOffset, undefined, undefined, 5);
      const loads: (number | undefined)[] = [...RATES, undefined];
      for (const [i, rate] of loads.entries()) {
        for (const t of i % 2 === 0 ? [ours, reference] : [reference, ours])
          rows.push(await run(t.port, t.target, db, t.keyOffset, rate));
      }
      notFound = await notFoundTiming(OURS_PORT, db, ours.keyOffset);
      rows.push(await run(OURS_PORT, FLOOR, db, ours.keyOffset, undefined, "/api/v1/bench-floor"));
    } finally {
      for (const server of servers) await stop(server);
    }

    // The same build behind Next's own router (`next start`), which is what scripts/serve.ts skips for /api/v1.
    // BENCH_SKIP_NEXT=1 leaves it out (for quicker iterations; its row and ratio print as n/a).
    if (process.env.BENCH_SKIP_NEXT !== "1") {
      const server = await start(NEXT_PORT, ["node_modules/.bin/next", "start", "-p", String(NEXT_PORT)], false);
      try {
        const keyOffset = keys(1);
        await run(NEXT_PORT, `${VIA_NEXT}-warmup`, db, keyOffset, undefined, undefined, 5);
        rows.push(await run(NEXT_PORT, VIA_NEXT, db, keyOffset));
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
  const max = (t: string) => rows.find((r) => r.target === t && r.load === "max")?.rps ?? 0;
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : "n/a");
  console.log("\nthe service against its reference (the same two prepared statements per event), same run:\n");
  console.log(
    "| offered load | service p50 / p99 ms | reference p50 / p99 ms | p99 ratio service/reference | service / reference req/s |",
  );
  console.log("|---|---|---|---|---|");
  for (const load of [...RATES.map((rate) => `${rate} req/s`), "max"]) {
    const ours = rows.find((r) => r.target === "ours" && r.load === load)!;
    const ref = rows.find((r) => r.target === "reference" && r.load === load)!;
    console.log(
      `| ${load} | ${ours.p50} / ${ours.p99} | ${ref.p50} / ${ref.p99} | ${ratio(ours.p99, ref.p99)} | ${ours.rps} / ${ref.rps} (${ratio(ours.rps, ref.rps)}) |`,
    );
  }
  console.log(`\nthroughput ratio ours/reference at full throttle: ${ratio(max("ours"), max("reference"))}`);
  console.log(`through Next's router / reference: ${ratio(max(VIA_NEXT), max("reference"))}`);
  console.log(`floor (no database) / reference: ${ratio(max(FLOOR), max("reference"))}`);
  const at500 = rows.find((r) => r.target === "ours" && r.load === "500 req/s")!;
  const ref500 = rows.find((r) => r.target === "reference" && r.load === "500 req/s")!;
  const met = at500.p99 <= 50 && at500.p99 <= ref500.p99 && at500.non2xx === 0;
  console.log(
    `p99 at 500 req/s: service ${at500.p99} ms, reference ${ref500.p99} ms, ratio ${ratio(at500.p99, ref500.p99)} ` +
      `(aim: at most 50 ms and at most the reference's, no failures: ${met ? "met" : "missed"})`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
