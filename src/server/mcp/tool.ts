import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { TMcpScope } from "@/server/oauth/scopes";
import type { McpContext } from "./context";

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
}

export interface ToolDef<I extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  name: `${string}_${string}`;
  title: string;
  description: string;
  scope: TMcpScope;
  kind: ToolKind;
  /** A repeated call with the same arguments has no further effect. */
  idempotent: boolean;
  input: I;
  result: R;
  /** Dates in the result become ISO strings; the result is checked against `result` by the SDK. */
  run: (ctx: McpContext, args: z.output<I>) => Promise<ToolReply<unknown>>;
}

export function defineTool<I extends z.ZodObject, R extends z.ZodType>(def: ToolDef<I, R>): ToolDef<I, R> {
  return def;
}

export function annotationsOf(tool: Pick<ToolDef, "title" | "kind" | "idempotent">): ToolAnnotations {
  return {
    title: tool.title,
    readOnlyHint: tool.kind === "read",
    destructiveHint: false,
    idempotentHint: tool.kind === "read" || tool.idempotent,
    openWorldHint: false,
  };
}

/** A confirmation card as a tool result names it, with the page where the person decides. */
export const ZCardRef = z.object({
  cardId: z.string(),
  kind: z.string(),
  title: z.string(),
  status: z.enum(["pending", "accepted", "declined", "expired"]),
  expiresAt: z.string(),
  url: z.string().describe("The owner's confirmations inbox, where the person accepts or declines this card."),
});

/** The envelope of every tool result. */
export function envelopeOf(result: z.ZodType) {
  return z.object({
    requested: z.string().describe("What was requested."),
    changed: z.array(z.string()).describe("What changed because of this call; empty when nothing did."),
    awaitingConfirmation: z.array(ZCardRef).describe("Requests of this agent still waiting for a person to accept them in the browser."),
    result,
  });
}
