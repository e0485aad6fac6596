import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import {
  AuthorizeErrorPage,
  approveAuthorization,
  type AuthorizeParams,
  AuthorizeRedirectError,
  consentToken,
  consentTokenMatches,
  validateAuthorizeRequest,
} from "./authorize";
import { pinnedFetch, redirectUriProblem, registerClient, resolveClient } from "./clients";
import { consentContext } from "./consent";
import { isPrivateAddress, isPublicHost, pinnedLookup, type TResolveAll } from "./public-address";
import { revokeGrant } from "./grants";
import { revokeToken, tokenRequest, verifyAccessToken } from "./tokens";

const BASE = "https://dm.example";
const RESOURCE = `${BASE}/api/mcp`;
const REDIRECT = "http://localhost:33418/callback";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Registers a client, has an owner approve it, and returns the code and what it takes to redeem it. */
async function approved(opts: { scope?: string } = {}) {
  const owner = await createOwnerWorkspace(prisma);
  const client = await registerClient(prisma, { client_name: "Test agent", redirect_uris: [REDIRECT] });
  const { verifier, challenge } = pkce();
  const params: AuthorizeParams = {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "s1",
    resource: RESOURCE,
    scope: opts.scope,
  };
  const auth = await validateAuthorizeRequest(prisma, BASE, params);
  const { code, grant } = await approveAuthorization(prisma, {
    auth,
    workspaceId: owner.workspaceId,
    user: owner.user,
  });
  const form = {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_id: client.client_id,
  };
  return { owner, client, code, grant, verifier, form, params };
}

const actorOf = (o: Awaited<ReturnType<typeof createOwnerWorkspace>>) => ({
  kind: "user" as const,
  id: o.user.id,
  label: o.user.email,
});

describe("client registration (RFC 7591) and metadata documents", () => {
  it("registers a public client: 201 body echoes the metadata with a client_id and auth method none", async () => {
    const c = await registerClient(prisma, {
      client_name: "Claude",
      redirect_uris: ["https://claude.example/cb"],
      token_endpoint_auth_method: "client_secret_basic",
    });
    expect(c).toMatchObject({
      client_id: expect.stringMatching(/^mcp_[0-9A-Za-z]{24}$/),
      client_name: "Claude",
      redirect_uris: ["https://claude.example/cb"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    });
    expect(c).not.toHaveProperty("client_secret");
  });

  it("refuses metadata it cannot honour, and writes no client", async () => {
    const before = await prisma.oAuthClient.count();
    const cases: [unknown, string, RegExp][] = [
      [{ client_name: "x" }, "invalid_client_metadata", /redirect_uris/],
      [{ redirect_uris: [] }, "invalid_redirect_uri", /at least one/],
      [{ redirect_uris: ["http://evil.example/cb"] }, "invalid_redirect_uri", /only for localhost/],
      [{ redirect_uris: ["https://a.example/cb#frag"] }, "invalid_redirect_uri", /fragment/],
      [
        { redirect_uris: ["https://a.example/cb"], grant_types: ["client_credentials"] },
        "invalid_client_metadata",
        /client_credentials/,
      ],
      [
        { redirect_uris: ["https://a.example/cb"], response_types: ["token"] },
        "invalid_client_metadata",
        /response type/,
      ],
    ];
    for (const [body, errorCode, message] of cases)
      await expect(registerClient(prisma, body), JSON.stringify(body)).rejects.toMatchObject({
        errorCode,
        message: expect.stringMatching(message),
      });
    expect(await prisma.oAuthClient.count()).toBeGreaterThanOrEqual(before);
    expect(await prisma.oAuthClient.count({ where: { redirectUris: { has: "http://evil.example/cb" } } })).toBe(0);
  });

  it("accepts https, loopback http and private-scheme redirect URIs only", () => {
    expect(redirectUriProblem("https://app.example/cb")).toBeNull();
    expect(redirectUriProblem("http://127.0.0.1:8080/cb")).toBeNull();
    expect(redirectUriProblem("com.example.app:/oauth")).toBeNull();
    expect(redirectUriProblem("javascript:alert(1)")).toMatch(/scheme/);
    expect(redirectUriProblem("not a url")).toMatch(/absolute/);
  });

  it("resolves a Client ID Metadata Document, and refuses one that does not name itself or sits on a private address", async () => {
    const id = `https://agent.example/${randomBytes(4).toString("hex")}/client.json`;
    const doc = { client_id: id, client_name: "Doc agent", redirect_uris: ["https://agent.example/cb"] };
    const client = await resolveClient(prisma, id, {
      fetcher: async () => Response.json(doc),
      isPublic: async () => true,
    });
    expect(client).toMatchObject({
      clientId: id,
      source: "cimd",
      name: "Doc agent",
      redirectUris: ["https://agent.example/cb"],
    });
    const other = `https://agent.example/${randomBytes(4).toString("hex")}/client.json`;
    await expect(
      resolveClient(prisma, other, { fetcher: async () => Response.json(doc), isPublic: async () => true }),
    ).rejects.toMatchObject({ errorCode: "invalid_client", message: expect.stringMatching(/not its own URL/) });
    await expect(
      resolveClient(prisma, "https://127.0.0.1/c.json", { fetcher: async () => Response.json(doc) }),
    ).rejects.toMatchObject({ errorCode: "invalid_client", message: expect.stringMatching(/public address/) });
    await expect(
      resolveClient(prisma, `https://agent.example/${randomBytes(4).toString("hex")}/big.json`, {
        fetcher: async () => new Response("x".repeat(20_000)),
        isPublic: async () => true,
      }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/too large/) });
    await expect(resolveClient(prisma, "unknown-client", {})).rejects.toMatchObject({ errorCode: "invalid_client" });
    expect(await prisma.oAuthClient.count({ where: { clientId: other } })).toBe(0);
  });
});

