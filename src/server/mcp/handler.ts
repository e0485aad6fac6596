import "server-only";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getDb } from "@/server/db";
import { mcpResource } from "@/server/oauth/config";
import { bearerChallenge } from "@/server/oauth/metadata";
import type { TMcpScope } from "@/server/oauth/scopes";
import { verifyAccessToken } from "@/server/oauth/tokens";
import { baseUrl } from "@/server/platform/base-url";
import { readCappedBody } from "@/server/platform/capped-body";
import { MCP_TOOLS } from "./catalog";
import { buildMcpServer } from "./server";

/** Largest JSON-RPC request accepted (tool arguments are small; this bounds what is parsed). */
const MCP_BODY_LIMIT_BYTES = 256 * 1024;

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

type RpcMessage = { method?: string; params?: { name?: string; capabilities?: Record<string, unknown> } };

/** The JSON-RPC message(s) of a POST, read from a copy (the transport reads the body itself); null when the body is too large. */
async function readMessages(req: Request): Promise<RpcMessage[] | null> {
  if (req.method !== "POST") return [];
  const bytes = await readCappedBody(req.clone(), MCP_BODY_LIMIT_BYTES);
  if (!bytes) return null;
  try {
    const body = JSON.parse(bytes.toString("utf8"));
    return (Array.isArray(body) ? body : [body]).filter((m): m is RpcMessage => typeof m === "object" && m !== null);
  } catch {
    return [];
  }
}

/** The scopes that the tools called need. */
function scopesNeeded(messages: RpcMessage[]): TMcpScope[] {
  return messages.flatMap((m) => {
    const scope = m.method === "tools/call" && m.params?.name ? scopeOfTool.get(m.params.name) : undefined;
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

  if (Number(req.headers.get("content-length") ?? 0) > MCP_BODY_LIMIT_BYTES) return jsonRpcError(413, `A request to the MCP server has at most ${MCP_BODY_LIMIT_BYTES / 1024} KiB.`);

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

  const messages = await readMessages(req);
  if (messages === null) return jsonRpcError(413, `A request to the MCP server has at most ${MCP_BODY_LIMIT_BYTES / 1024} KiB.`);
  const missing = scopesNeeded(messages).filter((s) => !auth.scopes.includes(s));
  if (missing.length) {
    const scope = [...new Set([...auth.scopes, ...missing])].join(" ");
    return jsonRpcError(403, `This agent lacks the ${missing.join(", ")} scope; ask the owner to approve it.`, {
      "WWW-Authenticate": bearerChallenge(base, { error: "insufficient_scope", description: `Needs ${missing.join(" ")}`, scope }),
    });
  }

  // The server is stateless: what the client can do is remembered on its grant from initialize.
  const init = messages.find((m) => m.method === "initialize");
  let urlElicitation = auth.urlElicitation;
  if (init) {
    const capabilities = (init.params?.capabilities ?? {}) as Record<string, unknown> & { elicitation?: { url?: unknown } };
    await db.oAuthGrant.update({ where: { id: auth.grantId }, data: { clientCapabilities: capabilities as object } });
    urlElicitation = Boolean(capabilities.elicitation?.url);
  }

  const server = buildMcpServer({
    db,
    base,
    workspaceId: auth.workspaceId,
    grantId: auth.grantId,
    clientName: auth.clientName,
    scopes: auth.scopes as TMcpScope[],
    actor: { kind: "agent", id: auth.grantId, label: `${auth.clientName} (agent)` },
    urlElicitation,
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
