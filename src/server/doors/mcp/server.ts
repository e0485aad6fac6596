import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  ErrorCode,
  type LoggingLevel,
  McpError,
  UrlElicitationRequiredError,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isAppError } from "@/server/ground/errors";
import { appErrorFromDatabase } from "@/server/ground/platform/database-errors";
import { findUnstorableText } from "@/server/ground/platform/stored-text";
import { SERVICE_NAME, SERVICE_VERSION } from "@/server/ground/platform/version";
import { MCP_SERVER_NAME } from "@/server/doors/mcp/published/server-card";
import { CARD_EXPIRY_RULE } from "@/server/programme/confirmations/expiry";
import { MCP_CAPABILITIES } from "./capabilities";
import { awaitingCards } from "./cards";
import { MCP_TOOLS } from "./catalog";
import { toolAction } from "./tool-actions";
import { forbiddenSentence, leastRoleFor, roleAllows } from "@/server/ground/access/roles";
import { promptArgsFor } from "./completions";
import type { McpContext } from "./context";
import { logPasses, MCP_LOG_LEVELS, parseLogLevel } from "./logging";
import { defaultNextStep, toolError, toolErrorDescriptions, toolErrorFromApp } from "./errors";
import { MCP_PROMPTS } from "./prompts";
import { MCP_RESOURCES } from "./resources";
import { ENVELOPE_DESCRIPTION, findUnknownKeys, inputSchemaOf, toolsListFor } from "./listing";
import { envelopeOf, type ToolDef } from "./tool";
import { refusalOf } from "./toolsets";

/** logging/setLevel with any level: one that is not MCP's is refused here as invalid params (the SDK's own schema would answer an internal error). */
const SetLevelRequest = z.object({
  method: z.literal("logging/setLevel"),
  params: z.looseObject({ level: z.unknown() }),
});

const instructions = (base: string) =>
  `Read the agent policy resource before any write. Call workspace_get_summary first. Printing, approval and spending create confirmation cards that a person accepts in the browser (the owner, an admin, or an approver within their approval limit; a plan change only the owner): tell the person what you requested, what changed and what awaits their confirmation (every tool result lists these), and give them the card's URL. Money is always in integer cents (fields named *Cents). Errors carry a stable code and the next step; an argument the tool does not have is refused, never ignored. ${ENVELOPE_DESCRIPTION} ${CARD_EXPIRY_RULE} Each tool's result schema: ${base}/agents/tools.json.`;

function summaryText(r: {
  requested: string;
  changed: string[];
  awaitingConfirmation: { title: string; url: string }[];
}) {
  const lines = [`Requested: ${r.requested}`, `Changed: ${r.changed.length ? r.changed.join(" ") : "nothing."}`];
  lines.push(
    r.awaitingConfirmation.length
      ? `Awaiting confirmation: ${r.awaitingConfirmation.map((c) => `${c.title} (${c.url})`).join("; ")}`
      : "Awaiting confirmation: nothing.",
  );
  return lines.join("\n");
}

