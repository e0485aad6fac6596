import type { PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { wakeEventsAfterMailingChange } from "@/server/ground/signals/entry-wake";
import { AppError } from "@/server/ground/errors";
import { type BillingAdapter, billingAdapter, type SandboxBillingAdapter } from "./billing";
import { LIVE_SUBSCRIPTION, openBillingPortal, startCheckout } from "./checkout";
import { PLANS, type TPlan } from "./plans";

/** Whether a Stripe subscription that keeps the paid plan (active or past due) bills this workspace. */
export async function billedByStripe(db: Db, workspaceId: string): Promise<boolean> {
  return (
    (await db.billingSubscription.count({
      where: { workspaceId, provider: "stripe", status: { in: [...LIVE_SUBSCRIPTION] } },
    })) > 0
  );
}

/** What the Plan page shows: the current plan, both plans, the subscription and its payments, and mail still in flight. */
export async function getPlanOverview(db: Db, p: { workspaceId: string; billing?: BillingAdapter }) {
  const billing = p.billing ?? billingAdapter();
  const workspace = await db.workspace.findUniqueOrThrow({
    where: { id: p.workspaceId },
    select: { plan: true, planChangedAt: true, createdAt: true },
  });
  const [live, latest, lastInvoice, customer, atPrinter, beforePrinter] = await Promise.all([
    db.billingSubscription.findMany({
      where: { workspaceId: p.workspaceId, status: { in: [...LIVE_SUBSCRIPTION] } },
      orderBy: { startedAt: "desc" },
    }),
    db.billingSubscription.findFirst({
      where: { workspaceId: p.workspaceId, provider: billing.provider },
      orderBy: [{ stateAt: { sort: "desc", nulls: "last" } }, { startedAt: "desc" }],
    }),
    db.billingInvoice.findFirst({
      where: { workspaceId: p.workspaceId, provider: billing.provider },
      orderBy: { stateAt: "desc" },
    }),
    db.billingCustomer.findFirst({
      where: { workspaceId: p.workspaceId, provider: billing.provider },
      select: { id: true },
    }),
    // Handed to the printer: mailed whatever the plan is now.
    db.mailPiece.count({ where: { workspaceId: p.workspaceId, status: "printed" } }),
    // Not yet with the printer: on the audit plan these are skipped at their next step.
    db.mailPiece.count({
      where: { workspaceId: p.workspaceId, status: { in: ["pending_review", "approved", "rendered"] } },
    }),
  ]);
  const liveStripe = live.find((s) => s.provider === "stripe") ?? null;
  // With Stripe on, a paid plan no Stripe subscription bills: granted by the sandbox (before Stripe
  // billing was turned on; the demo's too) or without any subscription. Nothing is charged for it.
  const paidWithoutStripe = billing.provider === "stripe" && workspace.plan === "paid" && liveStripe === null;
  // The sandbox's subscription of such a plan is shown as what it is (provider "sandbox"), never an ended Stripe one.
  const shown = liveStripe ?? live[0] ?? (billing.provider === "stripe" && !paidWithoutStripe ? latest : null);
  return {
    plan: workspace.plan,
    since: workspace.planChangedAt ?? workspace.createdAt,
    mailingEnabled: workspace.plan === "paid",
    plans: [PLANS.audit, PLANS.paid],
    billing: {
      provider: billing.provider,
      chargesMoney: billing.chargesMoney,
      canManage: billing.provider === "stripe" && customer !== null,
      paidWithoutStripe,
    },
    subscription: shown && {
      id: shown.id,
      provider: shown.provider,
      providerRef: shown.providerRef,
      status: shown.status,
      providerStatus: shown.providerStatus,
      monthlyPriceCents: shown.monthlyPriceCents,
      startedAt: shown.startedAt,
      cancelledAt: shown.cancelledAt,
      nextInvoiceAt:
        shown.status === "active" || shown.status === "past_due"
          ? shown.cancelAtPeriodEnd
            ? null
            : shown.currentPeriodEnd
          : null,
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

/** The sandbox's refusal to end a subscription Stripe bills (Stripe billing was turned off on this server after it started). */
export const STRIPE_SUBSCRIPTION_NOT_ENDED_HERE =
  "This workspace's paid plan is billed by Stripe, and Stripe billing is not set up on this server, so it cannot be cancelled from here. Nothing changed: set up Stripe billing on this server again, then cancel through the billing portal; the plan follows Stripe's answer.";

/**
 * Moves the workspace to another plan through the sandbox: a person's act in the browser
 * (confirmed there), or an accepted change_plan card. To paid: a subscription starts and mail can
 * go out. To audit: the subscription is cancelled and new mail stops at once; pieces the printer
 * already has are still mailed (the lifecycle checks the plan at every step).
 */
export async function changePlanIn(
  tx: Db,
  p: { workspaceId: string; plan: TPlan; actor: Actor; now?: Date; billing?: SandboxBillingAdapter },
) {
  const now = p.now ?? new Date();
  const billing = p.billing ?? billingAdapter();
  if (billing.provider !== "sandbox")
    throw new Error("changePlanIn is the sandbox's path; Stripe changes the plan through its webhooks");
  // One plan change at a time per workspace.
  const [current] = await tx.$queryRaw<
    { plan: TPlan }[]
  >`SELECT plan::text AS plan FROM "Workspace" WHERE id = ${p.workspaceId} FOR UPDATE`;
  if (!current) throw new AppError("not_found", "No such workspace.");
  if (current.plan === p.plan)
    throw new AppError("invalid_state", `The workspace is already on the ${PLANS[p.plan].name.toLowerCase()}.`);
  const key = `${p.workspaceId}:${p.plan}:${now.toISOString()}`;
  if (p.plan === "paid") {
    const { providerRef } = await billing.startSubscription({
      workspaceId: p.workspaceId,
      plan: "paid",
      monthlyPriceCents: PLANS.paid.monthlyPriceCents,
      idempotencyKey: key,
    });
    await tx.billingSubscription.create({
      data: {
        workspaceId: p.workspaceId,
        provider: billing.provider,
        providerRef,
        plan: "paid",
        monthlyPriceCents: PLANS.paid.monthlyPriceCents,
        startedAt: now,
      },
    });
  } else {
    // Every subscription that keeps the plan paid: active, or past due (Stripe still tries to charge it).
    const live = await tx.billingSubscription.findMany({
      where: { workspaceId: p.workspaceId, status: { in: [...LIVE_SUBSCRIPTION] } },
    });
    // A subscription Stripe bills can only end at Stripe: marking it cancelled here would leave Stripe charging the card.
    if (live.some((s) => s.provider === "stripe"))
      throw new AppError("invalid_state", STRIPE_SUBSCRIPTION_NOT_ENDED_HERE);
    for (const sub of live)
      await billing.cancelSubscription({ providerRef: sub.providerRef, idempotencyKey: `${key}:${sub.id}` });
    await tx.billingSubscription.updateMany({
      where: { workspaceId: p.workspaceId, status: { in: [...LIVE_SUBSCRIPTION] } },
      data: { status: "cancelled", cancelledAt: now },
    });
  }
  await tx.workspace.update({ where: { id: p.workspaceId }, data: { plan: p.plan, planChangedAt: now } });
  // Each piece not yet with the printer learns of it now (and is skipped, giving back its budget).
  if (p.plan === "audit") await wakeEventsAfterMailingChange(tx, { workspaceId: p.workspaceId, now });
  await recordAudit(
    tx,
    p.workspaceId,
    p.actor,
    "plan.changed",
    { type: "workspace", id: p.workspaceId },
    { from: current.plan, to: p.plan, billing: billing.provider },
  );
  return { plan: p.plan, from: current.plan };
}

export type PlanChangeResult = { plan: TPlan; from: TPlan } | { checkoutUrl: string } | { portalUrl: string };

/**
 * With Stripe billing, the way back to the audit plan from a paid plan that Stripe does not bill:
 * one granted by the sandbox (an `sbx_sub_…` subscription, chosen before Stripe billing was turned
 * on, or the demo's) or without any subscription. Stripe has no subscription to cancel, so it is
 * not called: the sandbox subscription ends here, new mail stops at once as with any move to the
 * audit plan, and the audit log names the subscriptions that ended and why.
 */
async function endPaidPlanWithoutStripeIn(
  tx: Db,
  p: { workspaceId: string; actor: Actor; now?: Date },
): Promise<{ plan: TPlan; from: TPlan }> {
  const now = p.now ?? new Date();
  // One plan change at a time per workspace (Stripe's webhook takes the same lock).
  const [current] = await tx.$queryRaw<
    { plan: TPlan }[]
  >`SELECT plan::text AS plan FROM "Workspace" WHERE id = ${p.workspaceId} FOR UPDATE`;
  if (!current) throw new AppError("not_found", "No such workspace.");
  if (current.plan === "audit") throw new AppError("invalid_state", "The workspace is already on the free audit plan.");
  const live = await tx.billingSubscription.findMany({
    where: { workspaceId: p.workspaceId, status: { in: [...LIVE_SUBSCRIPTION] } },
    orderBy: { startedAt: "asc" },
  });
  if (live.some((s) => s.provider === "stripe")) {
    throw new AppError(
      "invalid_state",
      "A Stripe subscription now bills this workspace: cancel it in Stripe's billing portal (Manage billing) to go back to the free audit plan.",
    );
  }
  if (live.length)
    await tx.billingSubscription.updateMany({
      where: { workspaceId: p.workspaceId, id: { in: live.map((s) => s.id) } },
      data: { status: "cancelled", cancelledAt: now },
    });
  await tx.workspace.update({ where: { id: p.workspaceId }, data: { plan: "audit", planChangedAt: now } });
  // Each piece not yet with the printer learns of it now (and is skipped, giving back its budget).
  await wakeEventsAfterMailingChange(tx, { workspaceId: p.workspaceId, now });
  const ended = live.map((s) => s.providerRef);
  await recordAudit(
    tx,
    p.workspaceId,
    p.actor,
    "plan.changed",
    { type: "workspace", id: p.workspaceId },
    {
      from: "paid",
      to: "audit",
      billing: "sandbox",
      endedSubscriptions: ended,
      reason: `The paid plan was not billed by Stripe (${ended.length ? `sandbox subscription ${ended.join(", ")}` : "no subscription"}): there was nothing to cancel in Stripe, so it ended here.`,
    },
  );
  return { plan: "audit", from: "paid" };
}

/**
 * A plan change asked for by the owner (the Plan page, or an accepted change_plan card). With the
 * sandbox it happens at once. With Stripe the paid plan answers the Checkout address (the plan
 * changes when Stripe's webhook says it was paid), and the audit plan is reached by cancelling in
 * the customer portal (its address is answered): the webhook ends the plan, never a second path.
 * A paid plan that no Stripe subscription bills (granted by the sandbox) has nothing to cancel in
 * Stripe: it ends at once.
 */
export async function requestPlanChangeIn(
  db: Db,
  p: { workspaceId: string; plan: TPlan; actor: Actor; now?: Date; billing?: BillingAdapter },
): Promise<PlanChangeResult> {
  const billing = p.billing ?? billingAdapter();
  if (billing.provider === "sandbox") return changePlanIn(db, { ...p, billing });
  if (p.plan === "paid") return startCheckout(db, billing, p);
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true } });
  if (workspace.plan === "audit")
    throw new AppError("invalid_state", "The workspace is already on the free audit plan.");
  if (!(await billedByStripe(db, p.workspaceId))) return endPaidPlanWithoutStripeIn(db, p);
  return openBillingPortal(db, billing, p);
}

export async function changePlan(
  prisma: PrismaClient,
  p: { workspaceId: string; plan: TPlan; actor: Actor; now?: Date; billing?: BillingAdapter },
): Promise<PlanChangeResult> {
  const billing = p.billing ?? billingAdapter();
  // Stripe's calls are not held inside a transaction; ending a paid plan Stripe does not bill calls
  // no Stripe and is one transaction.
  if (billing.provider === "stripe" && (p.plan === "paid" || (await billedByStripe(prisma, p.workspaceId))))
    return requestPlanChangeIn(prisma, { ...p, billing });
  return prisma.$transaction((tx) => requestPlanChangeIn(tx, { ...p, billing }));
}

/** "Manage billing": a Stripe customer-portal session (card, invoices, cancel). */
export function billingPortal(db: Db, p: { workspaceId: string; actor: Actor; billing?: BillingAdapter }) {
  const billing = p.billing ?? billingAdapter();
  if (billing.provider !== "stripe")
    throw new AppError(
      "invalid_state",
      "Billing runs through the sandbox in this installation: there is no card or invoice to manage.",
    );
  return openBillingPortal(db, billing, p);
}
