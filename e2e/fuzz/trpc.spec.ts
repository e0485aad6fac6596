import { expect, test } from "@playwright/test";
import fc from "fast-check";
import {
  contentType,
  hostileBody,
  hostileJson,
  hostileObject,
  hostileString,
  METHODS,
  oddHeaders,
  pathSegment,
  validHeaders,
} from "./arbitraries";
import {
  asClient,
  check,
  isHttpRefusal,
  describeRequest,
  expectHealthy,
  expectNoInternalText,
  expectNoServerError,
  expectOnlyAcceptedWrites,
  fuzzWorkspace,
  type Reply,
  type Sent,
  send,
  snapshot,
  Writes,
} from "./harness";
import { TRPC_PROCEDURES } from "./trpc-procedures";

/**
 * The owner UI's tRPC API: its public procedure (sign-up) and every owner procedure, without a
 * session and with the fuzz workspace owner's, with hostile inputs, envelopes, methods and
 * headers. Every answer is under 500 and tRPC's own error shape; refused calls write nothing; a
 * few other routes (proof PDFs, response links, pages) get odd methods and ids.
 */

test.describe.configure({ mode: "serial", timeout: 300_000 });

/** Signs the fuzz workspace's owner in (next-auth credentials) and returns the session cookie. */
async function ownerSession(): Promise<string> {
  const fz = fuzzWorkspace();
  const from = asClient({}, 0xfffe);
  const csrf = await send({ method: "GET", path: "/api/auth/csrf", headers: from });
  const cookies = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]);
  const res = await send({
    method: "POST",
    path: "/api/auth/callback/credentials",
    headers: { ...from, Cookie: cookies.join("; "), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      csrfToken: (csrf.json as { csrfToken: string }).csrfToken,
      email: fz.owner.email,
      password: fz.owner.password,
      json: "true",
    }).toString(),
  });
  const session = (res.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .find((c) => c.includes("session-token"));
  expect(session, res.text).toBeTruthy();
  return session!;
}

/** tRPC's error shape (with the superjson transformer): {error: {json: {message, code, data: {code, httpStatus}}}}. */
function expectTrpcError(reply: Reply, req: Sent) {
  const where = `${reply.status} for ${describeRequest(req)}`;
  if (reply.status === 405 && !reply.headers["content-type"]?.includes("json")) {
    expect(reply.headers.allow, where).toBeTruthy();
    return;
  }
  const errors = Array.isArray(reply.json) ? reply.json : [reply.json];
  for (const e of errors) {
    expect(e, where).toMatchObject({
      error: {
        json: {
          message: expect.any(String),
          code: expect.any(Number),
          data: { code: expect.any(String), httpStatus: expect.any(Number) },
        },
      },
    });
  }
}

