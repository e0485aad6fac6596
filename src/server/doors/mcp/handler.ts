import "server-only";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getDb } from "@/server/ground/db";
import { mcpResource } from "@/server/records/oauth/config";
import { bearerChallenge } from "@/server/records/oauth/metadata";
import { MCP_SCOPES, type TMcpScope } from "@/server/records/oauth/scopes";
import { verifyAccessToken } from "@/server/records/oauth/tokens";
import { baseUrl } from "@/server/ground/platform/base-url";
import { declaredLength, dropBody, readCappedBody } from "@/server/ground/platform/capped-body";
import { MCP_TOOLS } from "./catalog";
import { LOGGING_TOOLS, parseLogLevel } from "./logging";
import { buildMcpServer } from "./server";
import { selectionOf } from "./toolsets";

/** Largest JSON-RPC request accepted (tool arguments are small; this bounds what is parsed). */
const MCP_BODY_LIMIT_BYTES = 256 * 1024;
/** contacts_import takes a CSV as text (escaped in JSON): an authenticated call to it alone may be this large. */
const MCP_IMPORT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;
const LARGE_BODY_TOOLS = new Set(["contacts_import"]);
const TOO_LARGE = `A request to the MCP server has at most ${MCP_BODY_LIMIT_BYTES / 1024} KiB (a contacts_import call alone: ${MCP_IMPORT_BODY_LIMIT_BYTES / 1024 / 1024} MiB).`;

const scopeOfTool = new Map<string, TMcpScope>(MCP_TOOLS.map((t) => [t.name, t.scope]));

/** Hosts and origins the endpoint answers (DNS-rebinding protection): the base address, loopback on its port, and MCP_ALLOWED_HOSTS / MCP_ALLOWED_ORIGINS. */
function allowed(base: string) {
  const url = new URL(base);
  const port = url.port ? `:${url.port}` : "";
  const hosts = new Set([
    url.host,
    `localhost${port}`,
    `127.0.0.1${port}`,
    `[::1]${port}`,
    ...(process.env.MCP_ALLOWED_HOSTS ?? "")
      .split(",")
      .map((h) => h.trim())
      .filter(Boolean),
  ]);
  const origins = new Set([
    url.origin,
    ...(process.env.MCP_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
  ]);
  return { hosts, origins };
}

function jsonRpcError(status: number, message: string, headers: Record<string, string> = {}) {
  return Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status, headers });
}

type RpcMessage = { method?: string; params?: { name?: string; capabilities?: Record<string, unknown> } };

/** A POST's body, read once and at most the caller's cap of it, and what it holds. */
type Body =
  | { kind: "none" }
  | { kind: "not_json" }
  | { kind: "too_large" }
  | { kind: "unreadable" }
  | { kind: "json"; value: unknown; messages: RpcMessage[] };

/** The headers of an answer given without reading the body: it is read and dropped, or, too long for that, the connection is closed. */
const closeUnlessDropped = (req: Request): Record<string, string> => (dropBody(req) ? {} : { Connection: "close" });

/**
 * Reads the body of a POST once, whatever its framing (Content-Length or chunked): reading stops
 * at the cap. It is parsed here, a UTF-8 byte-order mark allowed, and the same parsed value goes
 * to the transport: the scope check and the server see the same messages.
 */
