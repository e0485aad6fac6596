import type Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { requestPlanChange } from "@/server/programme/confirmations/requests";
import { decideCard } from "@/server/programme/confirmations/service";
import { testDatabase } from "@/test/database";
import { callerFor, createOwnerWorkspace } from "@/test/factories";
import { type FakeStripe, startFakeStripe } from "@/test/fake-stripe";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { billingAdapter, SandboxBilling, setBillingForTests } from "./billing";
import { changePlan, getPlanOverview } from "./service";
import { StripeBilling, stripeSettings } from "./stripe";
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
afterEach(() => setBillingForTests(null));

const person = (o: { user: { id: string; email: string } }) => ({
  kind: "user" as const,
  id: o.user.id,
  label: o.user.email,
});
const agent = { kind: "agent" as const, id: "grt_test", label: "Test agent (agent)" };

/** One delivery to POST /api/webhooks/stripe, as Stripe makes it. */
async function deliver(
  event: Stripe.Event,
  opts: { secret?: string; timestamp?: number; body?: string; signature?: string | null } = {},
) {
  const signed = fake.sign(event, opts);
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8" };
  const signature = opts.signature === undefined ? signed.signature : opts.signature;
  if (signature !== null) headers["Stripe-Signature"] = signature;
  const res = await stripeWebhookResponse(
    new Request("http://localhost/api/webhooks/stripe", { method: "POST", headers, body: opts.body ?? signed.body }),
    prisma,
    billing,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The owner asks for the paid plan and pays in Checkout; the events Stripe then sends. */
async function checkout(workspaceId: string, actor: ReturnType<typeof person>) {
  const answer = await changePlan(prisma, { workspaceId, plan: "paid", actor, billing });
  if (!("checkoutUrl" in answer)) throw new Error("expected a checkout address");
  const sessionId = answer.checkoutUrl.split("/").pop()!;
  return { checkoutUrl: answer.checkoutUrl, ...fake.completeCheckout(sessionId) };
}

const plan = async (workspaceId: string) =>
  (await prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId } })).plan;
const audit = (workspaceId: string, action: string) =>
  prisma.auditLogEntry.findMany({ where: { workspaceId, action }, orderBy: { createdAt: "asc" } });

