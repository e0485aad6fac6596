import { AppError } from "@/server/ground/errors";
import type {
  FulfilmentAdapter,
  PostalAddress,
  PriceQuote,
  PrintJobRequest,
  PrintJobResult,
  TrackingEvent,
  VendorCatalogue,
} from "../adapter";
import { VendorError } from "../adapter";
import { printFileOf } from "../print-files";
import { LobHttp, lobForm } from "./lob-http";
import { LOB_MAX_LETTER_PAGES, lobFileProblem } from "./lob-preflight";
import type { TPrintFormat } from "../sizes";
import { trackingStatusOfName } from "../tracking-names";

/**
 * Lob's official client (with axios under it, about 150 ms of CPU to load), for checking a key
 * when a workspace connects; loaded then, not with the lifecycle's runner.
 */
export const lobSdk = () => import("@lob/lob-typescript-sdk");

/** What Lob sells that this service renders: postcards 4x6, 6x9, 6x11 and US letters. */
export const LOB_PRODUCTS: { format: TPrintFormat; sizes: string[] }[] = [
  { format: "postcard", sizes: ["4x6", "6x9", "6x11"] },
  { format: "letter", sizes: ["us_letter"] },
];
/** Lob mails these from its US print network; contracts are for US addresses. */
export const LOB_COUNTRIES = ["US"];

/** The secrets of one workspace's Lob account, opened from its connection. */
export interface LobAccount {
  apiKey: string;
  mode: "test" | "live";
}

export interface LobOptions {
  /** Lob's API base (LOB_API_URL, default https://api.lob.com/v1); tests point it at a local fake. */
  baseUrl?: string;
  /** The account of a connection (decrypted); throws a VendorError when it is gone. */
  account: (connectionId: string) => Promise<LobAccount>;
  /** Lob's cancellation window (lob-api-public.yml, Cancellation Windows: "By default, all new accounts have a 5 minute cancellation window"). */
  cancelWindowMs?: number;
  clock?: () => Date;
}

const DAY = 24 * 60 * 60_000;
const LOB_CANCEL_WINDOW_MS = 5 * 60_000;

/** Lob's address fields from the service's structured address (name and company at most 40 characters). */
function lobAddress(a: PostalAddress) {
  return {
    name: a.name.slice(0, 40),
    company: a.company ? a.company.slice(0, 40) : undefined,
    address_line1: a.line1,
    address_line2: a.line2 || undefined,
    address_city: a.city,
    address_state: a.region || undefined,
    address_zip: a.postalCode,
    address_country: a.country,
  };
}

/** Lob's tracking events (and the mailed date) as the service keeps them. */
export function trackingOf(
  events: { name?: string; time?: string; date_created?: string; id?: string }[] | null | undefined,
): TrackingEvent[] {
  const out: TrackingEvent[] = [];
  for (const e of events ?? []) {
    const status = trackingStatusOfName(e.name ?? "");
    const at = e.time ?? e.date_created;
    if (status && at) out.push({ status, at: new Date(at), eventId: e.id ?? null });
  }
  return out.sort((a, b) => a.at.getTime() - b.at.getTime());
}

type LobPiece = {
  id?: string;
  date_created?: string;
  deleted?: boolean;
  tracking_events?: unknown;
  send_date?: string;
};

const pdfFile = (file: Uint8Array, filename: string) => ({ file, filename, contentType: "application/pdf" });

/**
 * Lob's print and mail API (vendors/lob-http.ts): postcards and letters from the print files the
 * service renders, uploaded with the create request (multipart), after the checks Lob makes of a
 * file (lob-preflight.ts); the recipient and sender as structured addresses that Lob prints,
 * `use_type: marketing`, the piece id in `metadata`, and the piece id as the `Idempotency-Key`, so
 * a retry after a lost answer or a crash gets the same Lob object back (Lob keeps keys 24 hours).
 * It never creates a piece it already has: state is read back with GET (reconcile) and arrives by
 * webhooks. A piece is cancelled only within Lob's cancellation window.
 */
