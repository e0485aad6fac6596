import type { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { callerFor, createOwnerWorkspace } from "@/test/factories";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/** Eight audience.create with one name at once answered 1 × 200 and 7 × 500 (the unique constraint). */
describe("creating one audience name several times at once", () => {
  it("gives one success and, to each of the others, the 409 a sequential duplicate gets; one audience exists", async () => {
    const o = await createOwnerWorkspace(prisma);
    const owner = await callerFor(prisma, o.user);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => owner.audience.create({ workspaceId: o.workspaceId, name: "Launch list" })),
    );
    const created = results.filter((r) => r.status === "fulfilled");
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as TRPCError] : []));
    expect(created).toHaveLength(1);
    const id = (created[0] as PromiseFulfilledResult<{ id: string }>).value.id;
    const sequential = `There is already an audience named “Launch list” (${id}); choose another name or add contacts to that one.`;
    expect(refused.map((e) => [e.code, e.message])).toEqual(Array.from({ length: 7 }, () => ["CONFLICT", sequential]));
    await expect(owner.audience.create({ workspaceId: o.workspaceId, name: "Launch list" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: sequential,
    });
    expect(await prisma.audience.count({ where: { workspaceId: o.workspaceId } })).toBe(1);
    expect(
      await prisma.auditLogEntry.count({ where: { workspaceId: o.workspaceId, action: "audience.created" } }),
    ).toBe(1);
  }, 120_000);

  it("the same suppression added by eight requests at once is added once, and seven say it was already there", async () => {
    const o = await createOwnerWorkspace(prisma);
    const owner = await callerFor(prisma, o.user);
    const email = "twice@example.test";
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        owner.suppression.add({ workspaceId: o.workspaceId, entries: [{ email, reason: "opt-out" }] }),
      ),
    );
    expect(results.reduce((sum, r) => sum + r.added, 0)).toBe(1);
    expect(results.reduce((sum, r) => sum + r.alreadySuppressed, 0)).toBe(7);
    expect(await prisma.suppression.count({ where: { workspaceId: o.workspaceId } })).toBe(1);
    expect(
      await prisma.auditLogEntry.count({ where: { workspaceId: o.workspaceId, action: "suppression.added" } }),
    ).toBe(1);
  }, 120_000);

  it("a name with a backslash, % or _ is compared as written (the fuzz suite's \\ ), in any case", async () => {
    const o = await createOwnerWorkspace(prisma);
    const owner = await callerFor(prisma, o.user);
    for (const name of ["\\ ", "50% off_list", "Back\\slash"]) {
      const results = await Promise.allSettled(
        [0, 1].map(() => owner.audience.create({ workspaceId: o.workspaceId, name })),
      );
      const id = results.flatMap((r) => (r.status === "fulfilled" ? [(r.value as { id: string }).id] : []))[0];
      expect(id, name).toBeDefined();
      const stored = (await prisma.audience.findUniqueOrThrow({ where: { id } })).name;
      for (const again of [name, name.toUpperCase()]) {
        await expect(owner.audience.create({ workspaceId: o.workspaceId, name: again })).rejects.toMatchObject({
          code: "CONFLICT",
          message: `There is already an audience named “${again.trim() === again ? again : stored}” (${id}); choose another name or add contacts to that one.`,
        });
      }
    }
    // Names that only look alike to a LIKE pattern are different names.
    await owner.audience.create({ workspaceId: o.workspaceId, name: "50x off-list" });
    expect(await prisma.audience.count({ where: { workspaceId: o.workspaceId } })).toBe(4);
  }, 120_000);
});