describe("Stripe billing", { timeout: 120_000 }, () => {
  it("upgrade: plan.change answers a Checkout address, the plan stays on audit until Stripe's signed checkout.session.completed, then it is paid", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    setBillingForTests(billing);
    const caller = await callerFor(prisma, o.user);
    const answer = await caller.plan.change({ workspaceId: o.workspaceId, plan: "paid" });
    expect(Object.keys(answer)).toEqual(["checkoutUrl"]);
    const { checkoutUrl } = answer as { checkoutUrl: string };
    const session = fake.sessions.get(checkoutUrl.split("/").pop()!)!;
    expect(session.url).toBe(checkoutUrl);
    expect(session).toMatchObject({
      mode: "subscription",
      client_reference_id: o.workspaceId,
      success_url: `http://localhost:3000/w/${o.workspaceId}/settings/plan?checkout=success`,
    });
    const created = fake.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(created.body).toMatchObject({
      mode: "subscription",
      line_items: [{ price: fake.priceId, quantity: "1" }],
      customer: session.customer,
    });
    expect(fake.customers.get(session.customer as string)).toMatchObject({
      email: o.user.email,
      metadata: { workspaceId: o.workspaceId },
    });
    expect(await plan(o.workspaceId)).toBe("audit");
    expect(await getPlanOverview(prisma, { workspaceId: o.workspaceId, billing })).toMatchObject({
      plan: "audit",
      subscription: null,
      billing: { provider: "stripe", chargesMoney: true, canManage: true },
    });

    // Asking again (the first checkout was abandoned) reuses the workspace's one Stripe customer.
    const customersBefore = fake.requests.filter((r) => r.path === "/v1/customers").length;
    const again = await checkout(o.workspaceId, person(o));
    expect(fake.requests.filter((r) => r.path === "/v1/customers").length).toBe(customersBefore);
    expect(fake.sessions.get(again.checkoutUrl.split("/").pop()!)!.customer).toBe(session.customer);
    expect(await prisma.billingCustomer.count({ where: { workspaceId: o.workspaceId } })).toBe(1);

    expect(await deliver(again.checkoutCompleted)).toMatchObject({
      status: 200,
      body: { received: true, duplicate: false },
    });
    expect(await plan(o.workspaceId)).toBe("paid");
    const sub = fake.subscriptions.get(again.subscriptionId)!;
    const periodEnd = new Date(
      (sub.items as { data: { current_period_end: number }[] }).data[0].current_period_end * 1000,
    );
    expect(await getPlanOverview(prisma, { workspaceId: o.workspaceId, billing })).toMatchObject({
      plan: "paid",
      mailingEnabled: true,
      subscription: {
        provider: "stripe",
        providerRef: again.subscriptionId,
        status: "active",
        nextInvoiceAt: periodEnd,
        monthlyPriceCents: 49_900,
      },
      lastPayment: null,
    });
    // Stripe's other events of the same checkout, arriving after it: the plan changed once.
    await deliver(again.subscriptionCreated);
    await deliver(again.invoicePaid);
    expect((await getPlanOverview(prisma, { workspaceId: o.workspaceId, billing })).lastPayment).toMatchObject({
      status: "paid",
      amountCents: 49_900,
      currency: "usd",
    });
    const changes = await audit(o.workspaceId, "plan.changed");
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      actorKind: "system",
      actorLabel: "Stripe",
      data: {
        from: "audit",
        to: "paid",
        billing: "stripe",
        subscription: again.subscriptionId,
        event: again.checkoutCompleted.id,
      },
    });
    expect(await audit(o.workspaceId, "billing.checkout_started")).toHaveLength(2);
    expect(await audit(o.workspaceId, "billing.invoice_paid")).toHaveLength(1);
    await expect(
      changePlan(prisma, { workspaceId: o.workspaceId, plan: "paid", actor: person(o), billing }),
    ).rejects.toMatchObject({ code: "invalid_state", message: "The workspace is already on the paid plan." });
  });

  it("a forged, replayed or missing signature is 401 and changes nothing", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const { checkoutCompleted } = await checkout(o.workspaceId, person(o));
    const forged = await deliver(checkoutCompleted, { secret: "whsec_not_the_endpoints_secret" });
    const replayed = await deliver(checkoutCompleted, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const missing = await deliver(checkoutCompleted, { signature: null });
    // A genuine signature of another body.
    const other = fake.sign({ ...checkoutCompleted, id: "evt_other" } as Stripe.Event);
    const swapped = await deliver(checkoutCompleted, { signature: other.signature });
    for (const r of [forged, replayed, missing, swapped]) expect(r.status).toBe(401);
    expect(await plan(o.workspaceId)).toBe("audit");
    expect(await prisma.billingWebhookEvent.count({ where: { id: { in: [checkoutCompleted.id, "evt_other"] } } })).toBe(
      0,
    );
    expect(await prisma.billingSubscription.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect(await audit(o.workspaceId, "plan.changed")).toHaveLength(0);
    // The same event, properly signed, still works afterwards.
    expect((await deliver(checkoutCompleted)).status).toBe(200);
    expect(await plan(o.workspaceId)).toBe("paid");
  });

  it("the same event delivered twice (also at once) counts once", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const { checkoutCompleted, subscriptionId } = await checkout(o.workspaceId, person(o));
    const [a, b] = await Promise.all([deliver(checkoutCompleted), deliver(checkoutCompleted)]);
    expect([a.body.duplicate, b.body.duplicate].sort()).toEqual([false, true]);
    expect((await deliver(checkoutCompleted)).body).toMatchObject({ duplicate: true });
    const failed = fake.renewalInvoice(subscriptionId, "payment_failed");
    await deliver(failed);
    await deliver(failed);
    expect(await audit(o.workspaceId, "plan.changed")).toHaveLength(1);
    expect(await audit(o.workspaceId, "billing.invoice_payment_failed")).toHaveLength(1);
    expect(await prisma.billingWebhookEvent.count({ where: { id: { in: [checkoutCompleted.id, failed.id] } } })).toBe(
      2,
    );
  });

  it("events in any order: an older state never overwrites a newer one, and an ended subscription stays ended", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const { checkoutCompleted, subscriptionCreated, subscriptionId } = await checkout(o.workspaceId, person(o));
    const pastDue = fake.updateSubscription(subscriptionId, { status: "past_due" });
    const recovered = fake.updateSubscription(subscriptionId, { status: "active" });
    // Newest first, then the older ones.
    await deliver(recovered);
    expect(await plan(o.workspaceId)).toBe("paid");
    await deliver(pastDue);
    await deliver(subscriptionCreated);
    await deliver(checkoutCompleted);
    expect((await getPlanOverview(prisma, { workspaceId: o.workspaceId, billing })).subscription).toMatchObject({
      status: "active",
    });
    const ended = fake.deleteSubscription(subscriptionId);
    await deliver(ended);
    expect(await plan(o.workspaceId)).toBe("audit");
    // A stale "active" from before the end arrives late: the subscription stays ended.
    await deliver(recovered);
    const o2 = await createOwnerWorkspace(prisma, { plan: "audit" });
    expect(await plan(o.workspaceId)).toBe("audit");
    expect((await getPlanOverview(prisma, { workspaceId: o.workspaceId, billing })).subscription).toMatchObject({
      status: "cancelled",
      nextInvoiceAt: null,
    });
    // An event about a customer this service never made is acknowledged and ignored.
    const foreign = {
      ...ended,
      id: `evt_foreign_${o2.workspaceId}`,
      data: { object: { ...(ended.data.object as object), customer: "cus_someone_else", metadata: {} } },
    } as Stripe.Event;
    expect((await deliver(foreign)).body).toMatchObject({ outcome: "ignored: not a customer of this service" });
  });

  it("customer.subscription.deleted: back to the audit plan, and the next entry event is skipped with mailing_disabled", async () => {
    const f = await liveCampaign(prisma, { plan: "audit", accounts: 2, perAccount: 1 });
    const { checkoutCompleted, subscriptionId } = await checkout(f.workspaceId, person(f));
    await deliver(checkoutCompleted);
    expect(await plan(f.workspaceId)).toBe("paid");
    const ended = await deliver(fake.deleteSubscription(subscriptionId));
    expect(ended.body.outcome).toBe("applied: subscription canceled, plan paid -> audit");
    expect(await plan(f.workspaceId)).toBe("audit");
    expect((await audit(f.workspaceId, "plan.changed")).at(-1)).toMatchObject({
      actorLabel: "Stripe",
      data: { from: "paid", to: "audit", stripeStatus: "canceled" },
    });
    const clock = testClock();
    const next = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, next.eventId)).toMatchObject({ status: "skipped", skipReason: "mailing_disabled" });
  });

  it("a failed payment shows with its amount while past due (mail still goes); when the subscription ends, mailing stops", async () => {
    const f = await liveCampaign(prisma, {
      plan: "audit",
      accounts: 2,
      perAccount: 1,
      campaign: { reviewGate: "each_piece" },
    });
    const { checkoutCompleted, invoicePaid, subscriptionId } = await checkout(f.workspaceId, person(f));
    await deliver(checkoutCompleted);
    await deliver(invoicePaid);
    const failed = fake.renewalInvoice(subscriptionId, "payment_failed");
    await deliver(failed);
    await deliver(fake.updateSubscription(subscriptionId, { status: "past_due" }));
    const overview = await getPlanOverview(prisma, { workspaceId: f.workspaceId, billing });
    const failedInvoice = failed.data.object as Stripe.Invoice;
    expect(overview).toMatchObject({
      plan: "paid",
      mailingEnabled: true,
      subscription: { status: "past_due", providerStatus: "past_due" },
      lastPayment: {
        status: "payment_failed",
        amountCents: 49_900,
        currency: "usd",
        nextAttemptAt: new Date(failedInvoice.next_payment_attempt! * 1000),
      },
    });
    // Past due: a piece still goes ahead (here it waits for its review).
    const clock = testClock();
    const waiting = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, waiting.eventId)).toMatchObject({
      status: "waiting",
      enrollment: { mailPiece: { status: "pending_review" } },
    });
    // Stripe gives up and ends the subscription: the waiting piece is skipped, new events too.
    await deliver(fake.deleteSubscription(subscriptionId));
    await drain(prisma, testClock(), f.workspaceId);
    expect(await eventRow(prisma, waiting.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "mailing_disabled",
      enrollment: { mailPiece: { status: "cancelled" } },
    });
    expect(await getPlanOverview(prisma, { workspaceId: f.workspaceId, billing })).toMatchObject({
      plan: "audit",
      mailingEnabled: false,
      subscription: { status: "cancelled" },
    });
  });

  it("an agent's accepted plans_request_change card leads the owner to the same Checkout; the plan waits for Stripe", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    setBillingForTests(billing);
    const { card } = await requestPlanChange(prisma, { workspaceId: o.workspaceId, plan: "paid", requestedBy: agent });
    expect(card.summary).toContain("Stripe Checkout");
    const decided = await decideCard(prisma, {
      workspaceId: o.workspaceId,
      cardId: card.id,
      decision: "accept",
      user: o.user,
    });
    expect(decided).toMatchObject({ status: "accepted", executionError: null });
    const { checkoutUrl } = decided.result as { checkoutUrl: string };
    expect(fake.sessions.get(checkoutUrl.split("/").pop()!)).toMatchObject({
      mode: "subscription",
      client_reference_id: o.workspaceId,
    });
    expect(await plan(o.workspaceId)).toBe("audit");
    await deliver(fake.completeCheckout(checkoutUrl.split("/").pop()!).checkoutCompleted);
    expect(await plan(o.workspaceId)).toBe("paid");
  });

  it("Manage billing opens Stripe's customer portal; going back to the audit plan goes through it, not around it", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    setBillingForTests(billing);
    const caller = await callerFor(prisma, o.user);
    await expect(caller.plan.billingPortal({ workspaceId: o.workspaceId })).rejects.toMatchObject({
      message: "This workspace has no Stripe billing account yet: choose the paid plan first.",
    });
    const { checkoutCompleted } = await checkout(o.workspaceId, person(o));
    await deliver(checkoutCompleted);
    const { portalUrl } = await caller.plan.billingPortal({ workspaceId: o.workspaceId });
    const portal = fake.requests.filter((r) => r.path === "/v1/billing_portal/sessions").at(-1)!;
    expect(portal.body).toMatchObject({
      customer: (await prisma.billingCustomer.findFirstOrThrow({ where: { workspaceId: o.workspaceId } })).providerRef,
      return_url: `http://localhost:3000/w/${o.workspaceId}/settings/plan`,
    });
    expect(portalUrl).toMatch(/\/p\/session\/bps_/);
    // Going back answers the portal too; the plan is unchanged until Stripe says the subscription ended.
    expect(await caller.plan.change({ workspaceId: o.workspaceId, plan: "audit" })).toMatchObject({
      portalUrl: expect.stringMatching(/\/p\/session\/bps_/),
    });
    expect(await plan(o.workspaceId)).toBe("paid");
    expect(await audit(o.workspaceId, "billing.portal_opened")).toHaveLength(2);
    expect(await caller.plan.get({ workspaceId: o.workspaceId })).toMatchObject({
      plan: "paid",
      billing: { provider: "stripe", canManage: true, paidWithoutStripe: false },
      subscription: { provider: "stripe", status: "active" },
    });

    // An agent's card for the audit plan leads the owner to the same portal; the plan still waits for Stripe.
    const { card } = await requestPlanChange(prisma, { workspaceId: o.workspaceId, plan: "audit", requestedBy: agent });
    expect(card.summary).toContain("Accepting opens Stripe's billing portal");
    const decided = await decideCard(prisma, {
      workspaceId: o.workspaceId,
      cardId: card.id,
      decision: "accept",
      user: o.user,
    });
    expect(decided).toMatchObject({
      status: "accepted",
      executionError: null,
      result: { portalUrl: expect.stringMatching(/\/p\/session\/bps_/) },
    });
    expect(await plan(o.workspaceId)).toBe("paid");
    expect(await audit(o.workspaceId, "billing.portal_opened")).toHaveLength(3);
  });

  it("a paid plan the sandbox granted before Stripe billing was turned on: the Plan page says Stripe does not bill it, and going back to the audit plan ends it at once without calling Stripe", async () => {
    const f = await liveCampaign(prisma, {
      plan: "audit",
      accounts: 2,
      perAccount: 1,
      campaign: { reviewGate: "each_piece" },
    });
    // Chosen while billing ran through the sandbox (no Stripe settings)...
    expect(
      await changePlan(prisma, {
        workspaceId: f.workspaceId,
        plan: "paid",
        actor: person(f),
        billing: new SandboxBilling(),
      }),
    ).toEqual({ plan: "paid", from: "audit" });
    const granted = await prisma.billingSubscription.findFirstOrThrow({ where: { workspaceId: f.workspaceId } });
    expect(granted).toMatchObject({
      provider: "sandbox",
      status: "active",
      providerRef: expect.stringMatching(/^sbx_sub_/),
    });
    const clock = testClock();
    const waiting = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, waiting.eventId)).toMatchObject({
      status: "waiting",
      enrollment: { mailPiece: { status: "pending_review" } },
    });

    // ...then the server restarts with Stripe's settings.
    setBillingForTests(billing);
    const caller = await callerFor(prisma, f.user);
    expect(await caller.plan.get({ workspaceId: f.workspaceId })).toMatchObject({
      plan: "paid",
      mailingEnabled: true,
      billing: { provider: "stripe", chargesMoney: true, canManage: false, paidWithoutStripe: true },
      subscription: {
        provider: "sandbox",
        providerRef: granted.providerRef,
        status: "active",
        nextInvoiceAt: null,
        endsAt: null,
      },
      lastPayment: null,
      piecesBeforePrinter: 1,
    });
    // Bad input keeps its errors and changes nothing.
    await expect(caller.plan.change({ workspaceId: f.workspaceId, plan: "free" as never })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(caller.plan.change({ workspaceId: f.workspaceId, plan: "paid" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "The workspace is already on the paid plan.",
    });
    expect(await plan(f.workspaceId)).toBe("paid");

    const stripeRequests = fake.requests.length;
    const now = clock.now();
    expect(await changePlan(prisma, { workspaceId: f.workspaceId, plan: "audit", actor: person(f), now })).toEqual({
      plan: "audit",
      from: "paid",
    });
    expect(fake.requests.length).toBe(stripeRequests);
    expect(await prisma.workspace.findUniqueOrThrow({ where: { id: f.workspaceId } })).toMatchObject({
      plan: "audit",
      planChangedAt: now,
    });
    expect(await prisma.billingSubscription.findUniqueOrThrow({ where: { id: granted.id } })).toMatchObject({
      status: "cancelled",
      cancelledAt: now,
    });
    expect(await prisma.billingCustomer.count({ where: { workspaceId: f.workspaceId } })).toBe(0);
    expect(await audit(f.workspaceId, "billing.portal_opened")).toHaveLength(0);
    const changes = await audit(f.workspaceId, "plan.changed");
    expect(changes).toHaveLength(2);
    expect(changes[1]).toMatchObject({
      actorKind: "user",
      actorId: f.user.id,
      data: { from: "paid", to: "audit", billing: "sandbox", endedSubscriptions: [granted.providerRef] },
    });
    expect((changes[1].data as { reason: string }).reason).toContain("nothing to cancel in Stripe");
    // Mailing stops as for any move to the audit plan: the waiting piece is skipped and cancelled.
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, waiting.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "mailing_disabled",
      enrollment: { mailPiece: { status: "cancelled" } },
    });
    expect(await caller.plan.get({ workspaceId: f.workspaceId })).toMatchObject({
      plan: "audit",
      mailingEnabled: false,
      subscription: null,
      billing: { paidWithoutStripe: false },
      piecesBeforePrinter: 0,
    });
    await expect(caller.plan.change({ workspaceId: f.workspaceId, plan: "audit" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "The workspace is already on the free audit plan.",
    });

    // Choosing the paid plan again starts Stripe billing through Checkout.
    const answer = await caller.plan.change({ workspaceId: f.workspaceId, plan: "paid" });
    expect(Object.keys(answer)).toEqual(["checkoutUrl"]);
    await deliver(
      fake.completeCheckout((answer as { checkoutUrl: string }).checkoutUrl.split("/").pop()!).checkoutCompleted,
    );
    expect(await caller.plan.get({ workspaceId: f.workspaceId })).toMatchObject({
      plan: "paid",
      billing: { canManage: true, paidWithoutStripe: false },
      subscription: { provider: "stripe", status: "active" },
    });
  });

  it("an agent's plans_request_change for the audit plan on a paid plan Stripe does not bill: the card says so, and accepting it ends the plan at once without calling Stripe", async () => {
    // Paid with no subscription at all (granted without any billing).
    const o = await createOwnerWorkspace(prisma, { plan: "paid" });
    setBillingForTests(billing);
    expect(await getPlanOverview(prisma, { workspaceId: o.workspaceId, billing })).toMatchObject({
      plan: "paid",
      subscription: null,
      billing: { paidWithoutStripe: true },
    });
    const { card } = await requestPlanChange(prisma, { workspaceId: o.workspaceId, plan: "audit", requestedBy: agent });
    expect(card.summary).toContain("there is nothing to cancel in Stripe: accepting ends it at once");
    expect(card.summary).not.toContain("billing portal");
    const stripeRequests = fake.requests.length;
    const decided = await decideCard(prisma, {
      workspaceId: o.workspaceId,
      cardId: card.id,
      decision: "accept",
      user: o.user,
    });
    expect(decided).toMatchObject({
      status: "accepted",
      executionError: null,
      result: { plan: "audit", from: "paid" },
    });
    expect(fake.requests.length).toBe(stripeRequests);
    expect(await plan(o.workspaceId)).toBe("audit");
    expect((await audit(o.workspaceId, "plan.changed")).at(-1)).toMatchObject({
      actorKind: "user",
      actorId: o.user.id,
      data: { from: "paid", to: "audit", billing: "sandbox", endedSubscriptions: [] },
    });
    await expect(
      requestPlanChange(prisma, { workspaceId: o.workspaceId, plan: "audit", requestedBy: agent }),
    ).rejects.toMatchObject({
      code: "invalid_state",
      message: "The workspace is already on the free audit plan. Nothing was requested.",
    });
  });

  it("a Stripe error is a clear refusal and nothing is written", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const wrongPrice = new StripeBilling({ ...stripeSettings(fake.env)!, priceId: "price_missing" });
    await expect(
      changePlan(prisma, { workspaceId: o.workspaceId, plan: "paid", actor: person(o), billing: wrongPrice }),
    ).rejects.toMatchObject({
      code: "invalid_state",
      message: "Stripe refused to start the checkout: No such price: 'price_missing'",
    });
    expect(await audit(o.workspaceId, "billing.checkout_started")).toHaveLength(0);
    expect(await plan(o.workspaceId)).toBe("audit");
  });
});

