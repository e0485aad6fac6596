import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { onPostgres, testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";

let prisma: PrismaClient;
/** Statements pg was handed while another waited or ran on the same connection (what pg deprecates and pg 9 refuses). */
let queuedBehind = 0;
const query = pg.Client.prototype.query;

beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  pg.Client.prototype.query = function (this: { _queryQueue?: unknown[]; activeQuery?: unknown }, ...args: unknown[]) {
    if ((this._queryQueue?.length ?? 0) > 0 || this.activeQuery) queuedBehind++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
});
afterAll(() => {
  pg.Client.prototype.query = query;
});

// 4,000 contacts of 11 values each: 44,000 values, more than Prisma binds in one statement (32,766),
// so Prisma splits the insert into statements it starts at once, in a transaction of its own.
const contacts = (workspaceId: string, tag: string) =>
  Array.from({ length: 4_000 }, (_, i) => ({
    workspaceId,
    firstName: "Pat",
    lastName: `Split${i}`,
    email: `split-${tag}-${i}@example.com`,
    addressLine1: `${i} Main St`,
    city: "Boston",
    region: "MA",
    postalCode: "02116",
    country: "US",
    title: "Buyer",
    phone: "+1 617 555 0100",
  }));

describe.runIf(onPostgres())("a transaction's statements on PostgreSQL", () => {
  it("go to its connection one after another, also when Prisma splits a large insert, and every row is written", async () => {
    const { workspaceId } = await createOwnerWorkspace(prisma);
    queuedBehind = 0;
    expect((await prisma.contact.createMany({ data: contacts(workspaceId, "root") })).count).toBe(4_000);
    const inTransaction = await prisma.$transaction((tx) =>
      tx.contact.createMany({ data: contacts(workspaceId, "tx") }),
    );
    expect(inTransaction.count).toBe(4_000);
    expect(queuedBehind).toBe(0);
    expect(await prisma.contact.count({ where: { workspaceId } })).toBe(8_000);
  }, 60_000);

  it("still fails as a whole: a split insert whose last part is refused writes none of its parts", async () => {
    const { workspaceId } = await createOwnerWorkspace(prisma);
    const rows = contacts(workspaceId, "dup");
    // The last row repeats the first one's email (a unique key per workspace): the last statement of the split fails.
    rows[rows.length - 1].email = rows[0].email;
    await expect(prisma.contact.createMany({ data: rows })).rejects.toThrow(/Unique constraint failed/);
    expect(await prisma.contact.count({ where: { workspaceId } })).toBe(0);
  }, 60_000);
});
