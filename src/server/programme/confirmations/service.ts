import { GO_LIVE_TX } from "@/server/programme/campaigns/entry-policy";
import type { PrismaClient, Prisma } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { lockCampaign } from "@/server/programme/campaigns/service";
import { AppError } from "@/server/ground/errors";
import { forbiddenSentence, roleAllows, type TRole } from "@/server/ground/access/roles";
import { cardExecutors } from "./executors";
import { staleGoLiveReason } from "./go-live-checks";

export { expireCards } from "./expire-cards";

export function listCards(db: Db, p: { workspaceId: string; status?: "pending" | "decided"; take?: number }) {
  return db.confirmationCard.findMany({
    where: {
      workspaceId: p.workspaceId,
      ...(p.status === "pending"
        ? { status: "pending" }
        : p.status === "decided"
          ? { status: { not: "pending" } }
          : {}),
    },
    orderBy: { createdAt: p.status === "pending" ? "asc" : "desc" },
    take: p.take ?? 100,
  });
}

/** One page of cards (pending oldest first, decided newest first); an unknown cursor is not found. */
export async function pageCards(
  db: Db,
  p: { workspaceId: string; status: "pending" | "decided"; cursor?: string | null; take: number },
) {
  if (
    p.cursor &&
    !(await db.confirmationCard.findFirst({
      where: { id: p.cursor, workspaceId: p.workspaceId },
      select: { id: true },
    }))
  ) {
    throw new AppError("not_found", "The cursor does not name a card of this workspace.", {
      nextStep: "Call again without a cursor to start from the first page.",
    });
  }
  const dir = p.status === "pending" ? "asc" : "desc";
  const rows = await db.confirmationCard.findMany({
    where: {
      workspaceId: p.workspaceId,
      ...(p.status === "pending" ? { status: "pending" } : { status: { not: "pending" } }),
    },
    orderBy: [{ createdAt: dir }, { id: dir }],
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, p.take);
  return { cards: page, nextCursor: rows.length > p.take ? page[page.length - 1].id : null };
}

/** The review card of a piece (its latest), for pointing a person to it. */
export async function pieceReviewCard(db: Db, p: { workspaceId: string; pieceId: string }) {
  const card = await db.confirmationCard.findFirst({
    where: { workspaceId: p.workspaceId, kind: "approve_piece", pieceId: p.pieceId },
    orderBy: { createdAt: "desc" },
  });
  if (!card)
    throw new AppError("not_found", "No piece with this id has a review card in this workspace.", {
      nextStep: "Find pieces waiting for review with pieces_list and status pending_review.",
    });
  return card;
}

export function countPendingCards(db: Db, p: { workspaceId: string; now?: Date }) {
  return db.confirmationCard.count({
    where: { workspaceId: p.workspaceId, status: "pending", expiresAt: { gt: p.now ?? new Date() } },
  });
}

export async function getCard(db: Db, p: { workspaceId: string; cardId: string }) {
  const card = await db.confirmationCard.findFirst({ where: { id: p.cardId, workspaceId: p.workspaceId } });
  if (!card) throw new AppError("not_found", "No such confirmation card.");
  return card;
}

/**
 * A person's decision. Only a signed-in person's browser session (approver, admin or owner) reaches this (never an agent token, an
 * API key or a link). The pending -> decided update is conditional, so a card is decided once and
 * its action runs once, in the same transaction. A card about a campaign first takes the
 * campaign's lock, as draft edits do: an edit either lands before (and voids the card) or waits
 * until the decision is recorded (and then finds the campaign live).
 */
export async function decideCard(
  prisma: PrismaClient,
  p: {
    workspaceId: string;
    cardId: string;
    decision: "accept" | "decline";
    user: { id: string; email: string };
    /** An approver's limit per card (null: none); a card that costs more is theirs to decline, not accept. */
    approvalLimitCents?: number | null;
    /** The deciding person's role: a plan change is the owner's alone (plan and billing are). */
    role?: TRole;
    now?: Date;
  },
) {
  const now = p.now ?? new Date();
  return prisma.$transaction(async (tx) => {
    const card = await getCard(tx, p);
    if (p.decision === "accept" && card.kind === "change_plan" && p.role && !roleAllows(p.role, "own"))
      throw new AppError("forbidden", forbiddenSentence(p.role, "own"));
    const amount = card.costCents ?? card.budgetAfterCents;
    if (p.decision === "accept" && p.approvalLimitCents != null && amount != null && amount > p.approvalLimitCents)
      throw new AppError(
        "forbidden",
        `This card is for ${dollars(amount)}, above your approval limit of ${dollars(p.approvalLimitCents)}; an admin or the owner can accept it.`,
      );
    if (card.campaignId) await lockCampaign(tx, { workspaceId: p.workspaceId, campaignId: card.campaignId });
    // A go-live card whose audience or budget no longer matches what it said: expired with the reason, nothing runs.
    const stale =
      p.decision === "accept" && card.status === "pending" && card.expiresAt > now
        ? await staleGoLiveReason(tx, card)
        : null;
    if (stale) {
      await tx.confirmationCard.updateMany({
        where: { id: card.id, status: "pending" },
        data: { status: "expired", decidedAt: now, executionError: stale },
      });
      await recordAudit(
        tx,
        p.workspaceId,
        { kind: "user", id: p.user.id, label: p.user.email },
        `card.${card.kind}.expired_on_recheck`,
        { type: "confirmation_card", id: card.id },
        { reason: stale },
      );
      return tx.confirmationCard.findUniqueOrThrow({ where: { id: card.id } });
    }
    const updated = await tx.confirmationCard.updateMany({
      where: { id: card.id, workspaceId: p.workspaceId, status: "pending", expiresAt: { gt: now } },
      data: { status: p.decision === "accept" ? "accepted" : "declined", decidedAt: now, decidedByUserId: p.user.id },
    });
    if (updated.count !== 1) {
      const current = await tx.confirmationCard.findUniqueOrThrow({ where: { id: card.id }, select: { status: true } });
      const why =
        current.status === "pending"
          ? "it has expired"
          : current.status === "expired"
            ? "it has expired (the draft was edited after the request, or its time ran out)"
            : `it was already ${current.status}`;
      throw new AppError("invalid_state", `This card cannot be decided: ${why}.`);
    }
    const executor = cardExecutors[card.kind];
    let result: Record<string, unknown> = {};
    let executionError: string | null = null;
    if (executor) {
      try {
        result = await executor(tx, card, p.decision, now, { kind: "user", id: p.user.id, label: p.user.email });
      } catch (error) {
        if (error instanceof AppError) executionError = error.message;
        else throw error;
      }
    }
    const decided = await tx.confirmationCard.update({
      where: { id: card.id },
      data: {
        executedAt: p.decision === "accept" && !executionError ? now : null,
        executionError,
        result: result as Prisma.InputJsonValue,
      },
    });
    await recordAudit(
      tx,
      p.workspaceId,
      { kind: "user", id: p.user.id, label: p.user.email },
      `card.${card.kind}.${p.decision === "accept" ? "accepted" : "declined"}`,
      { type: "confirmation_card", id: card.id },
      { requestedBy: card.requestedByLabel, executionError },
    );
    return decided;
  }, GO_LIVE_TX);
}

/**
 * The requesting agent takes back its own pending card: it ends as expired with the reason, and
 * its subject is told as on expiry. Another requester's card, or a decided one, is refused.
 */
export async function withdrawCard(
  prisma: PrismaClient,
  p: { workspaceId: string; cardId: string; agentGrantId: string; actor: Actor; now?: Date },
) {
  const now = p.now ?? new Date();
  return prisma.$transaction(async (tx) => {
    const card = await getCard(tx, p);
    if (card.requestedByKind !== "agent" || card.requestedById !== p.agentGrantId) {
      throw new AppError(
        "invalid_state",
        "Only the agent that asked for a card can withdraw it; this one was requested by someone else.",
        { nextStep: "Leave it for a person to decide in the browser." },
      );
    }
    const updated = await tx.confirmationCard.updateMany({
      where: { id: card.id, workspaceId: p.workspaceId, status: "pending", expiresAt: { gt: now } },
      data: {
        status: "expired",
        decidedAt: now,
        executionError: `Withdrawn by ${p.actor.label} before anyone decided it.`,
      },
    });
    if (updated.count !== 1)
      throw new AppError(
        "invalid_state",
        `This card is no longer pending (it is ${card.status === "pending" ? "past its expiry" : card.status}), so there is nothing to withdraw.`,
      );
    await cardExecutors[card.kind]?.(tx, card, "decline", now);
    await recordAudit(tx, p.workspaceId, p.actor, `card.${card.kind}.withdrawn`, {
      type: "confirmation_card",
      id: card.id,
    });
    return tx.confirmationCard.findUniqueOrThrow({ where: { id: card.id } });
  });
}

const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
