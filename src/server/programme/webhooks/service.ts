import type { PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { checkEndpointUrl } from "./endpoint-url";
import { TEST_EVENT_TYPE } from "./events";
import { MAX_ENDPOINTS_PER_WORKSPACE, type TDeliveryView, type TEndpointView } from "./schema";
import { newSigningSecret, ROTATION_OVERLAP_MS, sealSecret } from "./secrets";
import { wakeWebhookDelivery } from "./wake";

/**
 * Webhook endpoints and their delivery log, for the workspace owner (Settings → Webhooks). Every
 * read and write is scoped to the workspace; a secret is shown once, when it is made.
 */

type EndpointRow = {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  lastSuccessAt: Date | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
};

export const endpointView = (e: EndpointRow, now = new Date()): TEndpointView => ({
  endpointId: e.id,
  url: e.url,
  description: e.description,
  events: e.events,
  enabled: e.enabled,
  disabledReason: e.disabledReason,
  failingSince: e.failingSince,
  lastSuccessAt: e.lastSuccessAt,
  previousSecretExpiresAt:
    e.previousSecretExpiresAt && e.previousSecretExpiresAt > now ? e.previousSecretExpiresAt : null,
  createdAt: e.createdAt,
});

const notFound = () => new AppError("not_found", "No such webhook endpoint in this workspace.");

async function findEndpoint(db: Db, workspaceId: string, endpointId: string) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, workspaceId } });
  if (!endpoint) throw notFound();
  return endpoint;
}

export async function createEndpoint(
  db: PrismaClient,
  p: { workspaceId: string; url: string; events: string[]; description?: string; actor: Actor },
): Promise<{ endpointId: string; secret: string; endpoint: TEndpointView }> {
  const url = await checkEndpointUrl(p.url);
  const secret = newSigningSecret();
  return db.$transaction(async (tx) => {
    const count = await tx.webhookEndpoint.count({ where: { workspaceId: p.workspaceId } });
    if (count >= MAX_ENDPOINTS_PER_WORKSPACE) {
      throw new AppError(
        "invalid_state",
        `A workspace can have at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints; delete one first. Nothing was saved.`,
      );
    }
    // The secret is sealed to the row's id, so the id is made first.
    const id = `whe_${crypto.randomUUID().replace(/-/g, "")}`;
    const endpoint = await tx.webhookEndpoint.create({
      data: {
        id,
        workspaceId: p.workspaceId,
        url,
        events: p.events,
        description: p.description?.trim() ?? "",
        secretSealed: sealSecret(secret, id),
      },
    });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "webhook.endpoint_created",
      { type: "webhook_endpoint", id },
      { url, events: p.events },
    );
    return { endpointId: id, secret, endpoint: endpointView(endpoint) };
  });
}

export async function listEndpoints(db: Db, p: { workspaceId: string }): Promise<TEndpointView[]> {
  const rows = await db.webhookEndpoint.findMany({
    where: { workspaceId: p.workspaceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => endpointView(r));
}

export async function updateEndpoint(
  db: PrismaClient,
  p: {
    workspaceId: string;
    endpointId: string;
    url?: string;
    events?: string[];
    description?: string;
    enabled?: boolean;
    actor: Actor;
  },
): Promise<TEndpointView> {
  const url = p.url === undefined ? undefined : await checkEndpointUrl(p.url);
  return db.$transaction(async (tx) => {
    const before = await findEndpoint(tx, p.workspaceId, p.endpointId);
    const reenabled = p.enabled === true && !before.enabled;
    const updated = await tx.webhookEndpoint.update({
      where: { id: before.id, workspaceId: p.workspaceId },
      data: {
        url,
        events: p.events,
        description: p.description?.trim(),
        enabled: p.enabled,
        // Enabled again by a person: the service's reason and the failing streak no longer apply.
        ...(reenabled ? { disabledReason: null, failingSince: null } : {}),
      },
    });
    if (p.enabled === false && before.enabled)
      await failPending(tx, before.id, "The endpoint was disabled before this event could be delivered.");
    const changes = Object.fromEntries(
      Object.entries({ url, events: p.events, description: p.description, enabled: p.enabled }).filter(
        ([, v]) => v !== undefined,
      ),
    );
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "webhook.endpoint_updated",
      { type: "webhook_endpoint", id: before.id },
      changes,
    );
    return endpointView(updated);
  });
}

export async function rotateSecret(
  db: PrismaClient,
  p: { workspaceId: string; endpointId: string; actor: Actor; now?: Date },
) {
  const now = p.now ?? new Date();
  const secret = newSigningSecret();
  return db.$transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, p.workspaceId, p.endpointId);
    const previousSecretExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS);
    await tx.webhookEndpoint.update({
      where: { id: endpoint.id, workspaceId: p.workspaceId },
      data: {
        secretSealed: sealSecret(secret, endpoint.id),
        previousSecretSealed: endpoint.secretSealed,
        previousSecretExpiresAt,
      },
    });
    await recordAudit(tx, p.workspaceId, p.actor, "webhook.secret_rotated", {
      type: "webhook_endpoint",
      id: endpoint.id,
    });
    return { endpointId: endpoint.id, secret, previousSecretExpiresAt };
  });
}

