import type { CardKind, ConfirmationCard } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import { changeCampaignStateIn, goLiveIn, setBudgetIn } from "@/server/programme/campaigns/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { requestPlanChangeIn } from "@/server/programme/plans/service";
import { wakeCampaignEvents, wakeEventOfEnrollment } from "@/server/ground/signals/entry-wake";

/**
 * What accepting (or declining) a card does, per kind, run inside the transaction that records the
 * decision, so it happens exactly once. Kinds without an executor cannot be accepted yet.
 */
export type CardExecutor = (
  db: Db,
  card: ConfirmationCard,
  decision: "accept" | "decline",
  now: Date,
  decidedBy?: Actor,
) => Promise<Record<string, unknown>>;

/** The person who accepted, or (for an expiry) the service; the audit log names both. */
function actorFor(card: ConfirmationCard, decidedBy?: Actor): Actor {
  return decidedBy ?? { kind: "system", id: null, label: `Card ${card.id}` };
}

const approvePiece: CardExecutor = async (db, card, decision, now) => {
  if (!card.pieceId) throw new Error(`card ${card.id} names no piece`);
  const piece = await db.mailPiece.findFirst({ where: { id: card.pieceId, workspaceId: card.workspaceId } });
  if (piece?.status !== "pending_review") return { piece: piece?.status ?? "missing" };
  await db.mailPiece.update({
    where: { id: piece.id },
    data: decision === "accept" ? { status: "approved", reviewedAt: now } : { status: "cancelled", reviewedAt: now },
  });
  if (piece.enrollmentId) await wakeEventOfEnrollment(db, piece.enrollmentId, now);
  return { piece: decision === "accept" ? "approved" : "cancelled" };
};

const goLiveCard: CardExecutor = async (db, card, decision, now, decidedBy) => {
  if (decision !== "accept") return {};
  if (!card.campaignId) throw new Error(`card ${card.id} names no campaign`);
  // The card runs only on the draft it described: an edit since then (even one that raced the card's creation) voids it.
  const draftVersion = (card.params as { draftVersion?: unknown } | null)?.draftVersion;
  const campaign = await goLiveIn(db, {
    workspaceId: card.workspaceId,
    campaignId: card.campaignId,
    actor: actorFor(card, decidedBy),
    now,
    draftVersion: typeof draftVersion === "number" ? draftVersion : undefined,
  });
  return { campaign: campaign.status, arms: campaign.arms };
};

const raiseBudgetCard: CardExecutor = async (db, card, decision, now, decidedBy) => {
  if (decision !== "accept") return {};
  if (!card.campaignId || card.budgetAfterCents == null) throw new Error(`card ${card.id} names no campaign or budget`);
  const current = await db.campaign.findFirst({
    where: { id: card.campaignId, workspaceId: card.workspaceId },
    select: { budgetCents: true },
  });
  if (current && current.budgetCents >= card.budgetAfterCents) {
    throw new AppError(
      "invalid_state",
      `The budget is already ${(current.budgetCents / 100).toFixed(2)} USD, not less than this card's ${(card.budgetAfterCents / 100).toFixed(2)} USD; nothing changed.`,
    );
  }
  const campaign = await setBudgetIn(db, {
    workspaceId: card.workspaceId,
    campaignId: card.campaignId,
    budgetCents: card.budgetAfterCents,
    actor: actorFor(card, decidedBy),
  });
  // Events waiting for budget headroom can go on now.
  await wakeCampaignEvents(db, campaign.id, now);
  return { budgetCents: campaign.budgetCents };
};

const changePlanCard: CardExecutor = async (db, card, decision, now, decidedBy) => {
  if (decision !== "accept") return {};
  const plan = (card.params as { plan?: "audit" | "paid" }).plan;
  if (plan !== "audit" && plan !== "paid") throw new Error(`card ${card.id} names no plan`);
  // Sandbox: the plan changes now. Stripe: the result carries the Checkout (or customer-portal)
  // address the owner's browser goes to; Stripe's webhook changes the plan once paid (or cancelled).
  return requestPlanChangeIn(db, { workspaceId: card.workspaceId, plan, actor: actorFor(card, decidedBy), now });
};

const resumeCard: CardExecutor = async (db, card, decision, now, decidedBy) => {
  if (decision !== "accept") return {};
  if (!card.campaignId) throw new Error(`card ${card.id} names no campaign`);
  const campaign = await changeCampaignStateIn(db, {
    workspaceId: card.workspaceId,
    campaignId: card.campaignId,
    change: "resume",
    actor: actorFor(card, decidedBy),
    now,
  });
  return { campaign: campaign.status };
};

export const cardExecutors: Partial<Record<CardKind, CardExecutor>> = {
  approve_piece: approvePiece,
  go_live: goLiveCard,
  raise_budget: raiseBudgetCard,
  change_plan: changePlanCard,
  resume_campaign: resumeCard,
};
