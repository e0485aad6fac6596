import { z } from "zod";
import type { getCard } from "@/server/programme/confirmations/service";
import { cardRef } from "../cards";
import type { McpContext } from "../context";
import { ZCardRef } from "../tool";

export const ZCardDetail = ZCardRef.extend({
  summary: z.string().describe("What accepting it does, in plain words: what the person reads."),
  requestedBy: z.string(),
  campaignId: z.string().nullable().describe("The campaign it concerns (cmp_…), if any."),
  pieceId: z.string().nullable().describe("The mail piece it concerns (pc_…), if any."),
  costCents: z.number().int().nullable().describe("What it may cost, in cents."),
  recipients: z.number().int().nullable(),
  audienceContacts: z
    .number()
    .int()
    .nullable()
    .describe("For a go-live card: the audience's size it was made for; accepting re-checks it."),
  budgetAfterCents: z.number().int().nullable().describe("The campaign's budget once accepted, in cents."),
  warnings: z
    .array(z.string())
    .describe(
      "What will really happen if accepted: the free audit plan, no printer, no budget, a budget below the audience's cost, a design size not the contract's, unmailable contacts, missing glyphs.",
    ),
  sample: z
    .object({
      contactId: z.string(),
      draftId: z.string().nullable().describe("The recipient's draft (drf_…) when drafts were generated."),
      recipient: z.string(),
      headline: z.string(),
      body: z.string(),
      signOff: z.string(),
    })
    .nullable()
    .describe("For a go-live card: the copy it approves, filled for a sample recipient."),
  decidedAt: z.string().nullable(),
  executedAt: z.string().nullable(),
  executionError: z.string().nullable().describe("Why the accepted action could not run, if it could not."),
});

export function cardDetail(ctx: McpContext, card: Awaited<ReturnType<typeof getCard>>): z.infer<typeof ZCardDetail> {
  const params = (card.params ?? {}) as { warnings?: string[]; sample?: z.infer<typeof ZCardDetail>["sample"] };
  return {
    ...cardRef(ctx, card),
    summary: card.summary,
    requestedBy: card.requestedByLabel,
    campaignId: card.campaignId,
    pieceId: card.pieceId,
    costCents: card.costCents,
    recipients: card.recipients,
    audienceContacts:
      typeof (card.params as { audienceContacts?: unknown } | null)?.audienceContacts === "number"
        ? (card.params as { audienceContacts: number }).audienceContacts
        : null,
    budgetAfterCents: card.budgetAfterCents,
    warnings: params.warnings ?? [],
    sample: params.sample ?? null,
    decidedAt: card.decidedAt?.toISOString() ?? null,
    executedAt: card.executedAt?.toISOString() ?? null,
    executionError: card.executionError,
  };
}

export const waitNote = "Give the person the card's url and poll confirmations_get; a chat reply is never approval.";
