/**
 * Lob's REST API over fetch, for print and mail: JSON for reads and cancels, multipart/form-data
 * for creates, since multipart is "the only format that can be used for uploading a file to the
 * API" (lob/lob-openapi lob-api-public.yml, Request Body). The print file travels in the request:
 * Lob never has to reach this server. Failures are thrown in the shape explainLobError reads
 * ({ response: { status, headers, data } }), and every answer's rate-limit headers are kept.
 */

/** Lob's rate-limit headers (lob-api-public.yml, Rate Limiting: X-Rate-Limit-Limit, -Remaining, -Reset). */
interface LobRateLimit {
  limit: number | null;
  remaining: number | null;
  /** When the window resets (Lob sends UTC epoch seconds). */
  resetAt: Date | null;
}

function rateLimitOf(headers: Headers): LobRateLimit {
  const num = (name: string) => {
    const v = headers.get(`x-rate-limit-${name}`) ?? headers.get(`ratelimit-${name}`);
    const n = v === null ? Number.NaN : Number(v);
    return Number.isFinite(n) ? n : null;
  };
  const reset = num("reset");
  return { limit: num("limit"), remaining: num("remaining"), resetAt: reset === null ? null : new Date(reset * 1000) };
}

/** A form field or an uploaded file of a multipart create. */
type LobFormValue = string | { file: Uint8Array; filename: string; contentType: string };

/** Nested objects as Lob's form encoding names them: to[address_line1], metadata[piece_id]. */
export function lobForm(fields: Record<string, unknown>): Record<string, LobFormValue> {
  const out: Record<string, LobFormValue> = {};
  const put = (prefix: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (typeof v === "object" && !("file" in (v as object))) {
      for (const [k, inner] of Object.entries(v as Record<string, unknown>)) put(`${prefix}[${k}]`, inner);
      return;
    }
    out[prefix] = typeof v === "object" ? (v as LobFormValue) : String(v);
  };
  for (const [k, v] of Object.entries(fields)) put(k, v);
  return out;
}

export class LobHttp {
  /** The last rate-limit headers Lob sent. */
  lastRateLimit: LobRateLimit | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async request<T>(
    method: "GET" | "POST" | "DELETE",
    path: string,
    opts: { form?: Record<string, LobFormValue>; idempotencyKey?: string } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${this.apiKey}:`).toString("base64")}`,
      accept: "application/json",
    };
    if (opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
    let body: FormData | undefined;
    if (opts.form) {
      body = new FormData();
      for (const [k, v] of Object.entries(opts.form)) {
        if (typeof v === "string") body.append(k, v);
        else body.append(k, new Blob([Buffer.from(v.file)], { type: v.contentType }), v.filename);
      }
    }
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl.replace(/\/$/, "")}${path}`, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      const e = error as { cause?: { code?: string }; message?: string };
      throw { code: e.cause?.code ?? e.message ?? "network error" };
    }
    this.lastRateLimit = rateLimitOf(res.headers);
    const text = await res.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!res.ok) {
      const headersObject: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        headersObject[k] = v;
      });
      throw { response: { status: res.status, headers: headersObject, data } };
    }
    return data as T;
  }
}