describe("billing configuration", () => {
  it("without STRIPE_SECRET_KEY the sandbox bills and the webhook endpoint is not there", async () => {
    expect(billingAdapter({})).toMatchObject({ provider: "sandbox", chargesMoney: false });
    const res = await stripeWebhookResponse(
      new Request("http://localhost/api/webhooks/stripe", { method: "POST", body: "{}" }),
      prisma,
      billingAdapter({}),
    );
    expect(res.status).toBe(404);
  });

  it("a secret key without the webhook secret or the price is a one-sentence configuration error", () => {
    expect(() => stripeSettings({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PRICE_ID: "price_x" })).toThrow(
      /STRIPE_WEBHOOK_SECRET is not/,
    );
    expect(() => stripeSettings({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" })).toThrow(
      /STRIPE_PRICE_ID is not/,
    );
    expect(() =>
      stripeSettings({
        STRIPE_SECRET_KEY: "sk_test_x",
        STRIPE_WEBHOOK_SECRET: "whsec_x",
        STRIPE_PRICE_ID: "price_x",
        STRIPE_API_URL: "nope",
      }),
    ).toThrow(/STRIPE_API_URL is not a valid URL/);
    expect(
      stripeSettings({
        STRIPE_SECRET_KEY: "sk_test_x",
        STRIPE_WEBHOOK_SECRET: "whsec_x",
        STRIPE_PRICE_ID: "price_x",
        STRIPE_API_URL: "http://127.0.0.1:4010",
      }),
    ).toMatchObject({ api: { host: "127.0.0.1", port: 4010, protocol: "http" } });
  });
});
