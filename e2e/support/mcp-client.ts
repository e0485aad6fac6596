import { expect, type Page } from "@playwright/test";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { E2E_BASE_URL } from "./env";

/** Where our test agent says it listens; Playwright answers this address itself. */
export const AGENT_REDIRECT = "http://127.0.0.1:47913/oauth/callback";

/** An in-memory OAuth client provider, as a real MCP client keeps one; the browser part is Playwright's. */
export class TestAgentProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  constructor(
    private readonly name: string,
    private readonly scope?: string,
  ) {}
  get redirectUrl() {
    return AGENT_REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [AGENT_REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export function mcpTransport(provider: OAuthClientProvider) {
  return new StreamableHTTPClientTransport(new URL(`${E2E_BASE_URL}/api/mcp`), { authProvider: provider });
}

/**
 * The whole dance: the client discovers and registers, is sent to the consent page, the page
 * approves (signing in first if asked), and the client exchanges the code. Returns a connected client.
 */
export async function connectAgent(
  page: Page,
  provider: TestAgentProvider,
  approve: (page: Page) => Promise<void>,
  opts: { scope?: string; capabilities?: ClientCapabilities } = {},
) {
  const first = mcpTransport(provider);
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await expect(client.connect(first)).rejects.toThrow(/Unauthorized/);
  expect(provider.authorizationUrl, "the client was sent to the authorization endpoint").toBeDefined();
  let callback: URL | undefined;
  await page.route(`${new URL(AGENT_REDIRECT).origin}/**`, (route) => {
    callback = new URL(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/html", body: "<p>You can close this window.</p>" });
  });
  // A person may be asked for fewer scopes than the client would like (as a narrower client would ask).
  if (opts.scope) provider.authorizationUrl!.searchParams.set("scope", opts.scope);
  await page.goto(provider.authorizationUrl!.toString());
  await approve(page);
  await expect.poll(() => callback?.toString() ?? "").toContain(AGENT_REDIRECT);
  const code = callback!.searchParams.get("code");
  expect(code, `the callback carried a code: ${callback}`).toBeTruthy();
  expect(callback!.searchParams.get("iss")).toBe(E2E_BASE_URL);
  await first.finishAuth(code!);
  const connected = new Client({ name: "e2e-agent", version: "1.0.0" }, { capabilities: opts.capabilities ?? {} });
  await connected.connect(mcpTransport(provider));
  return { client: connected, callback: callback! };
}

/** Calls a tool and returns its structured content (failing on a tool error). */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as {
    requested: string;
    changed: string[];
    awaitingConfirmation: { cardId: string; url: string; title: string }[];
    result: any;
  }; // eslint-disable-line @typescript-eslint/no-explicit-any
}
