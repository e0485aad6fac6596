import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { pinnedLookup, RefusedAddress } from "@/server/records/oauth/public-address";
import { addressAllowed } from "./endpoint-url";

/** A delivery that got no answer within this time is a failure. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** How much of an answer's body the delivery log keeps. */
export const RESPONSE_KEPT_BYTES = 1024;

export interface SendResult {
  /** The HTTP status; null when there was no answer. */
  status: number | null;
  latencyMs: number;
  /** The first bytes of the body, or why there was no answer. */
  response: string;
  /** The answer's Retry-After, in milliseconds from now, when it had a valid one. */
  retryAfterMs?: number;
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 10.2.3), in milliseconds from `now`. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d{1,10}$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return /[a-z]/i.test(v) && !Number.isNaN(at) ? Math.max(0, at - now) : undefined;
}

/** Connections are kept for the next delivery to the same host (checked when each was opened). */
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 16 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 16 }),
};

/** DNS lookup that refuses a name resolving to a loopback or private address, so the socket never connects there. */
const guardedLookup = pinnedLookup(addressAllowed);

/**
 * POSTs one signed delivery. Redirects are not followed (a 3xx is a failure, as the Standard
 * Webhooks guidance has it); the answer's body is read up to RESPONSE_KEPT_BYTES, then dropped.
 */
export function sendDelivery(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !addressAllowed(host))
    return Promise.resolve({
      status: null,
      response: `${host} is not a public address; nothing was sent.`,
      latencyMs: elapsed(),
    });
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const done = (result: Omit<SendResult, "latencyMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: elapsed() });
    };
    const secure = target.protocol === "https:";
    const client = secure ? https : http;
    const request = client.request(
      target,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "DirectMail-Webhooks/1",
          ...headers,
          "content-length": Buffer.byteLength(body),
        },
        lookup: guardedLookup as never,
        agent: secure ? agents.https : agents.http,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on("data", (chunk: Buffer) => {
          if (kept < RESPONSE_KEPT_BYTES) {
            chunks.push(chunk.subarray(0, RESPONSE_KEPT_BYTES - kept));
            kept += Math.min(chunk.length, RESPONSE_KEPT_BYTES - kept);
          }
          if (kept >= RESPONSE_KEPT_BYTES) response.destroy();
        });
        const retryAfterMs = parseRetryAfter(response.headers["retry-after"]);
        const finish = () =>
          done({
            status: response.statusCode ?? null,
            response: Buffer.concat(chunks).toString("utf8"),
            ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          });
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", finish);
      },
    );
    timer = setTimeout(() => {
      request.destroy();
      done({ status: null, response: `No answer within ${Math.round(timeoutMs / 1000)} seconds.` });
    }, timeoutMs);
    request.on("error", (error) => {
      const why =
        error instanceof RefusedAddress ? error.message : describeNetworkError(error as NodeJS.ErrnoException);
      done({ status: null, response: why });
    });
    request.end(body);
  });
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "The connection was refused.";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "The host name could not be resolved.";
    case "ECONNRESET":
      return "The connection was reset before an answer.";
    case "CERT_HAS_EXPIRED":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `The endpoint's TLS certificate was not accepted (${error.code}).`;
    default:
      return `The request failed (${error.code ?? "network error"}).`;
  }
}
