import type { PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/audit/service";
import type { Db } from "@/server/db";
import { wakeEventsAfterMailingChange } from "@/server/signals/entry-wake";
import { AppError } from "@/server/errors";
import { type BillingAdapter, billingAdapter, type SandboxBillingAdapter } from "./billing";
import { LIVE_SUBSCRIPTION, openBillingPortal, startCheckout } from "./checkout";
import { PLANS, type TPlan } from "./plans";

/** What the Plan page shows: the current plan, both plans, the subscription and its payments, and mail still in flight. */
export async function getPlanOverview(db: Db, p: { workspaceId: string; billing?: BillingAdapter }) {
  const billing = p.billing ?? billingAdapter();
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true, planChangedAt: true, createdAt: true } });
  const [live, latest, lastInvoice, customer, atPrinter, beforePrinter] = await Promise.all([
    db.billingSubscription.findFirst({ where: { workspaceId: p.workspaceId, status: { in: [...LIVE_SUBSCRIPTION] } }, orderBy: { startedAt: "desc" } }),
    db.billingSubscription.findFirst({ where: { workspaceId: p.workspaceId, provider: billing.provider }, orderBy: [{ stateAt: { sort: "desc", nulls: "last" } }, { startedAt: "desc" }] }),
    db.billingInvoice.findFirst({ where: { workspaceId: p.workspaceId, provider: billing.provider }, orderBy: { stateAt: "desc" } }),
    db.billingCustomer.findFirst({ where: { workspaceId: p.workspaceId, provider: billing.provider }, select: { id: true } }),
    // Handed to the printer: mailed whatever the plan is now.
    db.mailPiece.count({ where: { workspaceId: p.workspaceId, status: "printed" } }),
    // Not yet with the printer: on the audit plan these are skipped at their next step.
    db.mailPiece.count({ where: { workspaceId: p.workspaceId, status: { in: ["pending_review", "approved", "rendered"] } } }),
  ]);
  const shown = live ?? (billing.provider === "stripe" ? latest : null);
  return {
    plan: workspace.plan,
    since: workspace.planChangedAt ?? workspace.createdAt,
    mailingEnabled: workspace.plan === "paid",
    plans: [PLANS.audit, PLANS.paid],
    billing: { provider: billing.provider, chargesMoney: billing.chargesMoney, canManage: billing.provider === "stripe" && customer !== null },
    subscription: shown && {
      id: shown.id,
      provider: shown.provider,
      providerRef: shown.providerRef,
      status: shown.status,
      providerStatus: shown.providerStatus,
      monthlyPriceCents: shown.monthlyPriceCents,
      startedAt: shown.startedAt,
      cancelledAt: shown.cancelledAt,
      nextInvoiceAt: shown.status === "active" || shown.status === "past_due" ? (shown.cancelAtPeriodEnd ? null : shown.currentPeriodEnd) : null,
      endsAt: shown.cancelAtPeriodEnd && shown.status !== "cancelled" ? shown.currentPeriodEnd : null,
    },
    lastPayment: lastInvoice && {
      status: lastInvoice.status,
      amountCents: lastInvoice.amountCents,
      currency: lastInvoice.currency,
      at: lastInvoice.stateAt,
      nextAttemptAt: lastInvoice.nextAttemptAt,
      invoiceUrl: lastInvoice.hostedUrl,
    },
    piecesAtPrinter: atPrinter,
    piecesBeforePrinter: beforePrinter,
  };
}

/**
 * Moves the workspace to another plan through the sandbox: a person's act in the browser
 * (confirmed there), or an accepted change_plan card. To paid: a subscription starts and mail can
 * go out. To audit: the subscription is cancelled and new mail stops at once; pieces the printer
 * already has are still mailed (the lifecycle checks the plan at every step).
 */
export async function changePlanIn(tx: Db, p: { workspaceId: string; plan: TPlan; actor: Actor; now?: Date; billing?: SandboxBillingAdapter }) {
  const now = p.now ?? new Date();
  const billing = p.billing ?? billingAdapter();
  if (billing.provider !== "sandbox") throw new Error("changePlanIn is the sandbox's path; Stripe changes the plan through its webhooks");
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

export type PlanChangeResult = { plan: TPlan; from: TPlan } | { checkoutUrl: string } | { portalUrl: string };

/**
 * A plan change asked for by the owner (the Plan page, or an accepted change_plan card). With the
 * sandbox it happens at once. With Stripe the paid plan answers the Checkout address (the plan
 * changes when Stripe's webhook says it was paid), and the audit plan is reached by cancelling in
 * the customer portal (its address is answered): the webhook ends the plan, never a second path.
 */
export async function requestPlanChangeIn(db: Db, p: { workspaceId: string; plan: TPlan; actor: Actor; now?: Date; billing?: BillingAdapter }): Promise<PlanChangeResult> {
  const billing = p.billing ?? billingAdapter();
  if (billing.provider === "sandbox") return changePlanIn(db, { ...p, billing });
  if (p.plan === "paid") return startCheckout(db, billing, p);
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true } });
  if (workspace.plan === "audit") throw new AppError("invalid_state", "The workspace is already on the free audit plan.");
  return openBillingPortal(db, billing, p);
}

export function changePlan(prisma: PrismaClient, p: { workspaceId: string; plan: TPlan; actor: Actor; now?: Date; billing?: BillingAdapter }): Promise<PlanChangeResult> {
  const billing = p.billing ?? billingAdapter();
  // Stripe's calls are not held inside a transaction.
  if (billing.provider === "stripe") return requestPlanChangeIn(prisma, { ...p, billing });
  return prisma.$transaction((tx) => requestPlanChangeIn(tx, { ...p, billing }));
}

/** "Manage billing": a Stripe customer-portal session (card, invoices, cancel). */
export function billingPortal(db: Db, p: { workspaceId: string; actor: Actor; billing?: BillingAdapter }) {
  const billing = p.billing ?? billingAdapter();
  if (billing.provider !== "stripe") throw new AppError("invalid_state", "Billing runs through the sandbox in this installation: there is no card or invoice to manage.");
  return openBillingPortal(db, billing, p);
}
