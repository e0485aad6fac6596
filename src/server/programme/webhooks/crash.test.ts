import { spawn } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import { onPostgres } from "@/test/database";
import { drain, liveCampaign, postEvent } from "@/test/lifecycle-fixtures";
import { webhookTestBed } from "@/test/webhook-receiver";
import { attemptDelivery, claimDeliveries } from "./delivery";
import { sendDelivery } from "./http-send";
import { createEndpoint } from "./service";

const bed = webhookTestBed();

/**
 * Starts a worker process (lifecycle and deliveries) and SIGKILLs it a random moment after it runs,
 * or, with `after`, a random moment after that condition holds (at most a minute later).
 */
function killWorkerAtRandom(workspaceId: string, after?: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "src/test/chaos-webhook-worker.ts"],
      {
        env: {
          ...process.env,
          DATABASE_URL: inject("postgresUrl"),
          CHAOS_WORKSPACE_ID: workspaceId,
          WEBHOOK_TEST_ALLOW_LOCAL_URLS: "1",
        },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    child.stdout.on("data", (chunk: Buffer) => {
      if (!chunk.toString().includes("ready")) return;
      const kill = () =>
        setTimeout(() => child.kill("SIGKILL"), after ? Math.random() * 300 : 100 + Math.random() * 1500);
      if (!after) return void kill();
      const deadline = Date.now() + 60_000;
      const poll = setInterval(() => {
        if (!after() && Date.now() < deadline) return;
        clearInterval(poll);
        kill();
      }, 50);
    });
    child.on("exit", (_code, signal) =>
      signal === "SIGKILL" ? resolve() : reject(new Error(`worker exited on its own (${signal ?? _code})`)),
    );
  });
}

// Separate worker processes share one database only on PostgreSQL (PGlite is single-process).
describe.skipIf(!onPostgres())(
  "webhooks: workers SIGKILLed between a change and its delivery",
  { timeout: 240_000 },
  () => {
    it("after 16 kills and a restart, the receiver has every event, each under its one webhook-id, and every delivery ends delivered", async () => {
      const f = await liveCampaign(bed.prisma, { accounts: 12, perAccount: 1 });
      await createEndpoint(bed.prisma, {
        workspaceId: f.workspaceId,
        url: bed.receiver.url,
        events: ["entry_event.completed", "piece.mailed"],
        actor: { kind: "user", id: null, label: "owner@example.test" },
      });
      for (const c of f.contacts) await postEvent(bed.prisma, f, c.id);

      const delivered = () => bed.receiver.received.filter((r) => r.json.workspaceId === f.workspaceId).length;
      // The first two die right after the first webhooks arrive (a cold worker takes a while to render
      // its first piece on a busy machine); the others at random moments of their run.
      await Promise.all([
        killWorkerAtRandom(f.workspaceId, () => delivered() > 0),
        killWorkerAtRandom(f.workspaceId, () => delivered() > 0),
      ]);
      for (let round = 1; round < 8; round++)
        await Promise.all([killWorkerAtRandom(f.workspaceId), killWorkerAtRandom(f.workspaceId)]);
      // The killed workers did real work before the restart: they moved events and delivered some webhooks.
      expect(
        await bed.prisma.entryEvent.count({ where: { campaignId: f.campaign.id, status: { not: "accepted" } } }),
      ).toBeGreaterThan(0);
      expect(delivered()).toBeGreaterThan(0);

      // The restart: the lifecycle finishes, then deliveries run with a clock past the dead workers' claims.
      const clock = { now: () => new Date() };
      const deadline = Date.now() + 90_000;
      for (;;) {
        await drain(bed.prisma, clock, f.workspaceId);
        const open = await bed.prisma.entryEvent.count({
          where: { campaignId: f.campaign.id, status: { notIn: ["completed", "held_out", "skipped", "failed"] } },
        });
        if (open === 0) break;
        if (Date.now() > deadline) throw new Error(`${open} entry events never finished`);
        await new Promise((r) => setTimeout(r, 500));
      }
      const later = () => new Date(Date.now() + 10 * 60_000);
      for (;;) {
        const { token, ids } = await claimDeliveries(bed.prisma, {
          limit: 50,
          now: later(),
          workspaceId: f.workspaceId,
        });
        if (ids.length === 0) break;
        await Promise.all(
          ids.map((id) => attemptDelivery(bed.prisma, id, token, { clock: later, send: sendDelivery })),
        );
      }

      const events = await bed.prisma.webhookEvent.findMany({ where: { workspaceId: f.workspaceId } });
      const completed = await bed.prisma.entryEvent.count({
        where: { campaignId: f.campaign.id, status: "completed" },
      });
      expect(events.filter((e) => e.type === "entry_event.completed")).toHaveLength(completed);
      // An entry whose workers are killed on it again and again ends `failed` by design (the lifecycle's
      // poison detection); every other one completed, and each completion is an event delivered below.
      const failed = await bed.prisma.entryEvent.findMany({
        where: { campaignId: f.campaign.id, status: "failed" },
        select: { lastError: true },
      });
      for (const e of failed) expect(e.lastError).toMatch(/^no progress after \d+ attempts$/);
      expect(completed + failed.length).toBe(f.contacts.length);
      expect(completed).toBeGreaterThan(0);
      const got = new Set(
        bed.receiver.received.filter((r) => r.json.workspaceId === f.workspaceId).map((r) => r.headers["webhook-id"]),
      );
      // Every event reached the receiver (at least once: a kill after the answer and before its record sends it again, with the same webhook-id).
      for (const e of events) expect(got.has(e.id), `${e.type} ${e.id}`).toBe(true);
      expect([...got].every((id) => events.some((e) => e.id === id))).toBe(true);
      const deliveries = await bed.prisma.webhookDelivery.findMany({ where: { workspaceId: f.workspaceId } });
      expect(deliveries).toHaveLength(events.length);
      expect(deliveries.map((d) => d.status)).toEqual(deliveries.map(() => "succeeded"));
    });
  },
);
