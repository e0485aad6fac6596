import { AppError } from "@/server/ground/errors";
import type {
  FulfilmentAdapter,
  PostalAddress,
  PriceQuote,
  PrintJobRequest,
  PrintJobResult,
  VendorCatalogue,
} from "../../adapter";
import { VendorError } from "../../adapter";
import type { TPrintFormat } from "../../sizes";
import type { HandwryttenSettings } from "./connect";
import { explainHandwryttenError } from "./errors";
import { type HandwryttenOrder, HandwryttenHttp, type SingleStepOrder } from "./http";

export const HANDWRYTTEN_PRODUCTS: { format: TPrintFormat; sizes: string[] }[] = [
  { format: "handwritten", sizes: ["5x7"] },
];
export const HANDWRYTTEN_COUNTRIES = ["US"];
/** Handwrytten sends no webhooks: an order it has is read back this often. */
export const HANDWRYTTEN_POLL_MS = 60 * 60_000;
/** How far back the look-up before a retry reads the account's orders (pages of 100, newest first). */
const LOOKUP_PAGES = 5;

/** The account of a connection (decrypted) as the adapter needs it. */
export interface HandwryttenAccount {
  apiKey: string;
  mode: "test" | "live";
  settings: Record<string, unknown>;
}

export interface HandwryttenOptions {
  baseUrl: string;
  account: (connectionId: string) => Promise<HandwryttenAccount>;
  clock?: () => Date;
}

/** A name as first and last (Handwrytten takes them apart). */
function names(full: string) {
  const parts = full.trim().split(/\s+/);
  return {
    first: parts.slice(0, -1).join(" ") || parts[0] || "",
    last: parts.length > 1 ? parts[parts.length - 1] : "",
  };
}

function addressFields(prefix: "sender" | "recipient", a: PostalAddress) {
  const n = names(a.name);
  const out: Record<string, string> = {
    [`${prefix}_first_name`]: n.first,
    [`${prefix}_last_name`]: n.last,
    [`${prefix}_address1`]: a.line1,
    [`${prefix}_city`]: a.city,
    [`${prefix}_zip`]: a.postalCode,
    [`${prefix}_country`]: a.country === "US" ? "United States" : a.country,
  };
  if (a.company && a.company !== a.name) out[`${prefix}_business_name`] = a.company;
  if (a.line2) out[`${prefix}_address2`] = a.line2;
  if (a.region) out[`${prefix}_state`] = a.region;
  return out;
}

/** The order's status in Handwrytten's words, read as the service's (its reference does not list the words). */
function stateOf(status: string | undefined): "accepted" | "mailed" | "cancelled" {
  const s = (status ?? "").toLowerCase();
  if (/cancel|refund|void/.test(s)) return "cancelled";
  if (/sent|mailed|shipped|complete|delivered/.test(s)) return "mailed";
  return "accepted";
}

/**
 * Handwritten notes through the workspace's Handwrytten account (vendors/handwrytten/http.ts): each
 * note is one Single Step Order (the connection's card and handwriting font, the recipient's own
 * message, its sender_* and recipient_* address), so no shared basket ever holds two recipients'
 * notes. Handwrytten takes no idempotency key: the piece id goes into the order's client_metadata,
 * and a retry first looks the order up by it. Status is read back from the order (no webhooks).
 */
export class HandwryttenNoteVendor implements FulfilmentAdapter {
  readonly vendor = "handwrytten";
  readonly statusPollMs = HANDWRYTTEN_POLL_MS;

  constructor(private readonly options: HandwryttenOptions) {}

  catalogue(): VendorCatalogue {
    return {
      vendor: this.vendor,
      label: "Handwrytten",
      description:
        "Handwrytten writes notes by robot with a pen and mails them in the US through the workspace's own Handwrytten account (in its test mode nothing is written or mailed).",
      products: HANDWRYTTEN_PRODUCTS,
      countries: HANDWRYTTEN_COUNTRIES,
    };
  }

  async quote(p: {
    format: TPrintFormat;
    size: string;
    countries: string[];
    unitCostCents?: number;
  }): Promise<PriceQuote> {
    if (!HANDWRYTTEN_PRODUCTS.some((x) => x.format === p.format && x.sizes.includes(p.size)))
      throw new AppError("validation_failed", "Handwrytten writes handwritten notes only (5 × 7 in note cards).", {
        errors: [{ pointer: "/format", detail: "Choose handwritten notes for a Handwrytten contract." }],
      });
    const outside = p.countries.filter((c) => !HANDWRYTTEN_COUNTRIES.includes(c));
    if (outside.length)
      throw new AppError(
        "validation_failed",
        `Handwrytten contracts here mail to the US only, not to ${outside.join(", ")}.`,
      );
    if (p.unitCostCents === undefined)
      throw new AppError(
        "validation_failed",
        "Enter the price per note your Handwrytten account pays (card, writing and postage): its price depends on the card and your plan.",
        { errors: [{ pointer: "/unitCostCents", detail: "Enter the price per note." }] },
      );
    const clock = this.options.clock ?? (() => new Date());
    return {
      perCountry: p.countries.map((country) => ({
        country,
        unitCostCents: p.unitCostCents!,
        printCents: p.unitCostCents!,
        postageCents: 0,
      })),
      unitCostCents: p.unitCostCents,
      quotedAt: clock().toISOString(),
    };
  }