export class LobPrintVendor implements FulfilmentAdapter {
  readonly vendor = "lob";

  constructor(private readonly options: LobOptions) {}

  catalogue(): VendorCatalogue {
    return {
      vendor: this.vendor,
      label: "Lob",
      description:
        "Lob prints and mails postcards and letters in the US through the workspace's own Lob account (a test key prints nothing).",
      products: LOB_PRODUCTS,
      countries: LOB_COUNTRIES,
    };
  }

  async quote(p: {
    format: TPrintFormat;
    size: string;
    countries: string[];
    unitCostCents?: number;
  }): Promise<PriceQuote> {
    if (p.format === "letter" && !LOB_PRODUCTS.some((x) => x.format === "letter" && x.sizes.includes(p.size)))
      throw new AppError(
        "validation_failed",
        `Lob prints letters on US Letter and US Legal paper only (its letter sizes us_letter and us_legal), not ${p.size === "a4" ? "A4" : p.size}: choose US Letter for a Lob contract, or another printer for ${p.size === "a4" ? "A4" : p.size} letters.`,
        { errors: [{ pointer: "/size", detail: "Lob prints letters on US Letter only here." }] },
      );
    if (!LOB_PRODUCTS.some((x) => x.format === p.format && x.sizes.includes(p.size)))
      throw new AppError(
        "validation_failed",
        `Lob does not print ${p.format}s in size ${p.size}; it prints postcards 4x6, 6x9 and 6x11 and US letters.`,
      );
    const outside = p.countries.filter((c) => !LOB_COUNTRIES.includes(c));
    if (outside.length)
      throw new AppError("validation_failed", `Lob contracts here mail to the US only, not to ${outside.join(", ")}.`);
    if (p.unitCostCents === undefined) {
      throw new AppError(
        "validation_failed",
        "Enter the price per piece your Lob plan charges (printing and postage): Lob's price depends on your plan.",
        { errors: [{ pointer: "/unitCostCents", detail: "Enter the price per piece." }] },
      );
    }
    const clock = this.options.clock ?? (() => new Date());
    const perCountry = p.countries.map((country) => ({
      country,
      unitCostCents: p.unitCostCents!,
      printCents: p.unitCostCents!,
      postageCents: 0,
    }));
    return { perCountry, unitCostCents: p.unitCostCents, quotedAt: clock().toISOString() };
  }

  private async http(connectionId: string | null | undefined) {
    if (!connectionId) throw new VendorError("This contract has no Lob account connected.", "key_revoked");
    const account = await this.options.account(connectionId);
    return { account, http: new LobHttp(this.options.baseUrl ?? "https://api.lob.com/v1", account.apiKey) };
  }

  /** The files of a piece as Lob takes them, each checked as Lob checks it first. */
  private async files(job: PrintJobRequest): Promise<Record<string, ReturnType<typeof pdfFile>>> {
    const refuse = (problem: string) => new VendorError(`Lob would refuse the print file: ${problem}`, "file_refused");
    if (job.format === "letter") {
      const size = job.size ?? "us_letter";
      const problem = await lobFileProblem(job.pdf, {
        product: size,
        what: "letter",
        maxPages: LOB_MAX_LETTER_PAGES,
      });
      if (problem) throw refuse(problem);
      return { file: pdfFile(job.pdf, `${job.pieceId}.pdf`) };
    }
    const size = job.size ?? "6x9";
    const out: Record<string, ReturnType<typeof pdfFile>> = {};
    for (const side of ["front", "back"] as const) {
      let file: Uint8Array;
      try {
        file = await printFileOf(job.pdf, side);
      } catch {
        throw refuse(`the postcard has no ${side}.`);
      }
      const problem = await lobFileProblem(file, { product: size, what: `postcard's ${side}`, maxPages: 1 });
      if (problem) throw refuse(problem);
      out[side] = pdfFile(file, `${job.pieceId}-${side}.pdf`);
    }
    return out;
  }

