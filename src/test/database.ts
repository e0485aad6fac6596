import fs from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, inject } from "vitest";
import { type Database, openDatabase, pgliteDatabase } from "@/server/ground/platform/database";
import { useDatabase } from "@/server/ground/platform/process-database";
import { oneQueryAtATime } from "./one-query-at-a-time";

/**
 * The database of one test file: a fresh in-memory PGlite loaded from the migrated template, or
 * the run's PostgreSQL database. It is also installed as the process database, so code that calls
 * getDb() uses it. Tests isolate themselves by creating their own workspaces (see factories). Its
 * transactions refuse a second query while one runs (one-query-at-a-time.ts).
 */
export async function testDatabase(): Promise<Database> {
  const postgresUrl = inject("postgresUrl");
  let database: Database;
  if (postgresUrl) {
    database = openDatabase({ kind: "postgres", url: postgresUrl });
  } else {
    const tar = await fs.readFile(inject("pgliteTemplate"));
    database = pgliteDatabase(new PGlite({ loadDataDir: new Blob([new Uint8Array(tar)]) }), { kind: "memory" });
  }
  oneQueryAtATime(database.prisma);
  useDatabase(database);
  afterAll(() => database.close());
  return database;
}

export const onPostgres = () => Boolean(inject("postgresUrl"));
