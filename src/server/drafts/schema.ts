import { z } from "zod";
import { templateText } from "@/server/designs/schema";
import { ZJobView } from "@/server/jobs/schema";

export const DRAFT_FILTERS = ["overflowing", "missing_data", "edited"] as const;
export const ZDraftFilter = z.enum(DRAFT_FILTERS).describe("overflowing: text that did not fit its box; missing_data: a merge field empty with no fallback; edited: rewritten for this recipient.");

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
  chars: z.array(z.string()).optional().describe("For missing_glyphs: the characters no bundled font can print (they would print as empty boxes)."),
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
});

export const ZDraftSummary = z.object({
  total: z.number().int(),
  edited: z.number().int(),
  overflowing: z.number().int(),
  missingData: z.number().int(),
  outOfDate: z.number().int().describe("Drafts rendered before the campaign, its design or the brand kit last changed."),
  audience: z.number().int().describe("Contacts in the campaign's audience (one draft each)."),
  job: ZJobView.nullable().describe("The latest drafts_generate job of the campaign."),
});
