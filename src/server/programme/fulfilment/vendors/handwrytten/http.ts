/**
 * Handwrytten's REST API v2 over fetch, typed for what this service uses. Sources: Handwrytten's
 * API reference (handwrytten.com/api-redoc: "pass the key directly, with no Bearer: prefix"; Single
 * Step Order, handwrytten.com/api/single-step-order; Order Details, handwrytten.com/api/order-details)
 * and its official TypeScript SDK (github.com/handwrytten/handwrytten-js-sdk: src/http-client.ts
 * sends `Authorization: <key>` to https://api.handwrytten.com/v2/; src/resources/*.ts name the paths
 * auth/getUser, cards/list, fonts/list, orders/get/{id} and orders/list).
 * A failure is thrown as a HandwryttenFailure; explainHandwryttenError (errors.ts) turns it into a
 * closed reason.
 */

/** Handwrytten's API base: HANDWRYTTEN_API_URL, else its own. */
export const handwryttenApiUrl = (env: Record<string, string | undefined> = process.env) =>
  env.HANDWRYTTEN_API_URL?.trim() || "https://api.handwrytten.com/v2";

export class HandwryttenFailure extends Error {
  constructor(
    readonly status: number | null,
    readonly body: unknown,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "HandwryttenFailure";
  }
}

type Json = Record<string, unknown>;

/** The account's profile (auth/getUser). `test_mode` is the account's own switch (the Integrations page). */
export interface HandwryttenUser {
  id?: number | string;
  email?: string;
  test_mode?: boolean | number | string;
}
export interface HandwryttenCard {
  id: number | string;
  name?: string;
  title?: string;
}
export interface HandwryttenFont {
  id?: number | string;
  label: string;
}
/** One order as Order Details describes it (the fields this service reads). */
export interface HandwryttenOrder {
  id: number | string;
  status?: string;
  client_metadata?: string | null;
  date_send?: string | null;
  date_created?: number | string | null;
  test_mode?: boolean | number | null;
}

/** Single Step Order's body (handwrytten.com/api/single-step-order). */
export interface SingleStepOrder {
  card_id: number;
  message: string;
  wishes?: string;
  font_label: string;
  sender_first_name?: string;
  sender_last_name?: string;
  sender_business_name?: string;
  sender_address1: string;
  sender_address2?: string;
  sender_city: string;
  sender_state?: string;
  sender_zip: string;
  sender_country?: string;
  recipient_first_name?: string;
  recipient_last_name?: string;
  recipient_business_name?: string;
  recipient_address1: string;
  recipient_address2?: string;
  recipient_city: string;
  recipient_state?: string;
  recipient_zip: string;
  recipient_country?: string;
  /** Our piece id: the look-up before a retry finds the order by it. */
  client_metadata: string;
}

const listOf = <T>(data: unknown, key: string): T[] => {
  if (Array.isArray(data)) return data as T[];
  const d = data as Json | null;
  const inner = d?.[key] ?? d?.results;
  return Array.isArray(inner) ? (inner as T[]) : [];
};

const messageOf = (body: unknown, fallback: string) => {
  const b = body as Json | null;
  for (const k of ["message", "error", "errors"]) {
    const v = b?.[k];
    if (typeof v === "string" && v) return v;
    if (Array.isArray(v) && v.length) return String(v[0]);
  }
  return fallback;
};

export class HandwryttenHttp {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  private async request<T>(method: "GET" | "POST", path: string, body?: Json, query?: Json, tries = 2): Promise<T> {
    const url = new URL(`${this.baseUrl.replace(/\/+$/, "")}/${path}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          // The whole header is the key: no "Bearer", no "Basic".
          authorization: this.apiKey,
          accept: "application/json",
          ...(body ? { "content-type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      // A read is safe to ask again once; a create never is (a retry looks the order up first).
      if (method === "GET" && tries > 1) return this.request<T>(method, path, body, query, tries - 1);
      const e = error as { cause?: { code?: string }; message?: string };
      throw new HandwryttenFailure(null, null, e.cause?.code ?? e.message ?? "network error");
    }
    const text = await res.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = text;
    }
    // Handwrytten also answers errors with 200 and { httpCode, status: "error", message } (Authenticate User's 401 schema).
    const d = data as Json | null;
    const inner = typeof d?.httpCode === "number" ? (d.httpCode as number) : null;
    const status = !res.ok ? res.status : d?.status === "error" ? (inner ?? 400) : null;
    if (status !== null) {
      const retry = Number(res.headers.get("retry-after"));
      throw new HandwryttenFailure(
        status,
        data,
        messageOf(data, `HTTP ${status}`),
        Number.isFinite(retry) && retry > 0 ? retry : null,
      );
    }
    return data as T;
  }

  async user(): Promise<HandwryttenUser> {
    const d = await this.request<Json>("GET", "auth/getUser");
    return ((d?.user as HandwryttenUser | undefined) ?? d) as HandwryttenUser;
  }

  async cards(): Promise<HandwryttenCard[]> {
    return listOf<HandwryttenCard>(await this.request("GET", "cards/list"), "cards");
  }

  async fonts(): Promise<HandwryttenFont[]> {
    return listOf<HandwryttenFont>(await this.request("GET", "fonts/list"), "fonts");
  }

  /** One note, one order: no shared basket is involved (Single Step Order). Answers the new order's id. */
  async singleStepOrder(order: SingleStepOrder): Promise<string> {
    const d = await this.request<Json>("POST", "orders/singleStepOrder", order as unknown as Json);
    const id = d?.order_id ?? d?.id ?? (d?.order as Json | undefined)?.id;
    if (id === undefined || id === null)
      throw new HandwryttenFailure(502, d, "Handwrytten accepted the order but named no order id.");
    return String(id);
  }

  async order(id: string): Promise<HandwryttenOrder> {
    const d = await this.request<Json>("GET", `orders/get/${encodeURIComponent(id)}`);
    return ((d?.order as HandwryttenOrder | undefined) ?? d) as HandwryttenOrder;
  }

  async orders(page: number, perPage: number): Promise<HandwryttenOrder[]> {
    return listOf<HandwryttenOrder>(
      await this.request("GET", "orders/list", undefined, { page, per_page: perPage }),
      "orders",
    );
  }
}
