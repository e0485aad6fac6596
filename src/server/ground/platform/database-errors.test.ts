import { beforeAll, describe, expect, it } from "vitest";
import { Prisma, type PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import {
  appErrorFromDatabase,
  BUSY_MESSAGE,
  DUPLICATE_MESSAGE,
  isUniqueViolation,
  retryTransient,
  sqlState,
  VANISHED_REFERENCE_MESSAGE,
} from "./database-errors";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (error: unknown) => error,
  );

describe("database failures a request caused", () => {
  it("a value PostgreSQL refuses (NUL, a year-0 time-stamp) is the client's 400, not a 500", async () => {
    const nul = await failure(prisma.campaign.findFirst({ where: { id: "cmp_\u0000" } }));
    expect(sqlState(nul)).toBe("22021");
    expect(appErrorFromDatabase(nul)).toMatchObject({ code: "malformed_request", status: 400 });
    const year0 = await failure(prisma.campaign.findFirst({ where: { createdAt: new Date("0000-06-01T00:00:00Z") } }));
    expect(appErrorFromDatabase(year0)).toMatchObject({ code: "malformed_request" });
    const raw = await failure(prisma.$queryRaw`SELECT ${"a\u0000"}::text`);
    expect(appErrorFromDatabase(raw)).toMatchObject({ code: "malformed_request" });
  });

  it("a write conflict or deadlock is a 409 to retry; anything else stays internal", () => {
    const conflict = new Prisma.PrismaClientKnownRequestError(
      "Transaction failed due to a write conflict or a deadlock.",
      { code: "P2034", clientVersion: "7" },
    );
    expect(appErrorFromDatabase(conflict)).toMatchObject({
      code: "conflict",
      status: 409,
      message: expect.stringContaining("Try again"),
    });
    expect(appErrorFromDatabase(Object.assign(new Error("deadlock detected"), { code: "40P01" }))).toMatchObject({
      code: "conflict",
    });
    expect(appErrorFromDatabase(new Error("boom"))).toBeNull();
    expect(
      appErrorFromDatabase(
        new Prisma.PrismaClientKnownRequestError("Unique constraint", { code: "P2002", clientVersion: "7" }),
      ),
    ).toMatchObject({ code: "conflict", status: 409, message: DUPLICATE_MESSAGE });
  });

  it("a record deleted while a write referred to it (a foreign key) is a 404 with a sentence, through Prisma and raw SQL", async () => {
    const viaSql = await failure(
      prisma.$executeRaw`INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId") VALUES ('aud_gone', 'ctc_gone', 'ws_gone')`,
    );
    expect(sqlState(viaSql)).toBe("23503");
    expect(appErrorFromDatabase(viaSql)).toMatchObject({
      code: "not_found",
      status: 404,
      message: VANISHED_REFERENCE_MESSAGE,
    });
    expect(
      appErrorFromDatabase(
        new Prisma.PrismaClientKnownRequestError("Foreign key constraint violated", {
          code: "P2003",
          clientVersion: "7",
        }),
      ),
    ).toMatchObject({ code: "not_found" });
  });

  it("a transaction chosen as a deadlock's victim runs again; other failures and the last try reach the caller", async () => {
    const deadlock = () => Object.assign(new Error("deadlock detected"), { code: "40P01" });
    let runs = 0;
    expect(await retryTransient(async () => (++runs < 3 ? Promise.reject(deadlock()) : "done"))).toBe("done");
    expect(runs).toBe(3);
    runs = 0;
    await expect(retryTransient(async () => (++runs, Promise.reject(deadlock())))).rejects.toMatchObject({
      code: "40P01",
    });
    expect(runs).toBe(3);
    runs = 0;
    await expect(retryTransient(async () => (++runs, Promise.reject(new Error("boom"))))).rejects.toThrow("boom");
    expect(runs).toBe(1);
  });

  it("a unique constraint a request ran into (two creates of one name at once) is a 409, through Prisma and raw SQL", async () => {
    const workspace = await prisma.workspace.create({
      data: { name: "Unique", slug: `unique-${Date.now()}-${Math.random().toString(36).slice(2)}` },
    });
    await prisma.audience.create({ data: { workspaceId: workspace.id, name: "Twice" } });
    const viaPrisma = await failure(prisma.audience.create({ data: { workspaceId: workspace.id, name: "Twice" } }));
    const viaSql = await failure(
      prisma.$executeRaw`INSERT INTO "Audience" (id, "workspaceId", name, "updatedAt") VALUES (${`aud_${Date.now()}`}, ${workspace.id}, 'Twice', now())`,
    );
    for (const error of [viaPrisma, viaSql]) {
      expect(isUniqueViolation(error)).toBe(true);
      expect(appErrorFromDatabase(error)).toMatchObject({ code: "conflict", status: 409, message: DUPLICATE_MESSAGE });
    }
  });

  it("a transaction the service was too busy to start or finish in time is a 503 to retry, with Retry-After, never a 500", () => {
    const late = new Prisma.PrismaClientKnownRequestError(
      "Transaction API error: Transaction already closed: A commit cannot be executed on an expired transaction. The timeout for this transaction was 5000 ms, however 9400 ms passed since the start of the transaction.",
      { code: "P2028", clientVersion: "7" },
    );
    const error = appErrorFromDatabase(late);
    expect(error).toMatchObject({
      code: "unavailable",
      status: 503,
      message: BUSY_MESSAGE,
      headers: { "Retry-After": "5" },
    });
    expect(
      appErrorFromDatabase(Object.assign(new Error("canceling statement due to lock timeout"), { code: "55P03" })),
    ).toMatchObject({ code: "unavailable" });
  });
});

describe("transactions under load", () => {
  it("one that waits longer than Prisma's default 5 s for a lock another holds still commits: slower, not failed", async () => {
    const ws = await prisma.workspace.create({
      data: { name: "Busy", slug: `busy-${Date.now()}-${Math.random().toString(16).slice(2, 8)}` },
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const first = prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${ws.id} FOR UPDATE`;
      locked();
      await held;
      await tx.workspace.update({ where: { id: ws.id }, data: { name: "Busy (first)" } });
    });
    await lockTaken;
    const second = prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${ws.id} FOR UPDATE`;
      await tx.workspace.update({ where: { id: ws.id }, data: { name: "Busy (second)" } });
    });
    // The first keeps its lock past the 2 s a transaction may wait to start and the 5 s it may run by Prisma's defaults.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    release();
    await first;
    await second;
    expect((await prisma.workspace.findUniqueOrThrow({ where: { id: ws.id } })).name).toBe("Busy (second)");
  });
});
