import { createHmac, randomBytes } from "node:crypto";

/**
 * Lob's print and mail endpoints for the local fake (fake-lob.ts), refusing what Lob refuses. Each
 * rule names where Lob documents it (lob/lob-openapi; "public.yml" is lob-api-public.yml, errors
 * are shared/models/error.yml):
 * - POST /postcards and /letters with the `Idempotency-Key` header: a repeated key returns the
 *   object it created, for 24 hours (shared/parameters/idempotency.yml);
 * - the body as JSON or multipart/form-data, files uploaded in the multipart body (public.yml,
 *   Request Body: multipart "is the only format that can be used for uploading a file");
 * - a file given as a string must match the remote URL pattern `^https://…\.(html?|pdf|png|jpg)$`
 *   (shared/attributes/remote_file_url.yml), else 422 `invalid_file_url`; such a URL is downloaded
 *   ("must be downloaded within 40 seconds"), else `invalid_file_download_time`;
 * - every file is measured: at most 5 MB (remote_file_url.yml; `file_size_exceeds_limit`); a
 *   letter's every page 8.5 × 11 in (resources/letters/attributes/ltr_file.yml) and at most 60
 *   pages (same; `file_pages_exceed_max`); a postcard side one page of the size with 0.125 in bleed,
 *   4.25 × 6.25, 6.25 × 9.25 or 6.25 × 11.25 in (resources/postcards/attributes/psc_front.yml);
 *   else `invalid_file_dimensions`;
 * - a US address: address_line1, address_city, address_state, address_zip required, state
 *   `^[a-zA-Z]{2}$`, ZIP `^\d{5}(-\d{4})?$`, lines at most 64 characters
 *   (shared/models/address/address_fields_us.yml), name and company at most 40 characters
 *   (address_editable_us.yml), and to.address_line1 + to.address_line2 at most 50 characters
 *   (error.yml, `address_length_exceeds_limit`);
 * - `use_type` marketing or operational (`mail_use_type_can_not_be_null`); postcard size 4x6, 6x9,
 *   6x11 (resources/postcards/attributes/postcard_size.yml); letter size us_letter or us_legal
 *   (resources/letters/attributes/ltr_size.yml);
 * - DELETE cancels only within the account's cancellation window, 5 minutes by default, or before
 *   a future send_date (public.yml, Cancellation Windows); else 422 `not_deletable`;
 * - GET /{resource}/{id} (with `tracking_events`) and GET list. Objects carry Lob's id prefixes
 *   (psc_, ltr_, adr_, evnt_).
 * An address line with "undeliverable" answers `failed_deliverability_strictness`, as a strict
 * account would.
 */
export interface LobPrintBook {
  objects: Map<string, Record<string, unknown>>;
  /** Pieces created (a replayed idempotency key creates none). */
  created: string[];
  printRequests: { method: string; path: string; idempotencyKey: string | null; body: Record<string, unknown> }[];
  keys: Map<string, { id: string; at: number }>;
  /** Lob's clock (ms): tests move it to pass a cancellation window. */
  now: () => number;
  /** The account's cancellation window. */
  cancelWindowMs: number;
}

export const newPrintBook = (now: () => number = Date.now): LobPrintBook => ({
  objects: new Map(),
  created: [],
  printRequests: [],
  keys: new Map(),
  now,
  cancelWindowMs: 5 * 60_000,
});

/** A file uploaded in a multipart body, as the fake keeps it. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

type Refusal = { status: number; body: ReturnType<typeof error> };
const error = (status: number, code: string, message: string) => ({ error: { message, status_code: status, code } });
const refuse = (status: number, code: string, message: string): Refusal => ({
  status,
  body: error(status, code, message),
});
const hex = (n: number) => randomBytes(n).toString("hex");
const KEY_LIFETIME_MS = 24 * 60 * 60_000;
const SIZES = ["4x6", "6x9", "6x11"];
const LETTER_SIZES = ["us_letter", "us_legal"];
const REMOTE_FILE_URL = /^https:\/\/[-a-zA-Z0-9@:%._+~#=/]{1,256}.(html?|pdf|png|jpg)$/;
const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Sheet sizes in points, with bleed for postcards. */
const SHEETS: Record<string, [number, number]> = {
  us_letter: [612, 792],
  us_legal: [612, 1008],
  "4x6": [4.25 * 72, 6.25 * 72],
  "6x9": [6.25 * 72, 9.25 * 72],
  "6x11": [6.25 * 72, 11.25 * 72],
};

