import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { type FakeStripe, startFakeStripe } from "@/test/fake-stripe";
import { changePlan } from "./service";
import { STRIPE_API_VERSION, StripeBilling, stripeSettings } from "./stripe";
import { stripeWebhookResponse } from "./stripe-webhook-route";

let prisma: PrismaClient;
let fake: FakeStripe;
let billing: StripeBilling;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  fake = await startFakeStripe();
  billing = new StripeBilling(stripeSettings(fake.env)!);
});
afterAll(() => fake?.close());

const person = (o: { user: { id: string; email: string } }) => ({
  kind: "user" as const,
  id: o.user.id,
  label: o.user.email,
});

async function deliver(event: Stripe.Event) {
  const signed = fake.sign(event);
  const res = await stripeWebhookResponse(
    new Request("http://localhost/api/webhooks/stripe", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": signed.signature },
      body: signed.body,
    }),
    prisma,
    billing,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const checkoutUrl = async (workspaceId: string, actor: ReturnType<typeof person>, b = billing) => {
  const answer = await changePlan(prisma, { workspaceId, plan: "paid", actor, billing: b });
  if (!("checkoutUrl" in answer)) throw new Error("expected a checkout address");
  return answer.checkoutUrl;
};
const plan = async (workspaceId: string) =>
  (await prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId } })).plan;
const sessionsOf = (customer: unknown) => [...fake.sessions.values()].filter((s) => s.customer === customer);

describe("Stripe: the subscription's current state, one Checkout per workspace", { timeout: 120_000 }, () => {
  it("a late incomplete event of the same second as active leaves a paying workspace on the paid plan", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const url = await checkoutUrl(o.workspaceId, person(o));
    const { checkoutCompleted, subscriptionCreated } = fake.completeCheckout(url.split("/").pop()!);
    expect((await deliver(checkoutCompleted)).status).toBe(200);
    expect(await plan(o.workspaceId)).toBe("paid");
    // Stripe's incomplete, made before the payment went through, delivered last and stamped the same second.
    const late = {
      ...subscriptionCreated,
      id: `evt_late_${o.workspaceId}`,
      created: checkoutCompleted.created,
      data: { object: { ...(subscriptionCreated.data.object as object), status: "incomplete" } },
    } as Stripe.Event;
    expect((await deliver(late)).body).toMatchObject({ outcome: "applied: subscription active, plan paid unchanged" });
    expect(await plan(o.workspaceId)).toBe("paid");
    expect(await prisma.billingSubscription.findFirstOrThrow({ where: { workspaceId: o.workspaceId } })).toMatchObject({
      status: "active",
      providerStatus: "active",
    });
  });

  it("two tabs asking for the paid plan at once get one Checkout session; asking again reuses it until it expires", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const [a, b] = await Promise.all([checkoutUrl(o.workspaceId, person(o)), checkoutUrl(o.workspaceId, person(o))]);
    expect(a).toBe(b);
    const customer = fake.sessions.get(a.split("/").pop()!)!.customer;
    expect(sessionsOf(customer)).toHaveLength(1);
    expect(await checkoutUrl(o.workspaceId, person(o))).toBe(a);
    expect(sessionsOf(customer)).toHaveLength(1);
    fake.expireSession(a.split("/").pop()!);
    const fresh = await checkoutUrl(o.workspaceId, person(o));
    expect(fresh).not.toBe(a);
    expect(sessionsOf(customer)).toHaveLength(2);
  });

  it("Stripe's 5xx is retried by the client; a 429 that lasts is a clear refusal and nothing is written", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    fake.failNext(503);
    expect(await checkoutUrl(o.workspaceId, person(o))).toMatch(/\/c\/pay\/cs_test_/);
    const o2 = await createOwnerWorkspace(prisma, { plan: "audit" });
    fake.failNext(429, 3);
    await expect(checkoutUrl(o2.workspaceId, person(o2))).rejects.toMatchObject({
      code: "unavailable",
      message: "Stripe could not be reached to create the billing customer; nothing changed. Try again in a minute.",
    });
    expect(await prisma.billingCustomer.count({ where: { workspaceId: o2.workspaceId } })).toBe(0);
    expect(await prisma.auditLogEntry.count({ where: { workspaceId: o2.workspaceId } })).toBe(0);
  });

  it("the fake answers a reused idempotency key with other parameters as Stripe does: 400 idempotency_error", async () => {
    const post = (name: string) =>
      fetch(`${fake.url}/v1/customers`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${fake.secretKey}`,
          "Content-Type": "application/x-www-form-urlencoded",
          "Idempotency-Key": "customer-ws_same_key",
        },
        body: new URLSearchParams({ name }).toString(),
      });
    const first = await post("Acme");
    expect(first.status).toBe(200);
    const again = await post("Acme");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await again.json()).id).toBe((await first.json()).id);
    const other = await post("Initech");
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({
      error: { type: "idempotency_error", message: expect.stringContaining("same parameters") },
    });
  });

  it("an event of another API version, or a signed object of another shape, is 400 with a sentence and changes nothing", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const url = await checkoutUrl(o.workspaceId, person(o));
    const { checkoutCompleted, invoicePaid } = fake.completeCheckout(url.split("/").pop()!);
    const older = await deliver({ ...checkoutCompleted, api_version: "2020-08-27" } as Stripe.Event);
    expect(older).toEqual({
      status: 400,
      body: {
        error: `The event is of Stripe API version 2020-08-27; this service reads ${STRIPE_API_VERSION}. Create the webhook endpoint with that API version (docs/billing.md). Nothing was changed.`,
      },
    });
    // Events of a shape Stripe never sends, which Stripe.Event cannot describe.
    const misshapen = await deliver({
      ...checkoutCompleted,
      data: { object: { ...(checkoutCompleted.data.object as object), subscription: { contains: "sub_" } } },
    } as unknown as Stripe.Event);
    expect(misshapen.status).toBe(400);
    expect(misshapen.body.error).toMatch(
      /^The checkout\.session\.completed event's object is not one this service reads: data\.object\.subscription: .+\. Nothing was changed\.$/,
    );
    const invoice = await deliver({
      ...invoicePaid,
      data: { object: { ...(invoicePaid.data.object as object), amount_paid: "49900" } },
    } as unknown as Stripe.Event);
    expect(invoice.body.error).toMatch(/data\.object\.amount_paid: /);
    expect(await plan(o.workspaceId)).toBe("audit");
    expect(
      await prisma.billingWebhookEvent.count({ where: { id: { in: [checkoutCompleted.id, invoicePaid.id] } } }),
    ).toBe(0);
    expect(await prisma.billingInvoice.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect((await deliver(checkoutCompleted)).status).toBe(200);
    expect(await plan(o.workspaceId)).toBe("paid");
  });

  it("every call and the webhook endpoint use the installed client's API version", () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });
});
