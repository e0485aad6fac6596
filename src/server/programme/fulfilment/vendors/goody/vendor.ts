import { AppError } from "@/server/ground/errors";
import type {
  FulfilmentAdapter,
  PriceQuote,
  PrintJobRequest,
  PrintJobResult,
  TrackingEvent,
  VendorCatalogue,
} from "../../adapter";
import { VendorError } from "../../adapter";
import type { TPrintFormat } from "../../sizes";
import { explainGoodyError, GoodyApi, type GoodyOrder, type GoodyOrderBatch, GoodyHttpError } from "./api";

/** Goody ships US addresses only ([OA] MailingAddress.country: "Only US is supported at this time"). */
export const GOODY_COUNTRIES = ["US"];
/** Goody cancels an order only while it is created, notified or opened ("Retrieve order status": Cancel order). */
export const GOODY_CANCELLABLE = ["created", "notified", "opened"];

export interface GoodyAccount {
  apiKey: string;
  mode: "test" | "live";
}

/** What a gift piece sends: its campaign's Goody product and the sender's name. */
export interface GoodyGift {
  productId: string;
  fromName: string;
}

export interface GoodyOptions {
  baseUrl: string;
  account: (connectionId: string) => Promise<GoodyAccount>;
  /** The gift a piece sends (its campaign's giftProductId); null when the campaign names none. */
  giftOf: (pieceId: string) => Promise<GoodyGift | null>;
  clock?: () => Date;
}

/** An order's shipping as tracking events: shipped is the gift handed to the carrier, delivered its arrival. */
export function goodyTracking(o: GoodyOrder): TrackingEvent[] {
  const out: TrackingEvent[] = [];
  const shipped = o.shipments
    ?.map((s) => s.shipped_at)
    .filter((x): x is string => !!x)
    .sort()[0];
  const delivered = o.shipments
    ?.map((s) => s.delivered_at)
    .filter((x): x is string => !!x)
    .sort()
    .at(-1);
  if (shipped) out.push({ status: "mailed", at: new Date(shipped), eventId: `goody:${o.id}:shipped` });
  if (delivered && o.status === "delivered")
    out.push({ status: "delivered", at: new Date(delivered), eventId: `goody:${o.id}:delivered` });
  return out.filter((e) => !Number.isNaN(e.at.getTime()));
}

/**
 * Gifts through Goody's Automation API: a gift to a known address is a `direct_send` order batch
 * of one recipient and one product (the campaign's giftProductId), with the piece id as the
 * batch's customer_reference_id. Goody has no idempotency key header, so before every create the
 * batch is looked up by that reference: a retry after a lost answer finds the first one. Status
 * is the order's (GET /v1/orders/{id}) and arrives by webhooks; an order is cancelled only while
 * Goody still allows it (created, notified, opened).
 */
export class GoodyGiftVendor implements FulfilmentAdapter {
  readonly vendor = "goody";

  constructor(private readonly options: GoodyOptions) {}

  catalogue(): VendorCatalogue {
    return {
      vendor: this.vendor,
      label: "Goody",
      description:
        "Goody ships gifts from its catalogue to US addresses through the workspace's own Goody account (its sandbox ships nothing).",
      products: [{ format: "gift", sizes: ["4x6"] }],
      countries: GOODY_COUNTRIES,
    };
  }

  async quote(p: {
    format: TPrintFormat;
    size: string;
    countries: string[];
    unitCostCents?: number;
  }): Promise<PriceQuote> {
    if (p.format !== "gift")
      throw new AppError("validation_failed", `Goody sends gifts only, not ${p.format}s.`, {
        errors: [{ pointer: "/format", detail: "Goody sends gifts only." }],
      });
    const outside = p.countries.filter((c) => !GOODY_COUNTRIES.includes(c));
    if (outside.length)
      throw new AppError("validation_failed", `Goody ships to US addresses only, not to ${outside.join(", ")}.`);
    if (p.unitCostCents === undefined)
      throw new AppError(
        "validation_failed",
        "Enter the most one gift may cost (the product and its shipping): each campaign names its Goody product, whose price is Goody's.",
        { errors: [{ pointer: "/unitCostCents", detail: "Enter the most a gift may cost." }] },
      );
    const perCountry = p.countries.map((country) => ({
      country,
      unitCostCents: p.unitCostCents!,
      printCents: p.unitCostCents!,
      postageCents: 0,
    }));
    const clock = this.options.clock ?? (() => new Date());
    return { perCountry, unitCostCents: p.unitCostCents, quotedAt: clock().toISOString() };
  }

