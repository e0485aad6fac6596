import { Prisma } from "@/generated/prisma/client";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import type { Db } from "@/server/ground/db";
import type { TrackingEvent, TTrackingStatus } from "./adapter";
import { TRACKING_RANK } from "./tracking-names";

interface StoredEvent {
  status: TTrackingStatus;
  at: string;
  eventId: string | null;
}

const key = (e: StoredEvent) => e.eventId ?? `${e.status}@${e.at}`;

/** The piece's status from all its events: the latest by time, a tie going to the further status. */
export function currentStatus(events: StoredEvent[]): TTrackingStatus | null {
  let best: StoredEvent | null = null;
  for (const e of events) {
    if (!best || e.at > best.at || (e.at === best.at && TRACKING_RANK[e.status] > TRACKING_RANK[best.status])) best = e;
  }
  return best?.status ?? null;
}

/** One piece's new events, as a webhook or the sandbox's post reports them. */
export interface PieceTracking {
  workspaceId: string;
  pieceId: string;
  events: TrackingEvent[];
}

export interface TrackingResult {
  added: number;
  status: string | null;
  returned: boolean;
}

/**
 * Adds tracking events to a piece (from a webhook or a reconciliation read), whatever order they
 * come in: each event is kept once (by the vendor's id, else status and time), the status is the
 * latest event's, and the mailed date is the earliest event's (the vendor's real date, which lift
 * counts from). A piece the vendor has but the post did not yet have becomes `mailed`, and its
 * event is woken to complete (its budget hold is charged). A return to sender marks the
 * contact's address undeliverable, with the piece as its source, unless the piece went through a
 * vendor's test key (nothing was really mailed). Returns what changed.
 */
export async function recordTracking(db: Db, p: PieceTracking & { now: Date }): Promise<TrackingResult | null> {
  return (await recordTrackingMany(db, [p], p.now)).get(p.pieceId) ?? null;
}

/**
 * recordTracking for many pieces at once (the sandbox's post moves up to 500 a tick): one read of
 * the pieces, one update of those that gained an event, one wake of their events, whatever the
 * count. A piece of another workspace than its item names is left out, as a missing one is.
 */
export async function recordTrackingMany(
  db: Db,
  items: PieceTracking[],
  now: Date,
): Promise<Map<string, TrackingResult>> {
  const out = new Map<string, TrackingResult>();
  if (items.length === 0) return out;
  const pieces = await db.mailPiece.findMany({
    where: { id: { in: items.map((i) => i.pieceId) } },
    select: {
      id: true,
      workspaceId: true,
      status: true,
      trackingEvents: true,
      trackingStatus: true,
      mailedAt: true,
      contactId: true,
      enrollmentId: true,
      vendorMode: true,
    },
  });
  const byId = new Map(pieces.map((piece) => [piece.id, piece]));
  const updates: { id: string; events: StoredEvent[]; status: string | null; mailedAt: string; toMailed: boolean }[] =
    [];
  const wake: string[] = [];
  const returns: { contactId: string; workspaceId: string; pieceId: string }[] = [];
  for (const item of items) {
    const piece = byId.get(item.pieceId);
    if (!piece || piece.workspaceId !== item.workspaceId) continue;
    // A JSON column this function alone writes, as StoredEvent[].
    const before = Array.isArray(piece.trackingEvents) ? (piece.trackingEvents as unknown as StoredEvent[]) : [];
    const stored = before.slice();
    const known = new Set(stored.map(key));
    let added = 0;
    for (const e of item.events) {
      const s: StoredEvent = { status: e.status, at: e.at.toISOString(), eventId: e.eventId ?? null };
      if (known.has(key(s)) || (s.eventId === null && stored.some((x) => x.status === s.status && x.at === s.at)))
        continue;
      stored.push(s);
      known.add(key(s));
      added++;
    }
    if (added === 0) {
      out.set(piece.id, { added: 0, status: piece.trackingStatus, returned: false });
      continue;
    }
    stored.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : TRACKING_RANK[a.status] - TRACKING_RANK[b.status]));
    const status = currentStatus(stored);
    const firstAt = new Date(stored[0].at);
    const mailedAt = piece.mailedAt && piece.mailedAt < firstAt ? piece.mailedAt : firstAt;
    const toMailed = piece.status === "printed";
    updates.push({ id: piece.id, events: stored, status, mailedAt: mailedAt.toISOString(), toMailed });
    // The event waiting for the post completes at its next step (and charges its hold).
    if (toMailed && piece.enrollmentId) wake.push(piece.enrollmentId);
    const returned =
      item.events.some((e) => e.status === "returned_to_sender") &&
      !before.some((e) => e.status === "returned_to_sender");
    // A piece printed through a vendor's test key never reached the post: its simulated return says
    // nothing of the contact's real address, so the address is left as it is.
    if (returned && piece.contactId && piece.vendorMode !== "test")
      returns.push({ contactId: piece.contactId, workspaceId: piece.workspaceId, pieceId: piece.id });
    out.set(piece.id, { added, status, returned });
  }
  if (updates.length) {
    await hotSql(
      db,
      Prisma.sql`
      UPDATE "MailPiece" p
         SET "trackingEvents" = x.events, "trackingStatus" = x.status, "trackingUpdatedAt" = ${now.toISOString()}::timestamptz AT TIME ZONE 'UTC',
             "mailedAt" = x."mailedAt"::timestamptz AT TIME ZONE 'UTC',
             status = CASE WHEN x."toMailed" THEN 'mailed'::"MailPieceStatus" ELSE p.status END, "updatedAt" = timezone('UTC', now())
        FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS x(id text, events jsonb, status text, "mailedAt" text, "toMailed" boolean)
       WHERE p.id = x.id`,
    );
  }
  if (wake.length) {
    await db.entryEvent.updateMany({
      where: { enrollment: { id: { in: wake } }, status: { in: ["enrolled", "waiting", "processing"] } },
      data: { runAfter: now },
    });
  }
  for (const r of returns) {
    await db.contact.updateMany({
      where: { id: r.contactId, workspaceId: r.workspaceId },
      data: { addressStatus: "undeliverable", undeliverableReason: `returned to sender (piece ${r.pieceId})` },
    });
  }
  return out;
}
