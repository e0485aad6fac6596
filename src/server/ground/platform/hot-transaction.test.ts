import { beforeAll, describe, expect, it } from "vitest";
import { Prisma, type PrismaClient } from "@/generated/prisma/client";
import { onPostgres, testDatabase } from "@/test/database";
import { TRANSACTION_OPTIONS } from "./database";
import { hotSql, hotTransaction } from "./hot-transaction";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  await prisma.$executeRawUnsafe(
    `CREATE TABLE IF NOT EXISTS hot_tx_probe (id text PRIMARY KEY, at timestamp(3) NOT NULL)`,
  );
});

const probe = (id: string) => prisma.$queryRaw<{ id: string }[]>`SELECT id FROM hot_tx_probe WHERE id = ${id}`;

describe("hot transactions (raw statements on the transaction's own connection)", () => {
  it("runs its raw statements inside Prisma's transaction: they see its writes, commit with it and roll back with it", async () => {
    const seen = await hotTransaction(
      prisma,
      async (tx) => {
        await tx.$executeRaw`INSERT INTO hot_tx_probe (id, at) VALUES ('committed', timezone('UTC', now()))`;
        const [fromHot] = await hotSql<{ id: string; backend: number }>(
          tx,
          Prisma.sql`SELECT id, pg_backend_pid() AS backend FROM hot_tx_probe WHERE id = ${"committed"}`,
        );
        const [fromPrisma] = await tx.$queryRaw<{ backend: number }[]>`SELECT pg_backend_pid() AS backend`;
        return { fromHot, fromPrisma };
      },
      TRANSACTION_OPTIONS,
    );
    expect(seen.fromHot.id).toBe("committed");
    expect(seen.fromHot.backend).toBe(seen.fromPrisma.backend);
    expect(await probe("committed")).toHaveLength(1);

    await expect(
      hotTransaction(
        prisma,
        async (tx) => {
          await hotSql(
            tx,
            Prisma.sql`INSERT INTO hot_tx_probe (id, at) VALUES (${"rolled-back"}, timezone('UTC', now()))`,
          );
          throw new Error("the work failed");
        },
        TRANSACTION_OPTIONS,
      ),
    ).rejects.toThrow("the work failed");
    expect(await probe("rolled-back")).toHaveLength(0);
  });

  it("reads and writes Prisma's DateTime columns in UTC, whatever the process's time zone", async () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      const at = new Date("2026-07-04T12:34:56.789Z");
      const read = await hotTransaction(
        prisma,
        async (tx) => {
          await hotSql(tx, Prisma.sql`INSERT INTO hot_tx_probe (id, at) VALUES (${"zoned"}, ${at})`);
          return hotSql<{ at: Date; text: string }>(
            tx,
            Prisma.sql`SELECT at, to_char(at, 'YYYY-MM-DD HH24:MI:SS.MS') AS text FROM hot_tx_probe WHERE id = ${"zoned"}`,
          );
        },
        TRANSACTION_OPTIONS,
      );
      expect(read[0].at.toISOString()).toBe("2026-07-04T12:34:56.789Z");
      expect(read[0].text).toBe("2026-07-04 12:34:56.789");
      const [viaPrisma] = await prisma.$queryRaw<{ at: Date }[]>`SELECT at FROM hot_tx_probe WHERE id = 'zoned'`;
      expect(viaPrisma.at.toISOString()).toBe("2026-07-04T12:34:56.789Z");
    } finally {
      process.env.TZ = zone;
    }
  });

  it("goes through Prisma outside a hot transaction (another transaction, the embedded database)", async () => {
    // Prisma reads a bigint as a BigInt; the driver, straight, as a string.
    const inPlain = await prisma.$transaction((tx) => hotSql<{ n: unknown }>(tx, Prisma.sql`SELECT 1::int8 AS n`));
    expect(typeof inPlain[0].n).toBe("bigint");
    const inHot = await hotTransaction(
      prisma,
      (tx) => hotSql<{ n: unknown }>(tx, Prisma.sql`SELECT 1::int8 AS n`),
      TRANSACTION_OPTIONS,
    );
    expect(typeof inHot[0].n).toBe(onPostgres() ? "string" : "bigint");
  });
});
