import type { PrismaClient } from "@/generated/prisma/client";
import { AppError } from "@/server/ground/errors";
import { readCappedBody } from "@/server/ground/platform/capped-body";
import { problemResponse } from "@/server/ground/http/problem-response";
import { type BillingAdapter, billingAdapter } from "./billing";
import { receiveStripeWebhook } from "./stripe-events";

/** Stripe's events are a few kilobytes; anything far larger is not one. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;
const PATH = "/api/webhooks/stripe";

/**
 * The webhook endpoint: the raw body exactly as sent (the signature covers its bytes), 401 for a
 * bad signature, 200 once handled (or already handled), 500 when handling failed so Stripe retries.
 */
export async function stripeWebhookResponse(
  req: Request,
  prisma: PrismaClient,
  billing: BillingAdapter = billingAdapter(),
): Promise<Response> {
  if (billing.provider !== "stripe")
    return problemResponse(
      new AppError("not_found", "Stripe billing is not configured in this installation (STRIPE_SECRET_KEY is unset)."),
      PATH,
    );
  const body = await readCappedBody(req, MAX_WEBHOOK_BYTES, "drain");
  if (body === null)
    return problemResponse(new AppError("payload_too_large", "A Stripe event is never this large."), PATH);
  try {
    const outcome = await receiveStripeWebhook(prisma, billing, {
      rawBody: body,
      signature: req.headers.get("stripe-signature"),
    });
    return Response.json(outcome.body, { status: outcome.status, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    console.error("[billing] Stripe webhook failed; Stripe will deliver it again", error);
    return problemResponse(new AppError("internal"), PATH);
  }
}
