import { describe, expect, it } from "vitest";
import { createOwnerWorkspace } from "@/test/factories";
import { webhookTestBed } from "@/test/webhook-receiver";
import { attemptDelivery, claimDeliveries, RETRY_SCHEDULE_MS, retryWaitMs } from "./delivery";
import { DELIVERY_TIMEOUT_MS, parseRetryAfter, sendDelivery } from "./http-send";
import { createEndpoint, sendTestEvent } from "./service";

const actor = { kind: "user" as const, id: null, label: "owner@example.test" };
const bed = webhookTestBed();

/** A workspace with one endpoint at the receiver and one test event waiting for it. */
async function oneDelivery() {
  const o = await createOwnerWorkspace(bed.prisma);
  const endpoint = await createEndpoint(bed.prisma, {
    workspaceId: o.workspaceId,
    url: bed.receiver.url,
    events: ["entry_event.completed"],
    actor,
  });
  const second = await sendTestEvent(bed.prisma, {
    workspaceId: o.workspaceId,
    endpointId: endpoint.endpointId,
    actor,
  });
  const first = await sendTestEvent(bed.prisma, { workspaceId: o.workspaceId, endpointId: endpoint.endpointId, actor });
  return {
    workspaceId: o.workspaceId,
    endpointId: endpoint.endpointId,
    deliveryId: first.deliveryId,
    otherId: second.deliveryId,
  };
}

/** One attempt of one delivery at `now`, the jitter drawing `random`. */
async function attempt(workspaceId: string, deliveryId: string, now: Date, random = 0.5) {
  const { token, ids } = await claimDeliveries(bed.prisma, { limit: 10, now, workspaceId });
  expect(ids).toContain(deliveryId);
  await attemptDelivery(bed.prisma, deliveryId, token, { clock: () => now, send: sendDelivery, random: () => random });
  await bed.prisma.webhookDelivery.updateMany({ where: { workspaceId }, data: { lockToken: null, lockedUntil: null } });
  return bed.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
}

const later = () => new Date(Date.now() + 1000);

describe("outbound webhook retries", { timeout: 120_000 }, () => {
  it("a failed attempt waits a random share of the schedule's bound (full jitter), at least a second", async () => {
    const d = await oneDelivery();
    bed.receiver.answerWith(() => 500);
    const now = later();
    const failed = await attempt(d.workspaceId, d.deliveryId, now, 0.25);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, lastStatus: 500 });
    expect(failed.nextAttemptAt.getTime() - now.getTime()).toBe(RETRY_SCHEDULE_MS[0] * 0.25);
    expect(retryWaitMs({ status: 500, latencyMs: 1, response: "" }, 2, () => 0.999)).toBe(
      Math.floor(RETRY_SCHEDULE_MS[1] * 0.999),
    );
    expect(retryWaitMs({ status: null, latencyMs: 1, response: "" }, 1, () => 0)).toBe(1000);
  });

  it("429 and 503 with Retry-After wait what the endpoint asked, in seconds or as a date", async () => {
    const d = await oneDelivery();
    bed.receiver.answerWith(() => ({ status: 429, headers: { "retry-after": "120" } }));
    const now = later();
    const limited = await attempt(d.workspaceId, d.deliveryId, now);
    expect(limited).toMatchObject({ status: "pending", lastStatus: 429 });
    expect(limited.nextAttemptAt.getTime() - now.getTime()).toBe(120_000);
    // An HTTP date an hour from now (the receiver's clock is the real one).
    const at = new Date(Date.now() + 3_600_000);
    bed.receiver.answerWith(() => ({ status: 503, headers: { "retry-after": at.toUTCString() } }));
    const next = new Date(limited.nextAttemptAt.getTime() + 1);
    const unavailable = await attempt(d.workspaceId, d.deliveryId, next);
    expect(unavailable).toMatchObject({ status: "pending", attempts: 2, lastStatus: 503 });
    expect(Math.abs(unavailable.nextAttemptAt.getTime() - next.getTime() - 3_600_000)).toBeLessThan(3000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter("-5")).toBeUndefined();
  });

  it("410 Gone disables the endpoint at once: its deliveries end, the owner sees why, the audit log records it", async () => {
    const d = await oneDelivery();
    bed.receiver.answerWith(() => 410);
    const gone = await attempt(d.workspaceId, d.deliveryId, later());
    expect(gone).toMatchObject({ status: "failed", attempts: 1, lastStatus: 410 });
    expect(await bed.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: d.otherId } })).toMatchObject({
      status: "failed",
      lastError: "The endpoint was disabled before this event could be delivered.",
    });
    expect(await bed.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: d.endpointId } })).toMatchObject({
      enabled: false,
      disabledReason:
        "Disabled by the service: the endpoint answered 410 Gone, which says it no longer takes webhooks. Fix the endpoint, then enable it again.",
    });
    expect(
      await bed.prisma.auditLogEntry.count({
        where: { workspaceId: d.workspaceId, action: "webhook.endpoint_disabled" },
      }),
    ).toBe(1);
  });

  it("an attempt waits 15 seconds for an answer", () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(15_000);
  });
});
