import path from "node:path";

/** A configuration problem, told to a person in one sentence (no stack trace). */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Environment variables as read here (plain strings; tests pass their own). */
export type Env = Record<string, string | undefined>;

export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "embedded"; dataDir: string }
  | { kind: "memory" };

/**
 * Where the data lives: a real PostgreSQL when DATABASE_URL is set, otherwise the embedded
 * PGlite in DATA_DIR (default `.data`). `memory` is for tests only.
 */
export function databaseTarget(env: Env = process.env): DatabaseTarget {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    if (url === "memory://") return { kind: "memory" };
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new ConfigError(
        `DATABASE_URL must be a postgresql:// URL (got "${redactUrl(url)}"); unset it to use the embedded database.`,
      );
    }
    try {
      new URL(url);
    } catch {
      throw new ConfigError(`DATABASE_URL is not a valid URL ("${redactUrl(url)}").`);
    }
    return { kind: "postgres", url };
  }
  return { kind: "embedded", dataDir: path.resolve(/*turbopackIgnore: true*/ dataFolder(env), "pglite") };
}

/** Whether the data lives in a PostgreSQL server (COPY, connections of their own), not the embedded PGlite. */
export const onPostgresServer = (env: Env = process.env): boolean => databaseTarget(env).kind === "postgres";

/** The folder for the embedded database and other local state. */
export function dataFolder(env: Env = process.env): string {
  return path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR?.trim() || ".data");
}

/** A URL with its password replaced, safe to print. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url.replace(/:\/\/([^:@/]+):[^@/]*@/, "://$1:***@");
  }
}

export function describeTarget(target: DatabaseTarget): string {
  switch (target.kind) {
    case "postgres":
      return `PostgreSQL at ${redactUrl(target.url)}`;
    case "embedded":
      return `embedded PGlite in ${target.dataDir}`;
    case "memory":
      return "in-memory PGlite";
  }
}
