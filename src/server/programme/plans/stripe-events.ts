import type Stripe from "stripe";
import type { BillingSubscriptionStatus, PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { wakeEventsAfterMailingChange } from "@/server/ground/signals/entry-wake";
import { LIVE_SUBSCRIPTION } from "./checkout";
import { PLANS } from "./plans";
import { STRIPE_API_VERSION, type StripeBilling, type StripeSubscriptionState, subscriptionState } from "./stripe";
import {
  firstIssue,
  refId,
  type TStripeCheckoutSession,
  type TStripeInvoice,
  type TStripeSubscription,
  ZStripeCheckoutSession,
  ZStripeInvoice,
  ZStripeSubscription,
} from "./stripe-objects";

/** Who changed things, in the audit log, when Stripe's webhook did. */
export const stripeActor: Actor = { kind: "system", id: null, label: "Stripe" };

/** The events this service acts on; others are acknowledged and recorded as ignored. */
export const HANDLED_STRIPE_EVENTS = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
] as const;

/** Stripe's subscription status, as this service acts on it. */
export function subscriptionStatusOf(stripeStatus: string): BillingSubscriptionStatus {
  switch (stripeStatus) {
    case "active":
    case "trialing":
      return "active";
    case "past_due":
      return "past_due";
    case "canceled":
    case "incomplete_expired":
      return "cancelled";
    case "incomplete":
      return "incomplete";
    default:
      // unpaid, paused: Stripe collects nothing, so nothing is mailed.
      return "unpaid";
  }
}

export type WebhookOutcome =
  | { status: 200; body: { received: true; duplicate: boolean; outcome: string } }
  | { status: 400 | 401; body: { error: string } };

/** A handled event's object, parsed to the parts this service reads. */
type Parsed =
  | { kind: "checkout"; session: TStripeCheckoutSession }
  | { kind: "subscription"; subscription: TStripeSubscription }
  | { kind: "invoice"; invoice: TStripeInvoice }
  | { kind: "other" };

function parseObject(event: Stripe.Event): { parsed: Parsed } | { error: string } {
  const [kind, schema] = event.type.startsWith("checkout.session.")
    ? (["checkout", ZStripeCheckoutSession] as const)
    : event.type.startsWith("customer.subscription.")
      ? (["subscription", ZStripeSubscription] as const)
      : event.type.startsWith("invoice.")
        ? (["invoice", ZStripeInvoice] as const)
        : (["other", null] as const);
  if (!schema || !(HANDLED_STRIPE_EVENTS as readonly string[]).includes(event.type))
    return { parsed: { kind: "other" } };
  const result = schema.safeParse((event.data as { object?: unknown } | undefined)?.object);
  if (!result.success)
    return {
      error: `The ${event.type} event's object is not one this service reads: data.object.${firstIssue(result.error)}. Nothing was changed.`,
    };
  return { parsed: { kind, [kind === "checkout" ? "session" : kind]: result.data } as Parsed };
}

/**
 * One delivery of Stripe's webhook: verified on the raw body with webhooks.constructEvent (a
 * missing, forged or stale signature is 401 and changes nothing), then handled once per event id
 * (a redelivery answers 200 and changes nothing). A failure while handling throws: the route
 * answers 500 and Stripe delivers the event again later.
 */
export async function receiveStripeWebhook(
  prisma: PrismaClient,
  billing: StripeBilling,
  p: { rawBody: Buffer | string; signature: string | null; now?: Date },
): Promise<WebhookOutcome> {
  if (!p.signature) return { status: 401, body: { error: "The Stripe-Signature header is missing." } };
  let event: Stripe.Event;
  try {
    event = await billing.constructEvent(p.rawBody, p.signature);
  } catch (error) {
    console.warn(`[billing] Stripe webhook refused: ${(error as Error).message}`);
    return { status: 401, body: { error: "The Stripe-Signature header does not match this body, secret and time." } };
  }
  if (event.api_version !== STRIPE_API_VERSION)
    return {
      status: 400,
      body: {
        error: `The event is of Stripe API version ${String(event.api_version)}; this service reads ${STRIPE_API_VERSION}. Create the webhook endpoint with that API version (docs/billing.md). Nothing was changed.`,
      },
    };
  const object = parseObject(event);
  if ("error" in object) return { status: 400, body: { error: object.error } };
  const parsed = object.parsed;
  if (await prisma.billingWebhookEvent.findUnique({ where: { id: event.id }, select: { id: true } })) {
    return { status: 200, body: { received: true, duplicate: true, outcome: "already handled" } };
  }
  // Read outside the transaction: the subscription's state now, as Stripe tells it, whatever the
  // order in which its events arrive. observedAt orders what is recorded.
  let retrieved: StripeSubscriptionState | null = null;
  const observedAt = new Date();
  if (parsed.kind === "checkout") {
    const session = parsed.session;
    const subscription = refId(session.subscription);
    if (session.mode === "subscription" && subscription && session.payment_status !== "unpaid")
      retrieved = await billing.retrieveSubscription(subscription);
  } else if (parsed.kind === "subscription") {
    // Stripe no longer knowing it: the event's own state is all there is.
    retrieved = (await billing.retrieveSubscription(parsed.subscription.id)) ?? subscriptionState(parsed.subscription);
  }
  return prisma.$transaction(async (tx) => {
    const inserted = await tx.billingWebhookEvent.createMany({
      data: [{ id: event.id, provider: "stripe", type: event.type, outcome: "handling" }],
      skipDuplicates: true,
    });
    // The same event delivered twice at once: the second waited for the first and does nothing.
    if (inserted.count === 0)
      return { status: 200 as const, body: { received: true as const, duplicate: true, outcome: "already handled" } };
    const { outcome, workspaceId } = await applyStripeEvent(tx, event, parsed, retrieved, {
      observedAt,
      now: p.now ?? new Date(),
    });
    await tx.billingWebhookEvent.update({ where: { id: event.id }, data: { outcome, workspaceId } });
    return { status: 200 as const, body: { received: true as const, duplicate: false, outcome } };
  });
}

