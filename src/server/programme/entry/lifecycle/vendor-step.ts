import { printedName } from "@/server/records/addresses/scripts";
import type { MailPiece, PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import {
  type FulfilmentAdapter,
  type PostalAddress,
  type PrintJobRequest,
  type PrintJobResult,
  type TVendorIssue,
  VendorError,
} from "@/server/programme/fulfilment/adapter";
import { suspendForRevokedKey } from "@/server/programme/fulfilment/connections";
import { vendorLabel } from "@/server/programme/fulfilment/vendors/connectors";
import { LOB_IDEMPOTENCY_LIFETIME_MS } from "@/server/programme/fulfilment/vendors/lob";
import type { TPrintFormat } from "@/server/programme/fulfilment/sizes";
import { piecePdf, type PrintFileFields } from "@/server/records/pieces/print-file";
import { releaseReservation } from "./gates/budget";

/** Before Lob forgets an idempotency key (24 h), with a margin: after it, a retry could print twice. */
export const CREATE_RETRY_WINDOW_MS = LOB_IDEMPOTENCY_LIFETIME_MS - 60 * 60_000;

/** What the vendor step came to for one piece. */
export type VendorOutcome =
  | { kind: "job"; job: PrintJobResult }
  | { kind: "refused"; issue: TVendorIssue; message: string };

type PieceForVendor = Pick<
  MailPiece,
  "id" | "workspaceId" | "recipient" | "vendorRef" | "vendorSubmittedAt" | "contactId" | "copy"
> &
  PrintFileFields;
interface ContractForVendor {
  format: string;
  size: string | null;
  connectionId?: string | null;
}

/** The recipient as a structured address (the piece's snapshot; pieces made before it existed read the contact). */
async function recipientAddress(db: Db, piece: PieceForVendor): Promise<PostalAddress | null> {
  const r = piece.recipient as { name?: string; address?: PostalAddress };
  if (r.address) return r.address;
  if (!piece.contactId) return null;
  const c = await db.contact.findFirst({
    where: { id: piece.contactId, workspaceId: piece.workspaceId },
    include: { account: { select: { name: true } } },
  });
  if (!c?.addressLine1 || !c.city || !c.postalCode) return null;
  return {
    name: r.name ?? printedName(c),
    company: c.account?.name ?? null,
    line1: c.addressLine1,
    line2: c.addressLine2,
    city: c.city,
    region: c.region,
    postalCode: c.postalCode,
    country: c.country ?? "US",
  };
}

/** The sender: the brand kit's company and return address. */
async function senderAddress(db: Db, workspaceId: string): Promise<PostalAddress | null> {
  const b = await db.brandKit.findUnique({ where: { workspaceId } });
  if (!b?.returnAddressLine1 || !b.returnCity || !b.returnPostalCode) return null;
  return {
    name: b.companyName,
    company: b.companyName,
    line1: b.returnAddressLine1,
    line2: b.returnAddressLine2,
    city: b.returnCity,
    region: b.returnRegion,
    postalCode: b.returnPostalCode,
    country: b.returnCountry,
  };
}

/**
 * The vendor's part for one piece, never printing twice:
 * - a piece the vendor already has (vendorRef) is only read back (`reconcile`), never created again;
 * - the first attempt is recorded before the call (vendorSubmittedAt), and a create whose answer
 *   was lost is retried with the same idempotency key (the piece id) while the vendor still
 *   remembers it; after that the piece goes to a person ("unconfirmed") instead of a blind re-send;
 * - refused addresses and files end the piece with a closed reason; rate limits and outages are
 *   thrown for the runner's back-off; a refused key suspends the connection's contracts.
 */
export async function sendToVendor(
  prisma: PrismaClient,
  adapter: Pick<FulfilmentAdapter, "vendor" | "submit" | "reconcile">,
  piece: PieceForVendor,
  contract: ContractForVendor,
  now: Date,
): Promise<VendorOutcome> {
  const format = contract.format as TPrintFormat;
  try {
    if (piece.vendorRef && adapter.reconcile) {
      return {
        kind: "job",
        job: await adapter.reconcile({
          pieceId: piece.id,
          vendorRef: piece.vendorRef,
          format,
          connectionId: contract.connectionId,
        }),
      };
    }
    const attempt = piece.vendorSubmittedAt ? ("retry" as const) : ("first" as const);
    if (adapter.reconcile) {
      // A real vendor: the first attempt's time is written before the call, so a crash after it is known.
      if (!piece.vendorSubmittedAt) {
        // Only a piece still waiting for the printer: one cancelled meanwhile (its contact deleted,
        // its campaign paused) is never sent; the event is retried and finds itself ended.
        const marked = await prisma.mailPiece.updateMany({
          where: { id: piece.id, vendorSubmittedAt: null, status: { in: ["approved", "rendered"] } },
          data: { vendorSubmittedAt: now },
        });
        if (marked.count === 0)
          throw new Error(`piece ${piece.id} is no longer waiting for the printer (cancelled meanwhile); not sent`);
      } else if (now.getTime() - piece.vendorSubmittedAt.getTime() > CREATE_RETRY_WINDOW_MS) {
        return {
          kind: "refused",
          issue: "unconfirmed",
          message: `We could not confirm this piece with ${vendorLabel(adapter.vendor)}: its first request's answer was lost and the idempotency key has expired, so it is not sent again blindly. Check the vendor's dashboard for a piece with metadata piece_id ${piece.id}.`,
        };
      }
    }
    const [to, from] = await Promise.all([recipientAddress(prisma, piece), senderAddress(prisma, piece.workspaceId)]);
    const r = piece.recipient as { lines?: string[] };
    const job = await adapter.submit({
      pieceId: piece.id,
      workspaceId: piece.workspaceId,
      format,
      pdf: piecePdf(piece)!,
      addressLines: r.lines ?? [],
      size: contract.size,
      to,
      from,
      connectionId: contract.connectionId,
      copy: piece.copy as PrintJobRequest["copy"],
      attempt,
    });
    return { kind: "job", job };
  } catch (error) {
    if (!(error instanceof VendorError)) throw error;
    if (error.reason === "address_refused" || error.reason === "file_refused")
      return { kind: "refused", issue: error.reason, message: error.message };
    if (error.reason === "key_revoked" && contract.connectionId)
      await suspendForRevokedKey(prisma, { connectionId: contract.connectionId, message: error.message });
    throw error;
  }
}

/**
 * A piece the vendor refused (or could not confirm) goes to a person: the piece is marked failed
 * with its closed reason and sentence, its budget hold released, and its event ends `failed`
 * with that sentence. Only while this worker holds the event's lease.
 */
export async function refusePiece(
  db: Db,
  p: {
    eventId: string;
    token: string;
    pieceId: string;
    enrollmentId: string | null;
    issue: TVendorIssue;
    message: string;
    now: Date;
  },
) {
  const held = await db.entryEvent.updateMany({
    where: { id: p.eventId, lockToken: p.token },
    data: {
      status: "failed",
      completedAt: p.now,
      lastError: p.message.slice(0, 2000),
      lockToken: null,
      lockedUntil: null,
    },
  });
  if (held.count === 0) return false;
  await db.mailPiece.update({
    where: { id: p.pieceId },
    data: { status: "failed", vendorIssue: p.issue, vendorIssueDetail: p.message.slice(0, 1000) },
  });
  if (p.enrollmentId) {
    await db.enrollment.update({ where: { id: p.enrollmentId }, data: { status: "cancelled" } });
    // An unconfirmed piece may still exist at the vendor: its hold stays for a person to settle.
    if (p.issue !== "unconfirmed") {
      await releaseReservation(db, { enrollmentId: p.enrollmentId, now: p.now });
    }
  }
  return true;
}