test("hostile calls of every tRPC procedure, signed in and not: never a 5xx, always tRPC's error shape, nothing written on refusal", async () => {
  const fz = fuzzWorkspace();
  const cookie = await ownerSession();
  const field: Record<string, fc.Arbitrary<unknown>> = {
    workspaceId: fc.oneof({ weight: 6, arbitrary: fc.constant(fz.id) }, { weight: 1, arbitrary: hostileString() }),
    campaignId: fc.constantFrom(fz.liveCampaignId, fz.draftCampaignId, "cmp_00000000000000000000000000000000"),
    cardId: fc.constant("card_00000000000000000000000000000000"),
    keyId: fc.constant("key_00000000000000000000000000000000"),
    grantId: fc.constant("grt_00000000000000000000000000000000"),
    name: fc.string({ maxLength: 20 }),
    email: fc.constantFrom("a@b.example", "not-an-email", `${"a".repeat(300)}@x.example`),
    password: fc.constantFrom("short", "a long passphrase"),
    workspaceName: fc.string({ maxLength: 20 }),
    scopes: fc.array(fc.constantFrom("post_entry_events", "post_conversions", "admin"), { maxLength: 3 }),
    draft: hostileObject({
      name: fc.string(),
      format: fc.constantFrom("postcard", "letter", "fax"),
      holdoutShare: fc.double({ noNaN: true }),
      headline: hostileString(),
      endsAt: hostileJson(),
    }),
    change: fc.constantFrom("pause", "resume", "end", "explode"),
    budgetCents: fc.integer(),
    cursor: hostileString(),
    take: fc.integer({ min: -5, max: 500 }),
    status: fc.constantFrom("pending", "decided", "accepted", "bogus"),
    decision: fc.constantFrom("accept", "decline", "maybe"),
    rows: fc.array(
      hostileObject({
        account: fc.string(),
        kind: fc.constantFrom("reply", "closed_won"),
        at: fc.constantFrom("2026-01-01", "0000-01-01T00:00:00+14:00", "someday"),
        amountCents: fc.integer(),
        externalId: hostileString(),
      }),
      { maxLength: 4 },
    ),
    source: fc.constantFrom("csv", "crm", "fax"),
    contractId: fc.constant("ful_00000000000000000000000000000000"),
    jobId: fc.constant("job_00000000000000000000000000000000"),
    vendor: fc.constantFrom("sandbox", "nope"),
    format: fc.constantFrom("postcard", "letter", "fax"),
    size: hostileString(),
    countries: fc.array(fc.constantFrom("US", "GB", "XX", "usa"), { maxLength: 3 }),
    kind: hostileString(),
    credentials: fc.oneof(
      hostileObject({ kind: fc.constant("hubspot"), accessToken: hostileString() }),
      hostileObject({
        kind: fc.constant("salesforce"),
        myDomainUrl: fc.constantFrom(
          "https://169.254.169.254/latest",
          "http://127.0.0.1:5432",
          "file:///etc/passwd",
          "https://acme.my.salesforce.com.evil.example",
          "https://localhost",
          "acme.my.salesforce.com",
        ),
        clientId: hostileString(),
        clientSecret: hostileString(),
      }),
      hostileJson(),
    ),
    connectionId: fc.constantFrom("crm_00000000000000000000000000000000", "crm_nope"),
    syncId: fc.constantFrom("cs_00000000000000000000000000000000", "cs_nope"),
    scheduleMinutes: fc.oneof(fc.integer({ min: -10, max: 100_000 }), fc.constant(null)),
    severity: fc.constantFrom("error", "warning", "fatal"),
    // Never a real plan: the fuzz workspace's plan is not what is tested here.
    plan: fc.constantFrom("gold", "", "PAID"),
  };
  const request = fc.constantFrom(...TRPC_PROCEDURES).chain((proc) =>
    fc
      .record({
        input: fc.oneof(
          {
            weight: 8,
            arbitrary: hostileObject(Object.fromEntries(proc.input.map((k) => [k, field[k] ?? hostileJson()]))),
          },
          { weight: 1, arbitrary: hostileJson() },
        ),
        envelope: fc.constantFrom("json", "json", "json", "bare", "meta"),
        method: fc.oneof(
          { weight: 10, arbitrary: fc.constant(proc.type === "query" ? "GET" : "POST") },
          { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
        ),
        signedIn: fc.boolean(),
        raw: fc.option(hostileBody(hostileJson()), { nil: undefined, freq: 8 }),
        type: fc.oneof(
          { weight: 6, arbitrary: fc.constant("application/json") },
          { weight: 1, arbitrary: contentType },
        ),
        path: fc.oneof(
          { weight: 12, arbitrary: fc.constant(proc.path) },
          { weight: 1, arbitrary: pathSegment([`${proc.path},${proc.path}`, "nope.nothing", `${proc.path}.x`]) },
        ),
        batch: fc.boolean(),
        extra: oddHeaders,
        client: fc.nat(),
      })
      .map((r): Sent => {
        const payload =
          r.envelope === "json"
            ? { json: r.input }
            : r.envelope === "meta"
              ? { json: r.input, meta: { values: { "a.b": ["Date"], x: ["bigint"] } } }
              : r.input;
        const encoded = JSON.stringify(r.batch ? { 0: payload } : payload) ?? "null";
        const search = `${r.batch ? "batch=1&" : ""}input=${encodeURIComponent(encoded)}`;
        const hasBody = !["GET", "HEAD"].includes(r.method);
        return {
          method: r.method,
          path: `/api/trpc/${r.path}${hasBody ? (r.batch ? "?batch=1" : "") : `?${search}`}`,
          headers: asClient(
            validHeaders({
              ...r.extra,
              Cookie: r.signedIn ? cookie : undefined,
              "Content-Type": hasBody ? r.type : undefined,
            }),
            r.client,
          ),
          body: hasBody ? (r.raw ?? encoded) : undefined,
        };
      }),
  );

  const before = await snapshot();
  const writes = new Writes();
  const known = new Set(before.campaigns.map((c) => c.id));
  await check("trpc procedures", request, 450, async (req) => {
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
    if (req.method === "HEAD" || req.method === "OPTIONS") return;
    if (isHttpRefusal(reply)) return;
    if (reply.status >= 400) return expectTrpcError(reply, req);
    // What an accepted mutation wrote in the fuzz workspace: only that may show in the snapshot.
    for (const answer of (Array.isArray(reply.json) ? reply.json : [reply.json]) as {
      result?: { data?: { json?: { id?: string; key?: unknown } } };
    }[]) {
      const data = answer?.result?.data?.json as
        | { id?: string; workspaceId?: string; secret?: string; key?: { workspaceId?: string } }
        | undefined;
      if (!data || typeof data !== "object") continue;
      if (data.id?.startsWith("cmp_"))
        (known.has(data.id) ? writes.touchedCampaigns : writes.createdCampaigns).add(data.id);
      // Only the fuzz workspace's id is ever sent that its owner owns: a key made is made there.
      if (data.secret) writes.apiKeysCreated++;
      if (req.path.includes("campaign.") && req.method === "POST")
        for (const id of known) if (String(req.body).includes(id)) writes.touchedCampaigns.add(id);
      if (
        req.path.includes("confirmation.decide") ||
        req.path.includes("apiKey.revoke") ||
        req.path.includes("connectedAgents.revoke")
      )
        writes.other.push(req.path);
    }
  });
  expect(writes.other, "decisions and revocations of real ids are never fuzzed").toEqual([]);
  expectOnlyAcceptedWrites(before, await snapshot(), writes);
  await expectHealthy();
});

test("proof PDFs, files, exports, uploads, response links and pages with odd methods, ids and bodies, signed in and not: never a 5xx", async () => {
  const fz = fuzzWorkspace();
  const cookie = await ownerSession();
  const request = fc
    .record({
      route: fc.constantFrom(
        "proof",
        "link",
        "page",
        "auth",
        "designProof",
        "draftProof",
        "brandImage",
        "contactsExport",
        "imports",
        "importRefused",
        "auditCsv",
        "samplePiece",
      ),
      id: pathSegment([fz.pieceId, fz.responseCode, fz.id, fz.liveCampaignId, "logo", "signature", "front", "back"]),
      query: fc.option(
        fc.constantFrom(
          "workspaceId=",
          `workspaceId=${fz.id}`,
          "workspaceId=%00",
          "via=qr",
          "callbackUrl=https://evil.example",
          "error=%3Cscript%3E",
          `workspaceId=${fz.id}&format=png&page=-1&width=99999`,
          `workspaceId=${fz.id}&search=%00&country=ZZ`,
          `workspaceId=${fz.id}&name=${"x".repeat(500)}.csv`,
        ),
        { nil: undefined },
      ),
      method: fc.constantFrom(...METHODS),
      signedIn: fc.boolean(),
      body: fc.option(hostileBody(hostileJson()), { nil: undefined, freq: 3 }),
      type: fc.option(contentType, { nil: undefined }),
      extra: oddHeaders,
      client: fc.nat(),
    })
    .map((r): Sent => {
      const base = {
        proof: `/api/pieces/${r.id}/proof`,
        link: `/r/${r.id}`,
        page: `/w/${r.id}/campaigns`,
        auth: `/api/auth/${r.id}`,
        designProof: `/api/designs/${r.id}/proof`,
        draftProof: `/api/drafts/${r.id}/proof`,
        brandImage: `/api/brand/${r.id}`,
        contactsExport: "/api/contacts/export",
        imports: "/api/imports",
        importRefused: `/api/imports/${r.id}/refused`,
        auditCsv: `/api/audits/${r.id}/problems.csv`,
        samplePiece: `/sample-piece/${r.id}`,
      }[r.route];
      const hasBody = r.body !== undefined && !["GET", "HEAD"].includes(r.method);
      return {
        method: r.method,
        path: `${base}${r.query ? `?${r.query}` : ""}`,
        headers: asClient(
          validHeaders({
            ...r.extra,
            Cookie: r.signedIn ? cookie : undefined,
            "Content-Type": hasBody ? r.type : undefined,
          }),
          r.client,
        ),
        body: hasBody ? r.body : undefined,
      };
    });
  await check("other routes", request, 250, async (req) => {
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
    if (reply.status === 405) expect(reply.headers.allow, describeRequest(req)).toBeTruthy();
    const location = reply.headers.location;
    // A response link leads only to its campaign's destination; anything else stays on this site.
    if (location && !location.startsWith("/"))
      expect(location, describeRequest(req)).toMatch(
        /^(https:\/\/fuzz\.example\/landing\?sid=|http:\/\/localhost:\d+\/)/,
      );
  });
  await expectHealthy();
});
