import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "../support/env";

const MCP = `${E2E_BASE_URL}/api/mcp`;

test("discovery: 401 with resource_metadata, protected resource and authorization server metadata", async ({
  request,
}) => {
  const res = await request.post("/api/mcp", { data: { jsonrpc: "2.0", id: 1, method: "initialize" } });
  expect(res.status()).toBe(401);
  expect(res.headers()["www-authenticate"]).toBe(
    `Bearer resource_metadata="${E2E_BASE_URL}/.well-known/oauth-protected-resource/api/mcp", scope="workspace:read campaigns:write entry_events:write contacts:write"`,
  );
  for (const path of ["/.well-known/oauth-protected-resource/api/mcp", "/.well-known/oauth-protected-resource"]) {
    const prm = await request.get(path);
    expect(prm.headers()["content-type"]).toContain("application/json");
    expect(await prm.json()).toMatchObject({
      resource: MCP,
      authorization_servers: [E2E_BASE_URL],
      scopes_supported: ["workspace:read", "campaigns:write", "entry_events:write", "contacts:write"],
      bearer_methods_supported: ["header"],
    });
  }
  const as = await (await request.get("/.well-known/oauth-authorization-server")).json();
  expect(as).toMatchObject({
    issuer: E2E_BASE_URL,
    authorization_endpoint: `${E2E_BASE_URL}/oauth/authorize`,
    token_endpoint: `${E2E_BASE_URL}/oauth/token`,
    registration_endpoint: `${E2E_BASE_URL}/oauth/register`,
    revocation_endpoint: `${E2E_BASE_URL}/oauth/revoke`,
    code_challenge_methods_supported: ["S256"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["none"],
    client_id_metadata_document_supported: true,
  });
});

test("the MCP endpoint refuses unknown tokens, other hosts and other origins", async ({ request }) => {
  const body = { jsonrpc: "2.0", id: 1, method: "tools/list" };
  const bad = await request.post("/api/mcp", { headers: { Authorization: "Bearer dma_notarealtoken" }, data: body });
  expect(bad.status()).toBe(401);
  expect(bad.headers()["www-authenticate"]).toContain('error="invalid_token"');
  const apiKey = await request.post("/api/mcp", {
    headers: { Authorization: "Bearer dmk_00000000000000000000000000000000" },
    data: body,
  });
  expect(apiKey.status()).toBe(401);
  expect((await request.post("/api/mcp", { headers: { Host: "evil.example" }, data: body })).status()).toBe(403);
  expect((await request.post("/api/mcp", { headers: { Origin: "https://evil.example" }, data: body })).status()).toBe(
    403,
  );
  const huge = await request.post("/api/mcp", {
    headers: { "Content-Type": "application/json" },
    data: JSON.stringify({ ...body, padding: "x".repeat(300 * 1024) }),
  });
  expect(huge.status()).toBe(413);
});

test("registration over HTTP: 201 for a valid client, 400 invalid_redirect_uri or invalid_client_metadata otherwise; token errors are OAuth JSON", async ({
  request,
}) => {
  const ok = await request.post("/oauth/register", {
    data: { client_name: "curl agent", redirect_uris: ["https://agent.example/cb"] },
  });
  expect(ok.status()).toBe(201);
  expect(ok.headers()["cache-control"]).toBe("no-store");
  const client = await ok.json();
  expect(client).toMatchObject({ client_id: expect.stringMatching(/^mcp_/), token_endpoint_auth_method: "none" });
  const bad = await request.post("/oauth/register", { data: { redirect_uris: ["http://agent.example/cb"] } });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({
    error: "invalid_redirect_uri",
    error_description: expect.stringContaining("localhost"),
  });

  const verifier = randomBytes(32).toString("base64url");
  const token = await request.post("/oauth/token", {
    form: {
      grant_type: "authorization_code",
      code: "dmc_replayed",
      redirect_uri: "https://agent.example/cb",
      code_verifier: verifier,
      client_id: client.client_id,
    },
  });
  expect(token.status()).toBe(400);
  expect(await token.json()).toMatchObject({ error: "invalid_grant" });
  const unknown = await request.post("/oauth/token", {
    form: {
      grant_type: "authorization_code",
      code: "x",
      redirect_uri: "https://agent.example/cb",
      code_verifier: verifier,
      client_id: "mcp_nobody",
    },
  });
  expect(unknown.status()).toBe(401);
  expect(await unknown.json()).toMatchObject({ error: "invalid_client" });
  expect((await request.post("/oauth/revoke", { form: { token: "dma_whatever" } })).status()).toBe(200);

  // An unregistered redirect URI is shown as an error, never redirected to.
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const page = await request.get(
    `/oauth/authorize?response_type=code&client_id=${client.client_id}&redirect_uri=${encodeURIComponent("https://attacker.example/cb")}&code_challenge=${challenge}&code_challenge_method=S256`,
    { maxRedirects: 0 },
  );
  expect(page.status()).not.toBe(303);
  expect(page.headers().location ?? "").not.toContain("attacker.example");
});
