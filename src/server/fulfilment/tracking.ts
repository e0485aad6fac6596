import type { Db } from "@/server/db";
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

/**
 * Adds tracking events to a piece (from a webhook or a reconciliation read), whatever order they
 * come in: each event is kept once (by the vendor's id, else status and time), the status is the
 * latest event's, and the mailed date is the earliest event's (the vendor's real date, which lift
 * counts from). A piece the vendor has but the post did not yet have becomes `mailed`, and its
 * event is woken to complete (its budget hold is charged). A return to sender marks the
 * contact's address undeliverable, with the piece as its source. Returns what changed.
 */
export async function recordTracking(db: Db, p: { workspaceId: string; pieceId: string; events: TrackingEvent[]; now: Date }) {
  const piece = await db.mailPiece.findFirst({ where: { id: p.pieceId, workspaceId: p.workspaceId }, select: { id: true, status: true, trackingEvents: true, trackingStatus: true, mailedAt: true, contactId: true, enrollmentId: true } });
  if (!piece) return null;
  const stored = (Array.isArray(piece.trackingEvents) ? (piece.trackingEvents as unknown as StoredEvent[]) : []).slice();
  const known = new Set(stored.map(key));
  let added = 0;
  for (const e of p.events) {
    const s: StoredEvent = { status: e.status, at: e.at.toISOString(), eventId: e.eventId ?? null };
    if (known.has(key(s)) || (s.eventId === null && stored.some((x) => x.status === s.status && x.at === s.at))) continue;
    stored.push(s);
    known.add(key(s));
    added++;
  }
  if (added === 0) return { added: 0, status: piece.trackingStatus, returned: false };
  stored.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : TRACKING_RANK[a.status] - TRACKING_RANK[b.status]));
  const status = currentStatus(stored);
  const firstAt = new Date(stored[0].at);
  const mailedAt = piece.mailedAt && piece.mailedAt < firstAt ? piece.mailedAt : firstAt;
  const toMailed = piece.status === "printed";
  await db.mailPiece.update({
    where: { id: piece.id },
    data: {
      trackingEvents: stored as unknown as object[],
      trackingStatus: status,
      trackingUpdatedAt: p.now,
      mailedAt,
      ...(toMailed ? { status: "mailed" } : {}),
    },
  });
  if (toMailed && piece.enrollmentId) {
    // The event waiting for the post completes at its next step (and charges its hold).
    await db.entryEvent.updateMany({ where: { enrollment: { id: piece.enrollmentId }, status: { in: ["enrolled", "waiting", "processing"] } }, data: { runAfter: p.now } });
  }
  const returned = p.events.some((e) => e.status === "returned_to_sender") && !(piece.trackingEvents as unknown as StoredEvent[]).some?.((e) => e.status === "returned_to_sender");
  if (returned && piece.contactId) {
    await db.contact.updateMany({
      where: { id: piece.contactId, workspaceId: p.workspaceId },
      data: { addressStatus: "undeliverable", undeliverableReason: `returned to sender (piece ${piece.id})` },
    });
  }
  return { added, status, returned };
}
