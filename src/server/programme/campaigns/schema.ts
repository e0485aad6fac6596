import { z } from "zod";
import { templateText } from "@/server/programme/designs/schema";
import { ZResponseSettings } from "@/server/programme/responses/page-settings";
import { isStorableTime, LATEST_TIMESTAMP } from "@/server/ground/http/fields";

const copyField = (label: string, max: number) => templateText(label, max);

/** Everything an owner (or an agent) may set on a draft campaign. */
export const ZCampaignDraft = z.object({
  name: z.string().trim().min(1, "Give the campaign a name.").max(120, "A name has at most 120 characters."),
  format: z.enum(["postcard", "letter", "handwritten", "gift"]),
  audienceId: z.string().min(1).max(64).nullable(),
  acceptsApiEvents: z.boolean(),
  entryPolicy: z
    .enum(["audience_at_go_live", "audience_joins", "none"])
    .optional()
    .describe(
      "Who the service enters itself (frozen at go-live): audience_at_go_live, the audience then; audience_joins, also later joiners; none (default): only entry events and campaigns_send_to.",
    ),
  sendAt: z
    .date()
    .refine((d) => isStorableTime(d.getTime()), `The send date must be before ${LATEST_TIMESTAMP.slice(0, 4)}.`)
    .nullable()
    .optional()
    .describe("When service-made entries are mailed (null: at once). Frozen at go-live."),
  reentryAfterDays: z
    .number()
    .int("Re-entry is a whole number of days.")
    .min(1, "Re-entry is at least 1 day after the last entry.")
    .max(3650, "Re-entry is at most 3650 days after the last entry.")
    .nullable()
    .optional()
    .describe(
      "Days after a contact's last entry before it may enter again; null (default): once only (a later entry is skipped already_enrolled). Frozen at go-live.",
    ),
  holdoutShare: z
    .number()
    .min(0, "The holdout share is at least 0.")
    .max(0.5, "The holdout share is at most 0.5 (half the accounts)."),
  frequencyCapContact: z.number().int().min(1).max(52).nullable(),
  frequencyCapAccount: z.number().int().min(1).max(500).nullable(),
  frequencyWindowDays: z
    .number()
    .int()
    .min(1, "The window is at least 1 day.")
    .max(365, "The window is at most 365 days."),
  reviewGate: z.enum(["none", "each_piece"]),
  budgetCents: z.number().int().min(0).max(100_000_000_00, "The budget is at most 100,000,000 USD."),
  fulfilmentContractId: z.string().min(1).max(64).nullable(),
  /** The design the campaign prints (dsn_…); null prints the format's standard layout with the brand kit. */
  designId: z
    .string()
    .min(1)
    .max(64)
    .nullable()
    .optional()
    .describe(
      "The design it prints (dsn_…, of its format); null: the format's standard layout with the brand kit. Copy set on the campaign replaces the design's text blocks.",
    ),
  destinationUrl: z
    .string()
    .trim()
    .max(2000)
    .refine(
      (v) => /^https?:\/\//.test(v) && URL.canParse(v),
      "The destination must be an http(s) URL, like https://acme.example/welcome.",
    )
    .nullable(),
  headline: copyField("The headline", 160),
  bodyTemplate: copyField("The message", 2400),
  signOff: copyField("The sign-off", 160),
  endsAt: z
    .date()
    .refine(
      (d) => d.getTime() > Date.now(),
      "The end must be in the future: a campaign that has already ended admits no one.",
    )
    .refine((d) => isStorableTime(d.getTime()), `The end must be before ${LATEST_TIMESTAMP.slice(0, 4)}.`)
    .nullable(),
  /** A gift campaign's product in its gift vendor's catalogue (Goody's product id); null: none. */
  giftProductId: z.string().trim().min(1, "Name a product from the gift catalogue.").max(100).nullable().optional(),
  // What the printed response link opens (each optional, with a default): see src/server/programme/responses/page-settings.ts.
  ...ZResponseSettings.shape,
});
export type TCampaignDraft = z.infer<typeof ZCampaignDraft>;

export const ZCampaignId = z.object({ campaignId: z.string().min(1).max(64) });
export const ZPage = z.object({
  cursor: z.string().max(64).nullish(),
  take: z.number().int().min(1).max(100).default(25),
});
