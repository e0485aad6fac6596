import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { PrismaClient } from "@/generated/prisma/client";
import type { MembershipRole } from "@/generated/prisma/enums";
import { TOOL_ERROR_META_KEY, type ToolErrorBody } from "@/server/doors/mcp/errors";
import { buildMcpServer } from "@/server/doors/mcp/server";
import type { ToolSelection } from "@/server/doors/mcp/toolsets";
import { MCP_SCOPES, type TMcpScope } from "@/server/records/oauth/scopes";

/** An MCP client (the SDK's own) connected over an in-memory transport to the server an agent token of this workspace would get. */
export async function agentFor(
  db: PrismaClient,
  workspaceId: string,
  scopes: TMcpScope[] = [...MCP_SCOPES],
  urlElicitation = false,
  role: MembershipRole = "owner",
  tools?: ToolSelection,
) {
  const server = buildMcpServer({
    db,
    base: "https://dm.example",
    workspaceId,
    grantId: "grt_test",
    clientName: "Test agent",
    scopes,
    role,
    actor: { kind: "agent", id: "grt_test", label: "Test agent (agent)" },
    urlElicitation,
    tools,
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(b);
  return client;
}

type CallResult = Awaited<ReturnType<Client["callTool"]>>;

/** The machine-readable error of a failed tool call (code, message, next step), or undefined. */
export const toolErrorOf = (r: CallResult) =>
  (r._meta as Record<string, ToolErrorBody> | undefined)?.[TOOL_ERROR_META_KEY];

/** The `result` of a successful tool call. */
export function toolResult<T = Record<string, unknown>>(r: CallResult): T {
  if (r.isError) throw new Error(`tool failed: ${JSON.stringify(r.content)}`);
  return (r.structuredContent as { result: T }).result;
}

/** The `result` of a call that refused part of what it was asked (isError true, the refused rows in the result). */
export function refusedResult<T = Record<string, unknown>>(r: CallResult): T {
  if (!r.isError || !r.structuredContent) throw new Error(`expected a partly refused call: ${JSON.stringify(r)}`);
  return (r.structuredContent as { result: T }).result;
}
