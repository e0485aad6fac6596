import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { recordAudit, systemActor } from "@/server/ground/audit/service";
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

/**
 * The longest waits after the 1st, 2nd, ... failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h. Each wait is drawn at random up to its bound (full jitter, at least a second), so
 * endpoints that failed together are not all retried at the same moment.
 */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
/** A Retry-After (on 429 or 503) is honoured up to this long; the shortest wait is a second. */
const RETRY_AFTER_MAX_MS = 24 * 3600_000;
const MIN_WAIT_MS = 1000;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** An endpoint that has failed every attempt for this long is disabled and its owner told. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600_000;
/** A claim lasts this long: more than one attempt's timeout. */
export const DELIVERY_LEASE_MS = 30_000;

export interface DeliveryDeps {
  clock: () => Date;
  send: (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;
  /** A number in [0, 1) for the retry jitter. */
  random?: () => number;
}
export const defaultDeliveryDeps: DeliveryDeps = { clock: () => new Date(), send: sendDelivery, random: Math.random };

/** The wait before the next attempt: the endpoint's Retry-After on 429 and 503, else full jitter up to the schedule's bound. */
export function retryWaitMs(result: SendResult, attempts: number, random: () => number = Math.random): number {
  if ((result.status === 429 || result.status === 503) && result.retryAfterMs !== undefined)
    return Math.min(Math.max(result.retryAfterMs, MIN_WAIT_MS), RETRY_AFTER_MAX_MS);
  const bound = RETRY_SCHEDULE_MS[Math.min(attempts, RETRY_SCHEDULE_MS.length) - 1];
  return Math.max(MIN_WAIT_MS, Math.floor(random() * bound));
}

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

type Claimed = Awaited<ReturnType<typeof loadClaimed>>[number];

const loadClaimed = (prisma: PrismaClient, ids: string[], token: string) =>
  prisma.webhookDelivery.findMany({
    where: { id: { in: ids }, lockToken: token },
    include: { event: true, endpoint: true },
  });

/**
 * One attempt of each claimed delivery: signed (each endpoint's secrets opened once), sent at
 * once, and the answers recorded together in one transaction. Never throws for an endpoint's
 * failures; a delivery whose claim ran out meanwhile is left to the worker that took it over.
 */
export async function deliverClaimed(
  prisma: PrismaClient,
  ids: string[],
  token: string,
  deps: DeliveryDeps = defaultDeliveryDeps,
) {
  if (ids.length === 0) return [];
  const rows = await loadClaimed(prisma, ids, token);
  const disabled = rows.filter((r) => !r.endpoint.enabled);
  for (const endpointId of new Set(disabled.map((r) => r.endpointId)))
    await failPending(prisma, endpointId, "The endpoint was disabled before this event could be delivered.");
  const sentAt = deps.clock();
  const secrets = new Map<string, string[] | Error>();
  const results = await Promise.all(
    rows
      .filter((r) => r.endpoint.enabled)
      .map(async (row): Promise<[Claimed, SendResult]> => {
        if (!secrets.has(row.endpointId)) {
          try {
            secrets.set(row.endpointId, signingSecrets(row.endpoint, sentAt));
          } catch (error) {
            secrets.set(row.endpointId, error instanceof Error ? error : new Error("unknown error"));
          }
        }
        const keys = secrets.get(row.endpointId)!;
        if (keys instanceof Error) {
          // The secret cannot be opened (the service's key changed): a failed attempt, retried on schedule.
          return [
            row,
            {
              status: null,
              latencyMs: 0,
              response: `Not sent: the signing secret could not be read (${keys.message}). Rotate the secret.`,
            },
          ];
        }
        const body = webhookBody(row.event);
        return [row, await deps.send(row.endpoint.url, signedHeaders(keys, row.event.id, sentAt, body), body)];
      }),
  );
  return recordAttempts(prisma, token, results, deps.clock(), deps.random ?? Math.random);
}

/** One claimed delivery's attempt (tests, and a single redelivery): as deliverClaimed for one id. */
export async function attemptDelivery(
  prisma: PrismaClient,
  deliveryId: string,
  token: string,
  deps: DeliveryDeps = defaultDeliveryDeps,
) {
  const [result] = await deliverClaimed(prisma, [deliveryId], token, deps);
  return result ?? null;
}

const isSuccess = (r: SendResult) => r.status !== null && r.status >= 200 && r.status < 300;

/** 410 Gone: the receiver says the address will never take webhooks again. */
const isGone = (r: SendResult) => r.status === 410;

async function recordAttempts(
  prisma: PrismaClient,
  token: string,
  results: [Claimed, SendResult][],
  now: Date,
  random: () => number,
) {
  if (results.length === 0) return [];
  const outcome = results.map(([row, result]) => {
    const attempts = row.attempts + 1;
    const ok = isSuccess(result);
    const givingUp = !ok && (attempts >= MAX_ATTEMPTS || isGone(result));
    return {
      row,
      result,
      attempts,
      status: ok ? "succeeded" : givingUp ? "failed" : "pending",
      error: ok ? null : result.status === null ? result.response : `The endpoint answered ${result.status}.`,
      nextAttemptAt:
        ok || givingUp ? row.nextAttemptAt : new Date(now.getTime() + retryWaitMs(result, attempts, random)),
    };
  });
  return prisma.$transaction(async (tx) => {
    const recorded = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "WebhookDelivery" d
         SET status = v.status::"WebhookDeliveryStatus", attempts = v.attempts, "lastStatus" = v.last_status, "lastError" = v.last_error,
             "deliveredAt" = CASE WHEN v.status = 'succeeded' THEN ${now}::timestamp ELSE NULL END, "nextAttemptAt" = v.next_at,
             "lockToken" = NULL, "lockedUntil" = NULL, "updatedAt" = ${now}
        FROM unnest(${outcome.map((o) => o.row.id)}::text[], ${outcome.map((o) => o.status)}::text[], ${outcome.map((o) => o.attempts)}::int[],
                    ${outcome.map((o) => o.result.status)}::int[], ${outcome.map((o) => o.error)}::text[], ${outcome.map((o) => o.nextAttemptAt)}::timestamp[])
             AS v(id, status, attempts, last_status, last_error, next_at)
       WHERE d.id = v.id AND d."lockToken" = ${token} AND d.status = 'pending'
      RETURNING d.id`;
    // Deliveries another worker took over (our claim ran out) record their own attempts.
    const mine = new Set(recorded.map((r) => r.id));
    const kept = outcome.filter((o) => mine.has(o.row.id));
    await tx.webhookAttempt.createMany({
      data: kept.map((o) => ({
        deliveryId: o.row.id,
        status: o.result.status,
        latencyMs: o.result.latencyMs,
        response: o.result.response.slice(0, 1024),
        at: now,
      })),
    });
    for (const endpointId of new Set(kept.map((o) => o.row.endpointId))) {
      const mineForEndpoint = kept.filter((o) => o.row.endpointId === endpointId);
      const gone = mineForEndpoint.find((o) => isGone(o.result));
      if (gone) {
        await disableEndpoint(
          tx,
          endpointId,
          gone.row.workspaceId,
          "Disabled by the service: the endpoint answered 410 Gone, which says it no longer takes webhooks. Fix the endpoint, then enable it again.",
        );
      } else if (mineForEndpoint.some((o) => o.status === "succeeded")) {
        await tx.webhookEndpoint.updateMany({
          where: { id: endpointId },
          data: { lastSuccessAt: now, failingSince: null },
        });
      } else {
        await endpointFailed(tx, endpointId, mineForEndpoint[0].row.workspaceId, mineForEndpoint[0].error, now);
      }
    }
    return kept.map((o) => ({ deliveryId: o.row.id, status: o.status }));
  });
}

/** A failed attempt: the endpoint's failing streak starts, or, failing for days, the endpoint is disabled and its owner told. */
async function endpointFailed(tx: Db, endpointId: string, workspaceId: string, error: string | null, now: Date) {
  const endpoint = await tx.webhookEndpoint.findUnique({ where: { id: endpointId } });
  if (!endpoint?.enabled) return;
  if (!endpoint.failingSince) {
    await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: now } });
    return;
  }
  const failingMs = now.getTime() - endpoint.failingSince.getTime();
  if (failingMs < DISABLE_AFTER_FAILING_MS) return;
  const reason = `Disabled by the service: every delivery failed for ${Math.round(failingMs / 86_400_000)} days (the last: ${error}). Fix the endpoint, then enable it again.`;
  await disableEndpoint(tx, endpoint.id, workspaceId, reason);
}

/** The service disables an endpoint: its pending deliveries end, the owner sees why, the audit log records it. */
async function disableEndpoint(tx: Db, endpointId: string, workspaceId: string, reason: string) {
  const endpoint = await tx.webhookEndpoint.findUnique({ where: { id: endpointId } });
  if (!endpoint?.enabled) return;
  await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false, disabledReason: reason } });
  await failPending(tx, endpoint.id, "The endpoint was disabled before this event could be delivered.");
  await recordAudit(
    tx,
    workspaceId,
    systemActor,
    "webhook.endpoint_disabled",
    { type: "webhook_endpoint", id: endpoint.id },
    { url: endpoint.url, reason },
  );
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
