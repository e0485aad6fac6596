import { z } from "zod";
import { GIFT_ITEMS } from "@/server/programme/designs/gift-catalog";
import { AppError } from "@/server/ground/errors";

/** What the printed response link opens. */
export const RESPONSE_MODES = ["redirect", "landing_page", "gift_claim"] as const;
export type TResponseMode = (typeof RESPONSE_MODES)[number];
/** The one call to action of a personal landing page. */
export const PAGE_CALLS_TO_ACTION = ["reply", "meeting", "visit_site"] as const;
export type TPageCallToAction = (typeof PAGE_CALLS_TO_ACTION)[number];

export const CLAIM_WINDOW_DAYS = { min: 3, max: 90, default: 30 } as const;

const httpsUrl = z
  .string()
  .trim()
  .max(2000, "The meeting link has at most 2,000 characters.")
  .refine(
    (v) => /^https:\/\//i.test(v) && URL.canParse(v),
    "The meeting link must be an https URL, like https://cal.example/acme/intro.",
  );

/** The campaign fields of the hosted response page; each is optional in a draft and has a default. */
export const ZResponseSettings = z.object({
  responseMode: z
    .enum(RESPONSE_MODES, { error: `responseMode must be one of ${RESPONSE_MODES.join(", ")}.` })
    .optional(),
  pageCallToAction: z
    .enum(PAGE_CALLS_TO_ACTION, { error: `pageCallToAction must be one of ${PAGE_CALLS_TO_ACTION.join(", ")}.` })
    .optional(),
  meetingUrl: httpsUrl.nullable().optional(),
  giftOptions: z
    .array(z.enum(GIFT_ITEMS, { error: `Each gift option is one of ${GIFT_ITEMS.join(", ")}.` }))
    .max(GIFT_ITEMS.length)
    .refine((a) => new Set(a).size === a.length, "Name each gift option once.")
    .optional(),
  claimWindowDays: z
    .number()
    .int("The claim window is a whole number of days.")
    .min(CLAIM_WINDOW_DAYS.min, `The claim window is at least ${CLAIM_WINDOW_DAYS.min} days.`)
    .max(CLAIM_WINDOW_DAYS.max, `The claim window is at most ${CLAIM_WINDOW_DAYS.max} days.`)
    .optional(),
});

/**
 * Checks the response settings against the rest of the campaign (the draft as it will be after an
 * edit): a claim page and gift options belong to gift campaigns. Refuses with the field named.
 */
export function checkResponseSettings(c: {
  format: string;
  responseMode?: string | null;
  giftOptions?: string[] | null;
}) {
  const refuse = (pointer: string, detail: string) => {
    throw new AppError("validation_failed", detail, { errors: [{ pointer, detail }] });
  };
  if (c.responseMode === "gift_claim" && c.format !== "gift")
    refuse(
      "/responseMode",
      `A gift claim page needs a gift campaign; this one is a ${c.format}. Choose redirect or landing_page.`,
    );
  if ((c.giftOptions?.length ?? 0) > 0 && c.format !== "gift")
    refuse("/giftOptions", `Gift options belong to gift campaigns; this one is a ${c.format}.`);
}

/** What must be set before going live for the response the campaign chose (empty when nothing). */
export function responseGoLiveProblems(c: {
  responseMode: string;
  pageCallToAction: string;
  meetingUrl: string | null;
  destinationUrl: string | null;
}): string[] {
  const problems: string[] = [];
  if (needsDestination(c) && !c.destinationUrl) problems.push("set the destination URL that response links lead to");
  if (c.responseMode === "landing_page" && c.pageCallToAction === "meeting" && !c.meetingUrl)
    problems.push("set the meeting link the landing page opens");
  return problems;
}

/** Whether the campaign's response sends people to its destination URL. */
export const needsDestination = (c: { responseMode: string; pageCallToAction: string }) =>
  c.responseMode === "redirect" || (c.responseMode === "landing_page" && c.pageCallToAction === "visit_site");

/** One sentence on what the printed link opens, for the owner's pages. */
export function responseSummary(c: {
  responseMode: string;
  pageCallToAction: string;
  meetingUrl: string | null;
  giftOptions: string[];
  claimWindowDays: number;
}): string {
  if (c.responseMode === "gift_claim") {
    const gifts = c.giftOptions.length > 1 ? `a choice of ${c.giftOptions.length} gifts` : "the gift";
    return `The printed link opens a gift claim page: the recipient confirms or corrects the shipping address, with ${gifts}, or declines. Each gift ships only after a claim, within ${c.claimWindowDays} days.`;
  }
  if (c.responseMode === "landing_page") {
    const cta =
      c.pageCallToAction === "reply"
        ? "a reply form"
        : c.pageCallToAction === "meeting"
          ? `a meeting link${c.meetingUrl ? ` (${c.meetingUrl})` : ""}`
          : "a link to the destination site";
    return `The printed link opens a personal landing page with ${cta}.`;
  }
  return "The printed link goes straight to the destination URL, with sid added.";
}
