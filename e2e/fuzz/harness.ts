import http from "node:http";
import { expect } from "@playwright/test";
import fc from "fast-check";
import { uniqueAddress } from "../support/addresses";
import { demo } from "../support/demo";
import { E2E_BASE_URL } from "../support/env";

/**
 * The hostile-input suite's plumbing: raw HTTP (any method, header and body bytes), seeded and
 * bounded runs, the checks every answer must pass, and a snapshot of the fuzz workspace to show
 * that refused requests wrote nothing.
 *
 * Replay a failure with the seed (and path) it prints: FUZZ_SEED=<seed> FUZZ_PATH=<path>
 * npx playwright test --project fuzz -g "<test title>". FUZZ_RUNS scales every property's number
 * of runs (1 by default; 0.2 for a quick look, 5 for a long hunt).
 */

export const fuzzWorkspace = () => demo().fuzz;

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

export interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

// A connection per request: a server that closes one (413, a parse error) never meets a reused socket.
const agent = new http.Agent({ keepAlive: false });

/** Sends exactly this request (no header or body rewriting) and reads the whole answer. */
export function send(req: Sent): Promise<Reply> {
  return sendRaw(req);
}

function sendRaw(req: Sent): Promise<Reply> {
  const url = new URL(E2E_BASE_URL);
  return new Promise((resolve, reject) => {
    // Node frames a body without a length only for POST, PUT and PATCH (chunked); other methods get a Content-Length.
    const framed =
      req.body !== undefined && !["POST", "PUT", "PATCH"].includes(req.method)
        ? { "Content-Length": String(Buffer.byteLength(req.body)) }
        : {};
    // A redirect may echo a long address back in Location: read answers with headers up to 64 KiB.
    const r = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: { ...req.headers, ...framed },
        agent,
        maxHeaderSize: 64 * 1024,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on("error", reject);
      },
    );
    r.setTimeout(30_000, () => r.destroy(new Error(`no answer within 30 s: ${req.method} ${req.path}`)));
    r.on("error", reject);
    if (req.body !== undefined) r.end(req.body);
    else r.end();
  });
}

/**
 * The headers of a case sent from client address number `n` of the fuzz range: the address is
 * appended to X-Forwarded-For as the trusted proxy (this run) would append it, after whatever
 * hostile value the case put there. Cases never share per-address limits with other tests.
 */
export function asClient(headers: Record<string, string>, n: number): Record<string, string> {
  const address = `2001:db8:f::${(n & 0xffff).toString(16)}`;
  const forwarded = headers["X-Forwarded-For"];
  return { ...headers, "X-Forwarded-For": forwarded ? `${forwarded}, ${address}` : address };
}

/** One-line description of a request, for failure messages. */
export function describeRequest(req: Sent): string {
  const body =
    req.body === undefined
      ? ""
      : ` body=${JSON.stringify(String(req.body).slice(0, 300))}${String(req.body).length > 300 ? "…" : ""}`;
  return `${req.method} ${req.path.slice(0, 300)} headers=${JSON.stringify(req.headers ?? {}).slice(0, 300)}${body}`;
}

/** Seeded, bounded settings for one property: a fixed seed per property (so CI runs are repeatable), unless FUZZ_SEED says otherwise. */
export function runSettings(name: string, numRuns: number): fc.Parameters<unknown> {
  const scale = Number(process.env.FUZZ_RUNS ?? 1);
  const seed = process.env.FUZZ_SEED
    ? Number(process.env.FUZZ_SEED)
    : [...name].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 20261123);
  return {
    seed,
    path: process.env.FUZZ_PATH,
    numRuns: Math.max(1, Math.round(numRuns * scale)),
    // Shrinking re-sends requests: keep a failing run short and still print a small case.
    endOnFailure: false,
    interruptAfterTimeLimit: 240_000,
    markInterruptAsFailure: false,
  };
}