function address(a: unknown, field: string): { ok: Record<string, unknown> } | { error: Refusal } {
  if (!a || typeof a !== "object") return { error: refuse(422, "invalid", `${field} is required`) };
  const x = a as Record<string, unknown>;
  const str = (k: string) => (typeof x[k] === "string" ? (x[k] as string) : "");
  const country = str("address_country") || "US";
  const us = country === "US" || country === "UNITED STATES";
  for (const k of ["address_line1", "address_city", ...(us ? ["address_state", "address_zip"] : [])]) {
    if (!str(k).trim()) return { error: refuse(422, "invalid", `${field}.${k} is required`) };
  }
  if (!x.name && !x.company) return { error: refuse(422, "invalid", `${field} must have a name or a company`) };
  for (const k of ["name", "company"])
    if (str(k).length > 40) return { error: refuse(422, "invalid", `${field}.${k} must be at most 40 characters`) };
  for (const k of ["address_line1", "address_line2"])
    if (str(k).length > 64)
      return {
        error: refuse(422, "address_length_exceeds_limit", `${field}.${k} must be at most 64 characters`),
      };
  if (field === "to" && str("address_line1").length + str("address_line2").length > 50)
    return {
      error: refuse(
        422,
        "address_length_exceeds_limit",
        "The sum of to.address_line1 and to.address_line2 cannot surpass 50 characters.",
      ),
    };
  if (us && !/^[a-zA-Z]{2}$/.test(str("address_state")))
    return { error: refuse(422, "invalid", `${field}.address_state must be a 2 letter state short-name code`) };
  if (us && !/^\d{5}(-\d{4})?$/.test(str("address_zip")))
    return {
      error: refuse(
        422,
        "invalid",
        `${field}.address_zip must follow the ZIP format of 12345 or ZIP+4 format of 12345-1234`,
      ),
    };
  if (/undeliverable/i.test(str("address_line1")))
    return { error: refuse(422, "failed_deliverability_strictness", `${field} address is undeliverable`) };
  const now = new Date().toISOString();
  return {
    ok: {
      id: `adr_${hex(8)}`,
      ...x,
      address_country: us ? "UNITED STATES" : country,
      date_created: now,
      date_modified: now,
      object: "address",
    },
  };
}

const isUpload = (v: unknown): v is UploadedFile =>
  !!v && typeof v === "object" && (v as UploadedFile).bytes instanceof Uint8Array;

/** The file of a field as Lob would get it: uploaded, or downloaded from a URL of Lob's pattern. */
async function fileOf(field: string, v: unknown): Promise<{ bytes: Uint8Array } | { error: Refusal }> {
  if (isUpload(v)) return { bytes: v.bytes };
  if (typeof v !== "string" || !REMOTE_FILE_URL.test(v))
    return {
      error: refuse(422, "invalid_file_url", `${field} must be a file, or a URL matching ${REMOTE_FILE_URL.source}`),
    };
  try {
    const res = await fetch(v, { signal: AbortSignal.timeout(40_000) });
    if (!res.ok) return { error: refuse(422, "invalid_file_url", `${field} could not be downloaded (${res.status})`) };
    return { bytes: new Uint8Array(await res.arrayBuffer()) };
  } catch {
    return { error: refuse(422, "invalid_file_download_time", `${field} could not be downloaded within 40 seconds`) };
  }
}

