import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { recordAudit } from "@/server/ground/audit/service";
import type { TrackingEvent } from "./adapter";
import { openConnection } from "./connections";
import { recordTracking } from "./tracking";
import { trackingStatusOfEventType, trackingStatusOfName } from "./tracking-names";

/** Signatures older or newer than this are refused (a replayed request). */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000;

export interface WebhookAnswer {
  status: number;
  body: { received: boolean; duplicate?: boolean; error?: string };
}

/** Lob-Signature-Timestamp as a time: Unix seconds or milliseconds, or an ISO 8601 date. */
export function parseSignatureTimestamp(raw: string): Date | null {
  const t = raw.trim();
  if (/^\d{9,11}$/.test(t)) return new Date(Number(t) * 1000);
  if (/^\d{12,14}$/.test(t)) return new Date(Number(t));
  const d = new Date(t);
  return /^\d{4}-\d{2}-\d{2}T/.test(t) && !Number.isNaN(d.getTime()) ? d : null;
}

/** Whether `signature` is the hex HMAC-SHA256 of `<timestamp>.<raw body>` with the secret (constant time). */
export function verifyLobSignature(secret: string, rawBody: string, timestamp: string, signature: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}

const text = (max: number) => z.string().max(max);

/**
 * The parts of a Lob event the receiver reads. A signed body is still parsed: a value of the
 * wrong kind (an object for an id) must never reach a query. Other members are ignored.
 */
const ZLobEvent = z.object({
  id: text(200).min(1),
  reference_id: text(200),
  event_type: z.object({ id: text(200).min(1) }),
  date_created: text(100),
  body: z
    .object({
      id: text(200).nullish(),
      metadata: z.object({ piece_id: text(100).nullish() }).nullish(),
      failure_reason: z
        .object({ error_description: text(2000).nullish(), remediation: text(2000).nullish() })
        .nullish(),
      tracking_events: z
        .array(
          z.object({
            id: text(200).nullish(),
            name: text(200).nullish(),
            time: text(100).nullish(),
            date_created: text(100).nullish(),
          }),
        )
        .max(1000)
        .nullish(),
    })
    .nullish(),
});
type LobEvent = z.infer<typeof ZLobEvent>;

/** The first thing wrong with a body, as a sentence naming where. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length ? issue.path.join(".") : "the body";
  return `${where}: ${issue.message}`;
}

/**
 * A signed vendor body read as the vendor's event: its schema's data, or the 400 that says what is
 * wrong and where ("The body is not a Lob event: …"). Nothing is changed on a refusal.
 */
export function parseVendorEvent<T>(
  rawBody: string,
  schema: z.ZodType<T>,
  vendor: string,
): { ok: true; event: T } | { ok: false; answer: WebhookAnswer } {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return {
      ok: false,
      answer: { status: 400, body: { received: false, error: `The body is not a ${vendor} event: it is not JSON.` } },
    };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      answer: {
        status: 400,
        body: {
          received: false,
          error: `The body is not a ${vendor} event: ${firstIssue(parsed.error)}. Nothing was changed.`,
        },
      },
    };
  return { ok: true, event: parsed.data };
}

const unauthorized = (error: string): WebhookAnswer => ({ status: 401, body: { received: false, error } });

/**
 * A Lob webhook for one connection (POST /api/webhooks/lob/{connectionId}): the signature is
 * checked with that connection's secret and the timestamp must be within five minutes, else 401
 * and nothing changes. Each event is kept once by its id (a repeated delivery answers 200 and
 * changes nothing); tracking events may come in any order (tracking.ts keeps the latest status).
 */
