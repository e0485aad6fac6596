import { getDb } from "@/server/db";
import { stripeWebhookResponse } from "@/server/plans/stripe-webhook-route";

export const dynamic = "force-dynamic";

/** POST /api/webhooks/stripe: Stripe's signed events (see docs/billing.md). */
export function POST(req: Request) {
  return stripeWebhookResponse(req, getDb());
}