/** Measures a PDF as Lob does: size, page count, every page's dimensions. */
async function measure(field: string, bytes: Uint8Array, sheet: [number, number], maxPages: number) {
  if (bytes.byteLength > MAX_FILE_BYTES) return refuse(422, "file_size_exceeds_limit", `${field} is larger than 5 MB`);
  let pages: { w: number; h: number }[];
  try {
    const { PDFDocument } = await import("pdf-lib");
    const doc = await PDFDocument.load(bytes);
    pages = doc.getPages().map((p) => {
      const { width, height } = p.getSize();
      return { w: width, h: height };
    });
  } catch {
    return refuse(422, "invalid_file", `${field} is not a valid PDF`);
  }
  if (pages.length === 0) return refuse(422, "file_pages_below_min", `${field} has no pages`);
  if (pages.length > maxPages) return refuse(422, "file_pages_exceed_max", `${field} has more than ${maxPages} pages`);
  const [sw, sh] = sheet;
  const ok = (p: { w: number; h: number }) =>
    (Math.abs(p.w - sw) < 0.5 && Math.abs(p.h - sh) < 0.5) || (Math.abs(p.w - sh) < 0.5 && Math.abs(p.h - sw) < 0.5);
  const bad = pages.findIndex((p) => !ok(p));
  if (bad >= 0)
    return refuse(
      422,
      "invalid_file_dimensions",
      `page ${bad + 1} of ${field} is ${(pages[bad].w / 72).toFixed(3)}x${(pages[bad].h / 72).toFixed(3)} in; it must be ${(sw / 72).toFixed(2)}x${(sh / 72).toFixed(2)} in`,
    );
  return null;
}

/** The body as recorded: uploaded files by name, type and size instead of their bytes. */
const recorded = (body: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(body).map(([k, v]) => [
      k,
      isUpload(v) ? { filename: v.filename, contentType: v.contentType, bytes: v.bytes.byteLength } : v,
    ]),
  );

/** Handles a print request; null when the path is not one of these endpoints. */
export async function handlePrint(
  book: LobPrintBook,
  method: string,
  path: string,
  headers: Record<string, string | string[] | undefined>,
  body: Record<string, unknown>,
): Promise<{ status: number; body: unknown } | null> {
  const m = /\/(postcards|letters)(?:\/([\w]+))?$/.exec(path);
  if (!m) return null;
  const resource = m[1] as "postcards" | "letters";
  const id = m[2];
  const key = typeof headers["idempotency-key"] === "string" ? (headers["idempotency-key"] as string) : null;
  book.printRequests.push({ method, path, idempotencyKey: key, body: recorded(body) });
  if (method === "GET" && !id) {
    const data = [...book.objects.values()].filter(
      (o) => o.object === (resource === "postcards" ? "postcard" : "letter"),
    );
    return {
      status: 200,
      body: {
        data: data.slice(0, 10),
        object: "list",
        next_url: null,
        previous_url: null,
        count: Math.min(10, data.length),
      },
    };
  }
  if (id) {
    const o = book.objects.get(id);
    if (!o || !id.startsWith(resource === "postcards" ? "psc_" : "ltr_"))
      return refuse(404, "not_found", `${resource === "postcards" ? "postcard" : "letter"} not found`);
    if (method === "GET") return { status: 200, body: o };
    if (method === "DELETE") {
      const created = Date.parse(o.date_created as string);
      const sendAt = Date.parse(o.send_date as string);
      const closes = Math.max(created + book.cancelWindowMs, Number.isFinite(sendAt) ? sendAt : 0);
      if (o.deleted || (o.tracking_events as unknown[]).length > 0 || book.now() >= closes)
        return refuse(
          422,
          "not_deletable",
          `${resource === "postcards" ? "postcard" : "letter"} has already been sent for production and cannot be canceled`,
        );
      o.deleted = true;
      return { status: 200, body: { id, deleted: true } };
    }
    return refuse(404, "unrecognized_endpoint", "The requested endpoint does not exist.");
  }
  if (method !== "POST") return refuse(404, "unrecognized_endpoint", "The requested endpoint does not exist.");
  const scoped = key ? `${resource}:${key}` : null;
  if (scoped) {
    const seen = book.keys.get(scoped);
    if (seen && book.now() - seen.at < KEY_LIFETIME_MS) return { status: 200, body: book.objects.get(seen.id) };
  }
  const to = address(body.to, "to");
  if ("error" in to) return to.error;
  const from = address(body.from, "from");
  if ("error" in from) return from.error;
  if (body.use_type !== "marketing" && body.use_type !== "operational")
    return refuse(422, "mail_use_type_can_not_be_null", "use_type is required and must be marketing or operational");
  if (resource === "postcards" && body.size !== undefined && !SIZES.includes(body.size as string))
    return refuse(422, "invalid", "size must be one of [4x6, 6x9, 6x11]");
  if (resource === "letters" && body.size !== undefined && !LETTER_SIZES.includes(body.size as string))
    return refuse(422, "invalid", "size must be one of [us_letter, us_legal]");
  const color =
    body.color === true || body.color === "true" ? true : body.color === false || body.color === "false" ? false : null;
  if (resource === "letters" && color === null) return refuse(422, "invalid", "color is required");
  const files = resource === "postcards" ? ["front", "back"] : ["file"];
  const sheet =
    SHEETS[resource === "postcards" ? ((body.size as string) ?? "4x6") : ((body.size as string) ?? "us_letter")];
  for (const f of files) {
    if (body[f] === undefined) return refuse(422, "invalid", `${f} is required`);
    const file = await fileOf(f, body[f]);
    if ("error" in file) return file.error;
    const problem = await measure(f, file.bytes, sheet, resource === "letters" ? 60 : 1);
    if (problem) return problem;
  }
  const metadata = (body.metadata ?? {}) as Record<string, string>;
  const now = new Date(book.now());
  const objectId = `${resource === "postcards" ? "psc" : "ltr"}_${hex(8)}`;
  const o: Record<string, unknown> = {
    id: objectId,
    to: to.ok,
    from: from.ok,
    ...(resource === "postcards"
      ? { size: body.size ?? "4x6", front_template_id: null, back_template_id: null }
      : {
          size: body.size ?? "us_letter",
          color,
          double_sided: !(body.double_sided === false || body.double_sided === "false"),
          address_placement: body.address_placement ?? "top_first_page",
          extra_service: null,
          return_envelope: false,
        }),
    description: body.description ?? null,
    metadata,
    mail_type: "usps_first_class",
    use_type: body.use_type,
    url: `https://lob-assets.com/${resource}/${objectId}.pdf?expires=${Math.floor(now.getTime() / 1000) + 30 * 86_400}&signature=${hex(16)}`,
    carrier: "USPS",
    thumbnails: [],
    expected_delivery_date: new Date(now.getTime() + 5 * 86_400_000).toISOString().slice(0, 10),
    send_date: now.toISOString(),
    date_created: now.toISOString(),
    date_modified: now.toISOString(),
    tracking_events: [],
    deleted: false,
    object: resource === "postcards" ? "postcard" : "letter",
  };
  book.objects.set(objectId, o);
  book.created.push(objectId);
  if (scoped) book.keys.set(scoped, { id: objectId, at: book.now() });
  return { status: 200, body: o };
}

