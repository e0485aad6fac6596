import { personName } from "@/server/records/pieces/deleted-contact";
import type { Prisma } from "@/generated/prisma/client";
import { requireCampaign } from "@/server/records/campaign-records/lookup";
import type { Db } from "@/server/ground/db";
import { GIFT_CATALOG } from "@/server/programme/designs/gift-catalog";
import { responseLink } from "@/server/programme/drafts/response-link";
import { AppError } from "@/server/ground/errors";
import { RESPONSE_KINDS, type TResponseKind } from "./kinds";
import type { TShippingAddressInput } from "./shipping-address";

const badCursor = () =>
  new AppError("not_found", "The cursor does not name a response of this campaign.", {
    nextStep: "Call again without a cursor to start from the first page.",
  });

const select = {
  id: true,
  kind: true,
  occurredAt: true,
  data: true,
  pieceId: true,
  piece: {
    select: {
      contactId: true,
      contact: { select: { firstName: true, lastName: true, account: { select: { name: true } } } },
    },
  },
} satisfies Prisma.ResponseEventSelect;

export interface TResponseRow {
  responseId: string;
  kind: TResponseKind;
  occurredAt: Date;
  pieceId: string;
  contactId: string | null;
  recipient: string;
  company: string | null;
  /** reply: what the recipient wrote, and how they asked to be reached (if they said). */
  reply: { text: string; replyTo: string | null } | null;
  /** gift_claim: the gift chosen. */
  gift: { item: string; name: string } | null;
  /** address_change: the new version of the shipping address. */
  address: (TShippingAddressInput & { version: number }) | null;
}

function row(r: Prisma.ResponseEventGetPayload<{ select: typeof select }>): TResponseRow {
  const data = (r.data ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  const gift = r.kind === "gift_claim" ? text(data.gift) : null;
  const address =
    r.kind === "address_change" && data.address && typeof data.address === "object"
      ? (data.address as TShippingAddressInput)
      : null;
  return {
    responseId: r.id,
    kind: r.kind,
    occurredAt: r.occurredAt,
    pieceId: r.pieceId,
    contactId: r.piece.contactId,
    recipient: personName(r.piece.contact),
    company: r.piece.contact?.account?.name ?? null,
    reply: r.kind === "reply" ? { text: text(data.text) ?? "", replyTo: text(data.replyTo) } : null,
    gift: gift
      ? {
          item: gift,
          name: text(data.giftName) ?? (GIFT_CATALOG as Record<string, { name: string }>)[gift]?.name ?? gift,
        }
      : null,
    address: address ? { ...address, version: typeof data.toVersion === "number" ? data.toVersion : 0 } : null,
  };
}

/**
 * One page of what the service observed for a campaign (scans, clicks and hosted-page actions),
 * newest first, optionally of one kind, with each recipient and the action's details. An unknown
 * campaign or cursor is not found.
 */
export async function listResponses(
  db: Db,
  p: { workspaceId: string; campaignId: string; kind?: TResponseKind; cursor?: string | null; take: number },
) {
  await requireCampaign(db, p);
  if (
    p.cursor &&
    !(await db.responseEvent.findFirst({
      where: { id: p.cursor, campaignId: p.campaignId, workspaceId: p.workspaceId },
      select: { id: true },
    }))
  )
    throw badCursor();
  const rows = await db.responseEvent.findMany({
    where: { campaignId: p.campaignId, workspaceId: p.workspaceId, ...(p.kind ? { kind: p.kind } : {}) },
    orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
    select,
  });
  const page = rows.slice(0, p.take);
  return { responses: page.map(row), nextCursor: rows.length > p.take ? page[page.length - 1].id : null };
}

/** How many of each kind the campaign has (every kind named, zero included). */
export async function responseCounts(
  db: Db,
  p: { workspaceId: string; campaignId: string },
): Promise<Record<TResponseKind, number>> {
  await requireCampaign(db, p);
  const groups = await db.responseEvent.groupBy({
    by: ["kind"],
    where: { campaignId: p.campaignId, workspaceId: p.workspaceId },
    _count: { _all: true },
  });
  return Object.fromEntries(
    RESPONSE_KINDS.map((k) => [k, groups.find((g) => g.kind === k)?._count._all ?? 0]),
  ) as Record<TResponseKind, number>;
}

/**
 * The gifts of a campaign waiting for their recipient's claim, soonest to expire first: each
 * recipient's claim page, for the team to send them (by email, in their own sequence).
 */
export async function openGiftClaims(
  db: Db,
  p: { workspaceId: string; campaignId: string; cursor?: string | null; take: number; now?: Date },
) {
  await requireCampaign(db, p);
  const now = p.now ?? new Date();
  if (
    p.cursor &&
    !(await db.giftClaim.findFirst({
      where: { id: p.cursor, campaignId: p.campaignId, workspaceId: p.workspaceId },
      select: { id: true },
    }))
  ) {
    throw new AppError("not_found", "The cursor does not name a gift claim of this campaign.", {
      nextStep: "Call again without a cursor to start from the first page.",
    });
  }
  const rows = await db.giftClaim.findMany({
    where: { campaignId: p.campaignId, workspaceId: p.workspaceId, status: "open", expiresAt: { gt: now } },
    orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
    select: {
      id: true,
      expiresAt: true,
      createdAt: true,
      piece: {
        select: {
          id: true,
          responseCode: true,
          contact: {
            select: { id: true, firstName: true, lastName: true, email: true, account: { select: { name: true } } },
          },
        },
      },
    },
  });
  const page = rows.slice(0, p.take);
  return {
    claims: page.map((c) => ({
      claimId: c.id,
      pieceId: c.piece.id,
      contactId: c.piece.contact?.id ?? null,
      recipient: personName(c.piece.contact),
      company: c.piece.contact?.account?.name ?? null,
      email: c.piece.contact?.email ?? null,
      claimUrl: responseLink(c.piece.responseCode),
      openedAt: c.createdAt,
      expiresAt: c.expiresAt,
    })),
    nextCursor: rows.length > p.take ? page[page.length - 1].id : null,
  };
}