  async submit(job: PrintJobRequest): Promise<PrintJobResult> {
    if (!job.to) throw new VendorError("The piece has no structured address for Lob to print.", "address_refused");
    if (!job.from)
      throw new VendorError("Lob needs a return address: fill in the brand kit's return address.", "address_refused");
    if (job.format !== "postcard" && job.format !== "letter")
      throw new VendorError(`Lob does not print ${job.format}s.`, "file_refused");
    const files = await this.files(job);
    const { account, http } = await this.http(job.connectionId);
    const metadata = { piece_id: job.pieceId, workspace_id: job.workspaceId };
    const common = {
      to: lobAddress(job.to),
      from: lobAddress(job.from),
      use_type: "marketing",
      description: `Piece ${job.pieceId}`,
      metadata,
    };
    try {
      const created =
        job.format === "postcard"
          ? await http.request<LobPiece>("POST", "/postcards", {
              form: lobForm({ ...common, size: job.size ?? "6x9", ...files }),
              idempotencyKey: job.pieceId,
            })
          : await http.request<LobPiece>("POST", "/letters", {
              form: lobForm({
                ...common,
                ...files,
                color: true,
                double_sided: false,
                // The letter's first page keeps Lob's white address box clear; Lob prints both addresses there.
                address_placement: "top_first_page",
              }),
              idempotencyKey: job.pieceId,
            });
      return this.result(created, account.mode);
    } catch (error) {
      throw explainLobError(error);
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
      const found = await http.request<LobPiece>(
        "GET",
        `/${job.format === "letter" ? "letters" : "postcards"}/${job.vendorRef}`,
      );
      return this.result(found, account.mode);
    } catch (error) {
      throw explainLobError(error);
    }
  }

  async cancel(job: {
    pieceId: string;
    vendorRef: string;
    format: TPrintFormat;
    connectionId?: string | null;
  }): Promise<boolean> {
    const { http } = await this.http(job.connectionId);
    const path = `/${job.format === "letter" ? "letters" : "postcards"}/${job.vendorRef}`;
    try {
      // Lob cancels only until its window closes (or a future send_date passes): past it, nothing is asked.
      const found = await http.request<LobPiece>("GET", path);
      if (found.deleted) return true;
      const now = (this.options.clock ?? (() => new Date()))().getTime();
      const created = found.date_created ? Date.parse(found.date_created) : Number.NaN;
      const sendAt = found.send_date ? Date.parse(found.send_date) : Number.NaN;
      const closes = Math.max(
        Number.isFinite(created) ? created + (this.options.cancelWindowMs ?? LOB_CANCEL_WINDOW_MS) : 0,
        Number.isFinite(sendAt) ? sendAt : 0,
      );
      if (now >= closes) return false;
      const r = await http.request<{ deleted?: boolean }>("DELETE", path);
      return r.deleted === true;
    } catch (error) {
      const e = explainLobError(error);
      if (e.reason === "not_cancellable") return false;
      throw e;
    }
  }

  private result(o: LobPiece, mode: "test" | "live"): PrintJobResult {
    const tracking = trackingOf(o.tracking_events as Parameters<typeof trackingOf>[0]);
    const mailed = tracking[0]?.at ?? null;
    return {
      vendorRef: o.id!,
      printedAt: o.date_created ? new Date(o.date_created) : (this.options.clock ?? (() => new Date()))(),
      mailedAt: mailed,
      mode,
      tracking,
      cancelled: o.deleted === true,
    };
  }
}

