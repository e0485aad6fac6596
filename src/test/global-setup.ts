import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/server/ground/platform/database";
import { applyMigrations } from "@/server/ground/platform/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (tarball) each test file starts from. */
    pgliteTemplate: string;
    /** A fresh PostgreSQL database for this run, when DATABASE_URL is set. */
    postgresUrl: string;
  }
}

/**
 * Each run gets a fresh database. On PGlite (the default) the migrations run once into a
 * template that every test file loads into its own in-memory database. With DATABASE_URL set,
 * a new database `dm_test_<random>` is created on that server, migrated, and dropped at the end.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `dm_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = openDatabase({ kind: "postgres", url: url.toString() });
    await applyMigrations(database.migrationAdapter());
    await database.close();
    project.provide("postgresUrl", url.toString());
    project.provide("pgliteTemplate", "");
    return async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    };
  }
  const pglite = new PGlite();
  await applyMigrations(new PrismaPGlite(pglite));
  const dump = await pglite.dumpDataDir("none");
  await pglite.close();
  const file = path.join(os.tmpdir(), `dm-pglite-template-${process.pid}.tar`);
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);
  project.provide("postgresUrl", "");
  return () => fs.rm(file, { force: true });
}
