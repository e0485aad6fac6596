import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/**
 * A local stand-in for Goody's Automation API v1, answering as Goody documents it. Sources:
 * [OA] Goody's OpenAPI description (developer.ongoody.com goody-api-openapi.json; servers
 * https://api.ongoody.com and https://api.sandbox.ongoody.com), [AUTH] "Automation API:
 * Authentication", [SEND] "Create an order batch" and "Send methods", [STATUS] "Retrieve order
 * status", [HOOKS] "Webhooks" and the event pages (order.shipped … order.refunded).
 *
 * Rules it enforces:
 * - [AUTH] every request carries `Authorization: Bearer <key>`; anything else is 401 with
 *   [OA] Error `{ "error": "Failed to authorize" }` (GET /v1/me, 401).
 * - [OA] GET /v1/products pages with `page` (≥ 1) and `per_page` (1–100), answering
 *   `{ data: Product[], list_meta: { total_count } }`; prices are integer cents.
 * - [SEND] POST /v1/order_batches needs `from_name`, `send_method` (one of email_and_link,
 *   link_multiple_custom_list, direct_send), non-empty `recipients` ("Recipients can't be blank",
 *   [OA] 400 example) each with `first_name`; `email_and_link` needs each recipient's `email`;
 *   `direct_send` needs each recipient's `mailing_address` with address_1, city, state,
 *   postal_code and country ([OA] MailingAddress required fields; "Only US is supported");
 *   `cart.items` each with a known `product_id` and an integer `quantity`; for direct_send a
 *   product with variants needs exactly `variants_num_selectable` variant names ([OA]
 *   CartItemInput.variants); a product is not shipped to its `restricted_states`; a `message`
 *   needs a `card_id` ([OA] OrderBatchInput.card_id); a repeated `customer_reference_id` is
 *   rejected with an error instead of creating a duplicate ([OA] customer_reference_id).
 * - [STATUS] POST /v1/orders/{id}/cancel cancels only orders in created, notified or opened
 *   status; later ones are processing already.
 * - [HOOKS] webhooks are sent through Svix: a JSON body `{ event_type, id, data: Order }` signed
 *   with the endpoint's secret (svix-id, svix-timestamp, svix-signature; Standard Webhooks).
 *
 * The HTTP status of the two undocumented refusals (a duplicate reference, a late cancel) is 422.
 */

export interface FakeGoodyProduct {
  id: string;
  name: string;
  brand: { id: string; name: string; shipping_price: number; free_shipping_minimum: number | null };
  subtitle: string | null;
  price: number;
  price_is_variable: boolean;
  variants_num_selectable: number | null;
  variants: { id: string; name: string }[];
  restricted_states: string[];
  status: "active";
}

export interface FakeGoodyOrder {
  id: string;
  status: string;
  order_batch_id: string;
  recipient_first_name: string;
  recipient_last_name: string | null;
  recipient_email: string | null;
  individual_gift_link: string;
  cart: { id: string; items: { id: string; quantity: number; product: { id: string; name: string } }[] };
  shipments: {
    id: string;
    status: string;
    brand_name: string;
    tracking_carrier: string | null;
    shipped_at: string | null;
    delivered_at: string | null;
  }[];
  amounts: { amount_product: number; amount_shipping: number; amount_total: number | null };
  mailing_address: Record<string, unknown> | null;
  created_at: string;
}

interface Batch {
  id: string;
  send_status: "complete";
  send_method: string;
  from_name: string;
  customer_reference_id: string | null;
  orders: string[];
  created_at: string;
}

