import type { PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { TRANSACTION_OPTIONS } from "@/server/ground/platform/database";
import { hotTransaction } from "@/server/ground/platform/hot-transaction";
import { startTicker } from "@/server/ground/platform/ticker";
import type { TrackingEvent, TTrackingStatus } from "./adapter";
import { recordTrackingMany } from "./tracking";

/**
 * The sandbox printer's simulated post: every piece it mails moves through the same tracking
 * events Lob reports (mailed, in transit, in the local area, processed for delivery, delivered),
 * one simulated day apart, so a workspace trying the whole path sees its pieces move, and the
 * outbound webhooks and the pieces table get the events a real vendor sends. A piece whose first
 * address line says "return to sender" (a test address, as Lob's test mode has its own) comes
 * back instead, which marks its contact's address undeliverable as a real return does.
 *
 * A simulated day lasts SANDBOX_POST_DAY_MS (default one minute), so delivery takes five minutes.
 */
const ROUTE: [TTrackingStatus, number][] = [
  ["mailed", 0],
  ["in_transit", 1],
  ["in_local_area", 3],
  ["processed_for_delivery", 4],
  ["delivered", 5],
];
const RETURN_ROUTE: [TTrackingStatus, number][] = [
  ["mailed", 0],
  ["in_transit", 1],
  ["in_local_area", 3],
  ["returned_to_sender", 6],
];
/** How many pieces one tick moves along at most; the rest wait for the next tick. */
const CLAIM_LIMIT = 500;

export const sandboxDayMs = (env: NodeJS.ProcessEnv = process.env) => {
  const ms = Number(env.SANDBOX_POST_DAY_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 60_000;
};

/** Whether the sandbox's post returns a piece sent to this address line. */
export const returnsToSender = (addressLine1: string | null | undefined) =>
  /return(ed)?[\s-]*to[\s-]*sender/i.test(addressLine1 ?? "");

/** The simulated events of a piece mailed at `mailedAt` that are due by `now`. */
export function sandboxTrackingEvents(p: {
  pieceId: string;
  mailedAt: Date;
  returns: boolean;
  now: Date;
  dayMs?: number;
}): TrackingEvent[] {
  const day = p.dayMs ?? sandboxDayMs();
  return (p.returns ? RETURN_ROUTE : ROUTE)
    .map(([status, days]) => ({
      status,
      at: new Date(p.mailedAt.getTime() + days * day),
      eventId: `sandbox:${p.pieceId}:${status}`,
    }))
    .filter((e) => e.at <= p.now);
}

/**
 * Moves the sandbox's mailed pieces along their simulated route: claims pieces still on their way
 * (FOR UPDATE SKIP LOCKED, so every worker may tick), those it has not looked at for longest first
 * (by the oldest mailed date, the same 500 pieces waited out their route while newer ones had no
 * event at all), and records the events now due on each.
 * Returns how many pieces gained an event (of one workspace with `workspaceId`: tests beside others on one database).
 */
export async function advanceSandboxPost(
  prisma: PrismaClient,
  now = new Date(),
  dayMs = sandboxDayMs(),
  workspaceId?: string,
): Promise<number> {
  return hotTransaction(
    prisma,
    async (tx) => {
      const due = await tx.$queryRaw<
        {
          id: string;
          workspaceId: string;
          mailedAt: Date;
          addressLine1: string | null;
          trackingStatus: string | null;
        }[]
      >`
      SELECT p.id, p."workspaceId", p."mailedAt", c."addressLine1", p."trackingStatus"
        FROM "MailPiece" p LEFT JOIN "Contact" c ON c.id = p."contactId"
       WHERE p.vendor = 'sandbox' AND p.status = 'mailed' AND p."mailedAt" IS NOT NULL
         AND (p."trackingStatus" IS NULL OR p."trackingStatus" NOT IN ('delivered', 'returned_to_sender'))
         AND p."mailedAt" > ${new Date(now.getTime() - 60 * dayMs)}
         AND (${workspaceId ?? null}::text IS NULL OR p."workspaceId" = ${workspaceId ?? null})
       ORDER BY p."trackingUpdatedAt" NULLS FIRST, p."mailedAt"
       LIMIT ${CLAIM_LIMIT}
         FOR UPDATE OF p SKIP LOCKED`;
      const items = due.map((piece) => ({
        workspaceId: piece.workspaceId,
        pieceId: piece.id,
        events: sandboxTrackingEvents({
          pieceId: piece.id,
          mailedAt: piece.mailedAt,
          returns: returnsToSender(piece.addressLine1),
          now,
          dayMs,
        }),
      }));
      const results = await recordTrackingMany(tx as Db, items, now);
      return [...results.values()].filter((r) => r.added > 0).length;
    },
    TRANSACTION_OPTIONS,
  );
}

/** Ticks advanceSandboxPost every `intervalMs` in this process (the pieces' state is in the database). */
export function startSandboxPost(prisma: PrismaClient, options: { intervalMs?: number } = {}) {
  return startTicker("sandbox post", () => advanceSandboxPost(prisma), options.intervalMs ?? 15_000);
}
