import http from "node:http";
import net from "node:net";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { fromAddress, uniqueAddress } from "../support/addresses";
import { demo } from "../support/demo";
import { E2E_BASE_URL } from "../support/env";

/**
 * Regression tests for the hardening findings, over HTTP against the production
 * server: each once answered 500, hung, redirected anywhere or could be bypassed. The hostile-input
 * fuzz suite (e2e/fuzz) keeps looking for new ones.
 */

/** A workspace of this file's own (e2e/support/fuzz-workspace.ts): nothing else writes to it. */
const fuzz = () => demo().hardening;
const key = (i: number) => fuzz().apiKeys[i];

function expectProblemDocument(
  res: { status: number; headers: Record<string, string>; body: unknown },
  status: number,
) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers["content-type"]).toBe("application/problem+json");
  expect(res.body).toMatchObject({
    type: expect.stringMatching(/\/problems\/[a-z-]+$/),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance: expect.any(String),
  });
}

async function call(
  request: APIRequestContext,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; data?: string | Buffer } = {},
) {
  const res = await request.fetch(path, {
    method,
    headers: opts.headers,
    data: opts.data,
    failOnStatusCode: false,
    maxRedirects: 0,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status(), headers: res.headers(), body, text };
}

/** What MCP answers for one JSON-RPC request body (a string, sent as it is). */
async function mcp(request: APIRequestContext, token: string, body: string) {
  return call(request, "POST", "/api/mcp", {
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    data: body,
  });
}

/** Entry events of the fuzz workspace's live campaign, as its read-only agent sees them. */
async function eventCount(request: APIRequestContext) {
  const res = await mcp(
    request,
    fuzz().agents.readOnly,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "campaigns_get", arguments: { campaignId: fuzz().liveCampaignId } },
    }),
  );
  const counts = (res.body as { result: { structuredContent: { result: { eventsByStatus: Record<string, number> } } } })
    .result.structuredContent.result.eventsByStatus;
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

