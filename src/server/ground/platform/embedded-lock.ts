import fs from "node:fs";
import path from "node:path";
import { ConfigError } from "./config";

/**
 * PGlite is single-process: two processes opening one data folder would corrupt it. A pid file
 * next to the data folder makes the second one stop with a sentence instead. A lock left by a
 * process that no longer runs is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const parent = path.dirname(dataDir);
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.accessSync(parent, fs.constants.W_OK);
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (error) {
    throw new ConfigError(
      `The data folder ${parent} is not writable (${(error as NodeJS.ErrnoException).code ?? "error"}); set DATA_DIR to a folder this user can write.`,
    );
  }
  const lockFile = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      const release = () => {
        try {
          if (fs.readFileSync(lockFile, "utf8") === String(process.pid)) fs.unlinkSync(lockFile);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(fs.readFileSync(lockFile, "utf8"));
      if (holder === process.pid) return () => {};
      if (holder > 0 && isRunning(holder)) {
        throw new ConfigError(
          `The embedded database in ${dataDir} is in use by process ${holder}; stop it first, or set DATABASE_URL to share a PostgreSQL between processes.`,
        );
      }
      fs.unlinkSync(lockFile); // stale: its process is gone
    }
  }
  throw new ConfigError(`Could not lock the embedded database in ${dataDir}.`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
