import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import type { z } from "zod";
import { roleAllows } from "@/server/ground/access/roles";
import type { McpContext } from "./context";
import type { PromptDef } from "./prompts";

/**
 * completion/complete for the prompt arguments that name something in the workspace: what the
 * caller has typed matches the start of an id or any part of a name (case ignored), and the
 * answer is that workspace's own ids (or names), at most 100 of them (the SDK sends the first 100
 * and says whether there are more). A connection that may not read the workspace gets none.
 */
const SCAN = 1000;

type Completer = (ctx: McpContext, typed: string) => Promise<string[]>;

const matching = (typed: string) => {
  const t = typed.trim().slice(0, 120);
  return t ? { OR: [{ id: { startsWith: t } }, { name: { contains: t, mode: "insensitive" as const } }] } : {};
};

/** The completers, by argument name: every prompt argument of that name completes the same way. */
export const COMPLETERS: Record<string, Completer> = {
  audienceId: async (ctx, typed) =>
    (
      await ctx.db.audience.findMany({
        where: { workspaceId: ctx.workspaceId, ...matching(typed) },
        orderBy: [{ name: "asc" }, { id: "asc" }],
        select: { id: true },
        take: SCAN,
      })
    ).map((a) => a.id),
  audienceName: async (ctx, typed) =>
    (
      await ctx.db.audience.findMany({
        where: {
          workspaceId: ctx.workspaceId,
          ...(typed.trim() ? { name: { contains: typed.trim().slice(0, 120), mode: "insensitive" as const } } : {}),
        },
        orderBy: [{ name: "asc" }, { id: "asc" }],
        select: { name: true },
        take: SCAN,
      })
    ).map((a) => a.name),
  campaignId: async (ctx, typed) =>
    (
      await ctx.db.campaign.findMany({
        where: { workspaceId: ctx.workspaceId, ...matching(typed) },
        orderBy: [{ createdAt: "desc" }, { id: "asc" }],
        select: { id: true },
        take: SCAN,
      })
    ).map((c) => c.id),
  designId: async (ctx, typed) =>
    (
      await ctx.db.design.findMany({
        where: { workspaceId: ctx.workspaceId, ...matching(typed) },
        orderBy: [{ name: "asc" }, { id: "asc" }],
        select: { id: true },
        take: SCAN,
      })
    ).map((d) => d.id),
};

const mayRead = (ctx: McpContext) => ctx.scopes.includes("workspace:read") && roleAllows(ctx.role, "read");

/**
 * A prompt's arguments for one connection: each that names something in the workspace is a fresh
 * copy marked completable with this connection's completer (the SDK reads the mark on the
 * optional argument and on the string inside it, so both carry it).
 */
export function promptArgsFor(prompt: PromptDef, ctx: McpContext): Record<string, z.ZodOptional<z.ZodString>> {
  return Object.fromEntries(
    Object.entries(prompt.args).map(([name, arg]) => {
      const completer = COMPLETERS[name];
      if (!completer) return [name, arg];
      const complete = async (typed: string | undefined): Promise<string[]> =>
        mayRead(ctx) ? completer(ctx, typed ?? "") : [];
      const inner = completable(arg.unwrap().clone(), complete);
      return [name, completable(inner.optional().describe(arg.description ?? name), complete)];
    }),
  );
}
