import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, test as base, expect } from "@playwright/test";
import { demo } from "./demo";
import { artifactsDir } from "./env";
import type { KeyKind } from "./test-keys";

export { expect };

/** Which documented operation a request addressed, for the status-coverage check. */
export function operationOf(method: string, urlPath: string): string | null {
  if (method === "POST" && /^\/api\/v1\/campaigns\/[^/]+\/events$/.test(urlPath)) return "postEntryEvent";
  if (method === "GET" && /^\/api\/v1\/campaigns\/[^/]+\/events\/[^/]+$/.test(urlPath)) return "getEntryEvent";
  if (method === "POST" && urlPath === "/api/v1/conversions") return "reportConversion";
  const tool = method === "GET" ? /^\/api\/tools\/([a-z-]+)$/.exec(urlPath) : null;
  if (tool) return tool[1].replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return null;
}
export const observedFile = path.join(artifactsDir, "observed-statuses.jsonl");

/** Notes that a request to a documented operation got a status, for the status-coverage check. */
export function recordStatus(method: string, url: string, status: number) {
  const operation = operationOf(method, new URL(url, "http://x").pathname);
  if (operation) fs.appendFileSync(observedFile, `${JSON.stringify({ operation, status })}\n`);
}

/** GET a public calculator, recording the status it answered with. */
export async function getTool(request: APIRequestContext, pathAndQuery: string, headers?: Record<string, string>) {
  const response = await request.get(pathAndQuery, { headers });
  recordStatus("GET", pathAndQuery, response.status());
  return response;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  key?: string;
  /** A JSON value to send, or a raw string body (sent as-is). */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** A REST client for the tests that records every (operation, status) it sees. */
export class Api {
  constructor(private readonly request: APIRequestContext) {}

  async call(method: "GET" | "POST" | "DELETE" | "PUT", urlPath: string, opts: CallOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...(opts.key ? { Authorization: `Bearer ${opts.key}` } : {}) };
    let data: string | undefined;
    if (opts.raw !== undefined) data = opts.raw;
    else if (opts.body !== undefined) {
      data = JSON.stringify(opts.body);
      headers["Content-Type"] = "application/json";
    }
    const response = await this.request.fetch(urlPath, {
      method,
      headers: { ...headers, ...opts.headers },
      data,
      failOnStatusCode: false,
    });
    const text = await response.text();
    const result = { status: response.status(), headers: response.headers(), body: text ? safeJson(text) : null };
    recordStatus(method, urlPath, result.status);
    return result;
  }

  postEvent(campaignId: string, body: unknown, key?: string) {
    return this.call("POST", `/api/v1/campaigns/${campaignId}/events`, { key, body });
  }
  getEvent(campaignId: string, eventId: string, key?: string) {
    return this.call("GET", `/api/v1/campaigns/${campaignId}/events/${eventId}`, { key });
  }
  postConversion(body: unknown, key?: string) {
    return this.call("POST", "/api/v1/conversions", { key, body });
  }
}

function safeJson(text: string) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Claims an unused key of a kind from the pool the server was seeded with: an atomic file create
 * per key, so parallel workers never share one (and never share a rate-limit window).
 */
export function takeKey(workspace: "acme" | "globex", kind: KeyKind): string {
  const pool = demo().testKeys[workspace][kind];
  const claims = path.join(artifactsDir, "key-claims");
  fs.mkdirSync(claims, { recursive: true });
  for (let i = 0; i < pool.length; i++) {
    try {
      fs.writeFileSync(path.join(claims, `${workspace}-${kind}-${i}`), "", { flag: "wx" });
      return pool[i];
    } catch {
      /* taken */
    }
  }
  throw new Error(`the e2e key pool ${workspace}/${kind} is used up; raise its size in e2e/support/test-keys.ts`);
}

export function revokedKey(workspace: "acme" | "globex"): string {
  return demo().testKeys[workspace].revoked;
}

export const test = base.extend<{ api: Api }>({
  api: async ({ request }, use) => {
    await use(new Api(request));
  },
});

/** The members of a problem document other than `instance`. */
export function withoutInstance(problem: Record<string, unknown>) {
  const { instance: _instance, ...rest } = problem;
  return rest;
}

export const RATE_HEADERS = [
  "ratelimit-policy",
  "ratelimit",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
];

export function expectProblem(res: ApiResponse, status: number, slug: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers["content-type"]).toBe("application/problem+json");
  expect(res.body).toMatchObject({
    type: `${new URL(res.body.type).origin}/problems/${slug}`,
    status,
    title: expect.any(String),
    detail: expect.any(String),
    instance: expect.any(String),
  });
  for (const h of RATE_HEADERS) expect(res.headers[h], `header ${h}`).toBeDefined();
}
