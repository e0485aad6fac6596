import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "./config";
import { lockDataDir } from "./embedded-lock";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dm-lock-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("lockDataDir", () => {
  it("creates the data folder and a pid lock, and removes the lock on release", () => {
    const dataDir = path.join(tempDir(), "pglite");
    const release = lockDataDir(dataDir);
    expect(fs.existsSync(dataDir)).toBe(true);
    expect(fs.readFileSync(`${dataDir}.lock`, "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(`${dataDir}.lock`)).toBe(false);
  });

  it("stops a second process with a sentence while the first one runs", async () => {
    const dataDir = path.join(tempDir(), "pglite");
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)"]);
    try {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(`${dataDir}.lock`, String(other.pid));
      expect(() => lockDataDir(dataDir)).toThrowError(
        new ConfigError(
          `The embedded database in ${dataDir} is in use by process ${other.pid}; stop it first, or set DATABASE_URL to share a PostgreSQL between processes.`,
        ),
      );
    } finally {
      other.kill();
    }
  });

  it("takes over a lock left by a process that has ended", () => {
    const dataDir = path.join(tempDir(), "pglite");
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(`${dataDir}.lock`, "999999999");
    const release = lockDataDir(dataDir);
    expect(fs.readFileSync(`${dataDir}.lock`, "utf8")).toBe(String(process.pid));
    release();
  });

  it.skipIf(process.getuid?.() === 0)("says so when the data folder is not writable", () => {
    const parent = tempDir();
    fs.chmodSync(parent, 0o500);
    expect(() => lockDataDir(path.join(parent, "pglite"))).toThrowError(/is not writable/);
  });

  it("says so when the data folder cannot be created (a file is in the way)", () => {
    const parent = tempDir();
    fs.writeFileSync(path.join(parent, "blocker"), "");
    expect(() => lockDataDir(path.join(parent, "blocker", "pglite"))).toThrowError(
      /^The data folder .*blocker is not writable \(ENOTDIR\); set DATA_DIR to a folder this user can write\.$/,
    );
  });
});
