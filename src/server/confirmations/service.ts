import type { CardKind, PrismaClient, Prisma } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/audit/service";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { cardExecutors } from "./executors";

export interface NewCard {
  workspaceId: string;
  kind: CardKind;
  title: string;
  summary: string;
  params?: Prisma.InputJsonValue;
  campaignId?: string;
  pieceId?: string;
  costCents?: number;
  recipients?: number;
  budgetAfterCents?: number;
  requestedBy: Actor;
  expiresAt: Date;
}

/** A consequential request waiting for a signed-in person to accept or decline it in the browser. */
export async function createCard(db: Db, card: NewCard) {
  const created = await db.confirmationCard.create({
    data: {
      workspaceId: card.workspaceId,
      kind: card.kind,
      title: card.title,
      summary: card.summary,
      params: card.params ?? {},
      campaignId: card.campaignId,
      pieceId: card.pieceId,
      costCents: card.costCents,
      recipients: card.recipients,
      budgetAfterCents: card.budgetAfterCents,
      requestedByKind: card.requestedBy.kind,
      requestedById: card.requestedBy.id,
      requestedByLabel: card.requestedBy.label,
      expiresAt: card.expiresAt,
    },
  });
  await recordAudit(db, card.workspaceId, card.requestedBy, `card.${card.kind}.requested`, { type: "confirmation_card", id: created.id }, { title: card.title });
  return created;
}

export function listCards(db: Db, p: { workspaceId: string; status?: "pending" | "decided"; take?: number }) {
  return db.confirmationCard.findMany({
    where: {
      workspaceId: p.workspaceId,
      ...(p.status === "pending" ? { status: "pending" } : p.status === "decided" ? { status: { not: "pending" } } : {}),
    },
    orderBy: { createdAt: p.status === "pending" ? "asc" : "desc" },
    take: p.take ?? 100,
  });
}

export function countPendingCards(db: Db, p: { workspaceId: string; now?: Date }) {
  return db.confirmationCard.count({ where: { workspaceId: p.workspaceId, status: "pending", expiresAt: { gt: p.now ?? new Date() } } });
}

export async function getCard(db: Db, p: { workspaceId: string; cardId: string }) {
  const card = await db.confirmationCard.findFirst({ where: { id: p.cardId, workspaceId: p.workspaceId } });
  if (!card) throw new AppError("not_found", "No such confirmation card.");
  return card;
}

/**
 * A person's decision. Only the owner's browser session reaches this (never an agent token, an
 * API key or a link). The pending -> decided update is conditional, so a card is decided once and
 * its action runs once, in the same transaction.
 */
export async function decideCard(
  prisma: PrismaClient,
  p: { workspaceId: string; cardId: string; decision: "accept" | "decline"; user: { id: string; email: string }; now?: Date },
) {
  const now = p.now ?? new Date();
  return prisma.$transaction(async (tx) => {
    const card = await getCard(tx, p);
    const updated = await tx.confirmationCard.updateMany({
      where: { id: card.id, workspaceId: p.workspaceId, status: "pending", expiresAt: { gt: now } },
      data: { status: p.decision === "accept" ? "accepted" : "declined", decidedAt: now, decidedByUserId: p.user.id },
    });
    if (updated.count !== 1) {
      const why = card.status === "pending" ? "it has expired" : `it was already ${card.status}`;
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
      data: { executedAt: p.decision === "accept" && !executionError ? now : null, executionError, result: result as Prisma.InputJsonValue },
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
  });
}

/** Marks pending cards past their time as expired and lets their subjects know (run by the worker). */
export async function expireCards(prisma: PrismaClient, now = new Date()) {
  const due = await prisma.confirmationCard.findMany({ where: { status: "pending", expiresAt: { lte: now } }, select: { id: true } });
  for (const { id } of due) {
    await prisma.$transaction(async (tx) => {
      const card = await tx.confirmationCard.findUniqueOrThrow({ where: { id } });
      const updated = await tx.confirmationCard.updateMany({ where: { id, status: "pending" }, data: { status: "expired", decidedAt: now } });
      if (updated.count === 1) await cardExecutors[card.kind]?.(tx, card, "decline", now);
    });
  }
  return due.length;
}
