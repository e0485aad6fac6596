import type Stripe from "stripe";
import { ConfigError, type Env } from "@/server/ground/platform/config";
import {
  firstIssue,
  refId,
  type TStripeCheckoutSession,
  type TStripeSubscription,
  ZStripeCheckoutSession,
  ZStripeSubscription,
} from "./stripe-objects";

/**
 * The Stripe API version every call is made with and the webhook endpoint must be created with
 * (docs/billing.md): the shapes this service reads are that version's. It is the installed
 * `stripe` package's own version; upgrading the package means checking the shapes and moving both.
 */
export const STRIPE_API_VERSION = "2026-10-28.endive";

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  priceId: string;
  /** Tests only: the local fake's address (host, port and protocol of STRIPE_API_URL). */
  api?: { host: string; port: number; protocol: "http" | "https" };
}

/** Stripe's settings from the environment, or null when STRIPE_SECRET_KEY is unset (the sandbox bills). */
export function stripeSettings(env: Env = process.env): StripeSettings | null {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) return null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  const priceId = env.STRIPE_PRICE_ID?.trim();
  if (!webhookSecret)
    throw new ConfigError(
      "STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not: copy the signing secret (whsec_…) of the webhook endpoint /api/webhooks/stripe.",
    );
  if (!priceId)
    throw new ConfigError(
      "STRIPE_SECRET_KEY is set but STRIPE_PRICE_ID is not: give the id (price_…) of the paid plan's monthly price.",
    );
  const apiUrl = env.STRIPE_API_URL?.trim();
  let api: StripeSettings["api"];
  if (apiUrl) {
    let u: URL;
    try {
      u = new URL(apiUrl);
    } catch {
      throw new ConfigError(`STRIPE_API_URL is not a valid URL ("${apiUrl}").`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:")
      throw new ConfigError("STRIPE_API_URL must be an http:// or https:// URL.");
    const protocol = u.protocol === "http:" ? "http" : "https";
    api = { host: u.hostname, port: u.port ? Number(u.port) : protocol === "http" ? 80 : 443, protocol };
  }
  return { secretKey, webhookSecret, priceId, api };
}

/** What the Plan page shows of a subscription, read from Stripe. */
export interface StripeSubscriptionState {
  id: string;
  customer: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  monthlyPriceCents: number | null;
  workspaceId: string | null;
}

/** Stripe's subscription object reduced to what this service keeps. */
export function subscriptionState(sub: TStripeSubscription): StripeSubscriptionState {
  const items = sub.items?.data ?? [];
  const ends = items.map((i) => i.current_period_end).filter((n): n is number => typeof n === "number");
  const price = items[0]?.price;
  return {
    id: sub.id,
    customer: refId(sub.customer) ?? "",
    status: sub.status,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    currentPeriodEnd: ends.length ? new Date(Math.min(...ends) * 1000) : null,
    monthlyPriceCents: price && typeof price.unit_amount === "number" ? price.unit_amount : null,
    workspaceId: typeof sub.metadata?.workspaceId === "string" ? sub.metadata.workspaceId : null,
  };
}

/**
 * Stripe through its official client. Calls made: customers.create (once per workspace, with an
 * idempotency key), checkout.sessions.create (subscription mode), billingPortal.sessions.create,
 * subscriptions.retrieve; webhooks are verified with webhooks.constructEvent.
 */
export class StripeBilling {
  readonly provider = "stripe";
  readonly chargesMoney = true;
  /** The client, made on first use: the stripe package (about 20 MB) is loaded only by a process that calls Stripe. */
  #client: Promise<Stripe> | null = null;

  constructor(readonly settings: StripeSettings) {}

  client(): Promise<Stripe> {
    this.#client ??= import("stripe").then(
      ({ default: StripeClient }) =>
        new StripeClient(this.settings.secretKey, {
          apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion,
          maxNetworkRetries: 2,
          timeout: 20_000,
          appInfo: { name: "direct-mail-programme" },
          ...(this.settings.api
            ? { host: this.settings.api.host, port: this.settings.api.port, protocol: this.settings.api.protocol }
            : {}),
        }),
    );
    return this.#client;
  }

  async createCustomer(p: { workspaceId: string; name: string; email: string | null }): Promise<string> {
    const customer = await (await this.client()).customers.create(
      { name: p.name, ...(p.email ? { email: p.email } : {}), metadata: { workspaceId: p.workspaceId } },
      // A retry (or a rolled-back attempt retried within Stripe's 24 hours) gets the same customer.
      { idempotencyKey: `customer-${p.workspaceId}` },
    );
    return customer.id;
  }

  /**
   * The workspace's newest checkout sessions (newest first): an open one is reused, so two tabs
   * asking at once, or one asking again, pay through one session and start one subscription.
   */
  async recentCheckouts(customer: string): Promise<TStripeCheckoutSession[]> {
    const list = await (await this.client()).checkout.sessions.list({ customer, limit: 10 });
    return list.data.map((session) => {
      const parsed = ZStripeCheckoutSession.safeParse(session);
      if (!parsed.success)
        throw new Error(`Stripe answered a checkout session of another shape (${firstIssue(parsed.error)})`);
      return parsed.data;
    });
  }

  /**
   * A new Checkout session. `idempotencyKey` makes simultaneous requests (two tabs) get the same
   * session from Stripe: the same key with the same parameters answers the first session.
   */
  async createCheckout(p: {
    workspaceId: string;
    customer: string;
    successUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<{ id: string; url: string }> {
    const session = await (await this.client()).checkout.sessions.create(
      {
        mode: "subscription",
        customer: p.customer,
        client_reference_id: p.workspaceId,
        line_items: [{ price: this.settings.priceId, quantity: 1 }],
        success_url: p.successUrl,
        cancel_url: p.cancelUrl,
        metadata: { workspaceId: p.workspaceId },
        subscription_data: { metadata: { workspaceId: p.workspaceId } },
      },
      { idempotencyKey: p.idempotencyKey },
    );
    if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a url`);
    return { id: session.id, url: session.url };
  }

  async createPortal(p: { customer: string; returnUrl: string }): Promise<{ url: string }> {
    const session = await (await this.client()).billingPortal.sessions.create({
      customer: p.customer,
      return_url: p.returnUrl,
    });
    return { url: session.url };
  }

  /** The subscription as it is now; null when Stripe has no such subscription. */
  async retrieveSubscription(id: string): Promise<StripeSubscriptionState | null> {
    let sub: unknown;
    try {
      sub = await (await this.client()).subscriptions.retrieve(id);
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return null;
      throw error;
    }
    const parsed = ZStripeSubscription.safeParse(sub);
    if (!parsed.success)
      throw new Error(`Stripe answered a subscription of another shape (${firstIssue(parsed.error)})`);
    return subscriptionState(parsed.data);
  }

  /** The event, if the signature header matches the raw body, the secret and the time tolerance; else it throws. */
  async constructEvent(rawBody: string | Buffer, signature: string): Promise<Stripe.Event> {
    return (await this.client()).webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
  }
}
