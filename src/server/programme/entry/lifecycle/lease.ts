import { Prisma, type PrismaClient } from "@/generated/prisma/client";

/**
 * Keeps a claimed batch's lease while its worker moves it. A claim lasts `leaseMs` (60 s), but a
 * batch may take longer: a print vendor without a bulk call (Lob) takes a batch's pieces one at a
 * time, four at once, at up to a second each. Without renewal another worker would take the
 * batch's events over when the lease ran out, and both would work on them (safely, for every write
 * checks the token, but one worker's work thrown away and the pieces' vendor asked twice).
 *
 * Every third of the lease, the lease of the batch's events that still hold its token is moved on
 * by `leaseMs`. Events already released (done, waiting, backing off) hold no token and are left
 * alone; an event another worker took over holds another token. Rows the batch's own transaction
 * has locked are skipped (SKIP LOCKED), so the renewal never waits for the batch and can never
 * deadlock with it: they are renewed at the next tick. A worker that crashes renews nothing, and
 * its events' lease runs out as before.
 */
export function keepLease(
  prisma: PrismaClient,
  p: { ids: string[]; token: string; leaseMs: number; clock: () => Date; log: (line: string, error?: unknown) => void },
): { stop(): Promise<void> } {
  let renewing: Promise<void> = Promise.resolve();
  const renew = async () => {
    const until = new Date(p.clock().getTime() + p.leaseMs);
    await prisma.$executeRaw(Prisma.sql`
      UPDATE "EntryEvent" SET "lockedUntil" = ${until}
       WHERE id IN (SELECT id FROM "EntryEvent" WHERE id = ANY(${p.ids}::text[]) AND "lockToken" = ${p.token} FOR UPDATE SKIP LOCKED)`);
  };
  const timer = setInterval(() => {
    renewing = renewing.then(renew).catch((error: unknown) => p.log("could not renew a batch's lease", error));
  }, renewEvery(p.leaseMs));
  return {
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}

/** How often a lease is renewed: a third of it, so two renewals may fail before it runs out. */
const renewEvery = (leaseMs: number) => Math.max(10, Math.floor(leaseMs / 3));
