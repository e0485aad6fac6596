import type { PrismaClient } from "@/generated/prisma/client";

/**
 * Makes every interactive transaction of `prisma` refuse a second query while one of its queries
 * runs. A transaction has one connection: reads started together (`Promise.all` on a transaction
 * client) would reach pg as a query sent while another runs, which pg deprecates ("Calling
 * client.query() when the client is already executing a query") and pg 9 refuses. The PostgreSQL
 * adapter now queues a transaction's statements (platform/hot-transaction.ts), but a hot
 * transaction's raw statements go past that queue, and reads started together there gain nothing:
 * the tests of both databases fail on them here, naming where the second query started.
 */
export function oneQueryAtATime(prisma: PrismaClient) {
  // $transaction's overloads (a callback, or a list of queries) replaced by one function taking either.
  const client = prisma as unknown as { $transaction: (...args: unknown[]) => unknown };
  const begin = client.$transaction.bind(client);
  client.$transaction = (work: unknown, ...options: unknown[]) => {
    if (typeof work !== "function") return begin(work, ...options);
    return begin((tx: object) => (work as (tx: object) => unknown)(guarded(tx)), ...options);
  };
}

function guarded(tx: object) {
  let running = 0;
  const counted =
    (call: (...args: unknown[]) => unknown, self: object, name: string) =>
    (...args: unknown[]) => {
      // Refused as a rejected promise, not thrown: Promise.all then still holds the query that runs, whose own failure (the transaction rolled back) is handled with it.
      if (running > 0)
        return Promise.reject(
          new Error(
            `${name} was sent while another query of the same transaction ran: a transaction has one connection, so its queries go one after another (no Promise.all on a transaction).`,
          ),
        );
      running++;
      return Promise.resolve(call.apply(self, args)).finally(() => running--);
    };
  return new Proxy(tx, {
    get(target, key) {
      const value = (target as Record<PropertyKey, unknown>)[key];
      if (typeof key !== "string") return value;
      if (typeof value === "function" && /^\$(query|execute)Raw/.test(key)) return counted(value as never, target, key);
      if (key.startsWith("$") || !value || typeof value !== "object") return value;
      return new Proxy(value, {
        get(model, op) {
          const call = (model as Record<PropertyKey, unknown>)[op];
          return typeof call === "function" ? counted(call as never, model, `${key}.${String(op)}`) : call;
        },
      });
    },
  });
}
