import { randomBytes } from "node:crypto";

/**
 * The billing provider behind one interface. This service ships a sandbox provider, which keeps
 * no card and charges nothing; a real provider (Stripe, Paddle) would implement the same calls
 * with the workspace id as its customer reference and an idempotency key per change.
 */
export interface BillingAdapter {
  readonly provider: string;
  /** Whether real money moves (false for the sandbox: the UI says so). */
  readonly chargesMoney: boolean;
  startSubscription(p: { workspaceId: string; plan: "paid"; monthlyPriceCents: number; idempotencyKey: string }): Promise<{ providerRef: string }>;
  cancelSubscription(p: { providerRef: string; idempotencyKey: string }): Promise<void>;
}

export class SandboxBilling implements BillingAdapter {
  readonly provider = "sandbox";
  readonly chargesMoney = false;

  async startSubscription(): Promise<{ providerRef: string }> {
    return { providerRef: `sbx_sub_${randomBytes(8).toString("hex")}` };
  }

  async cancelSubscription(): Promise<void> {}
}

/** The provider this installation bills through (BILLING_PROVIDER; only "sandbox" ships). */
export function billingAdapter(): BillingAdapter {
  const name = process.env.BILLING_PROVIDER?.trim() || "sandbox";
  if (name !== "sandbox") throw new Error(`Unknown BILLING_PROVIDER "${name}": only "sandbox" is available.`);
  return new SandboxBilling();
}
