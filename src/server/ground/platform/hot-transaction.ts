import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { Prisma, PrismaClient } from "@/generated/prisma/client";

/**
 * Raw statements of a hot transaction (the lifecycle's batch steps) run straight on the
 * transaction's own connection, skipping Prisma's query pipeline, which costs about half a
 * millisecond of CPU per statement more than the statement itself (docs/benchmarks.md). The
 * transaction is still Prisma's: Prisma begins, commits or rolls it back, and its model calls
 * inside it run on the same connection, in order, since every statement is awaited.
 *
 * How: `hotTransaction` opens a slot in the async context of its `$transaction` call;
 * `LendingPrismaPg` (the PostgreSQL adapter openDatabase uses) puts the connection of a
 * transaction begun in that context into its slot; `hotSql(tx, query)` runs on it when `tx` is
 * that transaction's client. Anywhere else (PGlite, a plain transaction, the root client) `hotSql`
 * is `tx.$queryRaw`, with the same results for what the hot statements select.
 */
/** What hotSql needs of a transaction's client (Prisma's, or the test's). */
type RawCapable = { $queryRaw<T = unknown>(query: Prisma.Sql): Prisma.PrismaPromise<T> };

interface Slot {
  tx?: object;
  client?: pg.PoolClient;
  /** The transaction plans each hot statement for its values (see hotSql). */
  planned?: boolean;
}

const slots = new AsyncLocalStorage<Slot>();

type RunQuery = (query: unknown) => Promise<unknown>;
type AdapterTransaction = { client?: pg.PoolClient; queryRaw: RunQuery; executeRaw: RunQuery };
type StartTransaction = (isolationLevel?: unknown) => Promise<AdapterTransaction>;

/**
 * PrismaPg whose transactions lend their connection to the hot transaction that began them, and
 * send their statements one after another.
 */
export class LendingPrismaPg extends PrismaPg {
  override async connect() {
    const adapter = await super.connect();
    // The adapter's transactions carry their pg client, which the driver-adapter types do not show.
    const start = (adapter.startTransaction as unknown as StartTransaction).bind(adapter);
    (adapter as unknown as { startTransaction: StartTransaction }).startTransaction = async (isolationLevel) => {
      const transaction = oneAtATime(await start(isolationLevel));
      const slot = slots.getStore();
      if (slot && !slot.client && transaction.client) slot.client = transaction.client;
      return transaction;
    };
    return adapter;
  }
}

/**
 * A transaction has one connection, and pg deprecates a query sent on a connection while another
 * runs (pg 9 refuses it). Prisma's query interpreter sends one: a createMany whose values pass its
 * bind limit (32,766) is split into statements it starts all at once in a transaction of its own
 * (a go-live's holdout arms, four values an account: two statements for 9,000 accounts, checked).
 * Here each statement of a transaction waits for the one before, in the order they were sent, as
 * pg's own queue ran them.
 */
function oneAtATime(transaction: AdapterTransaction): AdapterTransaction {
  let last: Promise<unknown> = Promise.resolve();
  for (const method of ["queryRaw", "executeRaw"] as const) {
    const run = transaction[method].bind(transaction);
    transaction[method] = (query) => {
      const result = last.then(() => run(query));
      last = result.catch(() => undefined);
      return result;
    };
  }
  return transaction;
}

/** prisma.$transaction whose raw statements run through `hotSql` go straight to its connection. */
export function hotTransaction<T>(
  prisma: PrismaClient,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
  options: { timeout: number; maxWait: number },
): Promise<T> {
  const slot: Slot = {};
  return slots.run(slot, async () => {
    try {
      return await prisma.$transaction((tx) => {
        slot.tx = tx;
        return work(tx);
      }, options);
    } finally {
      // The connection went back to the pool with the transaction's end.
      slot.tx = undefined;
      slot.client = undefined;
      slot.planned = false;
    }
  });
}

// timestamp without time zone (Prisma's DateTime) is stored in UTC: read it so, whatever the process's zone.
const UTC_TIMESTAMP = 1114;
const parseUtc = (text: string) => new Date(`${text.replace(" ", "T")}Z`);
const driverTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === UTC_TIMESTAMP && format !== "binary"
      ? parseUtc
      : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
};

// One entry per hot statement of the code (their texts never change, only their values).
const statementNames = new Map<string, string>();
/** A name per statement text: PostgreSQL parses and plans it once per connection. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `hot_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Runs a raw statement in the transaction `tx` and gives its rows. Values as Prisma takes them
 * (a Date is sent as its UTC instant). Select no bigint or numeric columns (cast them to int or
 * float8): the driver and Prisma read those differently.
 */
export async function hotSql<T = unknown>(tx: RawCapable, query: Prisma.Sql): Promise<T[]> {
  const slot = slots.getStore();
  if (!slot?.client || slot.tx !== tx) return tx.$queryRaw<T[]>(query);
  // A statement prepared once is parsed once, but PostgreSQL's generic plan for it, made from the
  // tables' sizes when it was first run, stays for the connection's life: a piece update planned
  // as a scan of a few hundred pieces went on scanning all of them at 50,000. Planned for its values
  // each time instead (a fraction of a millisecond), it follows the tables as they grow.
  if (!slot.planned) {
    slot.planned = true;
    await slot.client.query("SET LOCAL plan_cache_mode = force_custom_plan");
  }
  const values = query.values.map((v) => (v instanceof Date ? v.toISOString() : v));
  const result = await slot.client.query({
    name: statementName(query.text),
    text: query.text,
    values,
    types: driverTypes,
  });
  return result.rows as T[];
}
