import { Webhook } from "standardwebhooks";
import { z } from "zod";
import type { PrismaClient } from "@/generated/prisma/client";
import { recordAudit } from "@/server/ground/audit/service";
import { openConnection } from "../../connections";
import { recordTracking } from "../../tracking";
import { parseVendorEvent, releaseHold, type WebhookAnswer } from "../../webhooks";
import { ZGoodyOrder } from "./api";
import { goodyTracking } from "./vendor";

/** A Goody event as its event pages show it: { event_type, id, data: Order } (the schema names the id event_id). */
const ZGoodyEvent = z.object({
  event_type: z.string().min(1).max(100),
  id: z.string().max(200).nullish(),
  event_id: z.string().max(200).nullish(),
  data: ZGoodyOrder,
});

const ACTOR = { kind: "system" as const, id: null, label: "Goody" };

/**
 * A Goody webhook for one connection (POST /api/webhooks/goody/{connectionId}). Goody sends them
 * through Svix, which signs as Standard Webhooks do (svix-id, svix-timestamp, svix-signature):
 * checked with the connection's signing secret, the timestamp within five minutes, else 401 and
 * nothing changes. Each message is kept once by its Svix id; order.shipped and order.delivered
 * add tracking, order.canceled and order.refunded end a gift not yet shipped (its hold released).
 */
export async function receiveGoodyWebhook(
  prisma: PrismaClient,
  p: { connectionId: string; rawBody: string; headers: Headers; now?: Date },
): Promise<WebhookAnswer> {
  const now = p.now ?? new Date();
  if (!/^pvc_[0-9a-f]{32}$/.test(p.connectionId))
    return { status: 404, body: { received: false, error: "No such webhook." } };
  let secret: string;
  let workspaceId: string;
  try {
    const c = await openConnection(prisma, p.connectionId);
    secret = c.webhookSecret;
    workspaceId = c.workspaceId;
  } catch {
    return { status: 404, body: { received: false, error: "No such webhook (the connection is gone)." } };
  }
  const h = (name: string) => p.headers.get(`svix-${name}`) ?? p.headers.get(`webhook-${name}`);
  const msgId = h("id");
  const timestamp = h("timestamp");
  const signature = h("signature");
  if (!msgId || !timestamp || !signature)
    return {
      status: 401,
      body: { received: false, error: "The request is not signed (svix-id, svix-timestamp, svix-signature)." },
    };
  const seconds = Number(timestamp);
  if (!Number.isFinite(seconds) || Math.abs(now.getTime() / 1000 - seconds) > 5 * 60)
    return {
      status: 401,
      body: { received: false, error: "The signature's timestamp is more than five minutes off." },
    };
  try {
    new Webhook(secret).verify(p.rawBody, {
      "webhook-id": msgId,
      "webhook-timestamp": timestamp,
      "webhook-signature": signature,
    });
  } catch {
    return { status: 401, body: { received: false, error: "The signature does not match this webhook's secret." } };
  }
  const read = parseVendorEvent(p.rawBody, ZGoodyEvent, "Goody");
  if (!read.ok) return read.answer;
  const event = read.event;
  const type = event.event_type;
  return prisma.$transaction(async (tx) => {
    const piece = await tx.mailPiece.findFirst({
      where: { workspaceId, vendor: "goody", vendorRef: event.data.id },
      select: { id: true, status: true, enrollmentId: true },
    });
    const stored = await tx.printVendorEvent.createMany({
      data: [
        {
          connectionId: p.connectionId,
          workspaceId,
          eventId: msgId.slice(0, 100),
          eventType: type.slice(0, 100),
          pieceId: piece?.id ?? null,
          occurredAt: new Date(seconds * 1000),
        },
      ],
      skipDuplicates: true,
    });
    if (stored.count === 0) return { status: 200, body: { received: true, duplicate: true } };
    if (!piece) return { status: 200, body: { received: true } };
    if (type === "order.shipped" || type === "order.delivered") {
      const events = goodyTracking({ ...event.data, status: type === "order.delivered" ? "delivered" : "shipped" });
      const wanted = type === "order.delivered" ? "delivered" : "mailed";
      const own = events.filter((e) => e.status === wanted);
      await recordTracking(tx, {
        workspaceId,
        pieceId: piece.id,
        events: own.length ? own : [{ status: wanted, at: now, eventId: `goody:${event.data.id}:${wanted}` }],
        now,
      });
    } else if (
      (type === "order.canceled" || type === "order.refunded") &&
      (piece.status === "printed" || piece.status === "rendered" || piece.status === "approved")
    ) {
      // Goody will not ship it: the piece ends, its budget hold is given back, and the owner sees why.
      const detail = `Goody ${type === "order.canceled" ? "cancelled" : "refunded"} this gift's order before it shipped (${type}).`;
      await tx.mailPiece.update({
        where: { id: piece.id },
        data: { status: "failed", vendorIssue: "cancelled_at_vendor", vendorIssueDetail: detail },
      });
      if (piece.enrollmentId) {
        await tx.enrollment.update({ where: { id: piece.enrollmentId }, data: { status: "cancelled" } });
        await releaseHold(tx, piece.enrollmentId, now);
      }
      await recordAudit(
        tx,
        workspaceId,
        ACTOR,
        "piece.refused_by_vendor",
        { type: "mail_piece", id: piece.id },
        {
          eventId: msgId,
          eventType: type,
          detail,
        },
      );
    } else if (type === "order.refunded") {
      await recordAudit(
        tx,
        workspaceId,
        ACTOR,
        "piece.refunded_by_vendor",
        { type: "mail_piece", id: piece.id },
        {
          eventId: msgId,
        },
      );
    }
    return { status: 200, body: { received: true } };
  });
}
