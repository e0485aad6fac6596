import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { seedDemo } from "@/server/programme/demo/seed";
import { openDatabase } from "@/server/ground/platform/database";
import { applyMigrations } from "@/server/ground/platform/migrate";
import { insertKeyPool } from "@/test/api-key-pool";

export const BENCH_SERVER_URL = process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/**
 * BENCH_EXPLAIN_MS=n: every later session of the benchmark's database (the workers', the server's)
 * logs the plan of each statement slower than n ms to PostgreSQL's log, with its triggers' time
 * (the foreign keys' checks among them) and buffers, by PostgreSQL's auto_explain. The settings
 * belong to that database alone and go with it.
 */
async function explainSlowStatements(admin: pg.Client, database: string) {
  const ms = process.env.BENCH_EXPLAIN_MS;
  if (!ms) return;
  if (!/^\d+$/.test(ms)) throw new Error(`BENCH_EXPLAIN_MS must be a whole number of milliseconds, not ${ms}`);
  const settings = {
    session_preload_libraries: "auto_explain",
    "auto_explain.log_min_duration": ms,
    "auto_explain.log_analyze": "on",
    "auto_explain.log_triggers": "on",
    "auto_explain.log_buffers": "on",
    "auto_explain.log_nested_statements": "on",
  };
  for (const [key, value] of Object.entries(settings))
    await admin.query(`ALTER DATABASE ${database} SET ${key} = '${value}'`);
  console.log(`auto_explain: statements over ${ms} ms in ${database} are logged with their plans (PostgreSQL's log)`);
}

/**
 * A fresh, migrated PostgreSQL database of its own for a benchmark, open; `drop()` closes it and
 * drops it. Runs never share state.
 */
export async function emptyBenchDatabase() {
  const name = `dm_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: BENCH_SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await explainSlowStatements(admin, name);
  await admin.end();
  const url = new URL(BENCH_SERVER_URL);
  url.pathname = `/${name}`;
  const database = openDatabase({ kind: "postgres", url: url.toString() });
  let open = true;
  const close = async () => {
    if (open) await database.close();
    open = false;
  };
  const drop = async () => {
    await close();
    const c = new pg.Client({ connectionString: BENCH_SERVER_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
  try {
    await applyMigrations(database.migrationAdapter());
  } catch (error) {
    await drop();
    throw error;
  }
  /** A workspace with nothing in it. */
  const workspace = () =>
    database.prisma.workspace.create({ data: { name: "Bench", slug: `bench-${randomBytes(4).toString("hex")}` } });
  return { url: url.toString(), database, prisma: database.prisma, workspace, close, drop };
}

/**
 * Runs `body` on a fresh database (dropped afterwards) holding one workspace, one empty audience
 * named `audienceName`, and `companies` accounts "Company g" at company-g.example (g from 0), with
 * a plain pg client beside Prisma for bulk SQL.
 */
export async function withBenchAudience(
  audienceName: string,
  companies: number,
  body: (b: {
    prisma: Awaited<ReturnType<typeof emptyBenchDatabase>>["prisma"];
    raw: pg.Client;
    workspaceId: string;
    audienceId: string;
  }) => Promise<void>,
) {
  const { url, prisma, workspace, drop } = await emptyBenchDatabase();
  const raw = new pg.Client({ connectionString: url });
  try {
    await raw.connect();
    const ws = await workspace();
    const audience = await prisma.audience.create({ data: { workspaceId: ws.id, name: audienceName } });
    await raw.query(
      `INSERT INTO "Account" ("workspaceId", name, domain, "updatedAt")
       SELECT $1, 'Company ' || g, 'company-' || g || '.example', now() FROM generate_series(0, $2::int - 1) g`,
      [ws.id, companies],
    );
    await body({ prisma, raw, workspaceId: ws.id, audienceId: audience.id });
  } finally {
    await raw.end().catch(() => undefined);
    await drop();
  }
}

/** A fresh PostgreSQL database with the demo and `keys` full-scope keys in Acme; dropped by `drop()`. */
export async function benchDatabase(keys: number) {
  const { url, prisma, close, drop } = await emptyBenchDatabase();
  const demo = await seedDemo(prisma);
  const acme = demo.workspaces.acme;
  const secrets = await insertKeyPool(prisma, {
    workspaceId: acme.id,
    count: keys,
    scopes: ["post_entry_events", "post_conversions"],
    namePrefix: "bench",
  });
  await close();
  return { url, acme, globex: demo.workspaces.globex, secrets, drop };
}

/** Starts a command and resolves once `healthUrl` answers 200. */
export async function startAndWait(
  command: string,
  args: string[],
  env: Record<string, string>,
  healthUrl: string,
): Promise<ChildProcess> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${path.basename(command)} exited with ${child.exitCode}`);
    const ok = await fetch(healthUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 300));
  }
  child.kill();
  throw new Error(`${healthUrl} did not answer within 60 s`);
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  });
}
