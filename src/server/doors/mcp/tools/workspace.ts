import { z } from "zod";
import { getWorkspaceSummary } from "@/server/records/workspaces/service";
import { defineTool } from "../tool";

export const workspaceTools = [
  defineTool({
    name: "workspace_get_summary",
    title: "Workspace summary",
    description:
      "The workspace this agent acts in: plan (the free audit plan does all but mail), whether mailing is on, counts of what it holds. Call this first.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({}),
    result: z.object({
      id: z.string(),
      name: z.string(),
      plan: z.enum(["audit", "paid"]).describe("audit: the free plan, nothing is mailed; paid: mailing is on."),
      mailingEnabled: z.boolean(),
      programmeHoldoutShare: z
        .number()
        .describe("Share of accounts no campaign mails (0 to 0.5), so results compare all mail against none."),
      counts: z.object({
        contacts: z.number().int(),
        accounts: z.number().int(),
        audiences: z.number().int(),
        activeApiKeys: z.number().int(),
        piecesMailed: z
          .number()
          .int()
          .describe("Pieces mailed to real people: a real vendor's, printed with a live key."),
        piecesSimulated: z
          .number()
          .int()
          .describe(
            "Pieces that went through every step but reached nobody's mailbox: the sandbox's, and a vendor's test-mode ones. Never call these mailed.",
          ),
        campaigns: z.object({
          draft: z.number().int(),
          live: z.number().int(),
          paused: z.number().int(),
          ended: z.number().int(),
        }),
      }),
    }),
    run: async (ctx) => ({
      requested: "The workspace summary.",
      changed: [],
      result: await getWorkspaceSummary(ctx.db, { workspaceId: ctx.workspaceId }),
    }),
  }),
];
