import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CallToolResult, UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { isAppError } from "@/server/errors";
import { SERVICE_NAME, SERVICE_VERSION } from "@/server/platform/version";
import { MCP_SERVER_NAME } from "@/server/docs/published/server-card";
import { awaitingCards } from "./cards";
import { MCP_TOOLS } from "./catalog";
import type { McpContext } from "./context";
import { MCP_RESOURCES } from "./resources";
import { annotationsOf, envelopeOf, type ToolDef } from "./tool";

const INSTRUCTIONS =
  "Read the agent policy resource before any write. Call workspace_get_summary first. Printing, approval and spending create confirmation cards that only the workspace owner can accept in the browser: tell the person what you requested, what changed and what awaits their confirmation (every tool result lists these), and give them the card's URL.";

function summaryText(r: { requested: string; changed: string[]; awaitingConfirmation: { title: string; url: string }[] }) {
  const lines = [`Requested: ${r.requested}`, `Changed: ${r.changed.length ? r.changed.join(" ") : "nothing."}`];
  lines.push(r.awaitingConfirmation.length ? `Awaiting confirmation: ${r.awaitingConfirmation.map((c) => `${c.title} (${c.url})`).join("; ")}` : "Awaiting confirmation: nothing.");
  return lines.join("\n");
}

/** Runs one tool: scope re-checked, the result wrapped in the requested/changed/awaiting envelope. */
async function callTool(ctx: McpContext, tool: ToolDef, args: unknown): Promise<CallToolResult> {
  if (!ctx.scopes.includes(tool.scope)) {
    return { isError: true, content: [{ type: "text", text: `This agent was not granted the ${tool.scope} scope that ${tool.name} needs.` }] };
  }
  try {
    const reply = await tool.run(ctx, args as never);
    const card = tool.kind === "request" ? (reply.result as { cardId: string; url: string; status: string; title: string }) : null;
    if (card && card.status === "pending" && ctx.urlElicitation) {
      // The person decides on the card's page; the client opens it for them and may retry this call afterwards.
      throw new UrlElicitationRequiredError(
        [{ mode: "url", elicitationId: card.cardId, url: card.url, message: `${card.title}: this waits for the workspace owner to accept it in the browser. Nothing has changed yet.` }],
        `A person must accept confirmation card ${card.cardId} before this happens.`,
      );
    }
    const structured = JSON.parse(JSON.stringify({ requested: reply.requested, changed: reply.changed, awaitingConfirmation: await awaitingCards(ctx), result: reply.result }));
    return { content: [{ type: "text", text: `${summaryText(structured)}\n\n${JSON.stringify(structured.result)}` }], structuredContent: structured };
  } catch (error) {
    if (isAppError(error)) {
      const fields = error.errors?.map((e) => ` ${e.pointer}: ${e.detail}`).join("") ?? "";
      return { isError: true, content: [{ type: "text", text: `${error.message}${fields}` }] };
    }
    throw error;
  }
}

/** One MCP server per request, for the agent and workspace its token names (stateless). */
export function buildMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, title: SERVICE_NAME, version: SERVICE_VERSION }, { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } });
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: envelopeOf(tool.result), annotations: annotationsOf(tool) },
      (args: unknown) => callTool(ctx, tool, args),
    );
  }
  for (const resource of MCP_RESOURCES) {
    server.registerResource(resource.name, resource.uri(ctx.base), { title: resource.title, description: resource.description, mimeType: resource.mimeType }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: resource.mimeType, text: resource.text(ctx.base) }],
    }));
  }
  return server;
}
