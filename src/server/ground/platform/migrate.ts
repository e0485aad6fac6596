import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";

/**
 * Migrations with Prisma's own schema engine compiled to WebAssembly: no native binary and no
 * network. It records applied migrations in `_prisma_migrations`, the same table that
 * `prisma migrate deploy` uses, so the ordinary CLI stays usable where it can be installed.
 */

const root = () => process.cwd();
export const migrationsDir = () => path.join(root(), "prisma", "migrations");
export const schemaDir = () => path.join(root(), "prisma", "schema");

type SchemaEngineModule = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");
type SchemaEngine = Awaited<ReturnType<SchemaEngineModule["SchemaEngine"]["new"]>>;

let enginePromise: Promise<SchemaEngineModule> | undefined;

function loadEngineModule(): Promise<SchemaEngineModule> {
  enginePromise ??= (async () => {
    const require = createRequire(path.join(root(), "package.json"));
    const entry = require.resolve("@prisma/schema-engine-wasm");
    const bg: SchemaEngineModule = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = await fs.readFile(path.join(path.dirname(entry), "schema_engine_bg.wasm"));
    const module = await WebAssembly.compile(new Uint8Array(bytes));
    // The wasm-bindgen glue module is the wasm's imports; a module's type has no index signature.
    const instance = await WebAssembly.instantiate(module, {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bg;
  })();
  return enginePromise;
}

async function readSchemaFiles(): Promise<{ path: string; content: string }[]> {
  const names = (await fs.readdir(schemaDir())).filter((n) => n.endsWith(".prisma")).sort();
  return Promise.all(
    names.map(async (name) => ({
      path: path.join(schemaDir(), name),
      content: await fs.readFile(path.join(schemaDir(), name), "utf8"),
    })),
  );
}

async function withEngine<T>(
  adapter: SqlMigrationAwareDriverAdapterFactory,
  run: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const files = await readSchemaFiles();
  const logs: string[] = [];
  const engine = await SchemaEngine.new(
    { datamodels: files.map((f) => [f.path, f.content] as [string, string]) },
    (line: string) => logs.push(line),
    bindMigrationAwareSqlAdapterFactory(adapter),
  );
  try {
    return await run(engine);
  } finally {
    engine.free();
  }
}

async function readMigrationList() {
  const dir = migrationsDir();
  await fs.mkdir(dir, { recursive: true });
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const folders = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lockPath = path.join(dir, "migration_lock.toml");
  const lockContent = await fs.readFile(lockPath, "utf8").catch(() => null);
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: lockContent },
    shadowDbInitScript: "",
    migrationDirectories: await Promise.all(
      folders.map(async (folder) => {
        const file = path.join(dir, folder, "migration.sql");
        const content = await fs.readFile(file, "utf8").then(
          (value) => ({ tag: "ok" as const, value }),
          (error: Error) => ({ tag: "error" as const, value: error.message }),
        );
        return { path: folder, migrationFile: { path: "migration.sql", content } };
      }),
    ),
  };
}

const noFilters = { externalTables: [], externalEnums: [] };

/** Applies every migration in prisma/migrations that the database has not applied yet. */
export async function applyMigrations(adapter: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const migrationsList = await readMigrationList();
  return withEngine(adapter, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return out.appliedMigrationNames;
  });
}

/**
 * applyMigrations on the PostgreSQL database at `url`, in a thread that ends once they are applied
 * (migrate-thread.ts): the schema engine's WebAssembly module and memory (20 to 25 MB that a
 * process otherwise keeps for good) go with the thread. For a long-running worker.
 */
export async function applyMigrationsInThread(url: string): Promise<string[]> {
  const { Worker } = await import("node:worker_threads");
  const { threadModule } = await import("./thread-module");
  const worker = new Worker(await threadModule("src/server/ground/platform/migrate-thread.ts", "migrate-thread"), {
    workerData: { url },
    stdout: false,
    stderr: false,
  });
  return new Promise<string[]>((resolve, reject) => {
    // Its answer is final (the engine has committed or failed): the thread is ended then rather
    // than left to wind down its pools, which kept it alive for seconds.
    worker.once("message", (m: { applied?: string[]; error?: string }) => {
      if (m.applied) resolve(m.applied);
      else reject(new Error(m.error ?? "the migrations' thread failed"));
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) =>
      reject(new Error(`the migrations' thread stopped (exit code ${code}) before it answered`)),
    );
  });
}

/**
 * The SQL that takes the database described by prisma/migrations to the schema in
 * prisma/schema (empty when they agree). Replays the migrations on a shadow database.
 */
export async function diffMigrationsToSchema(adapter: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  const migrationsList = await readMigrationList();
  const files = await readSchemaFiles();
  return withEngine(adapter, async (engine) => {
    const from =
      migrationsList.migrationDirectories.length === 0
        ? { tag: "empty" as const }
        : { tag: "migrations" as const, ...migrationsList };
    const result = await engine.diff({
      from,
      to: { tag: "schemaDatamodel", files },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    return result.stdout ?? "";
  });
}

/** Writes prisma/migrations/<timestamp>_<name>/migration.sql; returns its folder, or null when nothing changed. */
export async function writeNewMigration(name: string, sql: string): Promise<string | null> {
  if (!sql.trim() || /^-- This is an empty migration\.?\s*$/m.test(sql.trim())) return null;
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const safe =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_|_$/g, "") || "migration";
  const folder = path.join(migrationsDir(), `${stamp}_${safe}`);
  await fs.mkdir(folder, { recursive: true });
  await fs.writeFile(path.join(folder, "migration.sql"), sql);
  const lock = path.join(migrationsDir(), "migration_lock.toml");
  await fs
    .access(lock)
    .catch(() =>
      fs.writeFile(
        lock,
        '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
      ),
    );
  return folder;
}
