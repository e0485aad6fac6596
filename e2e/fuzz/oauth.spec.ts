import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { E2E_BASE_URL } from "../support/env";
import {
  contentType,
  hostileBody,
  hostileJson,
  hostileObject,
  hostileString,
  METHODS,
  oddHeaders,
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
  fuzzWorkspace,
  type Reply,
  type Sent,
  send,
} from "./harness";

/**
 * The OAuth endpoints (registration, token, revocation, the authorization page and its decision,
 * the metadata documents) with hostile forms, JSON, queries, methods and headers: never a 5xx,
 * always OAuth's own error shape (RFC 6749 section 5.2 / RFC 7591 section 3.2.2), and the
 * authorization page never sends a visitor anywhere but this site.
 */

test.describe.configure({ mode: "serial", timeout: 300_000 });

/** RFC 6749 5.2: a JSON object with a string `error` (and maybe a string `error_description`). */
function expectOAuthError(reply: Reply, req: Sent) {
  const where = `${reply.status} for ${describeRequest(req)}`;
  if (reply.status === 405) {
    expect(reply.headers.allow, where).toBeTruthy();
    return;
  }
  expect(reply.headers["content-type"], where).toContain("application/json");
  expect(reply.json, where).toMatchObject({ error: expect.any(String) });
  const description = (reply.json as { error_description?: unknown }).error_description;
  if (description !== undefined) expect(typeof description, where).toBe("string");
}

const form = (fields: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(fields).map(([k, v]) => [k, typeof v === "string" ? v : (JSON.stringify(v) ?? "")]),
  ).toString();

test("hostile registration, token and revocation requests: never a 5xx, always an OAuth error or a real answer", async () => {
  const fz = fuzzWorkspace();
  const uri = fc.oneof(
    fc.constantFrom(
      "https://agent.example/cb",
      "http://localhost:8080/cb",
      "http://127.0.0.1/cb",
      "com.example.app:/cb",
      "https://a.example/cb#frag",
      "javascript:alert(1)",
    ),
    hostileString(),
  );
  const registration = hostileObject({
    client_name: fc.string({ maxLength: 30 }),
    redirect_uris: fc.array(uri, { maxLength: 12 }),
    grant_types: fc.array(fc.constantFrom("authorization_code", "refresh_token", "client_credentials", "implicit"), {
      maxLength: 3,
    }),
    response_types: fc.array(fc.constantFrom("code", "token"), { maxLength: 2 }),
    token_endpoint_auth_method: fc.constantFrom("none", "client_secret_basic", "private_key_jwt"),
    scope: fc.constantFrom("workspace:read", "campaigns:write entry_events:write", "admin"),
    client_uri: uri,
    logo_uri: uri,
    contacts: fc.array(fc.string(), { maxLength: 3 }),
  });
  const tokenForm = hostileObject({
    grant_type: fc.constantFrom("authorization_code", "refresh_token", "client_credentials", "password"),
    client_id: fc.constantFrom(fz.agentClientId, "mcp_unknown", "https://agent.example/client.json"),
    code: fc.constantFrom("dmc_x", `dmc_${"a".repeat(40)}`),
    redirect_uri: fc.constantFrom("http://127.0.0.1:47914/oauth/callback", "https://evil.example/cb"),
    code_verifier: fc.constantFrom("a".repeat(43), "short", "a".repeat(129)),
    refresh_token: fc.constantFrom("dmr_x", "dma_x"),
    scope: fc.constantFrom("workspace:read", "admin", ""),
    resource: fc.constantFrom(`${E2E_BASE_URL}/api/mcp`, "https://evil.example/api/mcp"),
    token: fc.constantFrom("dma_unknown", "dmr_unknown", ""),
  });
  const request = fc
    .record({
      endpoint: fc.constantFrom("/oauth/register", "/oauth/token", "/oauth/revoke"),
      method: fc.oneof(
        { weight: 10, arbitrary: fc.constant("POST") },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      json: hostileBody(registration),
      fields: tokenForm,
      rawForm: fc.option(
        hostileString().map((s) => (s.isWellFormed() ? s : "x")),
        { nil: undefined, freq: 6 },
      ),
      type: fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            "application/json",
            "application/x-www-form-urlencoded",
            "APPLICATION/X-WWW-FORM-URLENCODED; charset=utf-8",
          ),
        },
        { weight: 1, arbitrary: contentType },
      ),
      extra: oddHeaders,
      client: fc.nat(),
    })
    .map((r): Sent => {
      const body = r.endpoint === "/oauth/register" ? r.json : (r.rawForm ?? form(r.fields));
      const hasBody = !["GET", "HEAD"].includes(r.method);
      return {
        method: r.method,
        path: r.endpoint,
        headers: asClient(validHeaders({ ...r.extra, "Content-Type": hasBody ? r.type : undefined }), r.client),
        body: hasBody ? body : undefined,
      };
    });
  await check("oauth endpoints", request, 300, async (req) => {
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
    if (["HEAD", "OPTIONS"].includes(req.method) || reply.status < 300) return;
    if (isHttpRefusal(reply)) return;
    expectOAuthError(reply, req);
  });
  await expectHealthy();
});