export async function deleteEndpoint(db: PrismaClient, p: { workspaceId: string; endpointId: string; actor: Actor }) {
  return db.$transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, p.workspaceId, p.endpointId);
    await tx.webhookEndpoint.delete({ where: { id: endpoint.id, workspaceId: p.workspaceId } });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "webhook.endpoint_deleted",
      { type: "webhook_endpoint", id: endpoint.id },
      { url: endpoint.url },
    );
    return { endpointId: endpoint.id, deleted: true as const };
  });
}

/** Pending deliveries of an endpoint that will not be attempted (disabled), ended as failed with the reason. */
export function failPending(db: Db, endpointId: string, reason: string) {
  return db.webhookDelivery.updateMany({
    where: { endpointId, status: "pending" },
    data: { status: "failed", lastError: reason, lockToken: null, lockedUntil: null },
  });
}

const ATTEMPTS_SHOWN = 5;

export async function listDeliveries(
  db: Db,
  p: { workspaceId: string; endpointId: string; cursor?: string | null; take?: number },
): Promise<{ deliveries: TDeliveryView[]; nextCursor: string | null }> {
  await findEndpoint(db, p.workspaceId, p.endpointId);
  const take = p.take ?? 20;
  const rows = await db.webhookDelivery.findMany({
    where: { endpointId: p.endpointId, workspaceId: p.workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
    include: {
      event: { select: { id: true, type: true } },
      attemptLog: { orderBy: { at: "desc" }, take: ATTEMPTS_SHOWN },
    },
  });
  const page = rows.slice(0, take);
  return {
    deliveries: page.map((d) => ({
      deliveryId: d.id,
      webhookId: d.event.id,
      type: d.event.type,
      status: d.status,
      attempts: d.attempts,
      nextAttemptAt: d.status === "pending" ? d.nextAttemptAt : null,
      lastStatus: d.lastStatus,
      lastError: d.lastError,
      deliveredAt: d.deliveredAt,
      createdAt: d.createdAt,
      attemptLog: d.attemptLog.map((a) => ({
        at: a.at,
        status: a.status,
        latencyMs: a.latencyMs,
        response: a.response,
      })),
    })),
    nextCursor: rows.length > take ? page[page.length - 1].id : null,
  };
}

/** The same event to the same endpoint again, now: a new delivery with the same webhook-id. */
export async function redeliver(db: PrismaClient, p: { workspaceId: string; deliveryId: string; actor: Actor }) {
  const made = await db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.findFirst({
      where: { id: p.deliveryId, workspaceId: p.workspaceId },
      include: { endpoint: true },
    });
    if (!delivery) throw new AppError("not_found", "No such webhook delivery in this workspace.");
    if (!delivery.endpoint.enabled)
      throw new AppError("invalid_state", "The endpoint is disabled; enable it first, then redeliver.");
    const again = await tx.webhookDelivery.create({
      data: { workspaceId: p.workspaceId, endpointId: delivery.endpointId, eventId: delivery.eventId },
    });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "webhook.redelivered",
      { type: "webhook_delivery", id: again.id },
      { of: delivery.id, webhookId: delivery.eventId },
    );
    return { deliveryId: again.id, webhookId: delivery.eventId };
  });
  wakeWebhookDelivery();
  return made;
}

/** A `webhook.test` event to one endpoint, whatever types it chose; follow it in the delivery log. */
export async function sendTestEvent(db: PrismaClient, p: { workspaceId: string; endpointId: string; actor: Actor }) {
  const made = await db.$transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, p.workspaceId, p.endpointId);
    if (!endpoint.enabled)
      throw new AppError("invalid_state", "The endpoint is disabled; enable it first, then send a test event.");
    const event = await tx.webhookEvent.create({
      data: {
        workspaceId: p.workspaceId,
        type: TEST_EVENT_TYPE,
        occurredAt: new Date(),
        data: {
          endpointId: endpoint.id,
          message: "A test event from Direct Mail: your endpoint received it and can verify its signature.",
        },
      },
    });
    const delivery = await tx.webhookDelivery.create({
      data: { workspaceId: p.workspaceId, endpointId: endpoint.id, eventId: event.id },
    });
    return { deliveryId: delivery.id, webhookId: event.id };
  });
  wakeWebhookDelivery();
  return made;
}
