import type { MailPieceStatus, Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { hasPrintFile } from "./print-file";

/** What a piece shows (never its PDF bytes): status, cost, the recipient as printed, dates and the vendor's reference. */
const pieceSelect = {
  id: true,
  campaignId: true,
  contactId: true,
  status: true,
  costCents: true,
  recipient: true,
  pages: true,
  vendor: true,
  vendorRef: true,
  vendorMode: true,
  vendorIssue: true,
  vendorIssueDetail: true,
  trackingStatus: true,
  trackingEvents: true,
  createdAt: true,
  reviewedAt: true,
  renderedAt: true,
  printedAt: true,
  mailedAt: true,
  proofPdf: false,
  campaign: { select: { name: true } },
  contact: { select: { firstName: true, lastName: true } },
} satisfies Prisma.MailPieceSelect;

export type PieceRow = Prisma.MailPieceGetPayload<{ select: typeof pieceSelect }> & { hasProof: boolean };

async function withProofFlags(
  db: Db,
  workspaceId: string,
  rows: Prisma.MailPieceGetPayload<{ select: typeof pieceSelect }>[],
): Promise<PieceRow[]> {
  if (!rows.length) return [];
  const withProof = await db.mailPiece.findMany({
    where: { workspaceId, id: { in: rows.map((r) => r.id) }, ...hasPrintFile },
    select: { id: true },
  });
  const ids = new Set(withProof.map((r) => r.id));
  return rows.map((r) => ({ ...r, hasProof: ids.has(r.id) }));
}

/** One piece of the workspace. */
export async function getPiece(db: Db, p: { workspaceId: string; pieceId: string }): Promise<PieceRow> {
  const row = await db.mailPiece.findFirst({
    where: { id: p.pieceId, workspaceId: p.workspaceId },
    select: pieceSelect,
  });
  if (!row) throw new AppError("not_found", "No such mail piece.");
  return (await withProofFlags(db, p.workspaceId, [row]))[0];
}

/** A page of pieces, newest first, of one campaign, one contact, or both (each checked to be the workspace's). */
export async function listPieces(
  db: Db,
  p: {
    workspaceId: string;
    campaignId?: string;
    contactId?: string;
    status?: MailPieceStatus;
    cursor?: string | null;
    take: number;
  },
) {
  if (
    p.campaignId &&
    !(await db.campaign.findFirst({ where: { id: p.campaignId, workspaceId: p.workspaceId }, select: { id: true } }))
  )
    throw new AppError("not_found", "No such campaign.");
  if (
    p.contactId &&
    !(await db.contact.findFirst({ where: { id: p.contactId, workspaceId: p.workspaceId }, select: { id: true } }))
  )
    throw new AppError("not_found", "No such contact in this workspace.");
  const where: Prisma.MailPieceWhereInput = {
    workspaceId: p.workspaceId,
    ...(p.campaignId ? { campaignId: p.campaignId } : {}),
    ...(p.contactId ? { contactId: p.contactId } : {}),
    ...(p.status ? { status: p.status } : {}),
  };
  if (p.cursor && !(await db.mailPiece.findFirst({ where: { ...where, id: p.cursor }, select: { id: true } }))) {
    throw new AppError("not_found", "That cursor is not a page of this list.", {
      nextStep: "Call again without a cursor to start from the first page.",
    });
  }
  const rows = await db.mailPiece.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
    select: pieceSelect,
  });
  const page = rows.slice(0, p.take);
  return {
    items: await withProofFlags(db, p.workspaceId, page),
    nextCursor: rows.length > p.take ? page[page.length - 1].id : null,
  };
}