  private async http(connectionId: string | null | undefined) {
    if (!connectionId) throw new VendorError("This contract has no Handwrytten account connected.", "key_revoked");
    const account = await this.options.account(connectionId);
    return { account, http: new HandwryttenHttp(this.options.baseUrl, account.apiKey) };
  }

  private result(order: HandwryttenOrder, mode: "test" | "live", submittedAt?: Date): PrintJobResult {
    const now = (this.options.clock ?? (() => new Date()))();
    const state = stateOf(order.status);
    const created =
      typeof order.date_created === "number"
        ? new Date(order.date_created * 1000)
        : order.date_created
          ? new Date(order.date_created)
          : (submittedAt ?? now);
    const sent = order.date_send ? new Date(order.date_send) : now;
    const mailedAt = state === "mailed" ? (Number.isNaN(sent.getTime()) ? now : sent) : null;
    return {
      vendorRef: String(order.id),
      printedAt: Number.isNaN(created.getTime()) ? now : created,
      mailedAt,
      // The order's own test flag when it carries one, else the account's switch as read at connect.
      mode: order.test_mode == null ? mode : order.test_mode === true || order.test_mode === 1 ? "test" : "live",
      tracking: mailedAt ? [{ status: "mailed", at: mailedAt, eventId: `hw_${order.id}_mailed` }] : [],
      cancelled: state === "cancelled",
    };
  }

  /** The order of this piece, by our piece id in client_metadata (newest orders first), or null. */
  private async lookUp(http: HandwryttenHttp, pieceId: string): Promise<HandwryttenOrder | null> {
    for (let page = 1; page <= LOOKUP_PAGES; page++) {
      const orders = await http.orders(page, 100);
      const found = orders.find((o) => o.client_metadata === pieceId);
      if (found) return found;
      if (orders.length < 100) return null;
    }
    return null;
  }

  async submit(job: PrintJobRequest): Promise<PrintJobResult> {
    if (job.format !== "handwritten")
      throw new VendorError(`Handwrytten does not write ${job.format}s.`, "file_refused");
    if (!job.to) throw new VendorError("The note has no structured address for Handwrytten.", "address_refused");
    if (!job.from)
      throw new VendorError(
        "Handwrytten needs a return address: fill in the brand kit's return address.",
        "address_refused",
      );
    const message = [job.copy?.headline, job.copy?.body].filter((x) => x?.trim()).join("\n\n");
    if (!message) throw new VendorError("The note has no message for Handwrytten to write.", "file_refused");
    const { account, http } = await this.http(job.connectionId);
    const settings = account.settings as Partial<HandwryttenSettings>;
    if (!settings.cardId || !settings.font)
      throw new VendorError(
        "The Handwrytten connection has no card or handwriting font: connect Handwrytten again in Settings → Printing.",
        "file_refused",
      );
    try {
      if (job.attempt === "retry") {
        // Handwrytten has no idempotency key: an earlier attempt whose answer was lost may have made the order.
        const found = await this.lookUp(http, job.pieceId);
        if (found) return this.result(found, account.mode);
      }
      const order: SingleStepOrder = {
        card_id: Number(settings.cardId),
        font_label: settings.font,
        message,
        ...(job.copy?.signOff?.trim() ? { wishes: job.copy.signOff.trim() } : {}),
        ...(addressFields("sender", job.from) as Omit<
          SingleStepOrder,
          "card_id" | "font_label" | "message" | "client_metadata"
        >),
        ...addressFields("recipient", job.to),
        client_metadata: job.pieceId,
      };
      const id = await http.singleStepOrder(order);
      return this.result({ id, status: "processing" }, account.mode);
    } catch (error) {
      throw explainHandwryttenError(error);
    }
  }

  async reconcile(job: {
    pieceId: string;
    vendorRef: string;
    format: TPrintFormat;
    connectionId?: string | null;
  }): Promise<PrintJobResult> {
    const { account, http } = await this.http(job.connectionId);
    try {
      return this.result(await http.order(job.vendorRef), account.mode);
    } catch (error) {
      throw explainHandwryttenError(error);
    }
  }
}
