import { describe, expect, it } from "vitest";
import { openDatabase } from "@/server/ground/platform/database";
import { testDatabase } from "@/test/database";
import { checkHealth } from "./service";

describe("checkHealth", () => {
  it("reports ok with the version and the time when the database answers", async () => {
    const { prisma } = await testDatabase();
    // Whether the database answers, not how fast: a busy test machine may take longer than the 2 s a live check allows.
    const report = await checkHealth(prisma, "1.2.3", 120_000);
    expect(report).toEqual({ status: "ok", database: "ok", version: "1.2.3", time: expect.any(String) });
    expect(Date.parse(report.time)).not.toBeNaN();
  });

  it("reports unavailable with a reason when the database does not answer", async () => {
    // A real PostgreSQL client pointed at a port where nothing listens.
    const unreachable = openDatabase({ kind: "postgres", url: "postgresql://postgres@127.0.0.1:1/nothing" });
    expect(await checkHealth(unreachable.prisma, "1.2.3", 120_000)).toMatchObject({
      status: "unavailable",
      database: "unreachable",
      reason: "the database did not answer",
    });
    await unreachable.close();
  });

  it("reports unavailable, naming the wait, when the database never answers", async () => {
    // A client with only the one call checkHealth makes.
    const silent = { $queryRaw: () => new Promise(() => undefined) } as unknown as Parameters<typeof checkHealth>[0];
    expect(await checkHealth(silent, "1.2.3", 20)).toMatchObject({
      status: "unavailable",
      database: "unreachable",
      reason: "no answer within 20 ms",
    });
  });
});