/** Lob's documented errors ({ error: { message, status_code, code } }) as VendorErrors with a sentence. */
export function explainLobError(error: unknown): VendorError {
  if (error instanceof VendorError) return error;
  const e = error as {
    response?: {
      status?: number;
      headers?: Record<string, string | undefined>;
      data?: { error?: { message?: string; code?: string } };
    };
    code?: string;
    message?: string;
  };
  const status = e.response?.status;
  const body = e.response?.data?.error;
  const code = body?.code;
  const said = body?.message ? `: ${body.message}` : "";
  if (status === 429) {
    // Lob's rate-limit window (X-Rate-Limit-Reset, UTC epoch seconds), else Retry-After, else its 5 seconds.
    const headers = e.response?.headers ?? {};
    const retryAfter = Number(headers["retry-after"]);
    const reset = Number(headers["x-rate-limit-reset"] ?? headers["ratelimit-reset"]);
    const untilReset = Number.isFinite(reset) && reset > 0 ? reset * 1000 - Date.now() : Number.NaN;
    const waitMs =
      Number.isFinite(retryAfter) && retryAfter > 0
        ? retryAfter * 1000
        : Number.isFinite(untilReset) && untilReset > 0
          ? Math.min(untilReset, 60_000)
          : 5000;
    return new VendorError("Lob asked us to slow down (429); the piece is sent again shortly.", "rate_limited", {
      status,
      code: code ?? "rate_limit_exceeded",
      retryAfterMs: waitMs,
    });
  }
  // Lob's account answers (shared/models/error.yml): a plan's limit or an unfinished account is the
  // owner's to settle at Lob; the key itself still works, so nothing is suspended.
  if (status === 403 && code === "feature_limit_reached")
    return new VendorError(
      `Lob refused the piece: the Lob account has reached its plan's limit${said}. Upgrade the plan at Lob; the piece is tried again.`,
      "account_limit",
      { status, code },
    );
  if (
    (status === 403 && code === "billing_address_required") ||
    (status === 401 && (code === "payment_method_unverified" || code === "email_required"))
  )
    return new VendorError(
      `Lob refused the piece: the Lob account is not ready to mail live pieces${said}. ${
        code === "billing_address_required"
          ? "Add a billing address"
          : code === "email_required"
            ? "Verify the account's email address"
            : "Verify a payment method"
      } in Lob's dashboard; the piece is tried again.`,
      "account_incomplete",
      { status, code },
    );
  if (status === 401 || status === 403)
    return new VendorError(
      `Lob refused the workspace's API key${said}. The owner must connect Lob again in Settings → Printing.`,
      "key_revoked",
      { status, code },
    );
  if (status === 404) return new VendorError(`Lob does not know this piece${said}.`, "not_found", { status, code });
  if (status === 422 && code === "not_deletable")
    return new VendorError(`Lob can no longer cancel this piece${said}.`, "not_cancellable", { status, code });
  if (status === 400 || status === 422 || status === 413) {
    const fileCodes = [
      "invalid_file",
      "invalid_file_dimensions",
      "invalid_file_download_time",
      "invalid_file_url",
      "invalid_image_dpi",
      "file_pages_below_min",
      "file_pages_exceed_max",
      "file_size_exceeds_limit",
      "inconsistent_page_dimensions",
      "pdf_encrypted",
      "unembedded_fonts",
      "invalid_template_html",
    ];
    const addressCodes = [
      "address_length_exceeds_limit",
      "failed_deliverability_strictness",
      "foreign_return_address",
      "special_characters_restricted",
      "invalid_country_covid",
      "invalid_international_feature",
    ];
    if (fileCodes.includes(code ?? "") || /file|front|back|pdf/i.test(body?.message ?? ""))
      return new VendorError(`Lob refused the print file${said}.`, "file_refused", { status, code });
    if (addressCodes.includes(code ?? "") || /address|to\.|from\.|zip|state|city/i.test(body?.message ?? ""))
      return new VendorError(`Lob refused the address${said}.`, "address_refused", { status, code });
    return new VendorError(`Lob refused the piece${said}.`, "file_refused", { status, code });
  }
  if (status)
    return new VendorError(
      `Lob answered ${status}${said}; the piece is tried again with the same idempotency key.`,
      "vendor_unavailable",
      { status, code },
    );
  return new VendorError(
    `Lob could not be reached (${e.code ?? e.message ?? "network error"}); the piece is tried again with the same idempotency key.`,
    "vendor_unavailable",
  );
}

export const LOB_IDEMPOTENCY_LIFETIME_MS = DAY;
