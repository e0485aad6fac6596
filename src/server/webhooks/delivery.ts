import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@/generated/prisma/client";
import { recordAudit, systemActor } from "@/server/audit/service";
import { webhookBody } from "./events";
import { type SendResult, sendDelivery } from "./http-send";
import { signedHeaders, signingSecrets } from "./secrets";
import { failPending } from "./service";

/**
 * Delivering the outbox: workers claim due deliveries from the database (FOR UPDATE SKIP LOCKED
 * under a lease, as entry events and jobs are claimed), sign each with its endpoint's secret
 * (Standard Webhooks), POST it, and record the attempt. At least once: a worker that dies
 * mid-request leaves its claim to run out, and another sends the same webhook-id again.
 */

/** Waits after the 1st, 2nd, ... failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about a day in all). */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** An endpoint that has failed every attempt for this long is disabled and its owner told. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600_000;
/** A claim lasts this long: more than one attempt's timeout. */
export const DELIVERY_LEASE_MS = 30_000;

export interface DeliveryDeps {
  clock: () => Date;
  send: (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;
}
export const defaultDeliveryDeps: DeliveryDeps = { clock: () => new Date(), send: sendDelivery };

/** Claims up to `limit` due deliveries of enabled endpoints; returns their ids and the lease token. */
export async function claimDeliveries(prisma: PrismaClient, p: { limit: number; now: Date; workspaceId?: string }) {
  const token = randomUUID();
  const until = new Date(p.now.getTime() + DELIVERY_LEASE_MS);
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE "WebhookDelivery"
       SET "lockToken" = ${token}, "lockedUntil" = ${until}, "updatedAt" = ${p.now}
     WHERE id IN (
       SELECT d.id FROM "WebhookDelivery" d
        WHERE d.status = 'pending' AND d."nextAttemptAt" <= ${p.now}
          AND (d."lockedUntil" IS NULL OR d."lockedUntil" < ${p.now})
          AND (${p.workspaceId ?? null}::text IS NULL OR d."workspaceId" = ${p.workspaceId ?? null})
        ORDER BY d."nextAttemptAt"
        LIMIT ${p.limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  return { token, ids: rows.map((r) => r.id) };
}

/** One attempt of one claimed delivery: sign, send, record. Never throws for the endpoint's failures. */
export async function attemptDelivery(prisma: PrismaClient, deliveryId: string, token: string, deps: DeliveryDeps = defaultDeliveryDeps) {
  const delivery = await prisma.webhookDelivery.findFirst({ where: { id: deliveryId, lockToken: token }, include: { event: true, endpoint: true } });
  if (!delivery) return null;
  const { event, endpoint } = delivery;
  if (!endpoint.enabled) {
    await failPending(prisma, endpoint.id, "The endpoint was disabled before this event could be delivered.");
    return null;
  }
  const sentAt = deps.clock();
  const body = webhookBody(event);
  let headers: Record<string, string>;
  try {
    headers = signedHeaders(signingSecrets(endpoint, sentAt), event.id, sentAt, body);
  } catch (error) {
    // The secret cannot be opened (the service's key changed): an attempt that failed here, retried on schedule.
    const response = `Not sent: the signing secret could not be read (${error instanceof Error ? error.message : "unknown error"}). Rotate the secret.`;
    return recordAttempt(prisma, { deliveryId, token, endpointId: endpoint.id, workspaceId: delivery.workspaceId, attempts: delivery.attempts + 1, result: { status: null, latencyMs: 0, response }, now: deps.clock() });
  }
  const result = await deps.send(endpoint.url, headers, body);
  return recordAttempt(prisma, { deliveryId, token, endpointId: endpoint.id, workspaceId: delivery.workspaceId, attempts: delivery.attempts + 1, result, now: deps.clock() });
}

async function recordAttempt(
  prisma: PrismaClient,
  p: { deliveryId: string; token: string; endpointId: string; workspaceId: string; attempts: number; result: SendResult; now: Date },
) {
  const ok = p.result.status !== null && p.result.status >= 200 && p.result.status < 300;
  const givingUp = !ok && p.attempts >= MAX_ATTEMPTS;
  const error = ok ? null : p.result.status === null ? p.result.response : `The endpoint answered ${p.result.status}.`;
  return prisma.$transaction(async (tx) => {
    const updated = await tx.webhookDelivery.updateMany({
      where: { id: p.deliveryId, lockToken: p.token, status: "pending" },
      data: {
        attempts: p.attempts,
        status: ok ? "succeeded" : givingUp ? "failed" : "pending",
        lastStatus: p.result.status,
        lastError: error,
        deliveredAt: ok ? p.now : null,
        nextAttemptAt: ok || givingUp ? undefined : new Date(p.now.getTime() + RETRY_SCHEDULE_MS[p.attempts - 1]),
        lockToken: null,
        lockedUntil: null,
      },
    });
    // Another worker took it over (our claim ran out): it records its own attempt.
    if (updated.count === 0) return null;
    await tx.webhookAttempt.create({ data: { deliveryId: p.deliveryId, status: p.result.status, latencyMs: p.result.latencyMs, response: p.result.response.slice(0, 1024), at: p.now } });
    if (ok) {
      await tx.webhookEndpoint.updateMany({ where: { id: p.endpointId }, data: { lastSuccessAt: p.now, failingSince: null } });
      return { status: "succeeded" as const };
    }
    const endpoint = await tx.webhookEndpoint.findUnique({ where: { id: p.endpointId } });
    if (endpoint && !endpoint.failingSince) {
      await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: p.now } });
    } else if (endpoint?.enabled && endpoint.failingSince && p.now.getTime() - endpoint.failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) {
      const days = Math.round((p.now.getTime() - endpoint.failingSince.getTime()) / 86_400_000);
      const reason = `Disabled by the service: every delivery failed for ${days} days (the last: ${error}). Fix the endpoint, then enable it again.`;
      await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false, disabledReason: reason } });
      await failPending(tx, endpoint.id, "The endpoint was disabled before this event could be delivered.");
      await recordAudit(tx, p.workspaceId, systemActor, "webhook.endpoint_disabled", { type: "webhook_endpoint", id: endpoint.id }, { url: endpoint.url, reason });
    }
    return { status: givingUp ? ("failed" as const) : ("pending" as const) };
  });
}

/** Events kept this long after every delivery of them ended (the delivery log's reach). */
export const EVENT_RETENTION_MS = 30 * 24 * 3600_000;

/** Drops events older than the retention whose deliveries all ended (their attempts go with them). */
export async function pruneWebhookEvents(prisma: PrismaClient, now: Date) {
  const before = new Date(now.getTime() - EVENT_RETENTION_MS);
  return prisma.$executeRaw`
    DELETE FROM "WebhookEvent" e
     WHERE e."createdAt" < ${before}
       AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."eventId" = e.id AND d.status = 'pending')`;
}