/** Runs an async property and, on failure, says how to replay it. */
export async function check<T>(
  name: string,
  arb: fc.Arbitrary<T>,
  numRuns: number,
  predicate: (value: T) => Promise<void>,
) {
  const settings = runSettings(name, numRuns);
  const details = await fc.check(fc.asyncProperty(arb, predicate), settings);
  if (details.failed) {
    const replay = `FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath}`;
    const error =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(
      `${name} failed after ${details.numRuns} runs (${details.numShrinks} shrinks). Replay: ${replay}\nCounterexample: ${fc.stringify(details.counterexample).slice(0, 2000)}\n${error}`,
    );
  }
  console.log(`[fuzz] ${name}: ${details.numRuns} cases passed (seed ${details.seed})`);
  return details;
}

/**
 * A tag for this run, put before every string idempotency key the suite sends: a second run
 * against the same server then never replays a key of the first, so every accepted event is new.
 */
export const RUN_TAG = `run${Date.now().toString(36)}-`;

/** The body members a write takes, with a string idempotencyKey tagged for this run (an empty one stays empty). */
export function tagKeys<T>(value: T): T {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const key: unknown = (value as { idempotencyKey?: unknown }).idempotencyKey;
  return typeof key === "string" ? { ...value, idempotencyKey: key ? `${RUN_TAG}${key}` : key } : value;
}

/**
 * A refusal at the HTTP level, before any protocol's handler: a method the route does not take
 * (405 with Allow, from the server's front door or Next), or what Node's parser refuses (headers
 * over its limit, a malformed request), which the server answers as problem documents.
 */
export function isHttpRefusal(reply: Reply): boolean {
  if (reply.status === 405 && reply.headers.allow) return true;
  return (
    (reply.status === 431 || reply.status === 400) &&
    reply.headers["content-type"] === "application/problem+json" &&
    (reply.json as { instance?: string })?.instance === "/"
  );
}

/** The answer is the service's, not a crash: under 500. */
export function expectNoServerError(reply: Reply, req: Sent) {
  if (reply.status >= 500 || reply.status === 0)
    throw new Error(`${reply.status} for ${describeRequest(req)}\n${reply.text.slice(0, 500)}`);
}

/** An RFC 9457 problem document whose status is the response's. */
export function expectProblem(reply: Reply, req: Sent) {
  const where = `${reply.status} for ${describeRequest(req)}`;
  expect(reply.headers["content-type"], where).toBe("application/problem+json");
  expect(reply.json, where).toMatchObject({
    type: expect.stringMatching(/\/problems\/[a-z-]+$/),
    title: expect.any(String),
    status: reply.status,
    detail: expect.any(String),
    instance: expect.any(String),
  });
  if (reply.status === 405) expect(reply.headers.allow, where).toBeTruthy();
}

/** No failure shows internal text. */
export function expectNoInternalText(reply: Reply, req: Sent) {
  if (/prisma|invocation|driveradapter|\bat \/|node_modules|sqlstate|violates|syntax error at/i.test(reply.text)) {
    throw new Error(`internal text in the answer to ${describeRequest(req)}: ${reply.text.slice(0, 500)}`);
  }
}

/** Nothing is wrong with the server after a run: health answers, and a plain request works. */
export async function expectHealthy() {
  const health = await send({ method: "GET", path: "/api/health" });
  expect(health.status).toBe(200);
  expect(health.json).toMatchObject({ status: "ok", database: "ok" });
  const tool = await send({
    method: "GET",
    path: "/api/tools/holdout-size?baselineRate=0.07&relativeLift=0.2",
    headers: { "X-Forwarded-For": uniqueAddress() },
  });
  expect(tool.status).toBe(200);
}

