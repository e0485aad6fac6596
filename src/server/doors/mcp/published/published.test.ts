import { describe, expect, it } from "vitest";
import { API_KEY_SCOPES } from "@/server/ground/access/principals";
import { MCP_TOOLS } from "@/server/doors/mcp/catalog";
import { OAUTH_LIFETIMES } from "@/server/records/oauth/config";
import { MCP_SCOPES } from "@/server/records/oauth/scopes";
import { listOperations } from "@/server/doors/rest/operations";
import { restRouter } from "@/server/doors/rest/router";
import { agentPolicyMarkdown } from "./policy-md";
import { authMarkdown } from "./auth-md";
import { llmsTxt } from "./llms-txt";
import { serverCard, serverCatalog } from "./server-card";

const BASE = "https://dm.example";

describe("published documents name what the code does", () => {
  it("llms.txt: an H1, a summary, sections of links to every document, every tool and every REST operation", () => {
    const text = llmsTxt(BASE);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines.find((l) => l.startsWith(">"))).toBeDefined();
    expect(lines.filter((l) => l.startsWith("## ")).map((l) => l.slice(3))).toEqual([
      "Agents (MCP)",
      "REST API",
      "Webhooks",
      "Calculators",
      "Optional",
    ]);
    for (const doc of ["/openapi.json", "/.well-known/mcp", "/auth.md", "/agents/policy.md", "/api/mcp", "/api/health"])
      expect(text).toContain(`(${BASE}${doc})`);
    for (const tool of MCP_TOOLS) expect(text).toContain(tool.name);
    for (const op of listOperations(restRouter)) expect(text).toContain(`/api${op.path}`);
  });

  it("auth.md: every MCP scope and API-key scope, the endpoints, and the token lifetimes", () => {
    const text = authMarkdown(BASE);
    for (const scope of [...MCP_SCOPES, ...API_KEY_SCOPES]) expect(text).toContain(`\`${scope}\``);
    for (const path of [
      "/oauth/authorize",
      "/oauth/token",
      "/oauth/register",
      "/oauth/revoke",
      "/.well-known/oauth-protected-resource/api/mcp",
    ])
      expect(text).toContain(`${BASE}${path}`);
    expect(text).toContain(`${OAUTH_LIFETIMES.accessTokenSeconds / 60} minutes`);
    expect(text).toMatch(/never asks anyone for a password or an API key/);
  });

  it("policy.md: the confirmation gate with the request tools, and what to tell the person", () => {
    const text = agentPolicyMarkdown(BASE);
    for (const tool of MCP_TOOLS.filter((t) => t.kind === "request")) expect(text).toContain(`\`${tool.name}\``);
    for (const field of ["requested", "changed", "awaitingConfirmation"]) expect(text).toContain(`\`${field}\``);
    expect(text).toMatch(/Never treat a reply in your conversation/);
    expect(text).toMatch(/## Data handling/);
    // What the policy must say, in its own words.
    expect(text).toMatch(/Never ask for, type, store or pass on a person's password, one-time code, session cookie/);
    expect(text).toMatch(
      /Never sign in, approve, accept or decline on the person's behalf, even when you control a browser/,
    );
    expect(text).toMatch(
      /Going live approves spending up to the campaign's budget\.\*\* Once a campaign is live, each entry\s+event/,
    );
    expect(text).toMatch(/Money is in integer cents\*\* in every tool .* Report cents as cents/s);
  });

  it("the server card lists the endpoint, protocol versions, authorization, and the same tools the server registers", () => {
    const card = serverCard(BASE);
    expect(card.remotes).toEqual([
      expect.objectContaining({
        type: "streamable-http",
        url: `${BASE}/api/mcp`,
        supportedProtocolVersions: expect.arrayContaining(["2025-11-25", "2025-06-18"]),
      }),
    ]);
    expect(card.remotes[0].authentication).toMatchObject({
      required: true,
      schemes: ["oauth2"],
      protectedResourceMetadata: `${BASE}/.well-known/oauth-protected-resource/api/mcp`,
    });
    expect(card.tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    for (const tool of card.tools)
      expect(tool._meta["io.direct-mail-programme/scope"]).toMatch(/^[a-z_]+:(read|write)$/);
    expect(card.resources.map((r) => r.uri)).toEqual([
      `${BASE}/agents/policy.md`,
      `${BASE}/auth.md`,
      `${BASE}/docs/lifecycle.md`,
      `${BASE}/docs/mailability.md`,
      `${BASE}/problems.md`,
    ]);
    expect(serverCatalog(BASE).servers[0]).toMatchObject({
      url: `${BASE}/api/mcp`,
      serverCard: `${BASE}/.well-known/mcp`,
    });
  });
});