/** Runs one tool: the result wrapped in the requested/changed/awaiting envelope, or a coded error with the next step. */
async function callTool(ctx: McpContext, tool: ToolDef, args: unknown): Promise<CallToolResult> {
  const unselected = ctx.tools ? refusalOf(ctx.tools, tool) : null;
  if (unselected)
    return toolError({ code: "unknown_tool", message: unselected, nextStep: defaultNextStep.unknown_tool });
  if (!ctx.scopes.includes(tool.scope)) {
    return toolError({
      code: "insufficient_scope",
      message: `This agent was not granted the ${tool.scope} scope that ${tool.name} needs.`,
      nextStep: `Ask the owner to reconnect this agent with the ${tool.scope} scope.`,
    });
  }
  const action = toolAction(tool);
  if (!roleAllows(ctx.role, action)) {
    return toolError({
      // The role falls short, as a missing scope does: the connection cannot do this.
      code: "insufficient_scope",
      message: forbiddenSentence(ctx.role, action, "agent"),
      nextStep: `Ask someone with the ${leastRoleFor(action)} role or higher to do this, or to connect an agent themselves.`,
    });
  }
  // Text no service can store (NUL, lone surrogates), anywhere in the arguments: refused before any tool runs.
  const unstorable = findUnstorableText(args);
  if (unstorable) {
    return toolError({
      code: "invalid_argument",
      message: `${unstorable.detail} Nothing was changed.`,
      nextStep: defaultNextStep.invalid_argument,
      fields: [{ pointer: unstorable.pointer, detail: unstorable.detail }],
    });
  }
  const input = await checkArguments(tool, args ?? {});
  if ("error" in input) return input.error;
  try {
    const reply = await tool.run(ctx, input.args as never);
    const card =
      tool.kind === "request" ? (reply.result as { cardId: string; url: string; status: string; title: string }) : null;
    if (card && card.status === "pending" && ctx.urlElicitation) {
      // The person decides on the card's page; the client opens it for them and may retry this call afterwards.
      throw new UrlElicitationRequiredError(
        [
          {
            mode: "url",
            elicitationId: card.cardId,
            url: card.url,
            message: `${card.title}: this waits for an approver, an admin or the owner to accept it in the browser. Nothing has changed yet.`,
          },
        ],
        `A person must accept confirmation card ${card.cardId} before this happens.`,
      );
    }
    const structured = JSON.parse(
      JSON.stringify({
        requested: reply.requested,
        changed: reply.changed,
        awaitingConfirmation: await awaitingCards(ctx),
        result: reply.result,
      }),
    );
    const images = (reply.images ?? []).map((i) => ({ type: "image" as const, data: i.data, mimeType: i.mimeType }));
    return {
      ...(reply.refused ? { isError: true } : {}),
      content: [
        { type: "text", text: `${summaryText(structured)}\n\n${JSON.stringify(structured.result)}` },
        ...images,
      ],
      structuredContent: structured,
    };
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
    return toolError({
      code: "internal",
      message: "The tool failed on our side; nothing about the failure is shown.",
      nextStep: defaultNextStep.internal,
    });
  }
}

/**
 * The arguments against the tool's input: a key the tool does not have is refused naming it and
 * the keys that exist there (never dropped), then the schema's own rules, each failure a field.
 */
async function checkArguments(tool: ToolDef, args: unknown): Promise<{ args: unknown } | { error: CallToolResult }> {
  const unknown = findUnknownKeys(inputSchemaOf(tool), args);
  if (unknown.length) {
    const fields = unknown.map((u) => ({
      pointer: u.pointer,
      detail: `${tool.name} has no argument “${u.key}” here; the keys that exist here are: ${u.known.join(", ") || "none"}.`,
    }));
    const names = unknown.map((u) => `“${u.pointer.slice(1).replace(/\//g, ".")}”`).join(", ");
    return {
      error: toolError({
        code: "invalid_argument",
        message: `Unknown argument ${names}: ${tool.name} does not take ${unknown.length > 1 ? "them" : "it"}, so nothing was done. ${fields[0].detail}`,
        nextStep: "Use only the keys listed (names are case-sensitive) and call again.",
        fields,
      }),
    };
  }
  const parsed = await tool.input.safeParseAsync(args);
  if (parsed.success) return { args: parsed.data };
  const fields = parsed.error.issues.map((i) => ({
    pointer: `/${i.path.map((p) => escapePointerToken(String(p))).join("/")}`,
    detail: i.message,
  }));
  const detail = fields.map((f) => `${f.pointer === "/" ? "(arguments)" : f.pointer}: ${f.detail}`).join("; ");
  return {
    error: toolError({
      code: "invalid_argument",
      message: `The arguments do not match ${tool.name}'s input schema (${detail}). Nothing was changed.`,
      nextStep: defaultNextStep.invalid_argument,
      fields,
    }),
  };
}
const escapePointerToken = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

const TOOLS_BY_NAME = new Map<string, { tool: ToolDef; envelope: ReturnType<typeof envelopeOf> }>(
  MCP_TOOLS.map((t) => [t.name, { tool: t, envelope: envelopeOf(t.result) }]),
);

