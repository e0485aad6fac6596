import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { handlePrint, type LobPrintBook, newPrintBook, type UploadedFile } from "./fake-lob-print";

/**
 * A local stand-in for Lob's verification API, answering as Lob documents it (API reference:
 * POST /v1/us_verifications and /v1/intl_verifications; errors as { error: { message,
 * status_code, code } }): HTTP Basic auth with the API key as the user name, 401 `unauthorized`
 * for a wrong key, 422 `invalid` when primary_line is missing, 429 `rate_limit_exceeded` when
 * told to throttle or past its rate limit (every answer carries X-Rate-Limit-Limit, -Remaining and
 * -Reset: lob-api-public.yml, Rate Limiting, 150 requests per 5 seconds per key and endpoint),
 * and us_verification / intl_verification objects with upper-cased lines,
 * components and deliverability. Which deliverability it answers follows the street lines, like
 * the sandbox: "undeliverable", "missing unit", "incorrect unit", "unnecessary unit", "no match",
 * "missing info"; anything else is deliverable (or, after emptyTestAnswers(true), empty).
 */
export interface FakeLob {
  url: string;
  apiKey: string;
  requests: { path: string; body: Record<string, unknown> }[];
  /** Answer the next `n` requests with 429 (optionally with a Retry-After header, in seconds). */
  throttleNext(n: number, retryAfterSeconds?: number): void;
  /** Answer the next `n` requests with 500. */
  failNext(n: number): void;
  /**
   * Answer as Lob's test mode does for an address that is not one of its test addresses: with an
   * empty deliverability (the words above still choose a deliverability). Off by default.
   */
  emptyTestAnswers(on: boolean): void;
  /** Print and mail (postcards, letters): what was created, by id, and the requests. */
  print: LobPrintBook;
  /** Process the next `n` print creates but drop the connection instead of answering (a lost answer). */
  loseNextAnswers(n: number): void;
  /** Another valid key of the same account (e.g. after the owner rolls keys); the old one is then refused. */
  revokeKey(): void;
  /** Answer the next `n` requests with Lob's error `code` at `status` (e.g. 403 feature_limit_reached). */
  refuseNext(n: number, status: number, code: string, message?: string): void;
  /** Requests per key and endpoint in each 5-second window (Lob's default is 150). */
  rateLimit(perWindow: number): void;
  /** Moves Lob's clock on (cancellation windows, idempotency keys). */
  advance(ms: number): void;
  close(): Promise<void>;
}

const error = (status: number, code: string, message: string) => ({ error: { message, status_code: status, code } });

function usVerdict(street: string): string {
  if (street.includes("undeliverable")) return "undeliverable";
  if (street.includes("missing unit")) return "deliverable_missing_unit";
  if (street.includes("incorrect unit")) return "deliverable_incorrect_unit";
  if (street.includes("unnecessary unit")) return "deliverable_unnecessary_unit";
  return "deliverable";
}
function intlVerdict(street: string): string {
  if (street.includes("no match")) return "no_match";
  if (street.includes("undeliverable")) return "undeliverable";
  if (street.includes("missing info") || street.includes("missing unit")) return "deliverable_missing_info";
  return "deliverable";
}

/**
 * A request body as Lob reads it: JSON, or multipart/form-data with Lob's bracketed names
 * (to[address_line1], metadata[piece_id]) made objects and uploaded files kept with their bytes.
 */
async function parseBody(contentType: string, raw: Buffer): Promise<Record<string, unknown>> {
  if (!raw.length) return {};
  if (!contentType.startsWith("multipart/form-data")) return JSON.parse(raw.toString());
  const form = await new Request("http://fake-lob.local/", {
    method: "POST",
    headers: { "content-type": contentType },
    body: new Uint8Array(raw),
  }).formData();
  const out: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    const v: unknown =
      typeof value === "string"
        ? value
        : ({
            filename: value.name,
            contentType: value.type,
            bytes: new Uint8Array(await value.arrayBuffer()),
          } satisfies UploadedFile);
    const [head, ...rest] = name.split("[").map((x) => x.replace(/]$/, ""));
    if (!rest.length) {
      out[head] = v;
      continue;
    }
    let at = (out[head] ??= {}) as Record<string, unknown>;
    for (const k of rest.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
    at[rest[rest.length - 1]] = v;
  }
  return out;
}