type Applied = { outcome: string; workspaceId: string | null };

async function applyStripeEvent(
  tx: Db,
  event: Stripe.Event,
  parsed: Parsed,
  retrieved: StripeSubscriptionState | null,
  times: { observedAt: Date; now: Date },
): Promise<Applied> {
  const at = new Date(event.created * 1000);
  const when = { ...times, eventAt: at, eventId: event.id };
  switch (parsed.kind) {
    case "checkout": {
      const session = parsed.session;
      const workspaceId = await workspaceOf(tx, refId(session.customer), session.client_reference_id);
      if (!workspaceId) return { outcome: "ignored: not a customer of this service", workspaceId: null };
      if (session.mode !== "subscription") return { outcome: "ignored: not a subscription checkout", workspaceId };
      if (!retrieved) return { outcome: "waiting: the checkout is not paid yet", workspaceId };
      return { outcome: await applySubscription(tx, workspaceId, retrieved, when), workspaceId };
    }
    case "subscription": {
      const named = subscriptionState(parsed.subscription);
      const workspaceId = await workspaceOf(tx, named.customer, named.workspaceId);
      if (!workspaceId) return { outcome: "ignored: not a customer of this service", workspaceId: null };
      const state = retrieved ?? named;
      if (state.customer !== named.customer)
        return { outcome: "ignored: the subscription belongs to another customer", workspaceId };
      return { outcome: await applySubscription(tx, workspaceId, state, when), workspaceId };
    }
    case "invoice": {
      const invoice = parsed.invoice;
      const workspaceId = await workspaceOf(tx, refId(invoice.customer), null);
      if (!workspaceId) return { outcome: "ignored: not a customer of this service", workspaceId: null };
      return {
        outcome: await applyInvoice(
          tx,
          workspaceId,
          invoice,
          event.type === "invoice.paid" ? "paid" : "payment_failed",
          at,
          event.id,
        ),
        workspaceId,
      };
    }
    default:
      return { outcome: `ignored: ${event.type} is not used`, workspaceId: null };
  }
}

/**
 * The workspace a Stripe customer belongs to: the customer this service made for it. A checkout
 * or subscription naming a workspace whose customer row is missing (it was made, then the row was
 * lost) links them; an unknown customer naming no workspace is another product's.
 */
async function workspaceOf(tx: Db, customer: string | null, hint: string | null | undefined): Promise<string | null> {
  if (customer) {
    const known = await tx.billingCustomer.findUnique({
      where: { provider_providerRef: { provider: "stripe", providerRef: customer } },
      select: { workspaceId: true },
    });
    if (known) return known.workspaceId;
  }
  if (!hint) return null;
  const workspace = await tx.workspace.findUnique({ where: { id: hint }, select: { id: true } });
  if (!workspace) return null;
  if (customer)
    await tx.billingCustomer.createMany({
      data: [{ workspaceId: workspace.id, provider: "stripe", providerRef: customer }],
      skipDuplicates: true,
    });
  return workspace.id;
}

/**
 * Records a subscription's state as Stripe told it when asked (observedAt), unless a state read
 * later is already recorded (two deliveries handled at once), and an ended subscription stays ended;
 * then moves the workspace's plan to match: paid while a subscription is active or past due,
 * the audit plan otherwise (new mail stops at once; pieces the printer has are still mailed).
 */
