import type { Prisma } from "@/generated/prisma/client";

/**
 * Runs one statement on the driver itself (a `pg` pool or PGlite) and gives its rows. With a
 * name, PostgreSQL prepares it once per connection and reuses the plan.
 */
export type DriverQuery = (text: string, values: unknown[], name?: string) => Promise<unknown[]>;

type RawCapable = { $queryRaw<T = unknown>(query: Prisma.Sql): Prisma.PrismaPromise<T> };

// One registry per process, not per module copy: the Next server bundles this module into more
// than one chunk, and the database is opened by whichever loads first (see process-database.ts).
const registry = Symbol.for("direct-mail.hot-sql-drivers");
const drivers: WeakMap<object, DriverQuery> = ((globalThis as { [registry]?: WeakMap<object, DriverQuery> })[
  registry
] ??= new WeakMap());

/** Lets `hotQuery` run statements of this client straight on its driver (see openDatabase). */
export function registerDriver(client: object, query: DriverQuery): void {
  drivers.set(client, query);
}

/**
 * Runs a raw statement on the per-request hot paths (REST key check and rate limit, entry-event
 * acceptance). On a client opened by openDatabase it goes straight to the driver, sharing Prisma's
 * connection pool but skipping Prisma's query pipeline, which costs several times the CPU of the
 * statement itself (see docs/benchmarks.md); inside a transaction it goes through Prisma as usual.
 *
 * `preparedName` names a statement whose text never changes (only its values): PostgreSQL then
 * parses and plans it once per connection instead of on every call.
 *
 * The two paths convert values alike only for what these statements use, so: pass timestamps as
 * ISO 8601 strings cast in SQL (`${iso}::timestamp`; a Date parameter is refused, pg would send
 * it in the server's local time), and select no timestamp or bigint columns (compare them in SQL).
 */
export function hotQuery<T>(db: RawCapable, query: Prisma.Sql, preparedName?: string): Promise<T[]> {
  if (query.values.some((value) => value instanceof Date)) {
    return Promise.reject(new TypeError("hotQuery takes timestamps as ISO 8601 strings, not Date objects."));
  }
  const driver = drivers.get(db);
  return driver ? (driver(query.text, query.values, preparedName) as Promise<T[]>) : db.$queryRaw<T[]>(query);
}
