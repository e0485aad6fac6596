import { z } from "zod";
import { templateText } from "@/server/programme/designs/schema";
import { ZMailabilityReason } from "@/server/programme/mailability/reasons";

export const DRAFT_FILTERS = ["overflowing", "missing_data", "edited", "unmailable"] as const;
export const ZDraftFilter = z
  .enum(DRAFT_FILTERS)
  .describe(
    "overflowing: text did not fit; missing_data: an empty merge field with no fallback; edited: own copy; unmailable: recipient cannot be mailed.",
  );

/** Whether a draft's recipient can be mailed now (the fields drafts_list and drafts_get add to each draft). */
export const ZDraftMailabilityFields = {
  mailable: z
    .boolean()
    .describe(
      "Whether the recipient can be mailed now: the mailability audit's verdict for this campaign, as the lifecycle's suppression and address gates judge it. False: their piece is skipped when they enter.",
    ),
  unmailableReasons: z
    .array(ZMailabilityReason)
    .describe("The audit's reasons that stop the piece (empty when mailable); /docs/mailability explains each."),
  unmailableDetail: z
    .string()
    .nullable()
    .describe('The same in words, e.g. "no street address, no city"; null when mailable.'),
};

/** One recipient's own copy; an empty string returns that block to the campaign's text. */
export const ZDraftBlocks = z
  .object({
    headline: templateText("The headline", 200),
    body: templateText("The message", 3000),
    signOff: templateText("The sign-off", 200),
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, "Give at least one of headline, body or signOff.");
export type TDraftBlocks = z.infer<typeof ZDraftBlocks>;

export const ZDraftId = z.string().min(1).max(64).describe("The draft's id (drf_…).");

export const ZDraftIssue = z.object({
  block: z.enum(["headline", "body", "signOff", "cta", "address", "returnAddress", "companyName", "recipient"]),
  kind: z.enum(["overflow", "shrunk", "missing_glyphs", "missing_data", "po_box"]),
  message: z.string(),
  chars: z
    .array(z.string())
    .optional()
    .describe("For missing_glyphs: the characters no bundled font can print (they would print as empty boxes)."),
});
