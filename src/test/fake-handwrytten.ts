import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Handwrytten's REST API v2, served over real HTTP and as strict as its
 * published descriptions. Each rule names its source:
 * - [redoc] Handwrytten's API reference, handwrytten.com/api-redoc: "Authenticate by including your
 *   API key in the Authorization request header — pass the key directly, with no Bearer: prefix";
 *   test mode is the account's switch ("orders are accepted normally but are not fulfilled").
 * - [single-step] handwrytten.com/api/single-step-order: card_id, message and font_label REQUIRED;
 *   sender_address1, sender_city, sender_zip, recipient_address1, recipient_city, recipient_zip
 *   REQUIRED; sender_state / recipient_state "Required for US and Canada"; answers 400 and 401 with
 *   { httpCode, status, message }; client_metadata is the order's metadata.
 * - [order-details] handwrytten.com/api/order-details: { httpCode, status, order: { id, status,
 *   date_send, … } }.
 * - [sdk] github.com/handwrytten/handwrytten-js-sdk: paths auth/getUser, cards/list, fonts/list,
 *   orders/get/{id}, orders/list?page&per_page (src/resources/*.ts); 401/403 a refused key, 404 not
 *   found, 429 with Retry-After (src/http-client.ts).
 * Handwrytten documents no field lengths for these fields, so none are enforced here.
 */
export interface FakeHandwryttenOrder {
  id: number;
  status: string;
  client_metadata: string | null;
  date_created: number;
  date_send: string | null;
  test_mode: boolean;
  body: Record<string, unknown>;
}

export interface FakeHandwrytten {
  url: string;
  apiKey: string;
  cards: { id: number; name: string }[];
  fonts: { id: number; label: string }[];
  orders: Map<number, FakeHandwryttenOrder>;
  requests: { method: string; path: string; authorization: string | null; body: Record<string, unknown> | null }[];
  /** The account's test-mode switch (Integrations page). On by default. */
  setTestMode(on: boolean): void;
  /** The owner deletes the key: every request with it is refused (401). */
  revokeKey(): void;
  /** Answer the next `n` requests with `status` and `message` (e.g. 500, or 400 about the card's credit). */
  failNext(n: number, status: number, message: string): void;
  /** Create the next `n` orders but drop the connection instead of answering (a lost answer). */
  loseNextAnswers(n: number): void;
  /** Handwrytten writes and mails an order: its status becomes "sent" with today's send date. */
  markSent(orderId: number | string): void;
  close(): Promise<void>;
}

const REQUIRED = [
  "card_id",
  "message",
  "font_label",
  "sender_address1",
  "sender_city",
  "sender_zip",
  "recipient_address1",
  "recipient_city",
  "recipient_zip",
] as const;

const US_OR_CANADA = (country: unknown, id: unknown) =>
  id === undefined || id === null || id === 1 || id === 2 || id === "1" || id === "2"
    ? country === undefined || /^(united states|usa|us|canada|ca)$/i.test(String(country))
    : false;

export async function startFakeHandwrytten(apiKey = randomBytes(16).toString("hex")): Promise<FakeHandwrytten> {
  let testMode = true;
  let revoked = false;
  const failures: { status: number; message: string }[] = [];
  let lose = 0;
  let nextId = 48_000;
  const fake: Omit<FakeHandwrytten, "url" | "close"> = {
    apiKey,
    cards: [
      { id: 3404, name: "Thank You Kraft" },
      { id: 3415, name: "Plain White Flat" },
    ],
    fonts: [
      { id: 1, label: "Casual David" },
      { id: 2, label: "Fancy Jenna" },
    ],
    orders: new Map(),
    requests: [],
    setTestMode: (on) => {
      testMode = on;
    },
    revokeKey: () => {
      revoked = true;
    },
    failNext: (n, status, message) => {
      for (let i = 0; i < n; i++) failures.push({ status, message });
    },
    loseNextAnswers: (n) => {
      lose += n;
    },
    markSent: (orderId) => {
      const o = fake.orders.get(Number(orderId));
      if (!o) throw new Error(`no order ${orderId}`);
      o.status = "sent";
      o.date_send = new Date().toISOString().slice(0, 10);
    },
  };
  const answer = (res: http.ServerResponse, status: number, body: Record<string, unknown>) => {
    // One request per connection: a kept-alive socket the server closes while idle would reset the next request.
    res.writeHead(status, { "content-type": "application/json", connection: "close" });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: http.ServerResponse, status: number, message: string) =>
    answer(res, status, { httpCode: status, status: "error", message });
  const orderView = (o: FakeHandwryttenOrder) => {
    const { body: _body, ...rest } = o;
    return rest;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const path = url.pathname.replace(/^\/(v2\/)?/, "");
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: Record<string, unknown> | null = null;
      if (raw) {
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          return refuse(res, 400, "The request body is not JSON.");
        }
      }
      const authorization = req.headers.authorization ?? null;
      fake.requests.push({ method: req.method ?? "GET", path, authorization, body });
      const failure = failures.shift();
      if (failure) return refuse(res, failure.status, failure.message);
      // [redoc] the key itself is the whole header: a "Bearer …" or "Basic …" header is no key of this account.
      if (!authorization) return refuse(res, 401, "No API key in the Authorization header.");
      if (authorization !== apiKey || revoked) return refuse(res, 401, "Invalid API key.");
      if (req.method === "GET" && path === "auth/getUser")
        return answer(res, 200, {
          httpCode: 200,
          status: "OK",
          id: 77,
          email: "owner@acme.example",
          test_mode: testMode,
        });
      if (req.method === "GET" && path === "cards/list")
        return answer(res, 200, { httpCode: 200, status: "OK", cards: fake.cards });
      if (req.method === "GET" && path === "fonts/list")
        return answer(res, 200, { httpCode: 200, status: "OK", fonts: fake.fonts });
      if (req.method === "GET" && path === "orders/list") {
        const page = Math.max(1, Number(url.searchParams.get("page") ?? 1));
        const per = Math.min(100, Math.max(1, Number(url.searchParams.get("per_page") ?? 50)));
        const all = [...fake.orders.values()].sort((a, b) => b.id - a.id);
        return answer(res, 200, {
          httpCode: 200,
          status: "OK",
          orders: all.slice((page - 1) * per, page * per).map(orderView),
        });
      }
      const get = /^orders\/get\/(\d+)$/.exec(path);
      if (req.method === "GET" && get) {
        const o = fake.orders.get(Number(get[1]));
        if (!o) return refuse(res, 404, "Order not found.");
        return answer(res, 200, { httpCode: 200, status: "OK", order: orderView(o) });
      }
      if (req.method === "POST" && path === "orders/singleStepOrder") {
        if (!/application\/json/.test(req.headers["content-type"] ?? ""))
          return refuse(res, 400, "Send the order as JSON.");
        const b = body ?? {};
        // [single-step] the REQUIRED fields.
        for (const f of REQUIRED)
          if (b[f] === undefined || b[f] === null || String(b[f]).trim() === "")
            return refuse(res, 400, `${f} is required.`);
        // [single-step] "Required for US and Canada (country id 1 or 2)"; country is "United States by default".
        for (const side of ["sender", "recipient"] as const)
          if (US_OR_CANADA(b[`${side}_country`], b[`${side}_country_id`]) && !String(b[`${side}_state`] ?? "").trim())
            return refuse(res, 400, `${side}_state is required for an address in the United States or Canada.`);
        // [single-step] card_id is the id "of the card you want to send"; font_label names one of the account's fonts ([sdk] fonts/list).
        if (!Number.isInteger(Number(b.card_id)) || !fake.cards.some((c) => c.id === Number(b.card_id)))
          return refuse(res, 400, `Card ${String(b.card_id)} not found.`);
        if (!fake.fonts.some((f) => f.label === b.font_label))
          return refuse(res, 400, `Font "${String(b.font_label)}" not found.`);
        const id = nextId++;
        fake.orders.set(id, {
          id,
          status: "processing",
          client_metadata: typeof b.client_metadata === "string" ? b.client_metadata : null,
          date_created: Math.floor(Date.now() / 1000),
          date_send: null,
          test_mode: testMode,
          body: b,
        });
        if (lose > 0) {
          lose--;
          req.socket.destroy();
          return;
        }
        return answer(res, 200, { httpCode: 200, status: "OK", order_id: id });
      }
      return refuse(res, 404, `No such command: ${req.method} ${path}.`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    url: `http://127.0.0.1:${port}/v2`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  } as FakeHandwrytten;
}