/** Calls an MCP tool as the fuzz workspace's read-only agent. */
export async function observe(name: string, args: Record<string, unknown>) {
  const reply = await send({
    method: "POST",
    path: "/api/mcp",
    headers: {
      Authorization: `Bearer ${fuzzWorkspace().agents.readOnly}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const result = (reply.json as { result?: { structuredContent?: { result: unknown }; isError?: boolean } })?.result;
  if (!result?.structuredContent || result.isError)
    throw new Error(`observing ${name} failed: ${reply.text.slice(0, 300)}`);
  return result.structuredContent.result as Record<string, unknown>;
}

type CampaignRow = { id: string; entryEvents: number; piecesMailed: number; [k: string]: unknown };

/** Every item of a paged list tool (take 100, following nextCursor). */
export async function observeAll<T>(name: string, args: Record<string, unknown>, key: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await observe(name, { ...args, take: 100, ...(cursor ? { cursor } : {}) });
    items.push(...(page[key] as T[]));
    cursor = (page.nextCursor as string | null) ?? undefined;
  } while (cursor);
  return items;
}

export interface Snapshot {
  counts: Record<string, unknown>;
  campaigns: CampaignRow[];
  cards: string[];
  events: number;
}

/** What the fuzz workspace holds, as its read-only agent sees it. */
export async function snapshot(): Promise<Snapshot> {
  const summary = await observe("workspace_get_summary", {});
  const campaigns = await observeAll<CampaignRow>("campaigns_list", {}, "campaigns");
  const pending = await observeAll<{ cardId: string }>("confirmations_list", { status: "pending" }, "cards");
  const decided = await observeAll<{ cardId: string }>("confirmations_list", { status: "decided" }, "cards");
  return {
    counts: summary.counts as Record<string, unknown>,
    campaigns,
    cards: [...pending, ...decided].map((c) => c.cardId).sort(),
    events: campaigns.reduce((sum, c) => sum + c.entryEvents, 0),
  };
}

/** What the accepted requests of a run wrote: the only changes a snapshot may show. */
export class Writes {
  createdCampaigns = new Set<string>();
  eventIds = new Set<string>();
  cardIds = new Set<string>();
  touchedCampaigns = new Set<string>();
  apiKeysCreated = 0;
  other: string[] = [];
}

/**
 * The workspace after a run holds what it held before plus exactly what the accepted requests
 * wrote: refused requests wrote nothing. (The lifecycle worker moves accepted events along and
 * mails pieces, so event statuses and mailed pieces are not compared.)
 */
export function expectOnlyAcceptedWrites(before: Snapshot, after: Snapshot, writes: Writes) {
  const campaignCount = (s: Snapshot) => s.campaigns.length;
  expect(campaignCount(after), "campaigns").toBe(campaignCount(before) + writes.createdCampaigns.size);
  expect(after.events - before.events, "entry events").toBe(writes.eventIds.size);
  expect(after.cards.filter((c) => !before.cards.includes(c)).sort(), "confirmation cards").toEqual(
    [...writes.cardIds].sort(),
  );
  const {
    piecesMailed: _a,
    piecesSimulated: _a2,
    campaigns: campaignsBefore,
    activeApiKeys: keysBefore,
    ...countsBefore
  } = before.counts;
  const {
    piecesMailed: _b,
    piecesSimulated: _b2,
    campaigns: _c,
    activeApiKeys: keysAfter,
    ...countsAfter
  } = after.counts;
  expect(countsAfter, "contacts, accounts, audiences").toEqual(countsBefore);
  expect(Number(keysAfter), "API keys").toBe(Number(keysBefore) + writes.apiKeysCreated);
  expect(campaignsBefore, "campaign counts").toBeDefined();
  const strip = ({ entryEvents: _e, piecesMailed: _p, spentCents: _s, reservedCents: _r, ...rest }: CampaignRow) =>
    rest;
  for (const row of before.campaigns) {
    if (writes.touchedCampaigns.has(row.id)) continue;
    expect(strip(after.campaigns.find((c) => c.id === row.id)!), `campaign ${row.id}`).toEqual(strip(row));
  }
}