/** Listens on `port` (0: any free one); the end-to-end suites give the one the server's LOB_API_URL names. */
export async function startFakeLob(apiKey = `test_${randomBytes(12).toString("hex")}`, port = 0): Promise<FakeLob> {
  let throttle = 0;
  let retryAfter: number | undefined;
  let failures = 0;
  let emptyOtherwise = false;
  const requests: FakeLob["requests"] = [];
  let offset = 0;
  const print = newPrintBook(() => Date.now() + offset);
  let lose = 0;
  let revoked = false;
  let refusals: { n: number; status: number; code: string; message: string } | null = null;
  let perWindow = 150;
  const windows = new Map<string, { start: number; used: number }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => void answer(req, res, chunks));
  });
  async function answer(req: http.IncomingMessage, res: http.ServerResponse, chunks: Buffer[]) {
    {
      let limits: Record<string, string> = {};
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...limits, ...headers });
        res.end(JSON.stringify(body));
      };
      const auth = req.headers.authorization ?? "";
      const user = auth.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString().split(":")[0] : "";
      if (user !== apiKey || revoked)
        return send(
          401,
          error(401, "unauthorized", "Your API key is not valid. Please sign up on lob.com to get a valid api key."),
        );
      const path = (req.url ?? "").replace(/\?.*$/, "");
      // Lob's rate limit: per key and endpoint, a window of 5 seconds.
      const endpoint = `${req.method} ${path.replace(/\/(psc|ltr)_\w+$/, "/:id")}`;
      const nowMs = print.now();
      let w = windows.get(endpoint);
      if (!w || nowMs - w.start >= 5000) windows.set(endpoint, (w = { start: nowMs, used: 0 }));
      w.used++;
      limits = {
        "x-rate-limit-limit": String(perWindow),
        "x-rate-limit-remaining": String(Math.max(0, perWindow - w.used)),
        "x-rate-limit-reset": String(Math.ceil((w.start + 5000) / 1000)),
      };
      let body: Record<string, unknown> = {};
      try {
        body = await parseBody(req.headers["content-type"] ?? "", Buffer.concat(chunks));
      } catch {
        return send(400, error(400, "bad_request", "Invalid request body."));
      }
      requests.push({ path, body });
      if (w.used > perWindow)
        return send(
          429,
          error(429, "rate_limit_exceeded", "Rate limit exceeded. Please wait 5 seconds and try your request again."),
        );
      if (refusals && refusals.n > 0) {
        refusals.n--;
        return send(refusals.status, error(refusals.status, refusals.code, refusals.message));
      }
      if (throttle > 0) {
        throttle--;
        return send(
          429,
          error(429, "rate_limit_exceeded", "Rate limit exceeded. Please wait 5 seconds and try your request again."),
          retryAfter ? { "retry-after": String(retryAfter) } : {},
        );
      }
      if (failures > 0) {
        failures--;
        return send(500, error(500, "internal_server_error", "An internal server error occurred."));
      }
      const printed = await handlePrint(print, req.method ?? "GET", path, req.headers, body);
      if (printed) {
        if (lose > 0 && req.method === "POST") {
          lose--;
          return req.socket.destroy();
        }
        return send(printed.status, printed.body);
      }
      const str = (k: string) => (typeof body[k] === "string" ? (body[k] as string) : "");
      if (!str("primary_line")) return send(422, error(422, "invalid", "primary_line is required"));
      const street = `${str("primary_line")} ${str("secondary_line")}`.toLowerCase();
      const up = (s: string) => s.toUpperCase().replace(/\s+/g, " ").trim();
      if (path.endsWith("/us_verifications")) {
        const zip = str("zip_code").replace(/\D/g, "").slice(0, 5).padStart(5, "0");
        return send(200, {
          id: `us_ver_${randomBytes(10).toString("hex")}`,
          recipient: null,
          primary_line: up(str("primary_line")),
          secondary_line: up(str("secondary_line")),
          urbanization: "",
          last_line: `${up(str("city"))} ${up(str("state"))} ${zip}-1234`,
          deliverability: emptyOtherwise && usVerdict(street) === "deliverable" ? "" : usVerdict(street),
          valid_address: !street.includes("undeliverable"),
          components: {
            primary_number: str("primary_line").split(" ")[0] ?? "",
            street_predirection: "",
            street_name: up(str("primary_line").split(" ").slice(1).join(" ")),
            street_suffix: "",
            street_postdirection: "",
            secondary_designator: "",
            secondary_number: "",
            pmb_designator: "",
            pmb_number: "",
            extra_secondary_designator: "",
            extra_secondary_number: "",
            city: up(str("city")),
            state: up(str("state")),
            zip_code: zip,
            zip_code_plus_4: "1234",
            zip_code_type: "standard",
            delivery_point_barcode: `${zip}12340`,
            address_type: "commercial",
            record_type: "street",
            default_building_address: false,
            county: "",
            county_fips: "",
            carrier_route: "C001",
            carrier_route_type: "city_delivery",
            po_box_only_flag: "N",
            latitude: null,
            longitude: null,
          },
          deliverability_analysis: {
            dpv_confirmation: "Y",
            dpv_cmra: "N",
            dpv_vacant: "N",
            dpv_active: "Y",
            dpv_footnotes: ["AA", "BB"],
            ews_match: false,
            lacs_indicator: "",
            lacs_return_code: "",
            suite_return_code: "",
          },
          lob_confidence_score: { score: 100, level: "high" },
          object: "us_verification",
        });
      }
      if (path.endsWith("/intl_verifications")) {
        return send(200, {
          id: `intl_ver_${randomBytes(10).toString("hex")}`,
          recipient: null,
          primary_line: up(str("primary_line")),
          secondary_line: up(str("secondary_line")),
          last_line: `${up(str("postal_code"))} ${up(str("city"))}`,
          country: str("country"),
          coverage: "SUBBUILDING",
          deliverability: emptyOtherwise && intlVerdict(street) === "deliverable" ? "" : intlVerdict(street),
          status: "LV4",
          components: {
            primary_number: "",
            street_name: up(str("primary_line")),
            city: up(str("city")),
            state: up(str("state")),
            postal_code: up(str("postal_code")),
          },
          object: "intl_verification",
        });
      }
      return send(404, error(404, "not_found", "The requested resource could not be found."));
    }
  }
  // Clients keep connections alive between requests (Node's global agent): keep them well past a test's pauses.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const listening = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${listening}/v1`,
    apiKey,
    requests,
    throttleNext(n, seconds) {
      throttle = n;
      retryAfter = seconds;
    },
    failNext(n) {
      failures = n;
    },
    emptyTestAnswers(on) {
      emptyOtherwise = on;
    },
    print,
    loseNextAnswers(n) {
      lose = n;
    },
    revokeKey() {
      revoked = true;
    },
    refuseNext(n, status, code, message) {
      refusals = { n, status, code, message: message ?? `Lob refused the request (${code}).` };
    },
    rateLimit(n) {
      perWindow = n;
    },
    advance(ms) {
      offset += ms;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
