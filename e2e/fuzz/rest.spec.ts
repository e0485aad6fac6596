import { test } from "@playwright/test";
import fc from "fast-check";
import { demo } from "../support/demo";
import {
  contentType,
  hostileBody,
  hostileObject,
  hostileQuery,
  hostileString,
  METHODS,
  oddHeaders,
  pathSegment,
  validHeaders,
} from "./arbitraries";
import {
  asClient,
  check,
  tagKeys,
  expectHealthy,
  expectNoInternalText,
  expectNoServerError,
  expectOnlyAcceptedWrites,
  expectProblem,
  fuzzWorkspace,
  type Sent,
  send,
  snapshot,
  Writes,
} from "./harness";

/**
 * Every published REST operation and calculator (read from /openapi.json, so a new one is fuzzed
 * as soon as it is published) with hostile paths, methods, media types, headers, bodies and query
 * strings. Every answer is under 500 and, unless a success, an RFC 9457 problem document; refused
 * requests write nothing; the server is healthy afterwards.
 */

interface Operation {
  method: string;
  path: string;
  operationId: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
}

async function publishedOperations(): Promise<Operation[]> {
  const doc = (await send({ method: "GET", path: "/openapi.json" })).json as {
    paths: Record<
      string,
      Record<
        string,
        {
          operationId: string;
          parameters?: { name: string; in: string }[];
          requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
        }
      >
    >;
  };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path: `/api${path}`,
      operationId: op.operationId,
      pathParams: (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name),
      queryParams: (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
      bodyFields: Object.keys(op.requestBody?.content["application/json"]?.schema.properties ?? {}),
    })),
  );
}

test.describe.configure({ mode: "serial", timeout: 300_000 });

test("hostile requests to every /api/v1 operation: never a 5xx, always a problem document, nothing written on refusal", async () => {
  const fz = fuzzWorkspace();
  const other = demo().testKeys.globex.full[demo().testKeys.globex.full.length - 1];
  const operations = (await publishedOperations()).filter((op) => op.path.startsWith("/api/v1/"));
  const realIds = {
    campaignId: [fz.liveCampaignId, fz.draftCampaignId],
    eventId: ["evt_00000000000000000000000000000000"],
    contactId: fz.contactIds,
    sid: [fz.sid],
  };
  const plausible: Record<string, fc.Arbitrary<unknown>> = {
    contactId: fc.constantFrom(...fz.contactIds),
    idempotencyKey: fc.string({ minLength: 1, maxLength: 30 }),
    occurredAt: fc.constantFrom("2026-01-01T10:00:00Z", "2026-11-01T09:30:00-05:00"),
    sid: fc.constant(fz.sid),
    kind: fc.constantFrom("reply", "purchase", "closed_won", "demo"),
    amountCents: fc.integer({ min: -5, max: 10_000 }),
    at: fc.constantFrom("2026-01-01T10:00:00Z", "2026-10-01T00:00:00+02:00"),
    externalId: fc.string({ minLength: 1, maxLength: 20 }),
  };
  const keys = fz.apiKeys;
  const credential = fc.oneof(
    { weight: 8, arbitrary: fc.nat({ max: keys.length - 1 }).map((i) => `Bearer ${keys[i]}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        `Bearer ${other}`,
        "Bearer dmk_notakey",
        "Basic Zm9vOmJhcg==",
        `Bearer ${keys[0]} extra`,
        "",
      ),
    },
    { weight: 1, arbitrary: hostileString().filter((s) => /^[\x20-\x7e]*$/.test(s)) },
  );
  const request = fc.constantFrom(...operations).chain((op) =>
    fc
      .record({
        op: fc.constant(op),
        method: fc.oneof(
          { weight: 8, arbitrary: fc.constant(op.method) },
          { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
        ),
        segments: fc.tuple(...op.pathParams.map((p) => pathSegment(realIds[p as keyof typeof realIds] ?? []))),
        query: fc.option(hostileQuery(op.bodyFields), { nil: undefined, freq: 5 }),
        body: hostileBody(
          hostileObject(Object.fromEntries(op.bodyFields.map((f) => [f, plausible[f] ?? hostileString()])), [
            fz.sid,
            ...fz.contactIds,
          ]).map(tagKeys),
        ),
        type: contentType,
        auth: credential,
        extra: oddHeaders,
        client: fc.nat(),
      })
      .map((r): Sent => {
        let i = 0;
        const path = op.path.replace(/\{\w+\}/g, () => r.segments[i++]) + (r.query ? `?${r.query}` : "");
        const hasBody = !["GET", "HEAD"].includes(r.method);
        return {
          method: r.method,
          path,
          headers: asClient(
            validHeaders({
              ...r.extra,
              Authorization: r.auth || undefined,
              "Content-Type": hasBody ? r.type : undefined,
            }),
            r.client,
          ),
          body: hasBody ? r.body : undefined,
        };
      }),
  );

  const before = await snapshot();
  const writes = new Writes();
  await check("rest operations", request, 500, async (req) => {
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
    if (req.method === "HEAD" || reply.status === 304) return;
    if (reply.status >= 400) {
      // Methods Node itself cannot parse are answered by Node (400, no document).
      expectProblem(reply, req);
    } else if (reply.status === 202) {
      const body = reply.json as { eventId?: string; outcomeId?: string };
      if (body.eventId && req.path.includes(fz.liveCampaignId)) writes.eventIds.add(body.eventId);
      if (!body.eventId && !body.outcomeId) throw new Error(`202 without an id for ${req.method} ${req.path}`);
    }
  });
  // A replayed idempotency key answers with the first event's id: the set holds each new row once.
  const after = await snapshot();
  expectOnlyAcceptedWrites(before, after, writes);
  await expectHealthy();
});

test("hostile requests to every calculator: never a 5xx, always a problem document or the answer", async () => {
  const tools = (await publishedOperations()).filter((op) => op.path.startsWith("/api/tools/"));
  const request = fc
    .record({
      op: fc.constantFrom(...tools),
      method: fc.oneof(
        { weight: 10, arbitrary: fc.constant("GET") },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      query: hostileQuery([
        "baselineRate",
        "relativeLift",
        "alpha",
        "power",
        "holdoutShare",
        "audienceSize",
        "costPerPieceCents",
        "dealValueCents",
        "winRate",
        "grossMargin",
        "responseRate",
        "weeklyVolume",
        "attributionWindowDays",
      ]),
      extra: oddHeaders,
      address: fc.nat({ max: 0xffff }),
    })
    .map(
      (r): Sent => ({
        method: r.method,
        path: `${r.op.path}?${r.query}`,
        // Each case from its own address (the run is the trusted proxy): the per-address limit is not what is tested here.
        headers: asClient(validHeaders(r.extra), r.address),
      }),
    );
  await check("calculators", request, 250, async (req) => {
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
    if (req.method === "HEAD" || req.method === "OPTIONS") return;
    if (reply.status >= 400) {
      expectProblem(reply, req);
    } else if (reply.status === 200 && typeof reply.json !== "object") {
      throw new Error(`200 without JSON for ${req.path}`);
    }
  });
  await expectHealthy();
});