test("hostile authorization requests and consent decisions: never a 5xx, and no visitor is sent off this site", async () => {
  const fz = fuzzWorkspace();
  const params = hostileObject(
    {
      response_type: fc.constantFrom("code", "token", "bogus"),
      client_id: fc.constantFrom(fz.agentClientId, "mcp_unknown", "https://agent.example/client.json"),
      redirect_uri: fc.constantFrom("http://127.0.0.1:47914/oauth/callback", "https://evil.example/cb"),
      scope: fc.constantFrom("workspace:read", "admin"),
      state: fc.string(),
      code_challenge: fc.constantFrom("a".repeat(43), "short"),
      code_challenge_method: fc.constantFrom("S256", "plain"),
      resource: fc.constantFrom(`${E2E_BASE_URL}/api/mcp`, "https://evil.example"),
    },
    ["https://evil.example/cb"],
  );
  const request = fc
    .record({
      decision: fc.boolean(),
      params,
      method: fc.oneof(
        { weight: 10, arbitrary: fc.constant("GET") },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      extra: oddHeaders,
      origin: fc.option(fc.constantFrom(E2E_BASE_URL, "https://evil.example", "null"), { nil: undefined }),
      client: fc.nat(),
    })
    .map((r): Sent => {
      const query = new URLSearchParams(
        Object.entries(r.params).map(([k, v]) => [
          k,
          typeof v === "string" && v.isWellFormed() ? v : (JSON.stringify(v) ?? ""),
        ]),
      ).toString();
      if (!r.decision)
        return {
          method: r.method,
          path: `/oauth/authorize?${query}`,
          headers: asClient(validHeaders(r.extra), r.client),
        };
      return {
        method: "POST",
        path: "/oauth/authorize/decision",
        headers: asClient(
          validHeaders({ ...r.extra, Origin: r.origin, "Content-Type": "application/x-www-form-urlencoded" }),
          r.client,
        ),
        body: `${query}&decision=approve&workspaceId=${encodeURIComponent(fz.id)}&csrf=x`,
      };
    });
  await check("oauth authorization", request, 200, async (req) => {
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
    const location = reply.headers.location;
    // A visitor (no session) is only ever sent to sign in here: never to a client's address.
    if (location)
      expect(new URL(location, E2E_BASE_URL).origin, `${reply.status} to ${location} for ${describeRequest(req)}`).toBe(
        E2E_BASE_URL,
      );
  });
  await expectHealthy();
});

test("the OAuth and MCP metadata documents take GET only, and answer hostile requests with a 4xx", async () => {
  const request = fc
    .record({
      path: fc.constantFrom(
        "/.well-known/oauth-authorization-server",
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/api/mcp",
        "/.well-known/mcp",
        "/.well-known/mcp/server-card",
        "/.well-known/mcp/catalog.json",
        "/api/mcp/server-card",
        "/openapi.json",
        "/llms.txt",
        "/auth.md",
        "/agents/policy.md",
      ),
      method: fc.constantFrom(...METHODS),
      query: fc.option(
        hostileJson().map((v) =>
          `?q=${encodeURIComponent(JSON.stringify(v) ?? "")}`.replace(/%ED%[AB][0-9A-F]%[89AB][0-9A-F]/g, ""),
        ),
        { nil: "" },
      ),
      extra: oddHeaders,
      client: fc.nat(),
    })
    .map(
      (r): Sent => ({
        method: r.method,
        path: `${r.path}${r.query}`,
        headers: asClient(validHeaders(r.extra), r.client),
      }),
    );
  await check("published documents", request, 100, async (req) => {
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
    if (reply.status === 405) expect(reply.headers.allow, describeRequest(req)).toBeTruthy();
  });
  await expectHealthy();
});