/** Lob's tracking event names, for `track`. */
export type LobTrackingName =
  | "Mailed"
  | "In Transit"
  | "In Local Area"
  | "Processed for Delivery"
  | "Delivered"
  | "Re-Routed"
  | "Returned to Sender";

const EVENT_TYPE: Record<LobTrackingName, string> = {
  Mailed: "mailed",
  "In Transit": "in_transit",
  "In Local Area": "in_local_area",
  "Processed for Delivery": "processed_for_delivery",
  Delivered: "delivered",
  "Re-Routed": "re-routed",
  "Returned to Sender": "returned_to_sender",
};

/**
 * Adds a USPS scan to a piece, as Lob does, and returns the webhook event Lob would send for it
 * (an event object: id evt_…, body the piece as it now is, reference_id, event_type, date_created).
 */
export function track(book: LobPrintBook, objectId: string, name: LobTrackingName, time: Date) {
  const o = book.objects.get(objectId);
  if (!o) throw new Error(`the fake Lob has no ${objectId}`);
  const iso = time.toISOString();
  (o.tracking_events as unknown[]).push({
    id: `evnt_${hex(8)}`,
    type: "normal",
    name,
    location: "94107",
    time: iso,
    date_created: iso,
    date_modified: iso,
    object: "tracking_event",
  });
  const resource = o.object === "letter" ? "letter" : "postcard";
  return {
    id: `evt_${hex(8)}`,
    body: JSON.parse(JSON.stringify(o)),
    reference_id: objectId,
    event_type: {
      id: `${resource}.${EVENT_TYPE[name]}`,
      enabled_for_test: true,
      resource: `${resource}s`,
      object: "event_type",
    },
    date_created: iso,
    object: "event",
  };
}

/** Lob's webhook signature: hex HMAC-SHA256 of `<timestamp>.<raw body>` with the webhook's secret. */
export function signLobWebhook(secret: string, rawBody: string, timestamp: string) {
  return createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
}
