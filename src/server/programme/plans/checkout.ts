import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { baseUrl } from "@/server/ground/platform/base-url";
import type { StripeBilling } from "./stripe";

/** Subscription states that keep the paid plan (past_due with a warning). */
export const LIVE_SUBSCRIPTION = ["active", "past_due"] as const;

const planPage = (workspaceId: string) => `${baseUrl()}/w/${encodeURIComponent(workspaceId)}/settings/plan`;

/** Stripe's message for a failed call, or a plain sentence; the details go to the log. */
function stripeFailure(error: unknown, doing: string): AppError {
  console.warn(`[billing] Stripe ${doing} failed`, error);
  const status = (error as { statusCode?: number })?.statusCode;
  // 429: Stripe is limiting requests (the client already retried); like a 5xx, try again later.
  if (status && status >= 400 && status < 500 && status !== 429)
    return new AppError("invalid_state", `Stripe refused to ${doing}: ${(error as Error).message}`);
  return new AppError(
    "unavailable",
    `Stripe could not be reached to ${doing}; nothing changed. Try again in a minute.`,
  );
}

/** The workspace's Stripe customer: the one made before, or a new one (made once, reused for every checkout). */
export async function ensureStripeCustomer(
  db: Db,
  billing: StripeBilling,
  p: { workspaceId: string },
): Promise<string> {
  const existing = await db.billingCustomer.findUnique({
    where: { workspaceId_provider: { workspaceId: p.workspaceId, provider: "stripe" } },
  });
  if (existing) return existing.providerRef;
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { name: true } });
  const owner = await db.membership.findFirst({
    where: { workspaceId: p.workspaceId, role: "owner" },
    orderBy: { createdAt: "asc" },
    select: { user: { select: { email: true } } },
  });
  let ref: string;
  try {
    ref = await billing.createCustomer({
      workspaceId: p.workspaceId,
      name: workspace.name,
      email: owner?.user.email ?? null,
    });
  } catch (error) {
    throw stripeFailure(error, "create the billing customer");
  }
  // Two simultaneous first checkouts: Stripe's idempotency key gives both the same customer, and one row is kept.
  await db.billingCustomer.createMany({
    data: [{ workspaceId: p.workspaceId, provider: "stripe", providerRef: ref }],
    skipDuplicates: true,
  });
  const kept = await db.billingCustomer.findUniqueOrThrow({
    where: { workspaceId_provider: { workspaceId: p.workspaceId, provider: "stripe" } },
  });
  return kept.providerRef;
}

/**
 * Starts Stripe Checkout for the paid plan: subscription mode, the configured price, the workspace
 * as client_reference_id. An open session of the workspace's is reused, so two tabs (or asking
 * again) never make two subscriptions; a new one is created under an idempotency key named after
 * the newest session Stripe has for the customer, so two requests at the same moment get the same
 * session. Nothing about the plan changes here: the workspace stays on the audit plan until
 * Stripe's signed webhook says the checkout was paid.
 */
export async function startCheckout(
  db: Db,
  billing: StripeBilling,
  p: { workspaceId: string; actor: Actor; now?: Date },
): Promise<{ checkoutUrl: string }> {
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true } });
  if (workspace.plan === "paid") throw new AppError("invalid_state", "The workspace is already on the paid plan.");
  const live = await db.billingSubscription.findFirst({
    where: { workspaceId: p.workspaceId, provider: "stripe", status: { in: [...LIVE_SUBSCRIPTION] } },
  });
  if (live)
    throw new AppError(
      "invalid_state",
      "A Stripe subscription is already running for this workspace; the plan changes as soon as Stripe confirms it.",
    );
  const customer = await ensureStripeCustomer(db, billing, p);
  const now = p.now ?? new Date();
  let session: { id: string; url: string };
  let reused = false;
  try {
    const recent = await billing.recentCheckouts(customer);
    // A session with an hour or less left could expire while the owner pays: start a fresh one.
    const open = recent.find(
      (s) =>
        s.status === "open" &&
        s.mode === "subscription" &&
        s.client_reference_id === p.workspaceId &&
        s.url &&
        (s.expires_at ?? 0) * 1000 > now.getTime() + 3_600_000,
    );
    if (open?.url) {
      session = { id: open.id, url: open.url };
      reused = true;
    } else {
      session = await billing.createCheckout({
        workspaceId: p.workspaceId,
        customer,
        successUrl: `${planPage(p.workspaceId)}?checkout=success`,
        cancelUrl: `${planPage(p.workspaceId)}?checkout=cancelled`,
        idempotencyKey: `checkout-${p.workspaceId}-after-${recent[0]?.id ?? "none"}`,
      });
    }
  } catch (error) {
    throw stripeFailure(error, "start the checkout");
  }
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "billing.checkout_started",
    { type: "workspace", id: p.workspaceId },
    { provider: "stripe", checkoutSession: session.id, customer, reused },
  );
  return { checkoutUrl: session.url };
}

/** A Stripe customer-portal session (card, invoices, cancel) for the workspace's customer. */
export async function openBillingPortal(
  db: Db,
  billing: StripeBilling,
  p: { workspaceId: string; actor: Actor },
): Promise<{ portalUrl: string }> {
  const customer = await db.billingCustomer.findUnique({
    where: { workspaceId_provider: { workspaceId: p.workspaceId, provider: "stripe" } },
  });
  if (!customer)
    throw new AppError(
      "invalid_state",
      "This workspace has no Stripe billing account yet: choose the paid plan first.",
    );
  let url: string;
  try {
    ({ url } = await billing.createPortal({ customer: customer.providerRef, returnUrl: planPage(p.workspaceId) }));
  } catch (error) {
    throw stripeFailure(error, "open the billing portal");
  }
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "billing.portal_opened",
    { type: "workspace", id: p.workspaceId },
    { provider: "stripe", customer: customer.providerRef },
  );
  return { portalUrl: url };
}
