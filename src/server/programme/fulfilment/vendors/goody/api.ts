import { z } from "zod";
import { VendorError } from "../../adapter";

/**
 * Goody's Automation API v1 (developer.ongoody.com, OpenAPI "Goody API" 1.0.0) over fetch: bearer
 * authentication with the workspace's own key, JSON both ways, answers parsed with the schemas
 * below (members this service does not read are ignored), errors ({ "error": "…" }) turned into
 * VendorErrors with a closed reason (explainGoodyError).
 */

/** Goody's production base URL; its sandbox is https://api.sandbox.ongoody.com (a separate account and key). */
export const GOODY_PRODUCTION_URL = "https://api.ongoody.com";

/** Goody's API base: GOODY_API_URL, else production. */
export const goodyApiUrl = (env: Record<string, string | undefined> = process.env) =>
  env.GOODY_API_URL?.trim() || GOODY_PRODUCTION_URL;

/** Only Goody's production environment ships real gifts; its sandbox (and any stand-in) is test mode. */
export const goodyModeOf = (baseUrl: string): "test" | "live" =>
  baseUrl.replace(/\/+$/, "") === GOODY_PRODUCTION_URL ? "live" : "test";

const cents = z.number().int();

export const ZGoodyProduct = z.object({
  id: z.string().min(1).max(100),
  name: z.string().max(500),
  brand: z
    .object({
      name: z.string().max(500),
      shipping_price: cents.nullish(),
      free_shipping_minimum: cents.nullish(),
    })
    .nullish(),
  subtitle: z.string().max(5000).nullish(),
  price: cents,
  price_is_variable: z.boolean().nullish(),
  variants_num_selectable: z.number().int().nullish(),
  variants: z.array(z.object({ name: z.string().max(500) })).nullish(),
  restricted_states: z.array(z.string().max(10)).nullish(),
});
export type GoodyProduct = z.infer<typeof ZGoodyProduct>;

export const ZGoodyOrder = z.object({
  id: z.string().min(1).max(100),
  status: z.string().max(40),
  order_batch_id: z.string().max(100).nullish(),
  shipments: z
    .array(
      z.object({
        status: z.string().max(40).nullish(),
        shipped_at: z.string().max(100).nullish(),
        delivered_at: z.string().max(100).nullish(),
      }),
    )
    .max(100)
    .nullish(),
  amounts: z.object({ amount_product: cents.nullish(), amount_shipping: cents.nullish() }).nullish(),
});
export type GoodyOrder = z.infer<typeof ZGoodyOrder>;

export const ZGoodyOrderBatch = z.object({
  id: z.string().min(1).max(100),
  send_status: z.string().max(40),
  customer_reference_id: z.string().max(200).nullish(),
  orders_preview: z.array(ZGoodyOrder).nullish(),
});
export type GoodyOrderBatch = z.infer<typeof ZGoodyOrderBatch>;

const page = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ data: z.array(item), list_meta: z.object({ total_count: z.number().int() }).nullish() });

/** A failed call as Goody answered it, before it is explained. */
export class GoodyHttpError extends Error {
  constructor(
    readonly status: number | null,
    readonly said: string | null,
    readonly network?: string,
  ) {
    super(said ?? network ?? `HTTP ${status}`);
  }
}