export interface FakeGoody {
  url: string;
  apiKey: string;
  /** The Svix signing secret of the account's webhook endpoint. */
  webhookSecret: string;
  products: FakeGoodyProduct[];
  orders: Map<string, FakeGoodyOrder>;
  requests: { method: string; path: string; body: unknown }[];
  /** Answer the next `n` requests with 500. */
  failNext(n: number): void;
  /** Create the next `n` order batches but drop the connection instead of answering (a lost answer). */
  loseNextAnswers(n: number): void;
  /** The key stops working (revoked in Goody's dashboard). */
  revokeKey(): void;
  /** Moves an order on (as Goody's fulfilment does) and answers the signed webhook Svix would send for it. */
  event(
    orderId: string,
    type: "order.shipped" | "order.delivered" | "order.canceled" | "order.refunded",
    at?: Date,
  ): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

const product = (
  name: string,
  price: number,
  extra: Partial<FakeGoodyProduct> = {},
  brand = "Blue Bottle Coffee",
): FakeGoodyProduct => ({
  id: randomUUID(),
  name,
  brand: { id: randomUUID(), name: brand, shipping_price: 800, free_shipping_minimum: null },
  subtitle: `${name} from ${brand}.`,
  price,
  price_is_variable: false,
  variants_num_selectable: null,
  variants: [],
  restricted_states: [],
  status: "active",
  ...extra,
});

/** A small catalogue like Goody's sandbox: fixed prices in cents, one product with variants, one not shipped to HI/AK. */
export function fakeGoodyCatalogue(): FakeGoodyProduct[] {
  return [
    product("Coffee sampler", 3200),
    product("Six cookies", 1800, {
      variants_num_selectable: 1,
      variants: [
        { id: randomUUID(), name: "Chocolate chip" },
        { id: randomUUID(), name: "Oatmeal" },
      ],
    }),
    product("Potted succulent", 3500, { restricted_states: ["HI", "AK"] }, "The Sill"),
  ];
}

const err = (message: string) => ({ error: message });
const SEND_METHODS = ["email_and_link", "link_multiple_custom_list", "direct_send"];

/** Listens on `port` (0: any free one); development and end-to-end runs give the one GOODY_API_URL names. */
export async function startFakeGoody(
  apiKey = `goody_${randomBytes(12).toString("hex")}`,
  port = 0,
  webhookSecret = `whsec_${randomBytes(24).toString("base64")}`,
): Promise<FakeGoody> {
  const products = fakeGoodyCatalogue();
  const orders = new Map<string, FakeGoodyOrder>();
  const batches: Batch[] = [];
  const requests: FakeGoody["requests"] = [];
  let failures = 0;
  let lose = 0;
  let revoked = false;

  function createBatch(body: Record<string, unknown>): { status: number; body: unknown } {
    const str = (v: unknown) => (typeof v === "string" && v.trim() ? v : null);
    if (!str(body.from_name)) return { status: 400, body: err("From name can't be blank") };
    if (!SEND_METHODS.includes(body.send_method as string))
      return { status: 400, body: err(`Send method must be one of ${SEND_METHODS.join(", ")}`) };
    const method = body.send_method as string;
    if (str(body.message) && !str(body.card_id))
      return { status: 400, body: err("Card must be specified when a message is specified") };
    const recipients = Array.isArray(body.recipients) ? (body.recipients as Record<string, unknown>[]) : [];
    if (recipients.length === 0) return { status: 400, body: err("Recipients can't be blank") };
    const items = Array.isArray((body.cart as { items?: unknown })?.items)
      ? ((body.cart as { items: Record<string, unknown>[] }).items as Record<string, unknown>[])
      : [];
    if (items.length === 0) return { status: 400, body: err("Cart items can't be blank") };
    const cartProducts: { p: FakeGoodyProduct; quantity: number }[] = [];
    for (const item of items) {
      const p = products.find((x) => x.id === item.product_id);
      if (!p) return { status: 400, body: err(`Product not found: ${String(item.product_id)}`) };
      if (!Number.isInteger(item.quantity) || (item.quantity as number) < 1)
        return { status: 400, body: err("Quantity must be a positive integer") };
      if (method === "direct_send" && p.variants_num_selectable) {
        const chosen = Array.isArray(item.variants) ? (item.variants as unknown[]) : [];
        const names = new Set(p.variants.map((v) => v.name));
        if (chosen.length !== p.variants_num_selectable || !chosen.every((c) => names.has(c as string)))
          return {
            status: 400,
            body: err(`Variants must be ${p.variants_num_selectable} of ${[...names].join(", ")} for ${p.name}`),
          };
      }
      cartProducts.push({ p, quantity: item.quantity as number });
    }
    for (const r of recipients) {
      if (!str(r.first_name)) return { status: 400, body: err("Recipient first name can't be blank") };
      if (method === "email_and_link" && !str(r.email))
        return { status: 400, body: err("Recipient email can't be blank") };
      if (method === "direct_send") {
        const a = r.mailing_address as Record<string, unknown> | undefined;
        if (!a) return { status: 400, body: err("Mailing address is required for direct send") };
        for (const k of ["address_1", "city", "state", "postal_code", "country"])
          if (!str(a[k])) return { status: 400, body: err(`Mailing address ${k} can't be blank`) };
        if (a.country !== "US") return { status: 400, body: err("Mailing address country must be US") };
        const restricted = cartProducts.find(({ p }) => p.restricted_states.includes(a.state as string));
        if (restricted)
          return { status: 400, body: err(`${restricted.p.name} cannot be shipped to ${String(a.state)}`) };
      }
    }
    const reference = str(body.customer_reference_id);
    if (reference && batches.some((b) => b.customer_reference_id === reference))
      return { status: 422, body: err("Customer reference has already been taken") };
    const batch: Batch = {
      id: randomUUID(),
      send_status: "complete",
      send_method: method,
      from_name: body.from_name as string,
      customer_reference_id: reference,
      orders: [],
      created_at: new Date().toISOString(),
    };
    for (const r of recipients) {
      const productCents = cartProducts.reduce((s, { p, quantity }) => s + p.price * quantity, 0);
      const shipping = cartProducts.reduce((s, { p }) => s + p.brand.shipping_price, 0);
      const order: FakeGoodyOrder = {
        id: randomUUID(),
        status: "created",
        order_batch_id: batch.id,
        recipient_first_name: r.first_name as string,
        recipient_last_name: (r.last_name as string) ?? null,
        recipient_email: (r.email as string) ?? null,
        individual_gift_link: `https://gifts.ongoody.com/gift/${randomBytes(12).toString("hex")}`,
        cart: {
          id: randomUUID(),
          items: cartProducts.map(({ p, quantity }) => ({
            id: randomUUID(),
            quantity,
            product: { id: p.id, name: p.name },
          })),
        },
        shipments: [],
        amounts: { amount_product: productCents, amount_shipping: shipping, amount_total: null },
        mailing_address: (r.mailing_address as Record<string, unknown>) ?? null,
        created_at: batch.created_at,
      };
      orders.set(order.id, order);
      batch.orders.push(order.id);
    }
    batches.push(batch);
    return { status: 201, body: view(batch) };
  }

  const view = (b: Batch) => ({
    id: b.id,
    send_status: b.send_status,
    from_name: b.from_name,
    customer_reference_id: b.customer_reference_id,
    orders_count: b.orders.length,
    orders_preview: b.orders.slice(0, 10).map((id) => orders.get(id)),
    recipients_count: b.orders.length,
  });

  function route(method: string, path: string, query: URLSearchParams, body: Record<string, unknown>) {
    const page = Number(query.get("page") ?? 1);
    const perPage = Number(query.get("per_page") ?? 20);
    if (method === "GET" && path === "/v1/me") return { status: 200, body: { email: "owner@example.com" } };
    if (method === "GET" && (path === "/v1/products" || path === "/v1/order_batches")) {
      if (!Number.isInteger(page) || page < 1) return { status: 400, body: err("page must be at least 1") };
      if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
        return { status: 400, body: err("per_page must be between 1 and 100") };
      const all = path === "/v1/products" ? products : [...batches].reverse().map(view);
      return {
        status: 200,
        body: { data: all.slice((page - 1) * perPage, page * perPage), list_meta: { total_count: all.length } },
      };
    }
    let m = /^\/v1\/products\/([\w-]+)$/.exec(path);
    if (method === "GET" && m) {
      const p = products.find((x) => x.id === m![1]);
      return p ? { status: 200, body: p } : { status: 404, body: err("Product not found") };
    }
    if (method === "POST" && path === "/v1/order_batches") return createBatch(body);
    m = /^\/v1\/order_batches\/([\w-]+)$/.exec(path);
    if (method === "GET" && m) {
      const b = batches.find((x) => x.id === m![1]);
      return b ? { status: 200, body: view(b) } : { status: 404, body: err("Order batch not found") };
    }
    m = /^\/v1\/orders\/([\w-]+)(\/cancel)?$/.exec(path);
    if (m) {
      const o = orders.get(m[1]);
      if (!o) return { status: 404, body: err("Order not found") };
      if (method === "GET" && !m[2]) return { status: 200, body: o };
      if (method === "POST" && m[2]) {
        if (!["created", "notified", "opened"].includes(o.status))
          return { status: 422, body: err("Order cannot be canceled after it has been accepted") };
        o.status = "canceled";
        return { status: 200, body: o };
      }
    }
    return { status: 404, body: err("Not found") };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify(body));
      };
      const url = new URL(req.url ?? "/", "http://fake-goody.local");
      let body: Record<string, unknown> = {};
      try {
        const raw = Buffer.concat(chunks).toString();
        body = raw ? JSON.parse(raw) : {};
      } catch {
        return send(400, err("Invalid JSON"));
      }
      requests.push({ method: req.method ?? "GET", path: url.pathname, body });
      if (req.headers.authorization !== `Bearer ${apiKey}` || revoked) return send(401, err("Failed to authorize"));
      if (failures > 0) {
        failures--;
        return send(500, err("Internal server error"));
      }
      const answer = route(req.method ?? "GET", url.pathname, url.searchParams, body);
      if (lose > 0 && req.method === "POST" && url.pathname === "/v1/order_batches" && answer.status === 201) {
        lose--;
        return req.socket.destroy();
      }
      send(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  const signer = new Webhook(webhookSecret);

  return {
    url: `http://127.0.0.1:${bound}`,
    apiKey,
    webhookSecret,
    products,
    orders,
    requests,
    failNext: (n) => {
      failures = n;
    },
    loseNextAnswers: (n) => {
      lose = n;
    },
    revokeKey: () => {
      revoked = true;
    },
    event(orderId, type, at = new Date()) {
      const o = orders.get(orderId);
      if (!o) throw new Error(`fake Goody has no order ${orderId}`);
      if (type === "order.shipped") {
        o.status = "shipped";
        o.shipments = [
          {
            id: randomUUID(),
            status: "shipped",
            brand_name: "Blue Bottle Coffee",
            tracking_carrier: "UPS",
            shipped_at: at.toISOString(),
            delivered_at: null,
          },
        ];
      } else if (type === "order.delivered") {
        o.status = "delivered";
        for (const s of o.shipments) Object.assign(s, { status: "delivered", delivered_at: at.toISOString() });
      } else if (type === "order.canceled") o.status = "canceled";
      const id = `msg_${randomBytes(12).toString("hex")}`;
      const body = JSON.stringify({ event_type: type, id: randomUUID(), data: o });
      const now = new Date();
      return {
        body,
        headers: {
          "svix-id": id,
          "svix-timestamp": String(Math.floor(now.getTime() / 1000)),
          "svix-signature": signer.sign(id, now, body),
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