export async function receiveLobWebhook(
  prisma: PrismaClient,
  p: { connectionId: string; rawBody: string; signature: string | null; timestamp: string | null; now?: Date },
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
  if (!p.signature || !p.timestamp)
    return unauthorized("The request is not signed (Lob-Signature and Lob-Signature-Timestamp).");
  const at = parseSignatureTimestamp(p.timestamp);
  if (!at || Math.abs(now.getTime() - at.getTime()) > WEBHOOK_TOLERANCE_MS)
    return unauthorized("The signature's timestamp is more than five minutes off.");
  if (!verifyLobSignature(secret, p.rawBody, p.timestamp, p.signature))
    return unauthorized("The signature does not match this webhook's secret.");

  const read = parseVendorEvent(p.rawBody, ZLobEvent, "Lob");
  if (!read.ok) return read.answer;
  const event: LobEvent = read.event;
  const type = event.event_type.id;
  return prisma.$transaction(async (tx) => {
    const piece = await tx.mailPiece.findFirst({
      where: {
        workspaceId,
        vendor: "lob",
        OR: [
          { vendorRef: event.reference_id },
          ...(event.body?.metadata?.piece_id ? [{ id: event.body.metadata.piece_id }] : []),
        ],
      },
      select: { id: true, status: true, enrollmentId: true },
    });
    const occurredAt = new Date(event.date_created);
    const stored = await tx.printVendorEvent.createMany({
      data: [
        {
          connectionId: p.connectionId,
          workspaceId,
          eventId: event.id.slice(0, 100),
          eventType: type.slice(0, 100),
          pieceId: piece?.id ?? null,
          occurredAt: Number.isNaN(occurredAt.getTime()) ? now : occurredAt,
        },
      ],
      skipDuplicates: true,
    });
    if (stored.count === 0) return { status: 200, body: { received: true, duplicate: true } };
    if (!piece) return { status: 200, body: { received: true } };
    const status = trackingStatusOfEventType(type);
    if (status) {
      // The USPS scan's own time when the piece's body carries it; else the event's.
      const scan = [...(event.body?.tracking_events ?? [])]
        .reverse()
        .find((t) => trackingStatusOfName(t.name ?? "") === status);
      const when = new Date(scan?.time ?? scan?.date_created ?? event.date_created);
      const events: TrackingEvent[] = [{ status, at: Number.isNaN(when.getTime()) ? now : when, eventId: event.id }];
      const result = await recordTracking(tx, { workspaceId, pieceId: piece.id, events, now });
      if (result?.returned)
        await recordAudit(
          tx,
          workspaceId,
          { kind: "system", id: null, label: "Lob" },
          "piece.returned_to_sender",
          { type: "mail_piece", id: piece.id },
          { eventId: event.id },
        );
    } else if (/\.(rejected|failed)$/.test(type) && (piece.status === "printed" || piece.status === "rendered")) {
      // Lob will never mail it: the piece is refused, its budget hold given back, and the owner told.
      const why = event.body?.failure_reason?.error_description ?? event.body?.failure_reason?.remediation;
      const detail = `Lob ${type.endsWith("rejected") ? "rejected" : "could not produce"} this piece (${type})${why ? `: ${why}` : ""}.`;
      await tx.mailPiece.update({
        where: { id: piece.id },
        data: { status: "failed", vendorIssue: "file_refused", vendorIssueDetail: detail.slice(0, 1000) },
      });
      if (piece.enrollmentId) {
        await tx.enrollment.update({ where: { id: piece.enrollmentId }, data: { status: "cancelled" } });
        await releaseHold(tx, piece.enrollmentId, now);
      }
      await recordAudit(
        tx,
        workspaceId,
        { kind: "system", id: null, label: "Lob" },
        "piece.refused_by_vendor",
        { type: "mail_piece", id: piece.id },
        { eventId: event.id, eventType: type, detail },
      );
    }
    return { status: 200, body: { received: true } };
  });
}

/** Gives a piece's held budget back to its campaign (the lifecycle's release, for a piece the vendor refused later). */
export async function releaseHold(tx: Prisma.TransactionClient, enrollmentId: string, now: Date) {
  const reservation = await tx.budgetReservation.findUnique({ where: { enrollmentId } });
  if (reservation?.status !== "held") return;
  await tx.budgetReservation.update({ where: { id: reservation.id }, data: { status: "released", releasedAt: now } });
  await tx.$executeRaw`
    UPDATE "Campaign" SET "reservedCents" = "reservedCents" - ${reservation.amountCents}, "updatedAt" = now() WHERE id = ${reservation.campaignId}`;
}
