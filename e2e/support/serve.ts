/**
 * The server the end-to-end suites run against: a fresh database for this run (a new temporary
 * PGlite folder, or with E2E_POSTGRES_URL a new database on that PostgreSQL server), the demo
 * seeded into it (its JSON written to e2e/.artifacts/demo.json for the tests), then the production
 * build served as `npm start` serves it (scripts/serve.ts). The database is removed when the server stops.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { seedDemo } from "@/server/programme/demo/seed";
import { createTestKeys } from "./test-keys";
import { openDatabase } from "@/server/ground/platform/database";
import { applyMigrations } from "@/server/ground/platform/migrate";
import { artifactsDir, demoFile, E2E_HUBSPOT_FAKE_PORT, E2E_LOB_FAKE_PORT, E2E_PORT, serverErrorLog } from "./env";
import { createFuzzWorkspace } from "./fuzz-workspace";
import { createTestAgents } from "./test-agents";

const serverUrl = process.env.E2E_POSTGRES_URL;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(E2E_PORT),
  NEXTAUTH_URL: `http://localhost:${E2E_PORT}`,
  NEXT_TELEMETRY_DISABLED: "1",
  SEED_DEMO: "false",
  // The suites stand in for a proxy on this machine: a test chooses the client address its
  // requests count against with X-Forwarded-For, so per-address limits never mix tests up.
  TRUST_PROXY: "127.0.0.1, ::1",
  // Every 5xx the server answers is written here; the last project of the run requires none.
  SERVER_ERROR_LOG: serverErrorLog,
  // Tests only: the CRM spec's local fakes (HubSpot on a known port; Salesforce at the URL the test types).
  CRM_TEST_ALLOW_LOCAL_URLS: "1",
  CRM_TEST_HUBSPOT_BASE_URL: `http://127.0.0.1:${E2E_HUBSPOT_FAKE_PORT}`,
  // Tests only: the webhooks spec's receiver listens on 127.0.0.1.
  WEBHOOK_TEST_ALLOW_LOCAL_URLS: "1",
  // The Lob spec's local fake (Lob's API as its OpenAPI description answers), on a known port.
  LOB_API_URL: `http://127.0.0.1:${E2E_LOB_FAKE_PORT}/v1`,
};
delete env.DATABASE_URL;
let cleanup = async () => {};

if (serverUrl) {
  const name = `dm_e2e_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  // On PostgreSQL the CRM credentials' key must come from the environment (the embedded default keeps a key file).
  env.CRM_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
  cleanup = async () => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dm-e2e-"));
  env.DATA_DIR = dir;
  cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
}

const database = openDatabase(
  env.DATABASE_URL
    ? { kind: "postgres", url: env.DATABASE_URL }
    : { kind: "embedded", dataDir: path.join(env.DATA_DIR!, "pglite") },
);
await applyMigrations(database.migrationAdapter());
const demo = await seedDemo(database.prisma);
const testKeys = await createTestKeys(database.prisma, demo);
const testAgents = await createTestAgents(database.prisma, demo, env.NEXTAUTH_URL!);
const fuzz = await createFuzzWorkspace(database.prisma, env.NEXTAUTH_URL!, "Fuzz target");
const hardening = await createFuzzWorkspace(database.prisma, env.NEXTAUTH_URL!, "Hardening target");
await database.close();
// Per-run bookkeeping starts empty (screenshots stay until the next run overwrites them).
fs.rmSync(path.join(artifactsDir, "key-claims"), { recursive: true, force: true });
fs.rmSync(path.join(artifactsDir, "observed-statuses.jsonl"), { force: true });
fs.rmSync(serverErrorLog, { force: true });
fs.mkdirSync(artifactsDir, { recursive: true });
fs.writeFileSync(
  demoFile,
  JSON.stringify(
    { ...demo, testKeys, testAgents, fuzz, hardening, database: serverUrl ? "postgres" : "pglite" },
    null,
    2,
  ),
);

const server = spawn(path.resolve("node_modules/.bin/tsx"), ["scripts/serve.ts"], { env, stdio: "inherit" });
let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  server.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 500));
  await cleanup().catch((e) => console.error("e2e cleanup failed", e));
  process.exit(code);
};
process.on("SIGTERM", () => stop(0));
process.on("SIGINT", () => stop(0));
server.on("exit", (code) => stop(code ?? 1));
