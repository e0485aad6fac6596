import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createAppCaller } from "@/server/doors/routers";
import { uniq } from "@/test/factories";
import { drain, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { webhookReceiver, webhookTestBed } from "@/test/webhook-receiver";
import {
  attemptDelivery,
  claimDeliveries,
  DISABLE_AFTER_FAILING_MS,
  MAX_ATTEMPTS,
  RETRY_SCHEDULE_MS,
} from "./delivery";
import { webhookEvents } from "./events";
import { sendDelivery } from "./http-send";
import { createEndpoint, rotateSecret } from "./service";

const actor = { kind: "user" as const, id: null, label: "owner@example.test" };
const bed = webhookTestBed();

/** Runs every due delivery of the workspace once, at the clock's time, as a worker would. */
async function deliver(workspaceId: string, clock: { now: () => Date }) {
  const { token, ids } = await claimDeliveries(bed.prisma, { limit: 50, now: clock.now(), workspaceId });
  const deps = { clock: clock.now, send: sendDelivery };
  return Promise.all(ids.map((id) => attemptDelivery(bed.prisma, id, token, deps)));
}

/** Deliveries are stamped with the database's time when queued: their clock starts after that. */
function deliveryClock() {
  let offset = 1000;
  return { now: () => new Date(Date.now() + offset), advance: (ms: number) => void (offset += ms) };
}

const receivedFor = (workspaceId: string) => bed.receiver.received.filter((r) => r.json.workspaceId === workspaceId);

// The first piece of a file renders its print file (fonts load once per process): slow on a busy machine.
describe("outbound webhooks", { timeout: 120_000 }, () => {
  it("an entry event of a live campaign reaches the endpoint as a signed entry_event.completed that verifies with the secret, with piece.printed and piece.mailed", async () => {
    const f = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    const { secret } = await createEndpoint(bed.prisma, {
      workspaceId: f.workspaceId,
      url: bed.receiver.url,
      events: ["entry_event.completed", "entry_event.skipped", "piece.printed", "piece.mailed"],
      actor,
    });
    const lc = testClock();
    const accepted = await postEvent(bed.prisma, f, f.contacts[0].id, lc.now());
    await drain(bed.prisma, lc, f.workspaceId);
    const clock = deliveryClock();
    await deliver(f.workspaceId, clock);

    const got = receivedFor(f.workspaceId);
    const entry = got.find((r) => r.json.type === "entry_event.completed");
    expect(entry, `types received: ${got.map((r) => r.json.type).join(", ")}`).toBeDefined();
    // Verifies as any Standard Webhooks receiver would, with the secret shown once.
    expect(new Webhook(secret).verify(entry!.body, entry!.headers)).toMatchObject({ type: "entry_event.completed" });
    expect(entry!.headers["webhook-id"]).toBe(entry!.json.id);
    expect(entry!.json.data).toMatchObject({
      eventId: accepted.eventId,
      campaignId: f.campaign.id,
      contactId: f.contacts[0].id,
      contactEmail: f.contacts[0].email,
      contactCrmIds: [],
      status: "completed",
    });
    webhookEvents["entry_event.completed"].data.parse(entry!.json.data);
    for (const type of ["piece.printed", "piece.mailed"] as const) {
      const piece = got.find((r) => r.json.type === type);
      expect(piece, type).toBeDefined();
      const data = webhookEvents[type].data.parse(piece!.json.data);
      expect(data.eventId).toBe(accepted.eventId);
      expect(data.sid).toHaveLength(16);
    }
    const deliveries = await bed.prisma.webhookDelivery.findMany({ where: { workspaceId: f.workspaceId } });
    expect(deliveries.every((d) => d.status === "succeeded" && d.attempts === 1)).toBe(true);
  });

  it("the printer's tracking reaches the endpoint: piece.delivered, then piece.returned when the piece comes back", async () => {
    const f = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    const lc = testClock();
    await postEvent(bed.prisma, f, f.contacts[0].id, lc.now());
    await drain(bed.prisma, lc, f.workspaceId);
    const { secret } = await createEndpoint(bed.prisma, {
      workspaceId: f.workspaceId,
      url: bed.receiver.url,
      events: ["piece.delivered", "piece.returned"],
      actor,
    });
    const piece = await bed.prisma.mailPiece.findFirstOrThrow({ where: { workspaceId: f.workspaceId } });
    await bed.prisma.mailPiece.update({
      where: { id: piece.id },
      data: { trackingStatus: "in_transit", trackingUpdatedAt: new Date() },
    });
    await bed.prisma.mailPiece.update({
      where: { id: piece.id },
      data: { trackingStatus: "delivered", trackingUpdatedAt: new Date() },
    });
    await bed.prisma.mailPiece.update({
      where: { id: piece.id },
      data: { trackingStatus: "returned_to_sender", trackingUpdatedAt: new Date() },
    });
    await deliver(f.workspaceId, deliveryClock());
    const got = receivedFor(f.workspaceId).sort((a, b) => a.json.timestamp.localeCompare(b.json.timestamp));
    expect(got.map((r) => r.json.type)).toEqual(["piece.delivered", "piece.returned"]);
    for (const r of got) {
      expect(new Webhook(secret).verify(r.body, r.headers)).toBeTruthy();
      expect(webhookEvents[r.json.type as "piece.delivered"].data.parse(r.json.data)).toMatchObject({
        pieceId: piece.id,
        sid: piece.sid,
      });
    }
    expect(got[1].json.data).toMatchObject({ trackingStatus: "returned_to_sender" });
  });

  it("a receiver answering 500 first gets the same webhook-id again after the back-off, and the log keeps both attempts", async () => {
    const f = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    const { endpointId } = await createEndpoint(bed.prisma, {
      workspaceId: f.workspaceId,
      url: bed.receiver.url,
      events: ["entry_event.completed"],
      actor,
    });
    const lc = testClock();
    await postEvent(bed.prisma, f, f.contacts[0].id, lc.now());
    await drain(bed.prisma, lc, f.workspaceId);
    const clock = deliveryClock();

    bed.receiver.answerWith(() => 500);
    await deliver(f.workspaceId, clock);
    bed.receiver.answerWith(() => 200);
    // Not due again before its back-off.
    expect(await deliver(f.workspaceId, clock)).toEqual([]);
    clock.advance(RETRY_SCHEDULE_MS[0] + 1);
    await deliver(f.workspaceId, clock);

    const got = receivedFor(f.workspaceId);
    expect(got).toHaveLength(2);
    expect(got[0].headers["webhook-id"]).toBe(got[1].headers["webhook-id"]);
    const caller = createAppCaller({
      db: bed.prisma,
      headers: new Headers(),
      getUser: async () => ({ id: f.user.id, email: f.user.email, name: null }),
    } as never);
    const log = await caller.webhooks.deliveries({ workspaceId: f.workspaceId, endpointId });
    expect(log.deliveries[0]).toMatchObject({ status: "succeeded", attempts: 2, lastStatus: 200 });
    expect(log.deliveries[0].attemptLog.map((a) => a.status)).toEqual([200, 500]);
    expect(log.deliveries[0].attemptLog[1].response).toBe("receiver says no");
  });

  it("an endpoint whose saved address is refused at send time gets a failed attempt in its log, and nothing is sent", async () => {
    const f = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    const { endpointId } = await createEndpoint(bed.prisma, {
      workspaceId: f.workspaceId,
      url: bed.receiver.url,
      events: ["campaign.ended"],
      actor,
    });
    await bed.prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "ended" } });
    const clock = deliveryClock();
    delete process.env.WEBHOOK_TEST_ALLOW_LOCAL_URLS;
    try {
      await deliver(f.workspaceId, clock);
    } finally {
      process.env.WEBHOOK_TEST_ALLOW_LOCAL_URLS = "1";
    }
    expect(receivedFor(f.workspaceId)).toEqual([]);
    const delivery = await bed.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId } });
    expect(delivery).toMatchObject({
      status: "pending",
      attempts: 1,
      lastStatus: null,
      lastError: "127.0.0.1 is not a public address; nothing was sent.",
      lockToken: null,
    });
  });

  it("a receiver that is down gets everything once it is up again", async () => {
    const f = await liveCampaign(bed.prisma, { accounts: 2, perAccount: 1 });
    const down = await webhookReceiver();
    await createEndpoint(bed.prisma, {
      workspaceId: f.workspaceId,
      url: down.url,
      events: ["entry_event.completed"],
      actor,
    });
    await down.stop();
    const lc = testClock();
    for (const c of f.contacts) await postEvent(bed.prisma, f, c.id, lc.now());
    await drain(bed.prisma, lc, f.workspaceId);
    const clock = deliveryClock();
    await deliver(f.workspaceId, clock);
    const failed = await bed.prisma.webhookDelivery.findMany({ where: { workspaceId: f.workspaceId } });
    expect(failed.map((d) => [d.status, d.attempts, d.lastError])).toEqual([
      ["pending", 1, "The connection was refused."],
      ["pending", 1, "The connection was refused."],
    ]);
    await down.start();
    clock.advance(RETRY_SCHEDULE_MS[0] + 1);
    await deliver(f.workspaceId, clock);
    expect(down.received.map((r) => r.json.type)).toEqual(["entry_event.completed", "entry_event.completed"]);
    await down.stop();
  });

  it("a worker that dies after claiming loses nothing: the claim runs out and another worker sends the same webhook-id", async () => {
    const f = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    await createEndpoint(bed.prisma, {
      workspaceId: f.workspaceId,
      url: bed.receiver.url,
      events: ["entry_event.completed"],
      actor,
    });
    const lc = testClock();
    await postEvent(bed.prisma, f, f.contacts[0].id, lc.now());
    await drain(bed.prisma, lc, f.workspaceId);
    const clock = deliveryClock();
    // The dead worker's claim: nothing sent, nothing recorded.
    const dead = await claimDeliveries(bed.prisma, { limit: 10, now: clock.now(), workspaceId: f.workspaceId });
    expect(dead.ids).toHaveLength(1);
    expect(await deliver(f.workspaceId, clock)).toEqual([]);
    clock.advance(60_000);
    await deliver(f.workspaceId, clock);
    const event = await bed.prisma.webhookEvent.findFirstOrThrow({ where: { workspaceId: f.workspaceId } });
    expect(receivedFor(f.workspaceId).map((r) => r.headers["webhook-id"])).toEqual([event.id]);
    // The dead worker, come back late, cannot record over it.
    expect(
      await attemptDelivery(bed.prisma, dead.ids[0], dead.token, { clock: clock.now, send: sendDelivery }),
    ).toBeNull();
  });

  it("a change that rolls back writes no event; a workspace with no endpoint writes none at all", async () => {
    const f = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    const other = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    await createEndpoint(bed.prisma, {
      workspaceId: f.workspaceId,
      url: bed.receiver.url,
      events: ["campaign.ended"],
      actor,
    });
    await expect(
      bed.prisma.$transaction(async (tx) => {
        await tx.campaign.update({ where: { id: f.campaign.id }, data: { status: "ended", endedAt: new Date() } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await bed.prisma.webhookEvent.count({ where: { workspaceId: f.workspaceId } })).toBe(0);
    await bed.prisma.campaign.update({
      where: { id: other.campaign.id },
      data: { status: "ended", endedAt: new Date() },
    });
    expect(await bed.prisma.webhookEvent.count({ where: { workspaceId: other.workspaceId } })).toBe(0);
    await bed.prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "ended", endedAt: new Date() } });
    const events = await bed.prisma.webhookEvent.findMany({ where: { workspaceId: f.workspaceId } });
    expect(events.map((e) => e.type)).toEqual(["campaign.ended"]);
    webhookEvents["campaign.ended"].data.parse(events[0].data);
  });

  it("no endpoint ever receives another workspace's events", async () => {
    const a = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    const b = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    const onlyB = await webhookReceiver();
    await createEndpoint(bed.prisma, {
      workspaceId: b.workspaceId,
      url: onlyB.url,
      events: ["entry_event.completed", "piece.printed", "piece.mailed"],
      actor,
    });
    const lc = testClock();
    await postEvent(bed.prisma, a, a.contacts[0].id, lc.now());
    await drain(bed.prisma, lc, a.workspaceId);
    const clock = deliveryClock();
    await deliver(a.workspaceId, clock);
    await deliver(b.workspaceId, clock);
    expect(onlyB.received).toEqual([]);
    await onlyB.stop();
  });

  it("after a rotation both secrets sign for a day, then only the new one", async () => {
    const f = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    const clock = deliveryClock();
    const created = await createEndpoint(bed.prisma, {
      workspaceId: f.workspaceId,
      url: bed.receiver.url,
      events: ["campaign.ended"],
      actor,
    });
    const rotated = await rotateSecret(bed.prisma, {
      workspaceId: f.workspaceId,
      endpointId: created.endpointId,
      actor,
      now: clock.now(),
    });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    await bed.prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "ended", endedAt: new Date() } });
    await deliver(f.workspaceId, clock);
    const first = receivedFor(f.workspaceId)[0];
    expect(new Webhook(created.secret).verify(first.body, first.headers)).toBeTruthy();
    expect(new Webhook(rotated.secret).verify(first.body, first.headers)).toBeTruthy();

    await bed.prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "live" } });
    await bed.prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "ended" } });
    clock.advance(24 * 3600_000 + 1000);
    await deliver(f.workspaceId, clock);
    const second = receivedFor(f.workspaceId)[1];
    expect(second.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(() =>
      new Webhook(created.secret).verify(second.body, {
        ...second.headers,
        "webhook-timestamp": second.headers["webhook-timestamp"],
      }),
    ).toThrow();
  });

  it("an endpoint failing for days is disabled, its pending deliveries end, and the audit log says why", async () => {
    const f = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    const down = await webhookReceiver();
    const { endpointId } = await createEndpoint(bed.prisma, {
      workspaceId: f.workspaceId,
      url: down.url,
      events: ["campaign.ended", "campaign.live"],
      actor,
    });
    await down.stop();
    await bed.prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "ended" } });
    const clock = deliveryClock();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await deliver(f.workspaceId, clock);
      clock.advance(RETRY_SCHEDULE_MS[attempt - 1] ?? 0);
    }
    const gaveUp = await bed.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId } });
    expect(gaveUp).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
    // Still enabled (a day of failures); a new event days later fails too, past the limit: disabled.
    clock.advance(DISABLE_AFTER_FAILING_MS);
    await bed.prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "live" } });
    await deliver(f.workspaceId, clock);
    const endpoint = await bed.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(endpoint.enabled).toBe(false);
    expect(endpoint.disabledReason).toMatch(/^Disabled by the service: every delivery failed for \d+ days/);
    expect(
      await bed.prisma.auditLogEntry.count({
        where: { workspaceId: f.workspaceId, action: "webhook.endpoint_disabled" },
      }),
    ).toBe(1);
    // Disabled: new events are not queued for it.
    await bed.prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "ended" } });
    expect(await bed.prisma.webhookDelivery.count({ where: { endpointId, status: "pending" } })).toBe(0);
  });
});