async function applySubscription(
  tx: Db,
  workspaceId: string,
  state: StripeSubscriptionState,
  when: { observedAt: Date; eventAt: Date; eventId: string; now: Date },
): Promise<string> {
  const { eventAt: at, eventId, now } = when;
  // One plan change at a time per workspace (as a person's change takes it).
  await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${workspaceId} FOR UPDATE`;
  const status = subscriptionStatusOf(state.status);
  const row = await tx.billingSubscription.findUnique({
    where: { provider_providerRef: { provider: "stripe", providerRef: state.id } },
  });
  if (row && row.workspaceId !== workspaceId) return "ignored: the subscription belongs to another workspace";
  if (row?.status === "cancelled") return "stale: the subscription has already ended";
  if (row?.stateAt && when.observedAt < row.stateAt && status !== "cancelled")
    return "stale: a newer state is already recorded";
  const data = {
    status,
    providerStatus: state.status,
    currentPeriodEnd: status === "cancelled" ? null : state.currentPeriodEnd,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    monthlyPriceCents: state.monthlyPriceCents ?? row?.monthlyPriceCents ?? PLANS.paid.monthlyPriceCents,
    cancelledAt: status === "cancelled" ? at : null,
    stateAt: when.observedAt,
  };
  if (row) await tx.billingSubscription.update({ where: { id: row.id }, data });
  else
    await tx.billingSubscription.create({
      data: { ...data, workspaceId, provider: "stripe", providerRef: state.id, plan: "paid", startedAt: at },
    });
  if (!row || row.status !== status || row.cancelAtPeriodEnd !== state.cancelAtPeriodEnd) {
    await recordAudit(
      tx,
      workspaceId,
      stripeActor,
      "billing.subscription_changed",
      { type: "billing_subscription", id: state.id },
      {
        from: row?.status ?? null,
        to: status,
        stripeStatus: state.status,
        cancelAtPeriodEnd: state.cancelAtPeriodEnd,
        event: eventId,
      },
    );
  }
  return syncPlan(tx, workspaceId, { subscription: state.id, stripeStatus: state.status, event: eventId, now });
}

/** The plan that the workspace's subscriptions call for, applied if it differs. */
async function syncPlan(
  tx: Db,
  workspaceId: string,
  why: { subscription: string; stripeStatus: string; event: string; now: Date },
): Promise<string> {
  const workspace = await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { plan: true } });
  const live = await tx.billingSubscription.count({ where: { workspaceId, status: { in: [...LIVE_SUBSCRIPTION] } } });
  const plan = live > 0 ? "paid" : "audit";
  if (plan === workspace.plan) return `applied: subscription ${why.stripeStatus}, plan ${plan} unchanged`;
  await tx.workspace.update({ where: { id: workspaceId }, data: { plan, planChangedAt: why.now } });
  // Every piece not yet with the printer learns of it now (and is skipped, giving back its budget).
  if (plan === "audit") await wakeEventsAfterMailingChange(tx, { workspaceId, now: why.now });
  await recordAudit(
    tx,
    workspaceId,
    stripeActor,
    "plan.changed",
    { type: "workspace", id: workspaceId },
    {
      from: workspace.plan,
      to: plan,
      billing: "stripe",
      subscription: why.subscription,
      stripeStatus: why.stripeStatus,
      event: why.event,
    },
  );
  return `applied: subscription ${why.stripeStatus}, plan ${workspace.plan} -> ${plan}`;
}

/** An invoice's payment or failed attempt, kept for the Plan page. A paid invoice stays paid whatever arrives after. */
async function applyInvoice(
  tx: Db,
  workspaceId: string,
  invoice: TStripeInvoice,
  status: "paid" | "payment_failed",
  at: Date,
  eventId: string,
): Promise<string> {
  const existing = await tx.billingInvoice.findUnique({
    where: { provider_providerRef: { provider: "stripe", providerRef: invoice.id } },
  });
  if (existing && existing.workspaceId !== workspaceId) return "ignored: the invoice belongs to another workspace";
  if (existing?.status === "paid") return "stale: the invoice is already paid";
  if (existing && at < existing.stateAt && status !== "paid") return "stale: a newer attempt is already recorded";
  const data = {
    status,
    subscriptionRef: refId(invoice.parent?.subscription_details?.subscription),
    amountCents: status === "paid" ? invoice.amount_paid : invoice.amount_due,
    currency: invoice.currency,
    nextAttemptAt:
      status === "payment_failed" && invoice.next_payment_attempt
        ? new Date(invoice.next_payment_attempt * 1000)
        : null,
    hostedUrl: invoice.hosted_invoice_url ?? null,
    stateAt: at,
  };
  if (existing) await tx.billingInvoice.update({ where: { id: existing.id }, data });
  else await tx.billingInvoice.create({ data: { ...data, workspaceId, provider: "stripe", providerRef: invoice.id } });
  await recordAudit(
    tx,
    workspaceId,
    stripeActor,
    status === "paid" ? "billing.invoice_paid" : "billing.invoice_payment_failed",
    { type: "billing_invoice", id: invoice.id },
    {
      amountCents: data.amountCents,
      currency: data.currency,
      subscription: data.subscriptionRef,
      event: eventId,
    },
  );
  return status === "paid" ? "applied: invoice paid" : "applied: invoice payment failed";
}
