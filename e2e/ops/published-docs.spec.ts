import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "../support/env";

test("each published document is served with its content type and names this server", async ({ request }) => {
  const cases: [string, RegExp, string][] = [
    ["/openapi.json", /^application\/json/, "/api/v1/conversions"],
    ["/.well-known/mcp", /^application\/json/, `${E2E_BASE_URL}/api/mcp`],
    ["/.well-known/mcp/server-card", /^application\/json/, "streamable-http"],
    ["/.well-known/mcp/catalog.json", /^application\/json/, `${E2E_BASE_URL}/.well-known/mcp`],
    ["/api/mcp/server-card", /^application\/json/, "campaigns_request_go_live"],
    ["/llms.txt", /^text\/plain; charset=utf-8/, `[Agent policy](${E2E_BASE_URL}/agents/policy.md)`],
    ["/auth.md", /^text\/markdown; charset=utf-8/, "code_challenge_method=S256"],
    ["/agents/policy.md", /^text\/markdown; charset=utf-8/, "## The confirmation gate"],
    ["/docs/lifecycle.md", /^text\/markdown; charset=utf-8/, "`mailing_disabled`"],
    ["/docs/mailability.md", /^text\/markdown; charset=utf-8/, "`missing_unit`"],
    ["/problems.md", /^text\/markdown; charset=utf-8/, "`needs_confirmation`"],
  ];
  for (const [path, type, needle] of cases) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()["content-type"], path).toMatch(type);
    expect(await res.text(), path).toContain(needle);
  }
  // What public/ holds: the favicon every page names, and robots.txt keeping crawlers out of workspaces and response links.
  const icon = await request.get("/favicon.svg");
  expect([icon.status(), icon.headers()["content-type"]]).toEqual([200, expect.stringMatching(/^image\/svg\+xml/)]);
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toMatch(/Disallow: \/w\/[\s\S]*Disallow: \/r\//);
  const landing = await (await request.get("/")).text();
  expect(landing).toContain('href="/favicon.svg"');
  const card = await (await request.get("/.well-known/mcp")).json();
  expect(card).toEqual(await (await request.get("/api/mcp/server-card")).json());
  expect(card.tools.length).toBeGreaterThan(10);
});