async function readBody(req: Request, cap: number): Promise<Body> {
  if (req.method !== "POST") return { kind: "none" };
  // Media types are case-insensitive and may carry parameters (charset).
  if ((req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase() !== "application/json")
    return { kind: "not_json" };
  const bytes = await readCappedBody(req, cap, "drain").catch(() => undefined);
  if (bytes === undefined) return { kind: "unreadable" };
  if (bytes === null) return { kind: "too_large" };
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    // Past the usual limit, only a well-formed call of a file-taking tool is let through.
    return bytes.byteLength > MCP_BODY_LIMIT_BYTES ? { kind: "too_large" } : { kind: "unreadable" };
  }
  const messages = (Array.isArray(value) ? value : [value]).filter(
    (m): m is RpcMessage => typeof m === "object" && m !== null,
  );
  // Past the usual limit only for a call of a tool that takes a file as text, alone.
  const large =
    messages.length === 1 &&
    messages[0].method === "tools/call" &&
    LARGE_BODY_TOOLS.has(messages[0].params?.name ?? "");
  if (bytes.byteLength > MCP_BODY_LIMIT_BYTES && !large) return { kind: "too_large" };
  return { kind: "json", value, messages };
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
  const tools = selectionOf(req);
  if ("error" in tools) return jsonRpcError(400, tools.error, closeUnlessDropped(req));

  // Only an authenticated caller may send more than the usual limit (a CSV for contacts_import).
  if (declaredLength(req) > (req.headers.get("authorization") ? MCP_IMPORT_BODY_LIMIT_BYTES : MCP_BODY_LIMIT_BYTES))
    return jsonRpcError(413, TOO_LARGE, closeUnlessDropped(req));

  const resource = mcpResource(base);
  const header = req.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) {
    // The scopes a workspace agent usually needs: the person can untick any of them on the consent page.
    return jsonRpcError(401, "Authorization needed: connect this agent with OAuth (see the resource metadata).", {
      "WWW-Authenticate": bearerChallenge(base, { scope: MCP_SCOPES.join(" ") }),
    });
  }
  const db = getDb();
  const check = await verifyAccessToken(db, match[1], resource);
  if (!check.ok)
    return jsonRpcError(401, check.reason, {
      "WWW-Authenticate": bearerChallenge(base, { error: "invalid_token", description: check.reason }),
    });
  const { auth } = check;

  // Only a token that may import contacts gets the larger cap, and only a lone contacts_import call
  // may use it (checked once parsed); any other token's larger body is refused before it is read.
  const cap = auth.scopes.includes("contacts:write") ? MCP_IMPORT_BODY_LIMIT_BYTES : MCP_BODY_LIMIT_BYTES;
  if (declaredLength(req) > cap) return jsonRpcError(413, TOO_LARGE, closeUnlessDropped(req));
  const body = await readBody(req, cap);
  // The client may still be sending: what is left is read and dropped (readCappedBody), so the
  // answer reaches it before the connection is closed (a connection closed on unread data is reset).
  if (body.kind === "too_large") return jsonRpcError(413, TOO_LARGE);
  if (body.kind === "not_json")
    return jsonRpcError(
      415,
      "Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.",
      closeUnlessDropped(req),
    );
  if (body.kind === "unreadable")
    return Response.json(
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not UTF-8 JSON." }, id: null },
      { status: 400 },
    );
  const messages = body.kind === "json" ? body.messages : [];
  const missing = scopesNeeded(messages).filter((s) => !auth.scopes.includes(s));
  if (missing.length) {
    const scope = [...new Set([...auth.scopes, ...missing])].join(" ");
    return jsonRpcError(403, `This agent lacks the ${missing.join(", ")} scope; ask the owner to approve it.`, {
      "WWW-Authenticate": bearerChallenge(base, {
        error: "insufficient_scope",
        description: `Needs ${missing.join(" ")}`,
        scope,
      }),
    });
  }

  // The server is stateless: what the client can do is remembered on its grant from initialize.
  const init = messages.find((m) => m.method === "initialize");
  let urlElicitation = auth.urlElicitation;
  if (init) {
    // Only what the server acts on is kept: any other member (hostile keys, NUL) never reaches the database.
    const capabilities = (init.params?.capabilities ?? {}) as { elicitation?: { url?: unknown } } | null;
    urlElicitation = Boolean(
      capabilities &&
        typeof capabilities === "object" &&
        capabilities.elicitation &&
        typeof capabilities.elicitation === "object" &&
        capabilities.elicitation.url,
    );
    await db.oAuthGrant.update({
      where: { id: auth.grantId },
      data: { clientCapabilities: urlElicitation ? { elicitation: { url: {} } } : {} },
    });
  }

  const logLevel = parseLogLevel(auth.mcpLogLevel);
  const server = buildMcpServer({
    db,
    base,
    workspaceId: auth.workspaceId,
    grantId: auth.grantId,
    clientName: auth.clientName,
    scopes: auth.scopes as TMcpScope[],
    role: auth.role,
    actor: { kind: "agent", id: auth.grantId, label: `${auth.clientName} (agent)` },
    urlElicitation,
    tools,
    logLevel,
    saveLogLevel: async (level) => {
      await db.oAuthGrant.update({ where: { id: auth.grantId }, data: { mcpLogLevel: level } });
    },
  });
  // A call that may send log notifications (a long job, a client that set a level) is answered as
  // an event stream, the notifications before the result; every other answer is plain JSON.
  const streaming =
    logLevel !== null && messages.some((m) => m.method === "tools/call" && LOGGING_TOOLS.has(m.params?.name ?? ""));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !streaming,
  });
  await server.connect(transport);
  // Stateless: nothing outlives the request (a JSON answer is complete here; a stream once it ends).
  const close = () => void server.close().catch(() => undefined);
  let response: Response;
  try {
    response = await transport.handleRequest(req, {
      authInfo: {
        token: auth.token,
        clientId: auth.clientId,
        scopes: auth.scopes,
        expiresAt: auth.expiresAt,
        resource: auth.resource,
      },
      ...(body.kind === "json" ? { parsedBody: body.value } : {}),
    });
  } catch (error) {
    close();
    throw error;
  }
  if (!streaming || !response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
    close();
    return response;
  }
  const closeAtEnd = new TransformStream<Uint8Array, Uint8Array>({ flush: close });
  return new Response(response.body.pipeThrough(closeAtEnd), { status: response.status, headers: response.headers });
}
