import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { callerFor, createOwnerWorkspace } from "@/test/factories";
import { MAX_SUPPRESSION_ROWS } from "./suppressions-service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/** suppression.importCsv with 20,000 rows (430 KB) answered 500, "too many query parameters". */
describe("a large suppression list", () => {
  it("imports 20,000 rows in batches, counts those already on the list, and states the row limit", async () => {
    const o = await createOwnerWorkspace(prisma);
    const owner = await callerFor(prisma, o.user);
    const rows = Array.from({ length: 20_000 }, (_, i) => `person.number${i}@unsubscribed-customers.example,opt-out`);
    const csv = `email,reason\n${rows.join("\n")}\n`;
    expect(csv.length).toBeGreaterThan(400_000);
    // Some are on the list already.
    await owner.suppression.add({
      workspaceId: o.workspaceId,
      entries: [{ email: "person.number7@unsubscribed-customers.example", reason: "customer" }],
    });
    const report = await owner.suppression.importCsv({ workspaceId: o.workspaceId, csv, defaultReason: "do-not-mail" });
    expect(report).toEqual({ rows: 20_000, added: 19_999, alreadySuppressed: 1, refused: [] });
    expect(await prisma.suppression.count({ where: { workspaceId: o.workspaceId } })).toBe(20_000);
    // The reason of the one already there is unchanged.
    expect(
      await prisma.suppression.findFirst({
        where: { workspaceId: o.workspaceId, value: "person.number7@unsubscribed-customers.example" },
        select: { reason: true },
      }),
    ).toEqual({ reason: expect.stringMatching(/customer/i) });
    // Again: all already there, nothing added.
    expect(
      await owner.suppression.importCsv({ workspaceId: o.workspaceId, csv, defaultReason: "do-not-mail" }),
    ).toEqual({ rows: 20_000, added: 0, alreadySuppressed: 20_000, refused: [] });
  }, 300_000);

  it("refuses a file over the stated row limit with that limit, writing nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const owner = await callerFor(prisma, o.user);
    const csv = `email\n${Array.from({ length: MAX_SUPPRESSION_ROWS + 1 }, (_, i) => `p${i}@x.example`).join("\n")}`;
    await expect(
      owner.suppression.importCsv({ workspaceId: o.workspaceId, csv, defaultReason: "opt-out" }),
    ).rejects.toMatchObject({ message: "At most 50,000 rows at once; split the file." });
    expect(await prisma.suppression.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  }, 120_000);
});
