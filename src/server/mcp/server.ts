import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CallToolResult, UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { isAppError } from "@/server/errors";
import { appErrorFromDatabase } from "@/server/platform/database-errors";
import { findUnstorableText } from "@/server/platform/stored-text";
import { SERVICE_NAME, SERVICE_VERSION } from "@/server/platform/version";
import { MCP_SERVER_NAME } from "@/server/docs/published/server-card";
import { MCP_CAPABILITIES } from "./capabilities";
import { awaitingCards } from "./cards";
import { MCP_TOOLS } from "./catalog";
import type { McpContext } from "./context";
import { defaultNextStep, toolError, toolErrorFromApp, toolErrorFromSdkMessage } from "./errors";
import { MCP_PROMPTS } from "./prompts";
import { MCP_RESOURCES } from "./resources";
import { annotationsOf, envelopeOf, toolDescription, toolMeta, type ToolDef } from "./tool";

const INSTRUCTIONS =
  "Read the agent policy resource before any write. Call workspace_get_summary first. Printing, approval and spending create confirmation cards that only the workspace owner can accept in the browser: tell the person what you requested, what changed and what awaits their confirmation (every tool result lists these), and give them the card's URL. Money is always in integer cents (fields named *Cents). Errors carry a stable code and the next step.";

function summaryText(r: { requested: string; changed: string[]; awaitingConfirmation: { title: string; url: string }[] }) {
  const lines = [`Requested: ${r.requested}`, `Changed: ${r.changed.length ? r.changed.join(" ") : "nothing."}`];
  lines.push(r.awaitingConfirmation.length ? `Awaiting confirmation: ${r.awaitingConfirmation.map((c) => `${c.title} (${c.url})`).join("; ")}` : "Awaiting confirmation: nothing.");
  return lines.join("\n");
}

/** Runs one tool: the result wrapped in the requested/changed/awaiting envelope, or a coded error with the next step. */
async function callTool(ctx: McpContext, tool: ToolDef, args: unknown): Promise<CallToolResult> {
  if (!ctx.scopes.includes(tool.scope)) {
    return toolError({ code: "insufficient_scope", message: `This agent was not granted the ${tool.scope} scope that ${tool.name} needs.`, nextStep: `Ask the owner to reconnect this agent with the ${tool.scope} scope.` });
  }
  // Text no service can store (NUL, lone surrogates), anywhere in the arguments: refused before any tool runs.
  const unstorable = findUnstorableText(args);
  if (unstorable) {
    return toolError({ code: "invalid_argument", message: `${unstorable.detail} Nothing was changed.`, nextStep: defaultNextStep.invalid_argument, fields: [{ pointer: unstorable.pointer, detail: unstorable.detail }] });
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
    const images = (reply.images ?? []).map((i) => ({ type: "image" as const, data: i.data, mimeType: i.mimeType }));
    return { content: [{ type: "text", text: `${summaryText(structured)}\n\n${JSON.stringify(structured.result)}` }, ...images], structuredContent: structured };
  } catch (error) {
    if (error instanceof UrlElicitationRequiredError) throw error;
    if (isAppError(error)) return toolErrorFromApp(error, tool.errorHints);
    // A database failure the call caused (a concurrent change, a value PostgreSQL refuses): its code, never its text.
    const caused = appErrorFromDatabase(error);
    if (caused) {
      console.warn(`[mcp] ${tool.name}: ${caused.code} from the database`, error);
      return toolErrorFromApp(caused, tool.errorHints);
    }
    // Never the raw text of an unexpected failure (it may be a database message): a code and a sentence; the detail goes to the log.
    console.error(`[mcp] ${tool.name} failed`, error);
    return toolError({ code: "internal", message: "The tool failed on our side; nothing about the failure is shown.", nextStep: defaultNextStep.internal });
  }
}

/**
 * The SDK answers a call whose arguments fail the input schema (or an unknown tool) with a plain
 * text error; agents get the same coded error shape as every other failure instead.
 */
class WorkspaceMcpServer extends McpServer {}
const scopeOfTool = new Map<string, string>(MCP_TOOLS.map((t) => [t.name, t.scope]));
(WorkspaceMcpServer.prototype as unknown as { createToolError: (message: string) => CallToolResult }).createToolError = (message) => toolErrorFromSdkMessage(message, (name) => scopeOfTool.get(name));

/**
 * One MCP server per request, for the agent and workspace its token names (stateless). It lists
 * only the tools the token's scopes allow; a call to another tool is refused by the HTTP door
 * with 403 insufficient_scope before it gets here (and, here, as an insufficient_scope error).
 */
export function buildMcpServer(ctx: McpContext): McpServer {
  const server = new WorkspaceMcpServer({ name: MCP_SERVER_NAME, title: SERVICE_NAME, version: SERVICE_VERSION }, { instructions: INSTRUCTIONS, capabilities: MCP_CAPABILITIES });
  for (const tool of MCP_TOOLS) {
    const registered = server.registerTool(
      tool.name,
      { title: tool.title, description: toolDescription(tool), inputSchema: tool.input, outputSchema: envelopeOf(tool.result), annotations: annotationsOf(tool), _meta: toolMeta(tool) },
      (args: unknown) => callTool(ctx, tool, args),
    );
    // Outside the token's scopes: not listed, and a call is refused naming the scope it needs.
    if (!ctx.scopes.includes(tool.scope)) registered.disable();
  }
  for (const resource of MCP_RESOURCES) {
    server.registerResource(resource.name, resource.uri(ctx.base), { title: resource.title, description: resource.description, mimeType: resource.mimeType }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: resource.mimeType, text: resource.text(ctx.base) }],
    }));
  }
  for (const prompt of MCP_PROMPTS) {
    server.registerPrompt(prompt.name, { title: prompt.title, description: prompt.description, argsSchema: prompt.args }, (args: Record<string, string | undefined>) => ({
      description: prompt.description,
      messages: [{ role: "user", content: { type: "text", text: prompt.text(args) } }],
    }));
  }
  // The SDK marks tools and prompts as list-changing when they are registered; this server is
  // stateless and never sends those notifications, so it says so (as its server card does).
  server.server.registerCapabilities(MCP_CAPABILITIES);
  return server;
}