test.describe("inputs that answered 500 are 4xx", () => {
  test("query parameters named like Object's members are named in a 400 by calculators and refused by REST", async ({
    request,
  }) => {
    const from = fromAddress(uniqueAddress());
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      const res = await call(request, "GET", `/api/tools/holdout-size?baselineRate=0.07&relativeLift=0.2&${name}=1`, {
        headers: from,
      });
      expectProblemDocument(res, 400);
      expect((res.body as { errors: { parameter: string }[] }).errors).toContainEqual(
        expect.objectContaining({ parameter: name }),
      );
      const rest = await call(request, "GET", `/api/v1/campaigns/${fuzz().liveCampaignId}/events/evt_x?${name}=1`, {
        headers: { Authorization: `Bearer ${key(0)}` },
      });
      expect(rest.status, name).toBeGreaterThanOrEqual(400);
      expect(rest.status, name).toBeLessThan(500);
      expect(rest.headers["content-type"]).toBe("application/problem+json");
    }
  });

  test("media types are case-insensitive: APPLICATION/JSON is JSON", async ({ request }) => {
    const res = await call(request, "POST", `/api/v1/campaigns/${fuzz().liveCampaignId}/events`, {
      headers: { Authorization: `Bearer ${key(1)}`, "Content-Type": "APPLICATION/JSON; Charset=UTF-8" },
      data: JSON.stringify({ contactId: fuzz().contactIds[0], idempotencyKey: `case-${Date.now()}` }),
    });
    expect(res.status, res.text).toBe(202);
  });

  test("time-stamps of year 0000 or 0001 with large offsets are a 422 naming the field, and nothing is written", async ({
    request,
  }) => {
    const before = await eventCount(request);
    for (const at of ["0000-01-01T00:00:00Z", "0001-01-01T00:00:00+14:00", "1969-12-31T23:59:59Z"]) {
      const entry = await call(request, "POST", `/api/v1/campaigns/${fuzz().liveCampaignId}/events`, {
        headers: { Authorization: `Bearer ${key(1)}`, "Content-Type": "application/json" },
        data: JSON.stringify({ contactId: fuzz().contactIds[0], idempotencyKey: `y0-${at}`, occurredAt: at }),
      });
      expectProblemDocument(entry, 422);
      expect((entry.body as { errors: { pointer: string; detail: string }[] }).errors).toEqual([
        { pointer: "/occurredAt", detail: "occurredAt must not be before 1970-01-01T00:00:00Z." },
      ]);
      const conversion = await call(request, "POST", "/api/v1/conversions", {
        headers: { Authorization: `Bearer ${key(2)}`, "Content-Type": "application/json" },
        data: JSON.stringify({ sid: fuzz().sid, kind: "reply", at }),
      });
      expectProblemDocument(conversion, 422);
    }
    expect(await eventCount(request)).toBe(before);
  });

  test("NUL in ids, idempotency keys and external ids is a 4xx problem, and nothing is written", async ({
    request,
  }) => {
    const before = await eventCount(request);
    const post = (body: Record<string, unknown>, campaignId = fuzz().liveCampaignId) =>
      call(request, "POST", `/api/v1/campaigns/${encodeURIComponent(campaignId)}/events`, {
        headers: { Authorization: `Bearer ${key(3)}`, "Content-Type": "application/json" },
        data: JSON.stringify(body),
      });
    expectProblemDocument(await post({ contactId: fuzz().contactIds[0], idempotencyKey: "nul\u0000key" }), 422);
    expectProblemDocument(await post({ contactId: "ctc_\u0000", idempotencyKey: "nul-contact" }), 422);
    expectProblemDocument(
      await post({ contactId: fuzz().contactIds[0], idempotencyKey: "nul-member", "col\u0000our": 1 }),
      422,
    );
    expectProblemDocument(
      await post({ contactId: fuzz().contactIds[0], idempotencyKey: "lone-surrogate-\ud800" }),
      422,
    );
    expectProblemDocument(
      await post({ contactId: fuzz().contactIds[0], idempotencyKey: "nul-path" }, "cmp_\u0000"),
      404,
    );
    const event = await call(request, "GET", `/api/v1/campaigns/${fuzz().liveCampaignId}/events/evt%00x`, {
      headers: { Authorization: `Bearer ${key(3)}` },
    });
    expectProblemDocument(event, 404);
    const conversion = await call(request, "POST", "/api/v1/conversions", {
      headers: { Authorization: `Bearer ${key(2)}`, "Content-Type": "application/json" },
      data: JSON.stringify({ sid: fuzz().sid, kind: "reply", externalId: "crm\u0000" }),
    });
    expectProblemDocument(conversion, 422);
    expect(await eventCount(request)).toBe(before);
  });

  test("NUL in OAuth form fields, client names, the proof route and /r/ is a 4xx with a plain sentence", async ({
    request,
  }) => {
    const from = fromAddress(uniqueAddress());
    const register = await call(request, "POST", "/oauth/register", {
      headers: { ...from, "Content-Type": "application/json" },
      data: JSON.stringify({ client_name: "a\u0000", redirect_uris: ["https://x.example/cb"] }),
    });
    expect(register.status).toBe(400);
    expect(register.body).toMatchObject({ error: "invalid_client_metadata" });
    for (const form of [
      "grant_type=refresh_token&client_id=a%00&refresh_token=x",
      `grant_type=authorization_code&client_id=mcp_x&code=a%00&redirect_uri=x&code_verifier=${"a".repeat(43)}`,
    ]) {
      const token = await call(request, "POST", "/oauth/token", {
        headers: { ...from, "Content-Type": "application/x-www-form-urlencoded" },
        data: form,
      });
      expect(token.status).toBe(400);
      expect(token.body).toMatchObject({ error: "invalid_request" });
    }
    const authorize = await call(request, "GET", "/oauth/authorize?client_id=mcp_%00&response_type=code");
    expect(authorize.status).toBe(200);
    expect(authorize.text).toContain("This link cannot connect an agent");
    expect(authorize.text).not.toMatch(/prisma|invocation|22021/i);
    expect((await call(request, "GET", "/r/ab%00cdefgh")).status).toBe(404);
    expect((await call(request, "GET", `/api/pieces/${fuzz().pieceId}%00/proof?workspaceId=${fuzz().id}`)).status).toBe(
      401,
    );
    const signUp = await call(request, "POST", "/api/trpc/auth.signUp", {
      headers: { ...from, "Content-Type": "application/json" },
      data: JSON.stringify({
        json: {
          name: "Ada\u0000",
          email: "ada-nul@example.test",
          password: "a long passphrase",
          workspaceName: "Nul Labs",
        },
      }),
    });
    expect(signUp.status).toBe(422);
    expect(signUp.body).toMatchObject({ error: { json: { data: { fieldErrors: [{ pointer: "/name" }] } } } });
  });

  test("input a form's schema refuses is answered with its sentences, the fields beside them, and nothing written", async ({
    request,
  }) => {
    const from = { "X-Forwarded-For": "203.0.113.77" };
    const email = `too-long-${Date.now()}@example.test`;
    const signUp = await call(request, "POST", "/api/trpc/auth.signUp", {
      headers: { ...from, "Content-Type": "application/json" },
      data: JSON.stringify({ json: { name: "x".repeat(5000), email, password: "short", workspaceName: "Long Names" } }),
    });
    expect(signUp.status).toBe(400);
    // The sentence a form shows, not the schema's issues as JSON.
    const error = (signUp.body as { error: { json: { message: string; data: { fieldErrors: unknown } } } }).error.json;
    expect(error.message).toBe("A name has at most 120 characters. A password has at least 8 characters.");
    expect(error.data.fieldErrors).toEqual([
      { pointer: "/name", detail: "A name has at most 120 characters." },
      { pointer: "/password", detail: "A password has at least 8 characters." },
    ]);
    const again = await call(request, "POST", "/api/trpc/auth.signUp", {
      headers: { ...from, "Content-Type": "application/json" },
      data: JSON.stringify({
        json: { name: "Ada", email, password: "a long passphrase", workspaceName: "Long Names" },
      }),
    });
    // Nothing was written: the address is still free.
    expect(again.status).toBe(200);
  });

  test("TRACE, PROPFIND and other methods no route takes are 405 with Allow, on every kind of route", async ({
    request,
  }) => {
    for (const [method, path, allow] of [
      ["TRACE", "/api/v1/conversions", "POST"],
      ["TRACE", "/api/tools/holdout-size", "GET, OPTIONS"],
      ["TRACE", "/api/mcp", "POST"],
      ["TRACE", "/api/health", "GET, HEAD"],
      ["TRACE", "/oauth/token", "POST, OPTIONS"],
      ["TRACE", "/", "GET, HEAD"],
      ["PROPFIND", "/sign-in", "GET, HEAD"],
      ["MKCOL", "/api/trpc/auth.signUp", "GET, POST"],
    ]) {
      const res = await call(request, method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
    }
    // A standard method a route does not export: Next's 405, now with Allow.
    const put = await call(request, "PUT", "/api/health");
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBeTruthy();
  });

  test("an X-Forwarded-For or an email of several kilobytes is not a 500, and sign-in never shows database text", async ({
    request,
  }) => {
    const huge = Array.from({ length: 300 }, (_, i) => `10.${i % 250}.0.${i % 250}, garbage-${"x".repeat(20)}`).join(
      ", ",
    );
    expect(
      (
        await call(request, "GET", "/api/tools/holdout-size?baselineRate=0.07&relativeLift=0.2", {
          headers: { "X-Forwarded-For": huge },
        })
      ).status,
    ).toBe(200);
    expect((await call(request, "POST", "/api/v1/conversions", { headers: { "X-Forwarded-For": huge } })).status).toBe(
      401,
    );
    const csrf = await call(request, "GET", "/api/auth/csrf");
    const email = `${Array.from({ length: 600 }, () => Math.random().toString(36).slice(2)).join("")}@example.test`;
    const signIn = await call(request, "POST", "/api/auth/callback/credentials", {
      headers: { ...fromAddress(uniqueAddress()), "Content-Type": "application/x-www-form-urlencoded" },
      data: new URLSearchParams({
        csrfToken: (csrf.body as { csrfToken: string }).csrfToken,
        email,
        password: "whatever",
        json: "true",
      }).toString(),
    });
    expect(signIn.status).toBeLessThan(500);
    const where = String((signIn.body as { url?: string }).url ?? signIn.headers.location ?? "");
    expect(decodeURIComponent(where)).toContain("The email or the password is not right.");
    expect(decodeURIComponent(where)).not.toMatch(/prisma|index row|btree|invocation/i);
  });
});

