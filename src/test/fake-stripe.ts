import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local stand-in for the part of Stripe's API this service calls, answering as Stripe documents
 * it (API reference and stripe/openapi): form-encoded requests with bracketed keys, Bearer secret
 * key (401 `invalid_request_error` otherwise), errors as `{ error: { type, code, message, param } }`,
 * `Idempotency-Key` replaying the first answer (the same key with other parameters is 400
 * `idempotency_error`, as Stripe answers). Endpoints: POST /v1/customers,
 * POST /v1/checkout/sessions (subscription mode needs line_items with a known price and a
 * success_url), GET /v1/checkout/sessions (by customer and status), POST /v1/billing_portal/sessions,
 * GET /v1/subscriptions/:id. `failNext` makes the next requests answer 429 or 5xx as Stripe does
 * when it limits or fails (the official client retries those).
 *
 * It also plays Stripe's side of a customer's actions and hands back the events Stripe would send,
 * as `event` objects of API version `ApiVersion`, signed with the webhook secret by `sign` (the
 * official `stripe.webhooks.generateTestHeaderString`). Event times advance one second per event.
 */
export interface FakeStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
  priceId: string;
  /** The settings that point the service's Stripe client here. */
  env: Record<string, string>;
  requests: { method: string; path: string; body: Record<string, unknown>; idempotencyKey: string | null }[];
  customers: Map<string, Record<string, unknown>>;
  sessions: Map<string, Record<string, unknown>>;
  subscriptions: Map<string, Record<string, unknown>>;
  /** The customer pays in Checkout: the subscription starts; the events Stripe sends, in its order. */
  completeCheckout(sessionId: string): {
    checkoutCompleted: Stripe.Event;
    subscriptionCreated: Stripe.Event;
    invoicePaid: Stripe.Event;
    subscriptionId: string;
  };
  /** The subscription changes (a renewal fails, the customer cancels at period end in the portal...). */
  updateSubscription(
    subscriptionId: string,
    changes: { status?: string; cancel_at_period_end?: boolean },
  ): Stripe.Event;
  /** The subscription ends (cancelled in the portal, or Stripe gave up collecting). */
  deleteSubscription(subscriptionId: string): Stripe.Event;
  /** A renewal invoice of the subscription: paid, or its payment failed (Stripe retries in three days). */
  renewalInvoice(subscriptionId: string, outcome: "paid" | "payment_failed"): Stripe.Event;
  /** The next `times` requests answer `status` (429: rate limited; 5xx: Stripe failed), then it answers again. */
  failNext(status: 429 | 500 | 502 | 503, times?: number): void;
  /** A checkout session expires (Stripe expires an unpaid one after 24 hours). */
  expireSession(sessionId: string): void;
  /** The body and Stripe-Signature header of a delivery (another secret or an old timestamp to forge or replay). */
  sign(event: Stripe.Event, opts?: { secret?: string; timestamp?: number }): { body: string; signature: string };
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const PAID_PLAN_CENTS = 49_900;

