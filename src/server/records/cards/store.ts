import type { CardKind, ConfirmationCard, Prisma } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { notify } from "@/server/records/email/notifications";
import { cardWaitingEmail } from "@/server/records/email/templates/notifications";

/**
 * The store of confirmation cards: a card is written here by whoever asks for one (an agent's
 * request, the lifecycle's review gate); deciding and carrying a card out is confirmations/.
 */
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
  /** What the card is about while pending ("go_live:<campaignId>"): one pending card per subject. */
  pendingKey?: string;
}

function cardData(card: NewCard) {
  return {
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
    pendingKey: card.pendingKey,
  };
}

/**
 * A card keyed on its subject: created, or, when one is already pending for the same subject
 * (also one a simultaneous identical request made a moment earlier), that one. The insert skips
 * a duplicate key instead of failing, so it is safe inside a transaction.
 */
export async function createKeyedCard(
  db: Db,
  card: NewCard & { pendingKey: string },
  now = new Date(),
): Promise<{ card: ConfirmationCard; created: boolean }> {
  // A card past its time that the worker has not expired yet gives its key up now.
  await db.confirmationCard.updateMany({
    where: { pendingKey: card.pendingKey, workspaceId: card.workspaceId, status: "pending", expiresAt: { lte: now } },
    data: { status: "expired", decidedAt: now },
  });
  const [created] = await db.confirmationCard.createManyAndReturn({ data: [cardData(card)], skipDuplicates: true });
  if (created) {
    await recordAudit(
      db,
      card.workspaceId,
      card.requestedBy,
      `card.${card.kind}.requested`,
      { type: "confirmation_card", id: created.id },
      { title: card.title },
    );
    await emailCardWaiting(db, created);
    return { card: created, created: true };
  }
  const existing = await db.confirmationCard.findFirst({
    where: { pendingKey: card.pendingKey, workspaceId: card.workspaceId },
  });
  if (!existing)
    throw new AppError("conflict", "Another request for the same thing was being decided at this moment; ask again.");
  return { card: existing, created: false };
}

/** A consequential request waiting for a signed-in person to accept or decline it in the browser. */
export async function createCard(db: Db, card: NewCard) {
  const created = await db.confirmationCard.create({ data: cardData(card) });
  await recordAudit(
    db,
    card.workspaceId,
    card.requestedBy,
    `card.${card.kind}.requested`,
    { type: "confirmation_card", id: created.id },
    { title: card.title },
  );
  await emailCardWaiting(db, created);
  return created;
}

/**
 * Tells every person who may accept the card that it waits (owner, admins, approvers whose limit
 * covers it), in the transaction that made it: the email exists exactly when the card does.
 */
function emailCardWaiting(db: Db, card: ConfirmationCard) {
  return notify(db, {
    workspaceId: card.workspaceId,
    kind: "card_waiting",
    subjectKey: card.id,
    amountCents: card.costCents ?? card.budgetAfterCents,
    render: (r) =>
      cardWaitingEmail({ workspaceId: card.workspaceId, workspaceName: r.workspaceName, role: r.role, card }),
  });
}