/**
 * tools/call: an unknown tool, a tool outside the token's scopes and arguments that break the
 * tool's input each get the coded error shape every other failure has (the SDK's own handler
 * answers them with plain text), and a result is checked against the tool's output schema.
 */
async function answerToolCall(ctx: McpContext, name: string, args: unknown): Promise<CallToolResult> {
  const entry = TOOLS_BY_NAME.get(name);
  if (!entry)
    return toolError({
      code: "unknown_tool",
      message: `Tool ${name} not found.`,
      nextStep: defaultNextStep.unknown_tool,
    });
  const internal = () =>
    toolError({ code: "internal", message: toolErrorDescriptions.internal, nextStep: defaultNextStep.internal });
  let result: CallToolResult;
  try {
    result = await callTool(ctx, entry.tool, args);
  } catch (error) {
    if (error instanceof UrlElicitationRequiredError) throw error;
    console.error(`[mcp] ${name} failed`, error);
    return internal();
  }
  if (result.isError) return result;
  const checked = await entry.envelope.safeParseAsync(result.structuredContent);
  if (checked.success) return result;
  // A result that breaks its own schema is our fault: log it, say nothing about it.
  console.error(`[mcp] ${name}: the result does not match the output schema: ${checked.error.message}`);
  return internal();
}

/**
 * One MCP server per request, for the agent and workspace its token names (stateless). It lists
 * only the tools the token's scopes allow; a call to another tool is refused by the HTTP door
 * with 403 insufficient_scope before it gets here (and, here, as an insufficient_scope error).
 */
export function buildMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: SERVICE_NAME, version: SERVICE_VERSION },
    { instructions: instructions(ctx.base), capabilities: MCP_CAPABILITIES },
  );
  for (const resource of MCP_RESOURCES) {
    server.registerResource(
      resource.name,
      resource.uri(ctx.base),
      { title: resource.title, description: resource.description, mimeType: resource.mimeType },
      async (uri) => ({
        contents: [{ uri: uri.href, mimeType: resource.mimeType, text: resource.text(ctx.base) }],
      }),
    );
  }
  for (const prompt of MCP_PROMPTS) {
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: promptArgsFor(prompt, ctx) },
      (args: Record<string, string | undefined>) => ({
        description: prompt.description,
        messages: [{ role: "user", content: { type: "text", text: prompt.text(args) } }],
      }),
    );
  }
  // The tools are this server's own: tools/list is compact and lists only the tools the token's
  // scopes allow (of the toolsets the connection named); a call to another is refused (callTool).
  const listing = toolsListFor(ctx.scopes, ctx.tools);
  server.server.setRequestHandler(ListToolsRequestSchema, () => listing);
  // logging/setLevel: the level is kept on the grant for the connection's later (stateless) requests.
  let logLevel: LoggingLevel | null = ctx.logLevel ?? null;
  server.server.setRequestHandler(SetLevelRequest, async (request) => {
    const level = parseLogLevel(request.params.level);
    if (!level)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown log level “${String(request.params.level).slice(0, 40)}”: the levels are ${MCP_LOG_LEVELS.join(", ")}.`,
      );
    logLevel = level;
    await ctx.saveLogLevel?.(level);
    return {};
  });
  // A tool's log notifications go with the answer to its call (the request's own stream).
  server.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const name = request.params.name;
    const log = async (level: LoggingLevel, data: { message: string } & Record<string, unknown>) => {
      if (!logPasses(logLevel, level)) return;
      await extra
        .sendNotification({ method: "notifications/message", params: { level, logger: name, data } })
        .catch(() => undefined);
    };
    return answerToolCall({ ...ctx, log }, name, request.params.arguments);
  });
  // The SDK marks prompts as list-changing when they are registered; this server is stateless and
  // never sends those notifications, so it says so (as its server card does).
  server.server.registerCapabilities(MCP_CAPABILITIES);
  return server;
}