test.describe("per-address limits count the address the proxy saw", () => {
  test("a client behind the trusted proxy cannot pick its address: what it writes into X-Forwarded-For, or the internal header, changes nothing", async ({
    request,
  }) => {
    const seconds = new Date().getUTCSeconds();
    if (seconds > 40) await new Promise((r) => setTimeout(r, (61 - seconds) * 1000));
    const real = uniqueAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await call(request, "POST", "/oauth/token", {
        headers: {
          "X-Forwarded-For": `203.0.113.${i}, ${real}`,
          "x-dm-client-address": `198.51.100.${i}`,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        data: "grant_type=bogus",
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 60).every((s) => s === 400)).toBe(true);
    expect(statuses[60]).toBe(429);
    // Another client is not affected.
    expect(
      (
        await call(request, "POST", "/oauth/token", {
          headers: { ...fromAddress(uniqueAddress()), "Content-Type": "application/x-www-form-urlencoded" },
          data: "grant_type=bogus",
        })
      ).status,
    ).toBe(400);
  });
});

test.describe("OAuth errors redirect only to clients the person approved", () => {
  test("a client approved only by someone else shows the error on the page instead of redirecting a visitor", async ({
    request,
  }) => {
    const params = new URLSearchParams({
      client_id: fuzz().agentClientId,
      redirect_uri: "http://127.0.0.1:47914/oauth/callback",
      response_type: "bogus",
      state: "s",
    });
    const res = await call(request, "GET", `/oauth/authorize?${params}`);
    expect(res.status).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain("This link cannot connect an agent");
    expect(res.text).toContain("unsupported_response_type");
  });
});

test.describe("the MCP endpoint's body", () => {
  /** A chunked POST (no Content-Length) of `size` bytes, sent as fast as the server reads it; resolves with the status and how long it took. */
  function chunkedPost(token: string, size: number): Promise<{ status: number; ms: number }> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const url = new URL("/api/mcp", E2E_BASE_URL);
      const req = http.request(
        {
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            Authorization: `Bearer ${token}`,
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
            "Transfer-Encoding": "chunked",
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: Date.now() - started }));
        },
      );
      req.on("error", reject);
      req.setTimeout(20_000, () => req.destroy(new Error("no answer within 20 s")));
      const chunk = Buffer.alloc(64 * 1024, "a");
      let sent = 0;
      const pump = () => {
        while (sent < size) {
          sent += chunk.length;
          if (!req.write(chunk)) return req.once("drain", pump);
        }
        req.end();
      };
      req.write('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"');
      pump();
    });
  }

  test("an oversized chunked body gets 413 at once, as one with Content-Length does", async ({ request }) => {
    const chunked = await chunkedPost(fuzz().agents.full, 4 * 1024 * 1024);
    expect(chunked.status).toBe(413);
    expect(chunked.ms).toBeLessThan(10_000);
    const sized = await mcp(
      request,
      fuzz().agents.full,
      `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"${"a".repeat(300 * 1024)}"}}`,
    );
    expect(sized.status).toBe(413);
    // The endpoint still answers.
    expect(
      (await mcp(request, fuzz().agents.full, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }))).status,
    ).toBe(200);
  });

  test("a body that starts with a byte-order mark is still checked for the scopes of the tools it calls", async ({
    request,
  }) => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "campaigns_create_draft", arguments: { name: "BOM", format: "postcard" } },
        }),
      ),
    ]);
    const res = await call(request, "POST", "/api/mcp", {
      headers: {
        Authorization: `Bearer ${fuzz().agents.readOnly}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      data: body,
    });
    expect(res.status).toBe(403);
    expect(res.headers["www-authenticate"]).toContain('error="insufficient_scope"');
  });

  test("initialize with capabilities no database can store is answered, not a 500 (found by the fuzz suite)", async ({
    request,
  }) => {
    const res = await mcp(
      request,
      fuzz().agents.full,
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"x","version":"1"},"capabilities":{"\\u0000":0}}}',
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ jsonrpc: "2.0", id: 0, result: { serverInfo: expect.any(Object) } });
  });

  test("tool errors carry a code and never the database's text", async ({ request }) => {
    const res = await mcp(
      request,
      fuzz().agents.full,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "campaigns_get", arguments: { campaignId: "cmp_\u0000" } },
      }),
    );
    expect(res.status).toBe(200);
    const result = (res.body as { result: { isError: boolean; _meta: Record<string, unknown> } }).result;
    expect(result.isError).toBe(true);
    expect(result._meta["io.direct-mail-programme/error"]).toMatchObject({ code: "invalid_argument" });
    expect(res.text).not.toMatch(/prisma|invocation|22021/i);
  });
});

test.describe("sign-up and sign-in limits", () => {
  test("the 11th sign-up from one address in an hour is refused with 429; nothing is created", async ({ request }) => {
    const from = fromAddress(uniqueAddress());
    const tag = Date.now().toString(36);
    const signUp = (i: number) =>
      call(request, "POST", "/api/trpc/auth.signUp", {
        headers: { ...from, "Content-Type": "application/json" },
        data: JSON.stringify({
          json: {
            name: "Flood",
            email: `flood-${tag}-${i}@example.test`,
            password: "a long passphrase",
            workspaceName: `Flood ${i}`,
          },
        }),
      });
    for (let i = 0; i < 10; i++) expect((await signUp(i)).status).toBe(200);
    const refused = await signUp(10);
    expect(refused.status).toBe(429);
    expect(refused.text).toContain("Too many accounts were created from your network");
  });

  test("a stranger's wrong passwords do not lock the owner out of their own address", async ({ request }) => {
    const { email, password } = fuzz().owner;
    const signIn = async (address: string, pass: string) => {
      const csrf = await call(request, "GET", "/api/auth/csrf");
      const res = await call(request, "POST", "/api/auth/callback/credentials", {
        headers: { ...fromAddress(address), "Content-Type": "application/x-www-form-urlencoded" },
        data: new URLSearchParams({
          csrfToken: (csrf.body as { csrfToken: string }).csrfToken,
          email,
          password: pass,
          json: "true",
        }).toString(),
      });
      return decodeURIComponent(String((res.body as { url?: string }).url ?? ""));
    };
    const stranger = uniqueAddress();
    for (let i = 0; i < 6; i++) await signIn(stranger, `wrong ${i}`);
    expect(await signIn(stranger, password)).toContain("Too many sign-in attempts for this email from your network");
    const owner = await signIn(uniqueAddress(), password);
    expect(owner).not.toContain("error=");
  });
});

// ---- The third outside test's findings over HTTP ----

/** Signs the hardening workspace's owner in on this request context (its cookies then carry the session). */
async function signInOwner(request: APIRequestContext) {
  const from = fromAddress(uniqueAddress());
  const csrf = await call(request, "GET", "/api/auth/csrf", { headers: from });
  const res = await call(request, "POST", "/api/auth/callback/credentials", {
    headers: { ...from, "Content-Type": "application/x-www-form-urlencoded" },
    data: new URLSearchParams({
      csrfToken: (csrf.body as { csrfToken: string }).csrfToken,
      email: fuzz().owner.email,
      password: fuzz().owner.password,
      json: "true",
    }).toString(),
  });
  expect(res.status, res.text).toBeLessThan(400);
  return from;
}

/** A tRPC mutation as the owner's browser sends it (superjson envelope). */
function trpcMutation(request: APIRequestContext, procedure: string, input: unknown) {
  return call(request, "POST", `/api/trpc/${procedure}`, {
    headers: { "Content-Type": "application/json" },
    data: JSON.stringify({ json: input }),
  });
}

/** The status line of a raw HTTP/1.1 request, written to the socket exactly as given; the socket stays open for the answer (see e2e/fuzz/uploads-targets-duplicates.spec.ts). */
function rawStatus(requestLine: string): Promise<{ status: number; text: string }> {
  const url = new URL(E2E_BASE_URL);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () =>
      socket.write(`${requestLine}\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`),
    );
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.setTimeout(20_000, () => socket.destroy(new Error(`no answer to ${requestLine}`)));
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
  });
}

test.describe("raw request targets, page ids, redirects, duplicates, logos", () => {
  test("GET * and OPTIONS * (the asterisk form) are a 400 problem, not a 500", async () => {
    for (const line of [
      "GET * HTTP/1.1",
      "OPTIONS * HTTP/1.1",
      "HEAD * HTTP/1.1",
      "POST * HTTP/1.1",
      "GET *x HTTP/1.1",
      "GET api/health HTTP/1.1",
    ]) {
      const res = await rawStatus(line);
      expect(res.status, line).toBe(400);
      if (!line.startsWith("HEAD")) expect(res.text, line).toContain('"title":"The request could not be read"');
    }
    // The absolute form still reaches the service (Next answers it with a redirect to the path).
    expect([200, 308]).toContain((await rawStatus(`GET ${E2E_BASE_URL}/api/health HTTP/1.1`)).status);
  });

  test("sign-in follows only same-site paths: backslashes, //, encoded forms, schemes and control characters go to the workspaces", async ({
    request,
  }) => {
    const from = await signInOwner(request);
    for (const callbackUrl of [
      "/%5Cevil.example/phish",
      "/\\evil.example/phish",
      "//evil.example",
      "/%2F%2Fevil.example",
      "/%2Fevil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "/%09/evil.example",
      "/\t/evil.example",
      "%2F%2Fevil.example",
    ]) {
      const res = await call(
        request,
        "GET",
        `/sign-in?callbackUrl=${callbackUrl.startsWith("/%") || callbackUrl.startsWith("%") ? callbackUrl : encodeURIComponent(callbackUrl)}`,
        { headers: from },
      );
      expect(res.status, callbackUrl).toBe(307);
      expect(res.headers.location, callbackUrl).toMatch(/^(http:\/\/[^/]+)?\/w$/);
    }
    const fine = await call(
      request,
      "GET",
      `/sign-in?callbackUrl=${encodeURIComponent(`/w/${fuzz().id}/campaigns?status=live`)}`,
      { headers: from },
    );
    expect(fine.headers.location).toMatch(new RegExp(`/w/${fuzz().id}/campaigns\\?status=live$`));
    // next-auth's own redirect after signing in (the form posts callbackUrl along).
    const csrf = await call(request, "GET", "/api/auth/csrf", { headers: from });
    const signIn = await call(request, "POST", "/api/auth/callback/credentials", {
      headers: { ...from, "Content-Type": "application/x-www-form-urlencoded" },
      data: new URLSearchParams({
        csrfToken: (csrf.body as { csrfToken: string }).csrfToken,
        email: fuzz().owner.email,
        password: fuzz().owner.password,
        callbackUrl: "/\\evil.example/phish",
        json: "true",
      }).toString(),
    });
    const url = new URL(String((signIn.body as { url?: string }).url ?? signIn.headers.location), E2E_BASE_URL);
    expect([url.origin, url.pathname]).toEqual([new URL(E2E_BASE_URL).origin, "/w"]);
  });

  test("owner pages with a malformed or over-long id are a 404, not a 500", async ({ request }) => {
    await signInOwner(request);
    const ws = fuzz().id;
    const long = "x".repeat(65);
    const paths = [
      ...["contacts", "audiences", "accounts", "imports", "campaigns", "designs", "audits"].flatMap((section) => [
        `/w/${ws}/${section}/a.b`,
        `/w/${ws}/${section}/${long}`,
        `/w/${ws}/${section}/%C3%A9t%C3%A9`,
      ]),
      `/w/${ws}/campaigns/${long}/edit`,
      `/w/${ws}/campaigns/a.b/results`,
    ];
    for (const path of paths) {
      const res = await call(request, "GET", path);
      expect(res.status, path).toBe(404);
    }
  });

  test("eight audience.create of one name at once: one is created, the seven others get the sequential duplicate's 409", async ({
    request,
  }) => {
    await signInOwner(request);
    const name = `Parallel ${Date.now().toString(36)}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => trpcMutation(request, "audience.create", { workspaceId: fuzz().id, name })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const created = (results.find((r) => r.status === 200)!.body as { result: { data: { json: { id: string } } } })
      .result.data.json.id;
    for (const r of results.filter((x) => x.status === 409)) {
      expect((r.body as { error: { json: { message: string } } }).error.json.message).toBe(
        `There is already an audience named “${name}” (${created}); choose another name or add contacts to that one.`,
      );
    }
    expect(
      (await trpcMutation(request, "audience.delete", { workspaceId: fuzz().id, audienceId: created })).status,
    ).toBe(200);
  });

  test("an SVG logo naming a file on the server's disk is stored and shown without it", async ({ request }) => {
    await signInOwner(request);
    const ws = fuzz().id;
    const svg = (extra: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80"><rect width="200" height="80" fill="#1c3d5a"/>${extra}</svg>`;
    const logo = async (extra: string) => {
      const update = await trpcMutation(request, "brand.update", {
        workspaceId: ws,
        logo: `data:image/svg+xml;base64,${Buffer.from(svg(extra)).toString("base64")}`,
      });
      expect(update.status, update.text).toBe(200);
      const res = await request.get(`/api/brand/logo?workspaceId=${ws}`);
      expect(res.status()).toBe(200);
      expect(res.headers()["content-type"]).toBe("image/png");
      return res.body();
    };
    const plain = await logo("");
    // The reproduction, then an absolute path: each would have painted the favicon over the rectangle.
    expect((await logo(`<image href="public/favicon.svg" width="200" height="80"/>`)).equals(plain)).toBe(true);
    expect(
      (
        await logo(
          `<image href="/etc/hostname" width="200" height="80"/><image href="file:///proc/self/environ" width="200" height="80"/>`,
        )
      ).equals(plain),
    ).toBe(true);
    // A PNG declaring 8000 × 8000 pixels is refused from its header, with a sentence.
    const bomb = Buffer.from("89504e470d0a1a0a0000000d4948445200001f4000001f400806000000", "hex");
    const refused = await trpcMutation(request, "brand.update", {
      workspaceId: ws,
      logo: `data:image/png;base64,${Buffer.concat([bomb, Buffer.alloc(64)]).toString("base64")}`,
    });
    expect(refused.status).toBe(422);
    expect((refused.body as { error: { json: { message: string } } }).error.json.message).toContain(
      "The logo is 8000 × 8000 pixels (64 megapixels); at most 25 megapixels.",
    );
  });
});
