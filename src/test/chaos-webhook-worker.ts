/**
 * A worker process for the webhooks crash test: the real lifecycle (which writes the webhook events
 * in its transactions) and the real delivery loop, with short random pauses around each send, so a
 * SIGKILL lands between a change and its delivery, mid-request, or between the receiver's answer and
 * its record. Scoped to one workspace. Prints "ready" once both loops run.
 */
import { startLifecycleWorker } from "@/server/programme/entry/lifecycle/worker";
import { openDatabase } from "@/server/ground/platform/database";
import { sendDelivery } from "@/server/programme/webhooks/http-send";
import { startWebhookWorker } from "@/server/programme/webhooks/worker";

const pause = () => new Promise<void>((r) => setTimeout(r, Math.random() * 60));
const database = openDatabase({ kind: "postgres", url: process.env.DATABASE_URL! });
const workspaceId = process.env.CHAOS_WORKSPACE_ID;
startLifecycleWorker(database.prisma, {
  batchSize: 3,
  pollMs: 20,
  leaseMs: 1500,
  workspaceId,
  deps: { log: () => {} },
});
startWebhookWorker(database.prisma, {
  workspaceId,
  batchSize: 2,
  pollMs: 20,
  log: () => {},
  deps: {
    send: async (url, headers, body) => {
      await pause();
      const answer = await sendDelivery(url, headers, body);
      await pause();
      return answer;
    },
  },
});
process.stdout.write("ready\n");