describe("webhook endpoints (owner tRPC)", () => {
  async function ownerCaller() {
    const f = await liveCampaign(bed.prisma, { accounts: 1, perAccount: 1 });
    const caller = createAppCaller({
      db: bed.prisma,
      headers: new Headers(),
      getUser: async () => ({ id: f.user.id, email: f.user.email, name: null }),
    } as never);
    return { f, caller };
  }

  it("creates an endpoint and shows its secret once; the list never shows it", async () => {
    const { f, caller } = await ownerCaller();
    const made = await caller.webhooks.createEndpoint({
      workspaceId: f.workspaceId,
      url: bed.receiver.url,
      events: ["piece.mailed", "entry_event.completed", "piece.mailed"],
    });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await caller.webhooks.listEndpoints({ workspaceId: f.workspaceId });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      endpointId: made.endpointId,
      events: ["entry_event.completed", "piece.mailed"],
      enabled: true,
    });
    expect(JSON.stringify(list)).not.toContain(made.secret.slice(6, 20));
    const stored = await bed.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: made.endpointId } });
    expect(stored.secretSealed).not.toContain(made.secret.slice(6, 20));
  });

  it("refuses http, private addresses and unknown event types with a sentence, and writes nothing", async () => {
    const { f, caller } = await ownerCaller();
    delete process.env.WEBHOOK_TEST_ALLOW_LOCAL_URLS;
    try {
      await expect(
        caller.webhooks.createEndpoint({
          workspaceId: f.workspaceId,
          url: "http://hooks.example.com/x",
          events: ["piece.mailed"],
        }),
      ).rejects.toThrow("The webhook URL must start with https://. Nothing was saved.");
      await expect(
        caller.webhooks.createEndpoint({
          workspaceId: f.workspaceId,
          url: "https://127.0.0.1/x",
          events: ["piece.mailed"],
        }),
      ).rejects.toThrow(
        "127.0.0.1 is a loopback, private or unresolvable address; webhooks are sent only to public https addresses. Nothing was saved.",
      );
      await expect(
        caller.webhooks.createEndpoint({
          workspaceId: f.workspaceId,
          url: "https://10.1.2.3/x",
          events: ["piece.mailed"],
        }),
      ).rejects.toThrow(/private/);
    } finally {
      process.env.WEBHOOK_TEST_ALLOW_LOCAL_URLS = "1";
    }
    await expect(
      caller.webhooks.createEndpoint({
        workspaceId: f.workspaceId,
        url: bed.receiver.url,
        events: ["piece.eaten" as never],
      }),
    ).rejects.toThrow(/Invalid option/);
    await expect(
      caller.webhooks.createEndpoint({ workspaceId: f.workspaceId, url: bed.receiver.url, events: [] }),
    ).rejects.toThrow("Choose at least one event type.");
    expect(await bed.prisma.webhookEndpoint.count({ where: { workspaceId: f.workspaceId } })).toBe(0);
    expect(
      await bed.prisma.auditLogEntry.count({
        where: { workspaceId: f.workspaceId, action: { startsWith: "webhook." } },
      }),
    ).toBe(0);
  });

  it("another workspace's endpoint and deliveries are not found; its owner cannot touch them", async () => {
    const a = await ownerCaller();
    const b = await ownerCaller();
    const made = await a.caller.webhooks.createEndpoint({
      workspaceId: a.f.workspaceId,
      url: bed.receiver.url,
      events: ["piece.mailed"],
    });
    for (const call of [
      () => b.caller.webhooks.deliveries({ workspaceId: b.f.workspaceId, endpointId: made.endpointId }),
      () =>
        b.caller.webhooks.updateEndpoint({ workspaceId: b.f.workspaceId, endpointId: made.endpointId, enabled: false }),
      () => b.caller.webhooks.rotateSecret({ workspaceId: b.f.workspaceId, endpointId: made.endpointId }),
      () => b.caller.webhooks.deleteEndpoint({ workspaceId: b.f.workspaceId, endpointId: made.endpointId }),
      () => b.caller.webhooks.sendTest({ workspaceId: b.f.workspaceId, endpointId: made.endpointId }),
    ]) {
      await expect(call()).rejects.toThrow("No such webhook endpoint in this workspace.");
    }
    await expect(b.caller.webhooks.listEndpoints({ workspaceId: a.f.workspaceId })).rejects.toThrow();
    const still = await bed.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: made.endpointId } });
    expect(still.enabled).toBe(true);
  });

  it("a test event and a redelivery reach the endpoint; a redelivery carries the same webhook-id", async () => {
    const { f, caller } = await ownerCaller();
    const made = await caller.webhooks.createEndpoint({
      workspaceId: f.workspaceId,
      url: bed.receiver.url,
      events: ["campaign.ended"],
    });
    const test = await caller.webhooks.sendTest({ workspaceId: f.workspaceId, endpointId: made.endpointId });
    const clock = deliveryClock();
    await deliver(f.workspaceId, clock);
    const again = await caller.webhooks.redeliver({ workspaceId: f.workspaceId, deliveryId: test.deliveryId });
    await deliver(f.workspaceId, clock);
    const got = receivedFor(f.workspaceId);
    expect(got.map((r) => [r.json.type, r.headers["webhook-id"]])).toEqual([
      ["webhook.test", test.webhookId],
      ["webhook.test", again.webhookId],
    ]);
    expect(again.webhookId).toBe(test.webhookId);
    expect(new Webhook(made.secret).verify(got[1].body, got[1].headers)).toBeTruthy();
  });

  it("deleting an endpoint removes it and its log; a name that is not an endpoint id is refused", async () => {
    const { f, caller } = await ownerCaller();
    const made = await caller.webhooks.createEndpoint({
      workspaceId: f.workspaceId,
      url: bed.receiver.url,
      events: ["campaign.ended"],
    });
    await caller.webhooks.sendTest({ workspaceId: f.workspaceId, endpointId: made.endpointId });
    await caller.webhooks.deleteEndpoint({ workspaceId: f.workspaceId, endpointId: made.endpointId });
    expect(await bed.prisma.webhookDelivery.count({ where: { endpointId: made.endpointId } })).toBe(0);
    await expect(
      caller.webhooks.deleteEndpoint({ workspaceId: f.workspaceId, endpointId: `x${uniq()}` }),
    ).rejects.toThrow("An endpoint id looks like whe_…");
  });
});