/** Goody's errors as the service acts on them: only a refused key (401) suspends contracts. */
export function explainGoodyError(error: unknown): VendorError {
  if (error instanceof VendorError) return error;
  if (!(error instanceof GoodyHttpError))
    return new VendorError(
      `Goody could not be reached (${String(error)}); the gift is tried again.`,
      "vendor_unavailable",
    );
  const { status, said } = error;
  const words = said ? `: ${said}` : "";
  if (status === null)
    return new VendorError(
      `Goody could not be reached (${error.network ?? "network error"}); the gift is looked up by its reference and tried again.`,
      "vendor_unavailable",
    );
  if (status === 401)
    return new VendorError(
      `Goody refused the workspace's API key${words}. The owner must connect Goody again in Settings → Printing.`,
      "key_revoked",
      { status },
    );
  if (status === 429)
    return new VendorError("Goody asked us to slow down (429); the gift is sent again shortly.", "rate_limited", {
      status,
      retryAfterMs: 5000,
    });
  if (status >= 500)
    return new VendorError(
      `Goody is not answering right now (${status})${words}; the gift is tried again.`,
      "vendor_unavailable",
      {
        status,
      },
    );
  if (status === 404) return new VendorError(`Goody does not know this order${words}.`, "not_found", { status });
  // A refused account (403: direct send is for approved accounts; no payment method) is the owner's to settle at Goody.
  if (status === 403 || /payment method|balance|not approved|approved api partner/i.test(said ?? ""))
    return new VendorError(
      `Goody refused the gift for the account${words}. Settle it in Goody's dashboard; the gift is tried again.`,
      "account_limit",
      { status },
    );
  if (/cancel/i.test(said ?? ""))
    return new VendorError(`Goody can no longer cancel this gift${words}.`, "not_cancellable", { status });
  // Anything else Goody refuses is about this recipient or product: the piece goes to a person.
  return new VendorError(`Goody refused the gift${words}.`, "address_refused", { status });
}

export class GoodyApi {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  private async request<T extends z.ZodTypeAny>(
    schema: T,
    method: "GET" | "POST",
    path: string,
    body?: unknown,
  ): Promise<z.infer<T>> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl.replace(/\/+$/, "")}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.apiKey}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      const e = error as { cause?: { code?: string }; message?: string };
      throw new GoodyHttpError(null, null, e.cause?.code ?? e.message ?? "network error");
    }
    const text = await res.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!res.ok) {
      const said = (data as { error?: unknown } | null)?.error;
      throw new GoodyHttpError(res.status, typeof said === "string" ? said.slice(0, 500) : null);
    }
    const parsed = schema.safeParse(data);
    if (!parsed.success)
      throw new GoodyHttpError(502, `Goody's answer to ${method} ${path} is not what its API describes`);
    return parsed.data;
  }

  /** GET /v1/me: who the key belongs to (creates nothing; the check made when a workspace connects). */
  me() {
    return this.request(z.object({ email: z.string().nullish() }), "GET", "/v1/me");
  }

  /** GET /v1/products, every page (at most `maxPages` of 100). */
  async products(maxPages = 10): Promise<GoodyProduct[]> {
    const out: GoodyProduct[] = [];
    for (let p = 1; p <= maxPages; p++) {
      const r = await this.request(page(ZGoodyProduct), "GET", `/v1/products?page=${p}&per_page=100`);
      out.push(...r.data);
      if (r.data.length < 100 || (r.list_meta?.total_count ?? 0) <= out.length) break;
    }
    return out;
  }

  createOrderBatch(input: Record<string, unknown>) {
    return this.request(ZGoodyOrderBatch, "POST", "/v1/order_batches", input);
  }

  /** The account's order batch whose customer_reference_id is `reference`, among its newest `maxPages` pages. */
  async findOrderBatch(reference: string, maxPages = 5): Promise<GoodyOrderBatch | null> {
    for (let p = 1; p <= maxPages; p++) {
      const r = await this.request(page(ZGoodyOrderBatch), "GET", `/v1/order_batches?page=${p}&per_page=100`);
      const found = r.data.find((b) => b.customer_reference_id === reference);
      if (found) return found;
      if (r.data.length < 100) return null;
    }
    return null;
  }

  order(id: string) {
    return this.request(ZGoodyOrder, "GET", `/v1/orders/${encodeURIComponent(id)}`);
  }

  cancelOrder(id: string) {
    return this.request(ZGoodyOrder, "POST", `/v1/orders/${encodeURIComponent(id)}/cancel`);
  }
}
