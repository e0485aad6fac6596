import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getImport } from "@/server/programme/imports/service";
import { openDatabase } from "@/server/ground/platform/database";
import { onPostgres } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { importCsv } from "@/test/imports";
import { bundle, WORKER_NODE_FLAGS } from "./bundle.mjs";

// `npm run worker` compiles scripts/worker.ts (scripts/bundle.mjs) and runs it on plain Node.
const script = path.resolve(`.build/test-worker-${randomBytes(4).toString("hex")}.mjs`);

beforeAll(() => bundle("scripts/worker.ts", script), 60_000);
afterAll(() => {
  for (const f of [script, `${script}.map`]) fs.rmSync(f, { force: true });
});

/** Runs the compiled worker as `npm run worker` does; `output` is everything it wrote to stderr so far. */
function startWorker(databaseUrl: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [...WORKER_NODE_FLAGS, script], {
    env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const run = {
    child,
    output: "",
    exit: new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))),
  };
  child.stderr!.on("data", (d: Buffer) => (run.output += d));
  return run;
}

describe("npm run worker (the compiled worker on plain Node)", () => {
  it("loads the worker's modules and, on the embedded database, ends with its sentence and exit code 1", async () => {
    const run = startWorker("memory://");
    try {
      expect(await run.exit).toBe(1);
      expect(run.output).toContain(
        "npm run worker needs DATABASE_URL: on the embedded database the worker runs inside the server (npm start).",
      );
    } finally {
      if (run.child.exitCode === null) run.child.kill("SIGKILL");
    }
  });

  it("stops with one sentence and exit code 1 on a worker setting out of its range, before anything else", async () => {
    const run = startWorker("memory://", { WORKER_LEASE_MS: "100" });
    try {
      expect(await run.exit).toBe(1);
      expect(run.output).toContain('WORKER_LEASE_MS must be a whole number from 1000 to 3600000 (got "100").');
      expect(run.output).not.toMatch(/^\s+at /m);
    } finally {
      if (run.child.exitCode === null) run.child.kill("SIGKILL");
    }
  });

  it("loads, on plain Node, every chunk it loads only on first use (a job kind's handler, a CRM's client)", async () => {
    // The chunks the compiled worker names, statically or by import(), and those they name in turn.
    const chunks = new Set<string>();
    const read = (file: string) => {
      for (const [, name] of fs.readFileSync(file, "utf8").matchAll(/["'](\.\/chunk-[A-Z0-9]+\.mjs)["']/g)) {
        const chunk = path.resolve(path.dirname(file), name);
        if (!chunks.has(chunk)) chunks.add(chunk), read(chunk);
      }
    };
    read(script);
    expect(chunks.size).toBeGreaterThan(4);
    const code = `for (const f of ${JSON.stringify([...chunks])}) await import(f);`;
    const child = spawn(process.execPath, [...WORKER_NODE_FLAGS, "--input-type=module", "-e", code], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let output = "";
    child.stderr!.on("data", (d: Buffer) => (output += d));
    const exit = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
    expect({ exit, output }).toEqual({ exit: 0, output: "" });
  }, 60_000);

  it.runIf(onPostgres())(
    "on PostgreSQL, migrates an empty database, runs a queued import to its end, and stops cleanly on SIGTERM",
    async () => {
      // A database of its own: a worker claims every due job of its database, other test files' included.
      const name = `dm_worker_${randomBytes(5).toString("hex")}`;
      const url = new URL(inject("postgresUrl"));
      const admin = new pg.Client({ connectionString: url.toString() });
      await admin.connect();
      let worker: ReturnType<typeof startWorker> | null = null;
      let database: ReturnType<typeof openDatabase> | null = null;
      try {
        await admin.query(`CREATE DATABASE ${name}`);
        url.pathname = `/${name}`;
        database = openDatabase({ kind: "postgres", url: url.toString() });
        const started = startWorker(url.toString());
        worker = started;
        // Running, or stopped early: then its own words say why.
        await expect
          .poll(
            () =>
              started.child.exitCode !== null
                ? `exited with ${started.child.exitCode}: ${started.output}`
                : started.output,
            { timeout: 60_000, interval: 200 },
          )
          .toMatch(/Worker \d+ running/);
        const prisma = database.prisma;
        const o = await createOwnerWorkspace(prisma);
        const csv = [
          "First Name,Last Name,Email,Company",
          ...Array.from({ length: 300 }, (_, i) => `P${i},Person,p${i}@co${i % 30}.example,Company ${i % 30}`),
        ].join("\n");
        const { importId } = await importCsv(prisma, { workspaceId: o.workspaceId, csv, run: false });
        await expect
          .poll(async () => (await getImport(prisma, { workspaceId: o.workspaceId, importId })).status, {
            timeout: 30_000,
            interval: 250,
          })
          .toBe("succeeded");
        expect(await getImport(prisma, { workspaceId: o.workspaceId, importId })).toMatchObject({
          created: 300,
          refusedCount: 0,
        });
        expect(await prisma.account.count({ where: { workspaceId: o.workspaceId } })).toBe(30);
        worker.child.kill("SIGTERM");
        expect(await worker.exit).toBe(0);
        expect(worker.output).toMatch(/Worker \d+ stopped\./);
      } finally {
        if (worker && worker.child.exitCode === null) worker.child.kill("SIGKILL");
        await database?.close().catch(() => undefined);
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
        await admin.end().catch(() => undefined);
      }
    },
    120_000,
  );
});
