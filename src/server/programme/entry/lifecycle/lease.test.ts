import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { adapterFor } from "@/server/programme/fulfilment/registry";
import { testDatabase } from "@/test/database";
import { eventRow, liveCampaign, postEvent } from "@/test/lifecycle-fixtures";
import { claimDueEvents } from "./claims";
import { startLifecycleWorker } from "./worker";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a batch's lease", () => {
  it("is renewed while a slow vendor holds the batch: no other worker takes its events over, and each is printed once", async () => {
    const f = await liveCampaign(prisma, { accounts: 3, perAccount: 2 });
    const events = await Promise.all(f.contacts.map((c) => postEvent(prisma, f, c.id)));
    // Renewed every 500 ms: the test fails only if no renewal lands for a whole lease (1.5 s).
    const LEASE = 1500;
    let asked = 0;
    let answer: () => void = () => {};
    const vendorAnswers = new Promise<void>((resolve) => (answer = resolve));
    let vendorCalled: () => void = () => {};
    const atVendor = new Promise<void>((resolve) => (vendorCalled = resolve));
    const worker = startLifecycleWorker(prisma, {
      workspaceId: f.workspaceId,
      leaseMs: LEASE,
      pollMs: 20,
      deps: {
        log: () => {},
        // The printer takes the batch's pieces and answers only when the test says so: long after one lease.
        adapterFor: (vendor, db) => {
          const real = adapterFor(vendor, db);
          return {
            vendor,
            submit: (job) => real.submit(job),
            submitStored: async (pieceIds) => {
              asked += pieceIds.length;
              vendorCalled();
              await vendorAnswers;
              return real.submitStored!(pieceIds);
            },
          };
        },
      },
    });
    try {
      await atVendor;
      // Three leases later, the events are still this worker's: another worker's claim finds none of them.
      await sleep(3 * LEASE);
      expect(await claimDueEvents(prisma, { limit: 50, now: new Date(), workspaceId: f.workspaceId })).toEqual([]);
      const held = await prisma.entryEvent.findMany({ where: { id: { in: events.map((e) => e.eventId) } } });
      for (const e of held) expect(e.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
      answer();
      for (
        let i = 0;
        i < 200 &&
        (await prisma.entryEvent.count({ where: { workspaceId: f.workspaceId, status: { not: "completed" } } })) > 0;
        i++
      )
        await sleep(50);
    } finally {
      answer();
      await worker.stop();
    }
    const rows = await Promise.all(events.map((e) => eventRow(prisma, e.eventId)));
    expect(rows.map((r) => [r.status, r.lockToken, r.lockedUntil])).toEqual(
      events.map(() => ["completed", null, null]),
    );
    // Each piece went to the printer once and was printed once.
    expect(asked).toBe(6);
    expect(await prisma.sandboxPrintJob.count({ where: { workspaceId: f.workspaceId } })).toBe(6);
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).toMatchObject({
      spentCents: 6 * 120,
      reservedCents: 0,
    });
  }, 60_000);
});
