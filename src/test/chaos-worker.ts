/**
 * A lifecycle worker for the crash test: the real worker with short random pauses before each
 * step and inside the vendor call, so that a SIGKILL lands at varied points (mid-transaction,
 * between the vendor and the bookkeeping, ...). Prints "ready" once its loop runs.
 */
import { startLifecycleWorker } from "@/server/programme/entry/lifecycle/worker";
import { adapterFor } from "@/server/programme/fulfilment/registry";
import { openDatabase } from "@/server/ground/platform/database";

const pause = () => new Promise<void>((r) => setTimeout(r, Math.random() * 40));
const database = openDatabase({ kind: "postgres", url: process.env.DATABASE_URL! });
startLifecycleWorker(database.prisma, {
  batchSize: 5,
  pollMs: 20,
  leaseMs: Number(process.env.WORKER_LEASE_MS ?? 1500),
  workspaceId: process.env.CHAOS_WORKSPACE_ID,
  deps: {
    log: () => {},
    beforeStep: pause,
    adapterFor: (vendor, db) => {
      const real = adapterFor(vendor, db);
      return {
        vendor,
        submit: async (job) => {
          await pause();
          const result = await real.submit(job);
          await pause();
          return result;
        },
        submitStored: async (pieceIds) => {
          await pause();
          const result = await real.submitStored!(pieceIds);
          await pause();
          return result;
        },
      };
    },
  },
});
process.stdout.write("ready\n");
