import { z } from "zod";
import { templateText } from "@/server/programme/designs/schema";
import { ZJobView } from "@/server/records/jobs/schema";
import { ZMailabilityReason } from "@/server/programme/mailability/reasons";

export const DRAFT_FILTERS = ["overflowing", "missing_data", "edited", "unmailable"] as const;
export const ZDraftFilter = z
  .enum(DRAFT_FILTERS)
  .describe(
    "overflowing: text that did not fit its box; missing_data: a merge field empty with no fallback; edited: rewritten for this recipient; unmailable: its recipient cannot be mailed.",
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

export const ZDraftRow = z.object({
  id: z.string(),
  contactId: z.string(),
  contactName: z.string(),
  company: z.string().nullable(),
  headline: z.string().describe("The headline as printed for this recipient."),
  edited: z.boolean(),
  overflowing: z.boolean(),
  missingData: z.boolean(),
  missingFields: z.array(z.string()),
  specimen: z.boolean().describe("Carries the 'Specimen — not mailed' mark (free audit plan)."),
  pages: z.number().int(),
  pdfBytes: z.number().int(),
  renderedAt: z.date(),
  ...ZDraftMailabilityFields,
});

export const ZDraftSummary = z.object({
  total: z.number().int(),
  edited: z.number().int(),
  overflowing: z.number().int(),
  missingData: z.number().int(),
  outOfDate: z
    .number()
    .int()
    .describe(
      "Drafts to generate again, each counted once: rendered before the campaign, its design or the brand kit last changed (inputsChanged), or whose recipient changed since (recipientChanged).",
    ),
  inputsChanged: z
    .number()
    .int()
    .describe("Drafts rendered before the campaign, its design or the brand kit last changed."),
  recipientChanged: z
    .number()
    .int()
    .describe(
      "Drafts whose recipient changed since they were rendered (address, name, title, company or custom fields now print differently). Once live, each such recipient's piece is rendered again when they enter.",
    ),
  recipientChangedSentence: z
    .string()
    .nullable()
    .describe(
      '"2 drafts are out of date: their recipient changed since they were made; generate again to review them." Null when none changed.',
    ),
  audience: z.number().int().describe("Contacts in the campaign's audience (one draft each)."),
  mailable: z
    .number()
    .int()
    .describe(
      "Drafts whose recipient can be mailed now (the mailability audit's verdict, as the lifecycle's gates judge it).",
    ),
  unmailable: z
    .number()
    .int()
    .describe(
      "Drafts whose recipient cannot be mailed now: their piece is skipped when they enter (drafts_list filter unmailable).",
    ),
  unmailableRecipients: z
    .array(
      z.object({
        draftId: z.string(),
        contactId: z.string(),
        contactName: z.string(),
        reasons: z.array(ZMailabilityReason),
        detail: z.string(),
      }),
    )
    .describe("The first few of them, with their reasons."),
  mailabilitySentence: z
    .string()
    .nullable()
    .describe(
      '"7 of 8 drafts can be mailed; 1 recipient cannot and is skipped when they enter (Li Wei: no street address, …)." Null when every draft can be mailed.',
    ),
  job: ZJobView.nullable().describe("The latest drafts_generate job of the campaign."),
});
