import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { demo } from "../support/demo";
import { callTool, connectAgent, TestAgentProvider } from "../support/mcp-client";
import { signInAs } from "../support/pages";

test("an agent imports a CSV larger than an ordinary MCP request over HTTP, follows it with imports_get and finds the contacts", async ({
  page,
}) => {
  const { globex } = demo().workspaces;
  await signInAs(page, globex.owner.email, globex.owner.password);
  const provider = new TestAgentProvider(`Import agent ${randomBytes(2).toString("hex")}`);
  const { client } = await connectAgent(page, provider, (p) => p.getByRole("button", { name: "Approve" }).click());
  const tag = randomBytes(3).toString("hex");
  // About 400 KB: more than the 256 KiB an ordinary MCP request may be.
  const rows = Array.from(
    { length: 4000 },
    (_, i) =>
      `Person${i},Agentimported${tag},p${i}.${tag}@agent-${i % 40}.example,Agent Co ${i % 40},"${"Met at the booth. ".repeat(4)}"`,
  );
  const csv = ["First Name,Last Name,Email,Company,Notes", ...rows].join("\n");
  expect(csv.length).toBeGreaterThan(300 * 1024);
  const started = await callTool(client, "contacts_import", {
    csv,
    audienceName: `Agent leads ${tag}`,
    mapping: { Notes: "custom" },
  });
  expect(started.result).toMatchObject({ rows: 4000, refusedCount: 0 });
  let report = started.result;
  for (let i = 0; i < 60 && !["succeeded", "failed", "cancelled"].includes(report.status); i++) {
    await new Promise((r) => setTimeout(r, 1000));
    report = (await callTool(client, "imports_get", { importId: started.result.importId })).result;
  }
  expect(report).toMatchObject({ status: "succeeded", created: 4000, updated: 0, skipped: 0 });
  const found = await callTool(client, "contacts_list", { search: `agentimported${tag}`, take: 5 });
  expect(found.result.contacts).toHaveLength(5);
  expect(found.result.nextCursor).toBeTruthy();
  const audience = await callTool(client, "audiences_get", { audienceId: report.audienceId });
  expect(audience.result).toMatchObject({ name: `Agent leads ${tag}`, size: 4000, accounts: 40 });
  // The same call to any other tool is refused for its size.
  const refused = await page.request.post("/api/mcp", {
    headers: {
      Authorization: `Bearer ${provider.saved!.access_token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    data: JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "contacts_list", arguments: { search: "x".repeat(300 * 1024) } },
    }),
  });
  expect(refused.status()).toBe(413);
});
