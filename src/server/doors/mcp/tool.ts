import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { CARD_EXPIRY_RULE } from "@/server/programme/confirmations/expiry";
import type { TMcpScope } from "@/server/records/oauth/scopes";
import type { McpContext } from "./context";
import type { TToolErrorCode } from "./errors";

/**
 * How a tool acts: `read` changes nothing; `write` changes drafts only; `request` creates a
 * confirmation card and changes nothing else until a person accepts it.
 */
export type ToolKind = "read" | "write" | "request";

export interface ToolReply<R> {
  /** What the agent asked for, in one sentence. */
  requested: string;
  /** What changed because of this call (empty when nothing did). */
  changed: string[];
  result: R;
  /**
   * Part of what was asked was refused (the refused rows are in the result): the call answers
   * with isError true and the whole result, so an agent cannot take it for a full success.
   */
  refused?: boolean;
  /** Pictures the agent should see (e.g. a rendered proof), sent as MCP image content beside the text. */
  images?: { data: string; mimeType: "image/png" }[];
}

export interface ToolDef<I extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  name: `${string}_${string}`;
  title: string;
  description: string;
  scope: TMcpScope;
  kind: ToolKind;
  /** A repeated call with the same arguments has no further effect. */
  idempotent: boolean;
  /** It changes or removes what exists (not only adds): MCP's destructiveHint. */
  destructive?: boolean;
  /**
   * On a live campaign it can print, mail and spend (up to the budget a person approved) without a
   * further card: the world outside this service changes. Sets destructiveHint and openWorldHint.
   */
  mails?: boolean;
  input: I;
  result: R;
  /** Dates in the result become ISO strings; the result is checked against `result` by the SDK. */
  run: (ctx: McpContext, args: z.output<I>) => Promise<ToolReply<unknown>>;
  /** The next step this tool suggests for an error code, when the service gave none. */
  errorHints?: Partial<Record<TToolErrorCode, string>>;
}

export function defineTool<I extends z.ZodObject, R extends z.ZodType>(def: ToolDef<I, R>): ToolDef<I, R> {
  return def;
}

/** The description agents see: the tool's own, then the scope it needs and what kind of call it is. */
export function toolDescription(tool: Pick<ToolDef, "description" | "scope" | "kind" | "mails">): string {
  const kind = tool.mails
    ? "Writes, and on a live campaign prints, mails and spends (within the approved budget) with no further card."
    : {
        read: "Reads only.",
        write: "Writes; never mails or spends.",
        request: "Only creates a card for a person to accept.",
      }[tool.kind];
  return `${tool.description} Scope: ${tool.scope}. ${kind}`;
}

/** The scope a tool needs, machine-readable, in its `_meta` (its kind is in its annotations and description; both in full in /agents/tools.json). */
export function toolMeta(tool: Pick<ToolDef, "scope">) {
  return { "io.direct-mail-programme/scope": tool.scope };
}

/**
 * MCP's hints, each only where it differs from the protocol's default (readOnlyHint false,
 * destructiveHint true, idempotentHint false, openWorldHint true); a read-only tool's other hints
 * mean nothing. The title is the tool's own.
 */
export function annotationsOf(tool: Pick<ToolDef, "kind" | "idempotent" | "destructive" | "mails">): ToolAnnotations {
  if (tool.kind === "read") return { readOnlyHint: true, openWorldHint: false };
  const destructive = Boolean(tool.destructive || tool.mails);
  return {
    ...(destructive ? {} : { destructiveHint: false }),
    ...(tool.idempotent ? { idempotentHint: true } : {}),
    ...(tool.mails ? {} : { openWorldHint: false }),
  };
}

/** A confirmation card as a tool result names it, with the page where the person decides. */
export const ZCardRef = z.object({
  cardId: z.string(),
  kind: z.enum([
    "go_live",
    "approve_copy",
    "approve_piece",
    "print",
    "raise_budget",
    "spend",
    "change_plan",
    "resume_campaign",
  ]),
  title: z.string(),
  status: z.enum(["pending", "accepted", "declined", "expired"]),
  expiresAt: z.string().describe(CARD_EXPIRY_RULE),
  url: z.string().describe("The confirmations inbox, where an approver, admin or the owner decides this card."),
});

/** The envelope of every tool result. */
export function envelopeOf(result: z.ZodType) {
  return z.object({
    requested: z.string().describe("What was requested."),
    changed: z.array(z.string()).describe("What changed because of this call; empty when nothing did."),
    awaitingConfirmation: z
      .array(ZCardRef)
      .describe("Requests of this agent still waiting for a person to accept them in the browser."),
    result,
  });
}
