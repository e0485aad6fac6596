import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaClient } from "@/generated/prisma/client";
import type { DatabaseTarget } from "./config";
import { lockDataDir } from "./embedded-lock";
import { insertLoader, poolLoader, registerLoader } from "./copy-in";
import { registerDriver } from "./hot-sql";
import { LendingPrismaPg } from "./hot-transaction";

export interface Database {
  prisma: PrismaClient;
  target: DatabaseTarget;
  /** A fresh adapter factory for Prisma's schema engine (migrations), on the same database. */
  migrationAdapter(): SqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
}

/**
 * Every interactive transaction's bounds, unless it sets its own: up to 30 s to start (Prisma's
 * default is 2 s) and 60 s to finish (default 5 s). Under load (an import writing, a sync running)
 * a request waits its turn and answers late rather than failing: the CRM scheduler's transactions
 * once failed to start and a consent decision answered 500 after 9.4 s of a 5 s timeout. A
 * transaction that still runs out is rolled back and answered 503 with Retry-After (database-errors.ts).
 */
export const TRANSACTION_OPTIONS = { maxWait: 30_000, timeout: 60_000 } as const;

/** Connections per process on PostgreSQL (DATABASE_POOL_SIZE, default 10). */
function poolSize(): number {
  const n = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  return Number.isInteger(n) && n > 0 ? n : 10;
}

type ScriptAdapter = {
  executeScript(script: string): Promise<void>;
  client: { query(text: string): Promise<unknown> };
  onError(error: unknown): never;
};

/**
 * @prisma/adapter-pg 7.10 runs a migration script by splitting it on every ";", which breaks a
 * function body (`$$ ... ; ... $$`, as the card_pending_key migration's trigger has). PostgreSQL
 * takes the whole script as one simple-protocol query (several statements, no parameters), as
 * `psql` and PGlite do: the migration adapter sends it so.
 */
class WholeScriptPrismaPg extends PrismaPg {
  override async connect() {
    const adapter = await super.connect();
    // Its pg client and error mapping are the adapter's own (private in its types).
    const raw = adapter as unknown as ScriptAdapter;
    raw.executeScript = async (script: string) => {
      try {
        await raw.client.query(script);
      } catch (error) {
        raw.onError(error);
      }
    };
    return adapter;
  }
}

/**
 * Opens the database named by the target. PGlite is opened once per process (it is an
 * in-process PostgreSQL); PostgreSQL gets a connection pool, shared by Prisma and `hotQuery`.
 */
export function openDatabase(target: DatabaseTarget): Database {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: poolSize(), connectionTimeoutMillis: 5_000 });
    // An idle connection that breaks (say PostgreSQL restarts) is replaced; it must not end the process.
    pool.on("error", (error) => console.error("[database] idle connection failed", error.message));
    const prisma = new PrismaClient({ adapter: new LendingPrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS });
    registerDriver(prisma, (text, values, name) => pool.query({ name, text, values }).then((result) => result.rows));
    registerLoader(prisma, poolLoader(pool));
    return {
      prisma,
      target,
      // The schema engine does not end its pool; let the process exit once it is idle.
      migrationAdapter: () =>
        new WholeScriptPrismaPg({
          connectionString: target.url,
          max: 2,
          connectionTimeoutMillis: 5_000,
          allowExitOnIdle: true,
          idleTimeoutMillis: 500,
        }),
      close: async () => {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  const release = target.kind === "embedded" ? lockDataDir(target.dataDir) : () => {};
  const pglite = import("@electric-sql/pglite").then(({ PGlite }) =>
    target.kind === "embedded" ? new PGlite(target.dataDir) : new PGlite(),
  );
  return pgliteDatabase(pglite, target, release);
}

/**
 * Prisma's adapter for PGlite, the adapter's package loaded when Prisma first connects: PGlite and
 * its adapter are loaded only by a process on the embedded database, never by a worker or a
 * server on PostgreSQL. Prisma asks a factory only for its provider and name before it connects.
 */
class PGliteOnFirstUse implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = "postgres";
  readonly adapterName = "pglite-prisma-adapter";

  constructor(private readonly pglite: Promise<PGlite>) {}

  private async factory(): Promise<SqlMigrationAwareDriverAdapterFactory> {
    const [{ PrismaPGlite }, pglite] = await Promise.all([import("pglite-prisma-adapter"), this.pglite]);
    return new PrismaPGlite(pglite);
  }

  async connect(): Promise<SqlDriverAdapter> {
    return (await this.factory()).connect();
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    return (await this.factory()).connectToShadowDb();
  }
}

/** A Database on a PGlite instance, open or opening (also used by tests on a copy of the migrated template). */
export function pgliteDatabase(
  instance: PGlite | Promise<PGlite>,
  target: DatabaseTarget,
  release: () => void = () => {},
): Database {
  const pglite = Promise.resolve(instance);
  // An instance that fails to open fails the first statement; here it must not be an unhandled rejection.
  pglite.catch(() => {});
  const prisma = new PrismaClient({ adapter: new PGliteOnFirstUse(pglite), transactionOptions: TRANSACTION_OPTIONS });
  registerDriver(prisma, (text, values) => pglite.then((p) => p.query(text, values)).then((result) => result.rows));
  registerLoader(
    prisma,
    insertLoader((text, values) => pglite.then((p) => p.query(text, values))),
  );
  return {
    prisma,
    target,
    migrationAdapter: () => new PGliteOnFirstUse(pglite),
    close: async () => {
      await prisma.$disconnect();
      await (await pglite).close();
      release();
    },
  };
}
