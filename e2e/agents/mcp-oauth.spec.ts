import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { demo } from "../support/demo";
import { E2E_BASE_URL } from "../support/env";
import { AGENT_REDIRECT, callTool, connectAgent, mcpTransport, TestAgentProvider } from "../support/mcp-client";
import { signInAs, snap } from "../support/pages";
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";

test.describe.configure({ mode: "serial" });

test("an agent connects with OAuth consent in the browser, asks to go live, cannot accept its own card, and the owner's acceptance runs it once", async ({
  page,
  request,
}) => {
  const { acme, globex } = demo().workspaces;
  const provider = new TestAgentProvider(`Planning agent ${randomBytes(2).toString("hex")}`);
  const { client } = await connectAgent(page, provider, async (p) => {
    // No session yet: a fresh sign-in first, then the consent page.
    await expect(p).toHaveURL(/\/sign-in\?callbackUrl=/);
    await p.getByLabel("Email").fill(acme.owner.email);
    await p.getByLabel(/^Password/).fill(acme.owner.password);
    await p.getByRole("button", { name: "Sign in" }).click();
    await expect(p.getByRole("heading", { name: "Connect an agent" })).toBeVisible();
    await expect(p.getByText(provider.clientMetadata.client_name!)).toBeVisible();
    await expect(p.getByText("127.0.0.1:47913")).toBeVisible();
    await expect(p.getByText("A client you have not connected before")).toBeVisible();
    await expect(p.getByText("It runs on this computer")).toBeVisible();
    await expect(p.getByRole("checkbox", { name: /Create and edit draft campaigns/ })).toBeChecked();
    await snap(p, "oauth-consent");
    await p.getByRole("button", { name: "Approve" }).click();
  });
  expect(provider.saved).toMatchObject({
    token_type: expect.stringMatching(/bearer/i),
    refresh_token: expect.stringMatching(/^dmr_/),
  });

  const tools = (await client.listTools()).tools;
  const goLiveTool = tools.find((t) => t.name === "campaigns_request_go_live");
  // Hints equal to MCP's defaults are left out (readOnlyHint false); a card request destroys nothing.
  expect(goLiveTool?.annotations?.readOnlyHint ?? false).toBe(false);
  expect(goLiveTool?.annotations).toMatchObject({ destructiveHint: false });
  expect(tools.find((t) => t.name === "campaigns_list")?.annotations).toMatchObject({ readOnlyHint: true });
  // Result schemas live in /agents/tools.json (the envelope once), to keep tools/list small.
  expect(tools.every((t) => /^[a-z]+(_[a-z]+)+$/.test(t.name) && t.inputSchema.type === "object")).toBe(true);

  const summary = await callTool(client, "workspace_get_summary");
  expect(summary.result).toMatchObject({ id: acme.id, plan: "paid", mailingEnabled: true });
  expect(summary.changed).toEqual([]);

  const audiences = await callTool(client, "audiences_list");
  const audience = audiences.result.audiences.find((a: { name: string }) => a.name === "Target accounts (demo)");
  const name = `Agent launch ${randomBytes(2).toString("hex")}`;
  const created = await callTool(client, "campaigns_create_draft", {
    name,
    format: "postcard",
    audienceId: audience.id,
    destinationUrl: "https://www.acme.example/agent",
    acceptsApiEvents: true,
    headline: "{{firstName}}, a note from Acme",
    bodyTemplate: "Hi {{firstName}}, we built something for {{company}}.",
  });
  const campaignId = created.result.id;
  expect(created.changed).toEqual([expect.stringContaining(campaignId)]);

  const asked = await callTool(client, "campaigns_request_go_live", { campaignId });
  const card = asked.result;
  expect(card).toMatchObject({
    status: "pending",
    kind: "go_live",
    url: `${E2E_BASE_URL}/w/${acme.id}/confirmations#card-${card.cardId}`,
    requestedBy: `${provider.clientMetadata.client_name} (agent)`,
  });
  expect(asked.changed).toEqual([expect.stringContaining("the campaign is unchanged")]);
  expect(asked.awaitingConfirmation.map((c) => c.cardId)).toContain(card.cardId);
  // Asking again returns the same card.
  expect((await callTool(client, "campaigns_request_go_live", { campaignId })).result.cardId).toBe(card.cardId);
  expect((await callTool(client, "campaigns_get", { campaignId })).result.status).toBe("draft");

  // The agent cannot accept: no tool does it, and the owner's tRPC API does not take its token.
  const noTool = await client.callTool({ name: "confirmations_accept", arguments: { cardId: card.cardId } });
  expect(noTool.isError).toBe(true);
  const viaTrpc = await request.post(`/api/trpc/confirmation.decide`, {
    headers: { Authorization: `Bearer ${provider.saved!.access_token}`, "Content-Type": "application/json" },
    data: { json: { workspaceId: acme.id, cardId: card.cardId, decision: "accept" } },
  });
  expect(viaTrpc.status()).toBe(401);
  expect((await callTool(client, "confirmations_get", { cardId: card.cardId })).result.status).toBe("pending");

  // Another workspace's campaign is the same not-found as a missing one.
  const foreign = await client.callTool({ name: "campaigns_get", arguments: { campaignId: globex.campaigns.draft } });
  const missing = await client.callTool({ name: "campaigns_get", arguments: { campaignId: "cmp_doesnotexist" } });
  expect(foreign.isError).toBe(true);
  expect(foreign.content).toEqual(missing.content);

  // The owner accepts in the browser.
  await page.goto(card.url);
  const article = page.getByRole("article").filter({ hasText: `Take “${name}” live` });
  await expect(article).toContainText(`${provider.clientMetadata.client_name} (agent)`);
  await snap(page, "confirmation-go-live-card");
  await article.getByRole("button", { name: "Accept" }).click();
  await expect(page.getByText("Accepted").first()).toBeVisible();

  const decided = (await callTool(client, "confirmations_get", { cardId: card.cardId })).result;
  expect(decided).toMatchObject({ status: "accepted", executedAt: expect.any(String), executionError: null });
  const live = (await callTool(client, "campaigns_get", { campaignId })).result;
  expect(live.status).toBe("live");
  expect(live.arms.treatmentAccounts + live.arms.holdoutAccounts).toBeGreaterThan(0);
  // Once: asking again returns the accepted card and changes nothing.
  const again = await callTool(client, "campaigns_request_go_live", { campaignId });
  expect(again.result).toMatchObject({ cardId: card.cardId, status: "accepted" });
  expect(again.changed).toEqual([]);

  // Settings -> Connected agents lists the grant; Revoke stops its tokens at once.
  await page.goto(`/w/${acme.id}/settings/connected-agents`);
  const row = page.getByRole("row").filter({ hasText: provider.clientMetadata.client_name! });
  await expect(row).toContainText("campaigns:write");
  await snap(page, "settings-connected-agents");
  await row.getByRole("button", { name: /Revoke/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke access" }).click();
  await expect(row).toHaveCount(0);
  const after = await request.post("/api/mcp", {
    headers: {
      Authorization: `Bearer ${provider.saved!.access_token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(after.status()).toBe(401);
  expect(after.headers()["www-authenticate"]).toContain('error="invalid_token"');
});

test("the consent page can deny, and a denied agent gets access_denied and no code", async ({ page }) => {
  const { globex } = demo().workspaces;
  const provider = new TestAgentProvider(`Denied agent ${randomBytes(2).toString("hex")}`);
  const client = new (await import("@modelcontextprotocol/sdk/client/index.js")).Client({ name: "e2e", version: "1" });
  await expect(client.connect(mcpTransport(provider))).rejects.toThrow(/Unauthorized/);
  let callback: URL | undefined;
  await page.route(`${new URL(AGENT_REDIRECT).origin}/**`, (route) => {
    callback = new URL(route.request().url());
    return route.fulfill({ status: 200, body: "closed" });
  });
  await page.goto(provider.authorizationUrl!.toString());
  await page.getByLabel("Email").fill(globex.owner.email);
  await page.getByLabel(/^Password/).fill(globex.owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Deny" }).click();
  await expect.poll(() => callback?.searchParams.get("error") ?? "").toBe("access_denied");
  expect(callback!.searchParams.get("code")).toBeNull();
  expect(callback!.searchParams.get("state")).toBe(provider.authorizationUrl!.searchParams.get("state"));
});

test("the 401 names the scopes; the person unticks the write scopes on the consent page: the agent gets read only, lists only read tools, and a write is 403 insufficient_scope naming its scope", async ({
  page,
  request,
}) => {
  const { globex } = demo().workspaces;
  const challenge = await request.post("/api/mcp", {
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(challenge.status()).toBe(401);
  expect(challenge.headers()["www-authenticate"]).toContain(
    'scope="workspace:read campaigns:write entry_events:write contacts:write"',
  );
  await signInAs(page, globex.owner.email, globex.owner.password);
  const provider = new TestAgentProvider(`Read-only agent ${randomBytes(2).toString("hex")}`);
  const { client } = await connectAgent(page, provider, async (p) => {
    await p.getByRole("checkbox", { name: /Create and edit draft campaigns/ }).uncheck();
    await p.getByRole("checkbox", { name: /Admit contacts to live campaigns/ }).uncheck();
    await p.getByRole("checkbox", { name: /Import contacts from CSV text/ }).uncheck();
    await snap(p, "oauth-consent-read-only");
    await p.getByRole("button", { name: "Approve" }).click();
  });
  expect(provider.saved!.scope).toBe("workspace:read");
  const listed = (await client.listTools()).tools;
  expect(listed.length).toBeGreaterThan(5);
  expect(listed.every((t) => t.description?.includes("Scope: workspace:read."))).toBe(true);
  expect(listed.map((t) => t.name)).not.toContain("campaigns_create_draft");
  expect((await callTool(client, "workspace_get_summary")).result).toMatchObject({
    id: globex.id,
    plan: "audit",
    mailingEnabled: false,
  });
  const res = await request.post("/api/mcp", {
    headers: {
      Authorization: `Bearer ${provider.saved!.access_token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    data: {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "campaigns_create_draft", arguments: { name: "Nope", format: "postcard" } },
    },
  });
  expect(res.status()).toBe(403);
  expect(res.headers()["www-authenticate"]).toContain('error="insufficient_scope"');
  expect(res.headers()["www-authenticate"]).toContain('scope="workspace:read campaigns:write"');
  expect(
    (await callTool(client, "campaigns_list")).result.campaigns.some((c: { name: string }) => c.name === "Nope"),
  ).toBe(false);
});

test("a client that can open URLs (URL-mode elicitation) is pointed to the card's page instead of getting a result", async ({
  page,
}) => {
  const { acme } = demo().workspaces;
  await signInAs(page, acme.owner.email, acme.owner.password);
  const provider = new TestAgentProvider(`Elicitation agent ${randomBytes(2).toString("hex")}`);
  const { client } = await connectAgent(page, provider, (p) => p.getByRole("button", { name: "Approve" }).click(), {
    capabilities: { elicitation: { url: {} } },
  });
  const audience = (await callTool(client, "audiences_list")).result.audiences.find(
    (a: { name: string }) => a.name === "Target accounts (demo)",
  );
  const draft = await callTool(client, "campaigns_create_draft", {
    name: `Elicited launch ${randomBytes(2).toString("hex")}`,
    format: "letter",
    audienceId: audience.id,
    destinationUrl: "https://www.acme.example/letters",
    acceptsApiEvents: true,
    headline: "Dear {{firstName}}",
    bodyTemplate: "A letter for {{company}}.",
  });
  const error = await client
    .callTool({ name: "campaigns_request_go_live", arguments: { campaignId: draft.result.id } })
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(UrlElicitationRequiredError);
  const [elicitation] = (error as UrlElicitationRequiredError).elicitations;
  expect(elicitation).toMatchObject({
    mode: "url",
    url: expect.stringMatching(new RegExp(`^${E2E_BASE_URL}/w/${acme.id}/confirmations#card-card_`)),
    message: expect.stringContaining("Nothing has changed yet"),
  });
  const pending = (await callTool(client, "confirmations_get", { cardId: elicitation.elicitationId })).result;
  expect(pending).toMatchObject({ status: "pending", kind: "go_live" });
  expect((await callTool(client, "campaigns_get", { campaignId: draft.result.id })).result.status).toBe("draft");
});
