import { createHmac, randomBytes } from "node:crypto";

/**
 * Lob's print and mail endpoints for the local fake (fake-lob.ts), answering as Lob's OpenAPI
 * description says (lob/lob-openapi: resources/postcards, resources/letters, shared/models/error.yml):
 * POST /postcards and /letters with the `Idempotency-Key` header (a repeated key returns the
 * object it created, for 24 hours), 422 `invalid` for a missing required field,
 * `mail_use_type_can_not_be_null`, `invalid_file_url`, `failed_deliverability_strictness` for an
 * address line with "undeliverable", GET /{resource}/{id} (with `tracking_events`), DELETE (cancel,
 * 422 `not_deletable` once the post has it) and GET list. Objects carry Lob's id prefixes (psc_,
 * ltr_, adr_, evnt_), which the official client checks.
 */
export interface LobPrintBook {
  objects: Map<string, Record<string, unknown>>;
  /** Pieces created (a replayed idempotency key creates none). */
  created: string[];
  printRequests: { method: string; path: string; idempotencyKey: string | null; body: Record<string, unknown> }[];
  keys: Map<string, { id: string; at: number }>;
}

export const newPrintBook = (): LobPrintBook => ({
  objects: new Map(),
  created: [],
  printRequests: [],
  keys: new Map(),
});

const error = (status: number, code: string, message: string) => ({ error: { message, status_code: status, code } });
const hex = (n: number) => randomBytes(n).toString("hex");
const KEY_LIFETIME_MS = 24 * 60 * 60_000;
const SIZES = ["4x6", "6x9", "6x11"];

function address(
  a: unknown,
  field: string,
): { ok: Record<string, unknown> } | { error: ReturnType<typeof error> & { status: number } } {
  if (!a || typeof a !== "object") return { error: { status: 422, ...error(422, "invalid", `${field} is required`) } };
  const x = a as Record<string, unknown>;
  for (const k of ["address_line1", "address_city", "address_zip"]) {
    if (typeof x[k] !== "string" || !(x[k] as string).trim())
      return { error: { status: 422, ...error(422, "invalid", `${field}.${k} is required`) } };
  }
  if (!x.name && !x.company)
    return { error: { status: 422, ...error(422, "invalid", `${field} must have a name or a company`) } };
  if ((x.address_line1 as string).length > 64)
    return {
      error: {
        status: 422,
        ...error(422, "address_length_exceeds_limit", `${field}.address_line1 must be at most 64 characters`),
      },
    };
  if (/undeliverable/i.test(x.address_line1 as string))
    return {
      error: { status: 422, ...error(422, "failed_deliverability_strictness", `${field} address is undeliverable`) },
    };
  const now = new Date().toISOString();
  return {
    ok: {
      id: `adr_${hex(8)}`,
      ...x,
      address_country: x.address_country === "US" || !x.address_country ? "UNITED STATES" : x.address_country,
      date_created: now,
      date_modified: now,
      object: "address",
    },
  };
}

const isUrl = (v: unknown) => typeof v === "string" && /^https?:\/\/\S+$/.test(v);

/** Handles a print request; null when the path is not one of these endpoints. */
export function handlePrint(
  book: LobPrintBook,
  method: string,
  path: string,
  headers: Record<string, string | string[] | undefined>,
  body: Record<string, unknown>,
): { status: number; body: unknown } | null {
  const m = /\/(postcards|letters)(?:\/([\w]+))?$/.exec(path);
  if (!m) return null;
  const resource = m[1] as "postcards" | "letters";
  const id = m[2];
  const key = typeof headers["idempotency-key"] === "string" ? (headers["idempotency-key"] as string) : null;
  book.printRequests.push({ method, path, idempotencyKey: key, body });
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
      return {
        status: 404,
        body: error(404, "not_found", `${resource === "postcards" ? "postcard" : "letter"} not found`),
      };
    if (method === "GET") return { status: 200, body: o };
    if (method === "DELETE") {
      if ((o.tracking_events as unknown[]).length > 0 || o.deleted)
        return {
          status: 422,
          body: error(
            422,
            "not_deletable",
            `${resource === "postcards" ? "postcard" : "letter"} has already been sent for production and cannot be canceled`,
          ),
        };
      o.deleted = true;
      return { status: 200, body: { id, deleted: true } };
    }
    return { status: 404, body: error(404, "unrecognized_endpoint", "The requested endpoint does not exist.") };
  }
  if (method !== "POST")
    return { status: 404, body: error(404, "unrecognized_endpoint", "The requested endpoint does not exist.") };
  const scoped = key ? `${resource}:${key}` : null;
  if (scoped) {
    const seen = book.keys.get(scoped);
    if (seen && Date.now() - seen.at < KEY_LIFETIME_MS) return { status: 200, body: book.objects.get(seen.id) };
  }
  const to = address(body.to, "to");
  if ("error" in to) return { status: to.error.status, body: { error: to.error.error } };
  const from = address(body.from, "from");
  if ("error" in from) return { status: from.error.status, body: { error: from.error.error } };
  if (body.use_type !== "marketing" && body.use_type !== "operational")
    return {
      status: 422,
      body: error(422, "mail_use_type_can_not_be_null", "use_type is required and must be marketing or operational"),
    };
  const files = resource === "postcards" ? ["front", "back"] : ["file"];
  for (const f of files) {
    if (body[f] === undefined) return { status: 422, body: error(422, "invalid", `${f} is required`) };
    if (!isUrl(body[f]))
      return {
        status: 422,
        body: error(422, "invalid_file_url", `${f} must be a URL, an HTML string or a template id`),
      };
    if (/refuse-file/.test(body[f] as string))
      return {
        status: 422,
        body: error(422, "invalid_file_dimensions", `${f} must be the size of the product, with bleed`),
      };
  }
  if (resource === "postcards" && body.size !== undefined && !SIZES.includes(body.size as string))
    return { status: 422, body: error(422, "invalid", "size must be one of [4x6, 6x9, 6x11]") };
  if (resource === "letters" && typeof body.color !== "boolean")
    return { status: 422, body: error(422, "invalid", "color is required") };
  const metadata = (body.metadata ?? {}) as Record<string, string>;
  const now = new Date();
  const objectId = `${resource === "postcards" ? "psc" : "ltr"}_${hex(8)}`;
  const o: Record<string, unknown> = {
    id: objectId,
    to: to.ok,
    from: from.ok,
    ...(resource === "postcards"
      ? { size: body.size ?? "4x6", front_template_id: null, back_template_id: null }
      : {
          color: body.color,
          double_sided: body.double_sided ?? true,
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
  if (scoped) book.keys.set(scoped, { id: objectId, at: Date.now() });
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