describe("metadata fetches reach public addresses only", () => {
  it("refuses loopback, private, link-local and IPv4-mapped addresses, and names that resolve to them", async () => {
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "0.0.0.0",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
      // IPv6 forms that embed an IPv4 address or lead to one, and other non-global ranges.
      "::7f00:1",
      "[::7f00:1]",
      "::127.0.0.1",
      "::ffff:0:7f00:1",
      "2002:7f00:1::",
      "2002:a9fe:a9fe::1",
      "2001:0:4136:e378:8000:63bf:80ff:fffe",
      "64:ff9b::7f00:1",
      "64:ff9b:1::a00:1",
      "fec0::1",
      "100::1",
      "2001:db8::1",
      "100.64.0.1",
      "192.0.2.1",
      "255.255.255.255",
      "not-an-address",
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:5db8:d822", "[2a00:1450::1]"])
      expect(isPrivateAddress(a), a).toBe(false);
    expect(await isPublicHost("agent.example", async () => ["93.184.216.34"])).toBe(true);
    expect(await isPublicHost("rebind.example", async () => ["93.184.216.34", "10.0.0.5"])).toBe(false);
    expect(
      await isPublicHost("nowhere.example", async () => {
        throw new Error("ENOTFOUND");
      }),
    ).toBe(false);
    expect(await isPublicHost("localhost")).toBe(false);
  });
});

