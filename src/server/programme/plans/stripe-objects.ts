import { z } from "zod";

/**
 * The parts of Stripe's objects this service reads, parsed before use: a signed event or an API
 * answer of another shape (another API version, a bug) is refused instead of misread. Other
 * members are ignored.
 */
const ZId = z.string().min(1).max(255);
/** An expandable reference: the id, or the object with its id. */
const ZRef = z.union([ZId, z.object({ id: ZId })]);
export const refId = (ref: z.infer<typeof ZRef> | null | undefined): string | null =>
  ref == null ? null : typeof ref === "string" ? ref : ref.id;

export const ZStripeSubscription = z.object({
  id: ZId,
  customer: ZRef,
  status: z.string().min(1).max(40),
  cancel_at_period_end: z.boolean(),
  items: z
    .object({
      data: z
        .array(
          z.object({
            current_period_end: z.number().int().nullish(),
            price: z.object({ unit_amount: z.number().int().nullish() }).nullish(),
          }),
        )
        .max(100),
    })
    .nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
export type TStripeSubscription = z.infer<typeof ZStripeSubscription>;

export const ZStripeCheckoutSession = z.object({
  id: ZId,
  mode: z.string().max(40),
  status: z.string().max(40).nullish(),
  payment_status: z.string().max(40),
  customer: ZRef.nullish(),
  client_reference_id: z.string().max(255).nullish(),
  subscription: ZRef.nullish(),
  url: z.string().max(5000).nullish(),
  expires_at: z.number().int().nullish(),
});
export type TStripeCheckoutSession = z.infer<typeof ZStripeCheckoutSession>;

export const ZStripeInvoice = z.object({
  id: ZId,
  customer: ZRef.nullish(),
  amount_paid: z.number().int(),
  amount_due: z.number().int(),
  currency: z.string().min(1).max(10),
  next_payment_attempt: z.number().int().nullish(),
  hosted_invoice_url: z.string().max(5000).nullish(),
  parent: z.object({ subscription_details: z.object({ subscription: ZRef.nullish() }).nullish() }).nullish(),
});
export type TStripeInvoice = z.infer<typeof ZStripeInvoice>;

/** The first thing wrong with an object, as "where: what". */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue.path.length ? issue.path.join(".") : "the object"}: ${issue.message}`;
}
