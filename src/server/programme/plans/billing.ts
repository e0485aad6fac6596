import { randomBytes } from "node:crypto";
import { ConfigError, type Env } from "@/server/ground/platform/config";
import { StripeBilling, stripeSettings } from "./stripe";

/**
 * The billing provider. Without Stripe keys this installation bills through the sandbox, which
 * keeps no card and charges nothing: choosing the paid plan starts a subscription record at once.
 * With `STRIPE_SECRET_KEY` it bills through Stripe: choosing the paid plan answers a Stripe
 * Checkout address, and only Stripe's signed webhooks change the plan (see stripe-events.ts).
 */
export interface SandboxBillingAdapter {
  readonly provider: "sandbox";
  /** Whether real money moves (false for the sandbox: the UI says so). */
  readonly chargesMoney: false;
  startSubscription(p: {
    workspaceId: string;
    plan: "paid";
    monthlyPriceCents: number;
    idempotencyKey: string;
  }): Promise<{ providerRef: string }>;
  cancelSubscription(p: { providerRef: string; idempotencyKey: string }): Promise<void>;
}

export type BillingAdapter = SandboxBillingAdapter | StripeBilling;

export class SandboxBilling implements SandboxBillingAdapter {
  readonly provider = "sandbox";
  readonly chargesMoney = false;

  async startSubscription(): Promise<{ providerRef: string }> {
    return { providerRef: `sbx_sub_${randomBytes(8).toString("hex")}` };
  }

  async cancelSubscription(): Promise<void> {}
}

let override: BillingAdapter | null = null;
/** Tests: bill through this adapter instead of the configured one (null restores it). */
export function setBillingForTests(adapter: BillingAdapter | null) {
  override = adapter;
}

/**
 * The provider this installation bills through: Stripe when STRIPE_SECRET_KEY is set (then
 * STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID are required too), otherwise the sandbox.
 */
export function billingAdapter(env: Env = process.env): BillingAdapter {
  if (override) return override;
  const stripe = stripeSettings(env);
  if (stripe) return new StripeBilling(stripe);
  const named = env.BILLING_PROVIDER?.trim();
  if (named && named !== "sandbox" && named !== "stripe")
    throw new ConfigError(`Unknown BILLING_PROVIDER "${named}": use "sandbox", or set STRIPE_SECRET_KEY for Stripe.`);
  if (named === "stripe") throw new ConfigError("BILLING_PROVIDER is stripe but STRIPE_SECRET_KEY is not set.");
  return new SandboxBilling();
}
