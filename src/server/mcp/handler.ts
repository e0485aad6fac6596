import "server-only";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getDb } from "@/server/db";
import { mcpResource } from "@/server/oauth/config";
import { bearerChallenge } from "@/server/oauth/metadata";
import type { TMcpScope } from "@/server/oauth/scopes";
import { verifyAccessToken } from "@/server/oauth/tokens";
import { baseUrl } from "@/server/platform/base-url";
import { MCP_TOOLS } from "./catalog";
import { buildMcpServer } from "./server";

const scopeOfTool = new Map<string, TMcpScope>(MCP_TOOLS.map((t) => [t.name, t.scope]));

/** Hosts and origins the endpoint answers (DNS-rebinding protection): the base address, loopback on its port, and MCP_ALLOWED_HOSTS / MCP_ALLOWED_ORIGINS. */
function allowed(base: string) {
  const url = new URL(base);
  const port = url.port ? `:${url.port}` : "";
  const hosts = new Set([url.host, `localhost${port}`, `127.0.0.1${port}`, `[::1]${port}`, ...(process.env.MCP_ALLOWED_HOSTS ?? "").split(",").map((h) => h.trim()).filter(Boolean)]);
  const origins = new Set([url.origin, ...(process.env.MCP_ALLOWED_ORIGINS ?? "").split(",").map((o) => o.trim()).filter(Boolean)]);
  return { hosts, origins };
}

function jsonRpcError(status: number, message: string, headers: Record<string, string> = {}) {
  return Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status, headers });
}

/** The scopes that the tools called in a JSON-RPC message (or batch) need. */
async function scopesNeeded(req: Request): Promise<TMcpScope[]> {
  if (req.method !== "POST") return [];
  let body: unknown;
  try {
    body = await req.clone().json();
  } catch {
    return [];
  }
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => {
    const msg = m as { method?: string; params?: { name?: string } };
    const scope = msg?.method === "tools/call" && msg.params?.name ? scopeOfTool.get(msg.params.name) : undefined;
    return scope ? [scope] : [];
  });
}

/**
 * /api/mcp: Host and Origin checked, then the bearer token (ours, unexpired, unrevoked, bound to
 * this resource), then the scopes of the tools called, then a stateless Streamable HTTP exchange.
 */
export async function handleMcpRequest(req: Request): Promise<Response> {
  const base = baseUrl();
  const { hosts, origins } = allowed(base);
  const host = req.headers.get("host");
  if (host && !hosts.has(host)) return jsonRpcError(403, `Host ${host} is not allowed.`);
  const origin = req.headers.get("origin");
  if (origin && !origins.has(origin)) return jsonRpcError(403, `Origin ${origin} is not allowed.`);

  const resource = mcpResource(base);
  const header = req.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) {
    return jsonRpcError(401, "Authorization needed: connect this agent with OAuth (see the resource metadata).", { "WWW-Authenticate": bearerChallenge(base) });
  }
  const db = getDb();
  const check = await verifyAccessToken(db, match[1], resource);
  if (!check.ok) return jsonRpcError(401, check.reason, { "WWW-Authenticate": bearerChallenge(base, { error: "invalid_token", description: check.reason }) });
  const { auth } = check;

  const missing = (await scopesNeeded(req)).filter((s) => !auth.scopes.includes(s));
  if (missing.length) {
    const scope = [...new Set([...auth.scopes, ...missing])].join(" ");
    return jsonRpcError(403, `This agent lacks the ${missing.join(", ")} scope; ask the owner to approve it.`, {
      "WWW-Authenticate": bearerChallenge(base, { error: "insufficient_scope", description: `Needs ${missing.join(" ")}`, scope }),
    });
  }

  const server = buildMcpServer({
    db,
    base,
    workspaceId: auth.workspaceId,
    grantId: auth.grantId,
    clientName: auth.clientName,
    scopes: auth.scopes as TMcpScope[],
    actor: { kind: "agent", id: auth.grantId, label: `${auth.clientName} (agent)` },
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req, { authInfo: { token: auth.token, clientId: auth.clientId, scopes: auth.scopes, expiresAt: auth.expiresAt, resource: auth.resource } });
  } finally {
    // Stateless: nothing outlives the request (the JSON response is already complete).
    void server.close().catch(() => undefined);
  }
}