/** Stripe's form encoding (qs style: a[b]=1, a[0][c]=2) back into objects and arrays. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const key = /^\d+$/.test(part) && Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[key] = value;
      else {
        container[key] ??= /^\d+$/.test(parts[i + 1]) ? [] : {};
        node = container[key] as Record<string, unknown>;
      }
    });
  }
  return root;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = `sk_test_${randomBytes(12).toString("hex")}`;
  const webhookSecret = `whsec_${randomBytes(16).toString("hex")}`;
  const priceId = `price_${randomBytes(8).toString("hex")}`;
  const signer = new Stripe(secretKey);
  const requests: FakeStripe["requests"] = [];
  const customers = new Map<string, Record<string, unknown>>();
  const sessions = new Map<string, Record<string, unknown>>();
  const subscriptions = new Map<string, Record<string, unknown>>();
  const idempotent = new Map<string, { params: string; answer: { status: number; body: unknown } }>();
  const failures: number[] = [];
  let clock = Math.floor(Date.now() / 1000);
  const tick = () => ++clock;
  let origin = "";

  const price = {
    id: priceId,
    object: "price",
    active: true,
    currency: "usd",
    unit_amount: PAID_PLAN_CENTS,
    recurring: { interval: "month", interval_count: 1, usage_type: "licensed" },
    type: "recurring",
    livemode: false,
    product: "prod_paidplan",
  };

  const fail = (status: number, type: string, message: string, extra: Record<string, unknown> = {}) => ({
    status,
    body: { error: { type, message, ...extra } },
  });
  const missingParam = (param: string) =>
    fail(400, "invalid_request_error", `Missing required param: ${param}.`, { code: "parameter_missing", param });

  function route(method: string, path: string, body: Record<string, unknown>): { status: number; body: unknown } {
    if (method === "POST" && path === "/v1/customers") {
      const customer = {
        id: id("cus"),
        object: "customer",
        created: clock,
        email: body.email ?? null,
        name: body.name ?? null,
        metadata: body.metadata ?? {},
        livemode: false,
        balance: 0,
        delinquent: false,
        invoice_settings: { default_payment_method: null },
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const mode = body.mode as string | undefined;
      if (!mode) return missingParam("mode");
      if (!body.success_url) return missingParam("success_url");
      const items = (body.line_items as { price?: string; quantity?: string }[] | undefined) ?? [];
      if (mode === "subscription" && items.length === 0) return missingParam("line_items");
      for (const [i, item] of items.entries()) {
        if (item.price !== priceId)
          return fail(400, "invalid_request_error", `No such price: '${item.price}'`, {
            code: "resource_missing",
            param: `line_items[${i}][price]`,
          });
      }
      if (body.customer && !customers.has(body.customer as string))
        return fail(400, "invalid_request_error", `No such customer: '${body.customer}'`, {
          code: "resource_missing",
          param: "customer",
        });
      const sessionId = `cs_test_${randomBytes(16).toString("hex")}`;
      const session = {
        id: sessionId,
        object: "checkout.session",
        mode,
        status: "open",
        payment_status: "unpaid",
        customer: body.customer ?? null,
        client_reference_id: body.client_reference_id ?? null,
        success_url: body.success_url,
        cancel_url: body.cancel_url ?? null,
        metadata: body.metadata ?? {},
        subscription: null,
        subscription_data: body.subscription_data ?? {},
        amount_total: items.reduce((sum, it) => sum + PAID_PLAN_CENTS * Number(it.quantity ?? 1), 0),
        currency: "usd",
        created: clock,
        expires_at: clock + 24 * 3600,
        livemode: false,
        url: `${origin}/c/pay/${sessionId}`,
      };
      sessions.set(sessionId, session);
      // subscription_data is a parameter, not a field of the session Stripe returns.
      const { subscription_data: _, ...returned } = session;
      return { status: 200, body: returned };
    }
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      if (!body.customer) return missingParam("customer");
      if (!customers.has(body.customer as string))
        return fail(400, "invalid_request_error", `No such customer: '${body.customer}'`, {
          code: "resource_missing",
          param: "customer",
        });
      const portalId = id("bps");
      return {
        status: 200,
        body: {
          id: portalId,
          object: "billing_portal.session",
          configuration: "bpc_default",
          created: clock,
          customer: body.customer,
          flow: null,
          livemode: false,
          locale: null,
          on_behalf_of: null,
          return_url: body.return_url ?? null,
          url: `${origin}/p/session/${portalId}`,
        },
      };
    }
    if (method === "GET" && path === "/v1/checkout/sessions") {
      const data = [...sessions.values()]
        .filter((x) => (!body.customer || x.customer === body.customer) && (!body.status || x.status === body.status))
        .sort((a, b) => (b.created as number) - (a.created as number))
        .slice(0, Number(body.limit ?? 10))
        .map(({ subscription_data: _, ...returned }) => returned);
      return { status: 200, body: { object: "list", data, has_more: false, url: "/v1/checkout/sessions" } };
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === "GET" && sub) {
      const found = subscriptions.get(sub[1]);
      if (!found)
        return fail(404, "invalid_request_error", `No such subscription: '${sub[1]}'`, {
          code: "resource_missing",
          param: "id",
        });
      return { status: 200, body: found };
    }
    return fail(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const body = req.method === "GET" ? Object.fromEntries(url.searchParams) : parseStripeForm(raw);
      const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
      requests.push({ method: req.method ?? "", path: url.pathname, body, idempotencyKey: key });
      let answer: { status: number; body: unknown };
      const stored = key ? idempotent.get(key) : undefined;
      const params = `${req.method} ${url.pathname} ${JSON.stringify(body)}`;
      const failure = failures.shift();
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        answer = fail(401, "invalid_request_error", "Invalid API Key provided: the fake knows one secret key.");
      } else if (failure === 429) {
        answer = fail(429, "invalid_request_error", "Too many requests hit the API too quickly.", {
          code: "rate_limit",
        });
      } else if (failure) {
        answer = fail(failure, "api_error", "Something went wrong on Stripe's end.");
      } else if (stored && stored.params !== params) {
        answer = fail(
          400,
          "idempotency_error",
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        );
      } else if (stored) {
        answer = stored.answer;
      } else {
        answer = route(req.method ?? "", url.pathname, body);
        if (key && req.method === "POST") idempotent.set(key, { params, answer });
      }
      res.writeHead(answer.status, {
        "Content-Type": "application/json",
        "Request-Id": id("req"),
        "Stripe-Version": Stripe.API_VERSION ?? "",
        ...(failure ? { "Stripe-Should-Retry": "true" } : {}),
        ...(key && stored && stored.params === params ? { "Idempotent-Replayed": "true" } : {}),
      });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  function event(type: string, object: Record<string, unknown>, previous?: Record<string, unknown>): Stripe.Event {
    return {
      id: id("evt"),
      object: "event",
      api_version: Stripe.API_VERSION,
      created: tick(),
      data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      // Stripe.Event ties each type to its object's shape; the fake builds any of them from one place.
    } as unknown as Stripe.Event;
  }

  function invoiceFor(subscription: Record<string, unknown>, outcome: "paid" | "payment_failed", reason: string) {
    const created = clock;
    return {
      id: id("in"),
      object: "invoice",
      customer: subscription.customer,
      amount_due: PAID_PLAN_CENTS,
      amount_paid: outcome === "paid" ? PAID_PLAN_CENTS : 0,
      amount_remaining: outcome === "paid" ? 0 : PAID_PLAN_CENTS,
      attempt_count: 1,
      billing_reason: reason,
      collection_method: "charge_automatically",
      currency: "usd",
      created,
      hosted_invoice_url: `${origin}/i/${id("inv")}`,
      livemode: false,
      next_payment_attempt: outcome === "paid" ? null : created + 3 * 24 * 3600,
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { metadata: subscription.metadata, subscription: subscription.id },
      },
      period_end: created,
      status: outcome === "paid" ? "paid" : "open",
      status_transitions: { paid_at: outcome === "paid" ? created : null, finalized_at: created },
    };
  }

  return {
    url: origin,
    secretKey,
    webhookSecret,
    priceId,
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_PRICE_ID: priceId,
      STRIPE_API_URL: origin,
    },
    requests,
    customers,
    sessions,
    subscriptions,
    completeCheckout(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake Stripe: no checkout session ${sessionId}`);
      const start = tick();
      const subscriptionId = id("sub");
      const subscription = {
        id: subscriptionId,
        object: "subscription",
        customer: session.customer,
        status: "active",
        cancel_at_period_end: false,
        canceled_at: null,
        ended_at: null,
        collection_method: "charge_automatically",
        created: start,
        start_date: start,
        currency: "usd",
        livemode: false,
        metadata: (session.subscription_data as { metadata?: unknown }).metadata ?? {},
        items: {
          object: "list",
          has_more: false,
          url: `/v1/subscription_items?subscription=${subscriptionId}`,
          data: [
            {
              id: id("si"),
              object: "subscription_item",
              subscription: subscriptionId,
              quantity: 1,
              price,
              current_period_start: start,
              current_period_end: start + 30 * 24 * 3600,
            },
          ],
        },
      };
      subscriptions.set(subscriptionId, subscription);
      Object.assign(session, { status: "complete", payment_status: "paid", subscription: subscriptionId });
      const { subscription_data: _, ...sessionObject } = session;
      const subscriptionCreated = event("customer.subscription.created", subscription);
      const invoicePaid = event("invoice.paid", invoiceFor(subscription, "paid", "subscription_create"));
      const checkoutCompleted = event("checkout.session.completed", sessionObject);
      return { checkoutCompleted, subscriptionCreated, invoicePaid, subscriptionId };
    },
    updateSubscription(subscriptionId, changes) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`fake Stripe: no subscription ${subscriptionId}`);
      const previous = Object.fromEntries(Object.keys(changes).map((k) => [k, subscription[k]]));
      Object.assign(subscription, changes);
      return event("customer.subscription.updated", subscription, previous);
    },
    deleteSubscription(subscriptionId) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`fake Stripe: no subscription ${subscriptionId}`);
      const at = tick();
      Object.assign(subscription, { status: "canceled", canceled_at: at, ended_at: at });
      return event("customer.subscription.deleted", subscription);
    },
    renewalInvoice(subscriptionId, outcome) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`fake Stripe: no subscription ${subscriptionId}`);
      tick();
      return event(
        outcome === "paid" ? "invoice.paid" : "invoice.payment_failed",
        invoiceFor(subscription, outcome, "subscription_cycle"),
      );
    },
    failNext(status, times = 1) {
      for (let i = 0; i < times; i++) failures.push(status);
    },
    expireSession(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake Stripe: no checkout session ${sessionId}`);
      Object.assign(session, { status: "expired", url: null });
    },
    sign(ev, opts = {}) {
      const body = JSON.stringify(ev, null, 2);
      const signature = signer.webhooks.generateTestHeaderString({
        payload: body,
        secret: opts.secret ?? webhookSecret,
        ...(opts.timestamp ? { timestamp: opts.timestamp } : {}),
      });
      return { body, signature };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
