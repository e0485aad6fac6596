import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { startAuthProxy } from "../support/auth-proxy";
import { demo } from "../support/demo";
import { artifactsDir, E2E_BASE_URL } from "../support/env";
import { connectAgent, TestAgentProvider } from "../support/mcp-client";
import { signInAs } from "../support/pages";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
 * on the scenarios that apply to this server. The suite sends no Authorization header, so it talks
 * to the server through a proxy that adds a real agent token obtained with the OAuth flow.
 * Scenarios left out need the suite's own test fixtures (tools named test_*, prompts such as
 * test_prompt_with_arguments, sampling, subscriptions), which a product server does not have;
 * docs/agents-and-mcp.md lists them.
 */
const CONFORMANCE_SCENARIOS = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "tools-list",
  "resources-list",
  "dns-rebinding-protection",
];

test("the MCP conformance suite passes on the scenarios that apply", async ({ page }) => {
  test.setTimeout(180_000);
  const { acme } = demo().workspaces;
  await signInAs(page, acme.owner.email, acme.owner.password);
  const provider = new TestAgentProvider("Conformance suite");
  const { client } = await connectAgent(page, provider, (p) => p.getByRole("button", { name: "Approve" }).click());
  await client.close();
  const proxy = await startAuthProxy(E2E_BASE_URL, provider.saved!.access_token);
  const bin = path.resolve("node_modules/.bin/conformance");
  const outDir = path.join(artifactsDir, "conformance");
  fs.mkdirSync(outDir, { recursive: true });
  try {
    for (const scenario of CONFORMANCE_SCENARIOS) {
      const run = await promisify(execFile)(bin, ["server", "--url", proxy.url, "--scenario", scenario], {
        timeout: 60_000,
      }).catch((e) => e);
      const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
      fs.writeFileSync(path.join(outDir, `${scenario}.txt`), output);
      expect(run.code ?? 0, `${scenario}:\n${output}`).toBe(0);
      expect(output, scenario).not.toMatch(/FAIL/);
    }
  } finally {
    await proxy.close();
  }
});