  private async api(connectionId: string | null | undefined) {
    if (!connectionId) throw new VendorError("This contract has no Goody account connected.", "key_revoked");
    const account = await this.options.account(connectionId);
    return { account, api: new GoodyApi(this.options.baseUrl, account.apiKey) };
  }

  private result(batch: GoodyOrderBatch, mode: "test" | "live"): PrintJobResult {
    const order = batch.orders_preview?.[0];
    if (!order)
      throw new VendorError(
        `Goody accepted the gift (order batch ${batch.id}) but has not created its order yet; it is read again shortly.`,
        "vendor_unavailable",
      );
    return this.orderResult(order, mode);
  }

  private orderResult(order: GoodyOrder, mode: "test" | "live"): PrintJobResult {
    const tracking = goodyTracking(order);
    return {
      vendorRef: order.id,
      printedAt: (this.options.clock ?? (() => new Date()))(),
      mailedAt: tracking[0]?.at ?? null,
      mode,
      tracking,
      cancelled: order.status === "canceled" || order.status === "failed",
    };
  }

  async submit(job: PrintJobRequest): Promise<PrintJobResult> {
    if (job.format !== "gift") throw new VendorError(`Goody does not send ${job.format}s.`, "file_refused");
    const to = job.to;
    if (!to?.line1 || !to.city || !to.region || !to.postalCode)
      throw new VendorError(
        "Goody needs the recipient's street, city, state and ZIP code to ship the gift.",
        "address_refused",
      );
    if (to.country !== "US")
      throw new VendorError(`Goody ships to US addresses only, not to ${to.country}.`, "address_refused");
    const gift = await this.options.giftOf(job.pieceId);
    if (!gift)
      throw new VendorError("The campaign names no Goody product: choose its gift in the campaign.", "address_refused");
    const { account, api } = await this.api(job.connectionId);
    const [first, ...rest] = to.name.trim().split(/\s+/);
    try {
      // No idempotency header at Goody: the piece id is the batch's reference, looked up before any create.
      const existing = await api.findOrderBatch(job.pieceId);
      if (existing) return this.result(existing, account.mode);
      try {
        const batch = await api.createOrderBatch({
          from_name: gift.fromName,
          send_method: "direct_send",
          notifications_enabled: false,
          customer_reference_id: job.pieceId,
          recipients: [
            {
              first_name: first || to.name,
              last_name: rest.join(" ") || undefined,
              mailing_address: {
                first_name: first || to.name,
                last_name: rest.join(" ") || null,
                address_1: to.line1,
                address_2: to.line2 || null,
                city: to.city,
                state: to.region,
                postal_code: to.postalCode,
                country: "US",
              },
            },
          ],
          cart: { items: [{ product_id: gift.productId, quantity: 1 }] },
        });
        return this.result(batch, account.mode);
      } catch (error) {
        // Goody refuses a repeated reference instead of creating a duplicate: the first batch is the answer.
        if (error instanceof GoodyHttpError && error.status !== null && /reference/i.test(error.said ?? "")) {
          const first = await api.findOrderBatch(job.pieceId);
          if (first) return this.result(first, account.mode);
        }
        throw error;
      }
    } catch (error) {
      throw explainGoodyError(error);
    }
  }

  async reconcile(job: { pieceId: string; vendorRef: string; connectionId?: string | null }): Promise<PrintJobResult> {
    const { account, api } = await this.api(job.connectionId);
    try {
      return this.orderResult(await api.order(job.vendorRef), account.mode);
    } catch (error) {
      throw explainGoodyError(error);
    }
  }

  async cancel(job: { pieceId: string; vendorRef: string; connectionId?: string | null }): Promise<boolean> {
    const { api } = await this.api(job.connectionId);
    try {
      const order = await api.order(job.vendorRef);
      if (order.status === "canceled") return true;
      if (!GOODY_CANCELLABLE.includes(order.status)) return false;
      const after = await api.cancelOrder(job.vendorRef);
      return after.status === "canceled" || after.status === "failed";
    } catch (error) {
      const e = explainGoodyError(error);
      if (e.reason === "not_cancellable") return false;
      throw e;
    }
  }
}
