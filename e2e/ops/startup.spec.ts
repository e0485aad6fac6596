import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/** Starts the production server (as `npm start` does) with the given settings and collects what it prints until it exits. */
function startServer(env: Record<string, string>, port: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["scripts/serve.ts"], {
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: "", PORT: String(port), ...env },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test.describe("bad configuration stops the server with one sentence", () => {
  test("an unreachable DATABASE_URL", async () => {
    const { code, output } = await startServer({ DATABASE_URL: "postgresql://app:secret@127.0.0.1:1/mail" }, 3291);
    expect(code).toBe(1);
    expect(output).toContain(
      "The server cannot start: Cannot reach the PostgreSQL database at postgresql://app:***@127.0.0.1:1/mail: the connection was refused; check DATABASE_URL.",
    );
    expect(output).not.toContain("secret");
    expect(output).not.toMatch(/^\s+at /m);
  });

  test("a DATABASE_URL that is not PostgreSQL", async () => {
    const { code, output } = await startServer({ DATABASE_URL: "mysql://root@db/app" }, 3292);
    expect(code).toBe(1);
    expect(output).toContain(
      'DATABASE_URL must be a postgresql:// URL (got "mysql://root@db/app"); unset it to use the embedded database.',
    );
    expect(output).not.toMatch(/^\s+at /m);
  });

  test("a worker setting that is not a whole number in its range", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "dm-bad-batch-"));
    const { code, output } = await startServer({ DATA_DIR: parent, WORKER_BATCH_SIZE: "lots" }, 3294);
    expect(code).toBe(1);
    expect(output).toContain(
      'The server cannot start: WORKER_BATCH_SIZE must be a whole number from 1 to 1000 (got "lots").',
    );
    expect(output).not.toMatch(/^\s+at /m);
    // Stopped before it opened the database: nothing was written into the data folder.
    expect(fs.readdirSync(parent)).toEqual([]);
    fs.rmSync(parent, { recursive: true, force: true });
  });

  test("a data folder that cannot be written", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "dm-bad-data-"));
    fs.writeFileSync(path.join(parent, "file"), "");
    const { code, output } = await startServer({ DATA_DIR: path.join(parent, "file") }, 3293);
    expect(code).toBe(1);
    expect(output).toMatch(
      /The server cannot start: The data folder .*file is not writable \(ENOTDIR\); set DATA_DIR to a folder this user can write\./,
    );
    expect(output).not.toMatch(/^\s+at /m);
    fs.rmSync(parent, { recursive: true, force: true });
  });
});
