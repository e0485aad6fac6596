import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "./database";
import { createOwnerWorkspace } from "./factories";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("the test database's transactions", () => {
  it("refuse a second query while one runs, and take queries one after another", async () => {
    const o = await createOwnerWorkspace(prisma);
    await expect(
      prisma.$transaction((tx) =>
        Promise.all([
          tx.workspace.count({ where: { id: o.workspaceId } }),
          tx.user.count({ where: { id: o.user.id } }),
        ]),
      ),
    ).rejects.toThrow(
      "user.count was sent while another query of the same transaction ran: a transaction has one connection, so its queries go one after another (no Promise.all on a transaction).",
    );
    await expect(
      prisma.$transaction((tx) => Promise.all([tx.$queryRaw`SELECT 1`, tx.workspace.count()])),
    ).rejects.toThrow("workspace.count was sent while another query");
    const counts = await prisma.$transaction(async (tx) => [
      await tx.workspace.count({ where: { id: o.workspaceId } }),
      await tx.user.count({ where: { id: o.user.id } }),
    ]);
    expect(counts).toEqual([1, 1]);
    // Outside a transaction each query has a connection of its own.
    expect(
      await Promise.all([
        prisma.workspace.count({ where: { id: o.workspaceId } }),
        prisma.user.count({ where: { id: o.user.id } }),
      ]),
    ).toEqual([1, 1]);
  });
});
