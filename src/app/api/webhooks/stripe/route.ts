import { getDb } from "@/server/ground/db";
import { stripeWebhookResponse } from "@/server/programme/plans/stripe-webhook-route";

export const dynamic = "force-dynamic";

/** POST /api/webhooks/stripe: Stripe's signed events (see docs/billing.md). */
export function POST(req: Request) {
  return stripeWebhookResponse(req, getDb());
}
