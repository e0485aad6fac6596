import type { PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/audit/service";
import type { Db } from "@/server/db";
import { wakeEventsAfterMailingChange } from "@/server/entry/lifecycle/wake";
import { AppError } from "@/server/errors";
import { type BillingAdapter, billingAdapter } from "./billing";
import { PLANS, type TPlan } from "./plans";

/** What the Plan page shows: the current plan, both plans, the subscription, and mail still in flight. */
export async function getPlanOverview(db: Db, p: { workspaceId: string; billing?: BillingAdapter }) {
  const billing = p.billing ?? billingAdapter();
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true, planChangedAt: true, createdAt: true } });
  const [subscription, atPrinter, beforePrinter] = await Promise.all([
    db.billingSubscription.findFirst({ where: { workspaceId: p.workspaceId, status: "active" }, orderBy: { startedAt: "desc" } }),
    // Handed to the printer: mailed whatever the plan is now.
    db.mailPiece.count({ where: { workspaceId: p.workspaceId, status: "printed" } }),
    // Not yet with the printer: on the audit plan these are skipped at their next step.
    db.mailPiece.count({ where: { workspaceId: p.workspaceId, status: { in: ["pending_review", "approved", "rendered"] } } }),
  ]);
  return {
    plan: workspace.plan,
    since: workspace.planChangedAt ?? workspace.createdAt,
    mailingEnabled: workspace.plan === "paid",
    plans: [PLANS.audit, PLANS.paid],
    billing: { provider: billing.provider, chargesMoney: billing.chargesMoney },
    subscription: subscription && { id: subscription.id, provider: subscription.provider, providerRef: subscription.providerRef, monthlyPriceCents: subscription.monthlyPriceCents, startedAt: subscription.startedAt },
    piecesAtPrinter: atPrinter,
    piecesBeforePrinter: beforePrinter,
  };
}

/**
 * Moves the workspace to another plan: a person's act in the browser (confirmed there), or an
 * accepted change_plan card. To paid: a subscription starts with the billing provider and mail
 * can go out. To audit: the subscription is cancelled and new mail stops at once; pieces the
 * printer already has are still mailed (the lifecycle checks the plan at every step).
 */
export async function changePlanIn(tx: Db, p: { workspaceId: string; plan: TPlan; actor: Actor; now?: Date; billing?: BillingAdapter }) {
  const now = p.now ?? new Date();
  const billing = p.billing ?? billingAdapter();
  // One plan change at a time per workspace.
  const [current] = await tx.$queryRaw<{ plan: TPlan }[]>`SELECT plan::text AS plan FROM "Workspace" WHERE id = ${p.workspaceId} FOR UPDATE`;
  if (!current) throw new AppError("not_found", "No such workspace.");
  if (current.plan === p.plan) throw new AppError("invalid_state", `The workspace is already on the ${PLANS[p.plan].name.toLowerCase()}.`);
  const key = `${p.workspaceId}:${p.plan}:${now.toISOString()}`;
  if (p.plan === "paid") {
    const { providerRef } = await billing.startSubscription({ workspaceId: p.workspaceId, plan: "paid", monthlyPriceCents: PLANS.paid.monthlyPriceCents, idempotencyKey: key });
    await tx.billingSubscription.create({ data: { workspaceId: p.workspaceId, provider: billing.provider, providerRef, plan: "paid", monthlyPriceCents: PLANS.paid.monthlyPriceCents, startedAt: now } });
  } else {
    const active = await tx.billingSubscription.findMany({ where: { workspaceId: p.workspaceId, status: "active" } });
    for (const sub of active) await billing.cancelSubscription({ providerRef: sub.providerRef, idempotencyKey: `${key}:${sub.id}` });
    await tx.billingSubscription.updateMany({ where: { workspaceId: p.workspaceId, status: "active" }, data: { status: "cancelled", cancelledAt: now } });
  }
  await tx.workspace.update({ where: { id: p.workspaceId }, data: { plan: p.plan, planChangedAt: now } });
  // Each piece not yet with the printer learns of it now (and is skipped, giving back its budget).
  if (p.plan === "audit") await wakeEventsAfterMailingChange(tx, { workspaceId: p.workspaceId, now });
  await recordAudit(tx, p.workspaceId, p.actor, "plan.changed", { type: "workspace", id: p.workspaceId }, { from: current.plan, to: p.plan, billing: billing.provider });
  return { plan: p.plan, from: current.plan };
}

export function changePlan(prisma: PrismaClient, p: { workspaceId: string; plan: TPlan; actor: Actor; now?: Date; billing?: BillingAdapter }) {
  return prisma.$transaction((tx) => changePlanIn(tx, p));
}