describe("the metadata fetch connects only to the address it checked", () => {
  const resolvesTo =
    (address: string): TResolveAll =>
    (_host, _options, callback) =>
      callback(null, [{ address, family: 4 }]);

  it("a name resolving to a private address is refused before any connection; an address literal too", async () => {
    const server = http.createServer((_req, res) => res.end("{}"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    let hits = 0;
    server.on("request", () => hits++);
    try {
      await expect(
        pinnedFetch(`http://rebind.example:${port}/c.json`, pinnedLookup(undefined, resolvesTo("127.0.0.1"))),
      ).rejects.toThrow("rebind.example resolves to 127.0.0.1, which is not a public address.");
      await expect(pinnedFetch(`http://[::7f00:1]:${port}/c.json`)).rejects.toThrow(
        "::7f00:1 is not a public address; nothing was fetched.",
      );
      expect(hits).toBe(0);
      // The connection goes to the address the lookup gave (here allowed), not to another resolution.
      const res = await pinnedFetch(
        `http://rebind.example:${port}/c.json`,
        pinnedLookup(() => true, resolvesTo("127.0.0.1")),
      );
      expect([res.status, await res.text(), hits]).toEqual([200, "{}", 1]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("authorization requests", () => {
  it("shows an error page (no redirect) for an unknown client or a redirect URI that is not an exact match", async () => {
    const client = await registerClient(prisma, { client_name: "A", redirect_uris: [REDIRECT] });
    const base = { response_type: "code", code_challenge: pkce().challenge, code_challenge_method: "S256" };
    await expect(
      validateAuthorizeRequest(prisma, BASE, { ...base, client_id: "nope", redirect_uri: REDIRECT }),
    ).rejects.toBeInstanceOf(AuthorizeErrorPage);
    for (const redirect_uri of [
      `${REDIRECT}/`,
      `${REDIRECT}?x=1`,
      "http://localhost:33419/callback",
      "https://attacker.example/cb",
    ]) {
      await expect(
        validateAuthorizeRequest(prisma, BASE, { ...base, client_id: client.client_id, redirect_uri }),
        redirect_uri,
      ).rejects.toBeInstanceOf(AuthorizeErrorPage);
    }
  });

  it("sends other errors back to the client: no PKCE, plain PKCE, unknown scope, another resource", async () => {
    const client = await registerClient(prisma, { client_name: "A", redirect_uris: [REDIRECT] });
    const ok = {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      state: "xyz",
    };
    const cases: [AuthorizeParams, string][] = [
      [{ ...ok, response_type: "token" }, "unsupported_response_type"],
      [{ ...ok, code_challenge: undefined }, "invalid_request"],
      [{ ...ok, code_challenge_method: "plain" }, "invalid_request"],
      [{ ...ok, scope: "workspace:read admin" }, "invalid_scope"],
      [{ ...ok, resource: "https://other.example/api/mcp" }, "invalid_target"],
    ];
    for (const [params, error] of cases)
      await expect(validateAuthorizeRequest(prisma, BASE, params), error).rejects.toMatchObject({
        error,
        redirectUri: REDIRECT,
        state: "xyz",
      });
    await expect(validateAuthorizeRequest(prisma, BASE, ok)).resolves.toMatchObject({
      scopes: ["workspace:read", "campaigns:write", "entry_events:write", "contacts:write"],
      resource: RESOURCE,
    });
    expect(AuthorizeRedirectError).toBeDefined();
  });

  it("sends errors back automatically only to a client the person looking has approved; a self-approval elsewhere counts for nothing", async () => {
    const fresh = await registerClient(prisma, { client_name: "New", redirect_uris: ["https://new.example/cb"] });
    const bad = {
      response_type: "token",
      client_id: fresh.client_id,
      redirect_uri: "https://new.example/cb",
      state: "s",
    };
    expect(await consentContext(prisma, BASE, null, bad)).toMatchObject({
      kind: "error",
      location: expect.stringMatching(/^https:\/\/new\.example\/cb\?error=unsupported_response_type/),
    });

    // An attacker registers a client pointing at their site and approves it in a workspace of their own.
    const attacker = await approved();
    const lure = { ...bad, response_type: "bogus", client_id: attacker.client.client_id, redirect_uri: REDIRECT };
    const visitor = await createOwnerWorkspace(prisma);
    const asVisitor = { id: visitor.user.id, email: visitor.user.email, name: visitor.user.name };
    // Nobody signed in, and a signed-in visitor who never approved it: an error page with a link, no redirect.
    expect(await consentContext(prisma, BASE, null, lure)).toMatchObject({
      kind: "error",
      location: expect.stringContaining("error=unsupported_response_type"),
    });
    expect(await consentContext(prisma, BASE, asVisitor, lure)).toMatchObject({
      kind: "error",
      location: expect.stringContaining("error=unsupported_response_type"),
    });
    // The consent page still warns the visitor that the client is new to them.
    expect(await consentContext(prisma, BASE, asVisitor, attacker.params)).toMatchObject({
      kind: "consent",
      firstTime: true,
    });
    // The person who approved it is sent back, and not warned again.
    const asApprover = { id: attacker.owner.user.id, email: attacker.owner.user.email, name: attacker.owner.user.name };
    expect(await consentContext(prisma, BASE, asApprover, lure)).toMatchObject({
      kind: "redirect",
      location: expect.stringContaining("error=unsupported_response_type"),
    });
    expect(await consentContext(prisma, BASE, asApprover, attacker.params)).toMatchObject({
      kind: "consent",
      firstTime: false,
    });
    // Once they revoke it, it is a stranger again.
    await revokeGrant(prisma, {
      workspaceId: attacker.owner.workspaceId,
      grantId: attacker.grant.id,
      actor: actorOf(attacker.owner),
    });
    expect(await consentContext(prisma, BASE, asApprover, lure)).toMatchObject({ kind: "error" });
    expect(await consentContext(prisma, BASE, null, { ...attacker.params })).toEqual({ kind: "sign-in" });
  });

  it("binds the consent form's csrf token to the person and the exact request", () => {
    const p: AuthorizeParams = { client_id: "c", redirect_uri: REDIRECT, code_challenge: "x".repeat(43), state: "s" };
    const token = consentToken("secret", "usr_1", p);
    expect(consentTokenMatches("secret", "usr_1", p, token)).toBe(true);
    expect(consentTokenMatches("secret", "usr_2", p, token)).toBe(false);
    expect(consentTokenMatches("secret", "usr_1", { ...p, redirect_uri: "https://evil.example/cb" }, token)).toBe(
      false,
    );
    expect(consentTokenMatches("secret", "usr_1", p, null)).toBe(false);
  });
});

describe("hostile input to the OAuth endpoints", () => {
  it("NUL, broken Unicode and oversized ids are OAuth errors with plain sentences, never database text, and write nothing", async () => {
    const clients = await prisma.oAuthClient.count();
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: Error & { errorCode?: string }) => ({ errorCode: e.errorCode, message: e.message }),
      );
    expect(
      await refusal(registerClient(prisma, { client_name: "a\u0000", redirect_uris: ["https://x.example/cb"] })),
    ).toMatchObject({ errorCode: "invalid_client_metadata" });
    expect(
      await refusal(registerClient(prisma, { client_name: "a", redirect_uris: ["https://x.example/c\u0000b"] })),
    ).toMatchObject({ errorCode: expect.stringMatching(/^invalid_/) });
    expect(
      await refusal(registerClient(prisma, { client_name: "\ud800", redirect_uris: ["https://x.example/cb"] })),
    ).toMatchObject({ errorCode: "invalid_client_metadata" });
    expect(
      await refusal(
        registerClient(prisma, {
          client_name: "many",
          redirect_uris: Array.from({ length: 50 }, (_, i) => `https://x.example/${i}`),
        }),
      ),
    ).toMatchObject({ errorCode: "invalid_client_metadata" });
    expect(await prisma.oAuthClient.count()).toBe(clients);
    for (const clientId of ["mcp_\u0000", `https://x.example/${"a".repeat(5000)}`]) {
      expect(await refusal(resolveClient(prisma, clientId))).toMatchObject({ errorCode: "invalid_client" });
      expect(
        await refusal(tokenRequest(prisma, { grant_type: "refresh_token", client_id: clientId, refresh_token: "x" })),
      ).toMatchObject({ errorCode: "invalid_client" });
      const page = await consentContext(prisma, BASE, null, { client_id: clientId, response_type: "code" });
      expect(page).toMatchObject({ kind: "error" });
      expect(JSON.stringify(page)).not.toMatch(/prisma|invocation|22021|UTF8|index row/i);
    }
  });
});

describe("tokens", () => {
  it("exchanges a code once for an access token bound to the MCP resource and a refresh token, stored as hashes", async () => {
    const a = await approved({ scope: "workspace:read" });
    const tokens = await tokenRequest(prisma, a.form);
    expect(tokens).toMatchObject({
      token_type: "Bearer",
      expires_in: 900,
      scope: "workspace:read",
      access_token: expect.stringMatching(/^dma_/),
      refresh_token: expect.stringMatching(/^dmr_/),
    });
    const rows = await prisma.oAuthToken.findMany({ where: { grantId: a.grant.id } });
    expect(JSON.stringify(rows)).not.toContain(tokens.access_token);
    const check = await verifyAccessToken(prisma, tokens.access_token, RESOURCE);
    expect(check).toMatchObject({
      ok: true,
      auth: { workspaceId: a.owner.workspaceId, scopes: ["workspace:read"], clientName: "Test agent" },
    });
  });

  it("refuses a wrong PKCE verifier, another redirect URI, another client, another resource, an expired code", async () => {
    const a = await approved();
    const cases: [Record<string, string>, string][] = [
      [{ ...a.form, code_verifier: pkce().verifier }, "invalid_grant"],
      [{ ...a.form, redirect_uri: "http://localhost:1/cb" }, "invalid_grant"],
      [{ ...a.form, resource: "https://other.example/api/mcp" }, "invalid_target"],
      [{ ...a.form, client_id: "mcp_unknown" }, "invalid_client"],
      [{ ...a.form, code_verifier: "short" }, "invalid_request"],
      [{ ...a.form, grant_type: "password" }, "unsupported_grant_type"],
    ];
    for (const [form, errorCode] of cases)
      await expect(tokenRequest(prisma, form), errorCode).rejects.toMatchObject({ errorCode });
    // None of those consumed the code; after its lifetime it is refused.
    await expect(tokenRequest(prisma, a.form, new Date(Date.now() + 121_000))).rejects.toMatchObject({
      errorCode: "invalid_grant",
      message: expect.stringMatching(/expired/),
    });
    expect(await prisma.oAuthToken.count({ where: { grantId: a.grant.id } })).toBe(0);
  });

  it("a replayed code is refused and revokes what the first exchange issued", async () => {
    const a = await approved();
    const first = await tokenRequest(prisma, a.form);
    await expect(tokenRequest(prisma, a.form)).rejects.toMatchObject({
      errorCode: "invalid_grant",
      message: expect.stringMatching(/already used/),
    });
    expect(await verifyAccessToken(prisma, first.access_token, RESOURCE)).toEqual({
      ok: false,
      reason: "The token has been revoked.",
    });
  });

  it("refresh tokens rotate; reusing one revokes the family", async () => {
    const a = await approved();
    const first = await tokenRequest(prisma, a.form);
    const second = await tokenRequest(prisma, {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      client_id: a.client.client_id,
    });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await verifyAccessToken(prisma, second.access_token, RESOURCE)).ok).toBe(true);
    await expect(
      tokenRequest(prisma, {
        grant_type: "refresh_token",
        refresh_token: first.refresh_token,
        client_id: a.client.client_id,
      }),
    ).rejects.toMatchObject({ errorCode: "invalid_grant" });
    expect((await verifyAccessToken(prisma, second.access_token, RESOURCE)).ok).toBe(false);
    await expect(
      tokenRequest(prisma, {
        grant_type: "refresh_token",
        refresh_token: second.refresh_token,
        client_id: a.client.client_id,
      }),
    ).rejects.toMatchObject({ errorCode: "invalid_grant" });
  });

  it("a refresh can narrow but not widen the scopes", async () => {
    const a = await approved({ scope: "workspace:read campaigns:write" });
    const t = await tokenRequest(prisma, a.form);
    await expect(
      tokenRequest(prisma, {
        grant_type: "refresh_token",
        refresh_token: t.refresh_token,
        client_id: a.client.client_id,
        scope: "entry_events:write",
      }),
    ).rejects.toMatchObject({ errorCode: "invalid_scope" });
    const narrowed = await tokenRequest(prisma, {
      grant_type: "refresh_token",
      refresh_token: t.refresh_token,
      client_id: a.client.client_id,
      scope: "workspace:read",
    });
    expect(narrowed.scope).toBe("workspace:read");
  });

  it("access tokens are refused for another resource, after expiry, after revocation (RFC 7009) and after the owner revokes the grant", async () => {
    const a = await approved();
    const t = await tokenRequest(prisma, a.form);
    expect(await verifyAccessToken(prisma, t.access_token, "https://other.example/api/mcp")).toEqual({
      ok: false,
      reason: "The token was issued for another resource.",
    });
    expect(await verifyAccessToken(prisma, t.access_token, RESOURCE, new Date(Date.now() + 901_000))).toEqual({
      ok: false,
      reason: "The token has expired.",
    });
    expect(await verifyAccessToken(prisma, t.refresh_token, RESOURCE)).toMatchObject({ ok: false });
    expect(await verifyAccessToken(prisma, "dma_madeup", RESOURCE)).toMatchObject({ ok: false });
    await revokeToken(prisma, { token: t.refresh_token });
    expect((await verifyAccessToken(prisma, t.access_token, RESOURCE)).ok).toBe(false);
    await expect(revokeToken(prisma, { token: "unknown" })).resolves.toBeUndefined();

    const b = await approved();
    const tb = await tokenRequest(prisma, b.form);
    await revokeGrant(prisma, { workspaceId: b.owner.workspaceId, grantId: b.grant.id, actor: actorOf(b.owner) });
    expect(await verifyAccessToken(prisma, tb.access_token, RESOURCE)).toEqual({
      ok: false,
      reason: "The token has been revoked.",
    });
    await expect(
      tokenRequest(prisma, {
        grant_type: "refresh_token",
        refresh_token: tb.refresh_token,
        client_id: b.client.client_id,
      }),
    ).rejects.toMatchObject({ errorCode: "invalid_grant" });
    expect(
      await prisma.auditLogEntry.count({ where: { workspaceId: b.owner.workspaceId, action: "agent.grant.revoked" } }),
    ).toBe(1);
  });

  it("approving the same agent again with fewer scopes narrows the tokens it already has", async () => {
    const a = await approved();
    const wide = await tokenRequest(prisma, a.form);
    const { challenge } = pkce();
    const narrower = await validateAuthorizeRequest(prisma, BASE, {
      ...a.params,
      code_challenge: challenge,
      scope: "workspace:read",
    });
    await approveAuthorization(prisma, { auth: narrower, workspaceId: a.owner.workspaceId, user: a.owner.user });
    expect(await verifyAccessToken(prisma, wide.access_token, RESOURCE)).toMatchObject({
      ok: true,
      auth: { scopes: ["workspace:read"] },
    });
    const refreshed = await tokenRequest(prisma, {
      grant_type: "refresh_token",
      refresh_token: wide.refresh_token,
      client_id: a.client.client_id,
    });
    expect(refreshed.scope).toBe("workspace:read");
  });

  it("another workspace cannot revoke a grant: the same not-found", async () => {
    const a = await approved();
    const other = await createOwnerWorkspace(prisma);
    await expect(
      revokeGrant(prisma, { workspaceId: other.workspaceId, grantId: a.grant.id, actor: actorOf(other) }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect((await prisma.oAuthGrant.findUniqueOrThrow({ where: { id: a.grant.id } })).revokedAt).toBeNull();
  });
});
