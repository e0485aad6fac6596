import { z } from "zod";
import type { Campaign } from "@/generated/prisma/client";
import type { TCampaignDetail } from "@/server/programme/campaigns/service";
import { ENTRY_STATUSES, SKIP_REASONS } from "@/server/programme/entry/lifecycle-states";
import { contractPricesView, ZContractPrices } from "./contract-prices";
import { PAGE_CALLS_TO_ACTION, RESPONSE_MODES } from "@/server/programme/responses/page-settings";

const iso = (d: Date | null) => (d ? d.toISOString() : null);
export const ZCampaignStatus = z
  .enum(["draft", "live", "paused", "ended"])
  .describe("draft (editable, mails nothing), live (admits contacts, prints and spends), paused, ended.");
export const ZFormat = z.enum(["postcard", "letter", "handwritten", "gift"]);

/** A campaign's settings as an agent reads them (every field typed; money in cents). */
export const ZCampaignView = z.object({
  id: z.string().describe("cmp_…"),
  name: z.string(),
  format: ZFormat,
  status: ZCampaignStatus,
  audienceId: z.string().nullable(),
  designId: z.string().nullable().describe("The design it prints (dsn_…); null: the format's default look."),
  acceptsApiEvents: z
    .boolean()
    .describe(
      "Whether entry events posted with an API key (or entry_events_post) may admit contacts; frozen at go-live.",
    ),
  entryPolicy: z
    .enum(["audience_at_go_live", "audience_joins", "none"])
    .describe(
      "Who the service enters by itself once live: the audience at go-live, also later joiners, or nobody; frozen at go-live.",
    ),
  sendAt: z.string().nullable().describe("When the entries the service makes go on to be mailed (UTC); null: at once."),
  reentryAfterDays: z
    .number()
    .int()
    .nullable()
    .describe(
      "Days after a contact's last entry before it may enter again; null: once only (a later entry is skipped already_enrolled). Frozen at go-live.",
    ),
  holdoutShare: z.number().describe("Fraction of accounts held out (0 to 0.5); 0.2 is 20 per cent."),
  frequencyCapContact: z.number().int().nullable(),
  frequencyCapAccount: z.number().int().nullable(),
  frequencyWindowDays: z.number().int(),
  reviewGate: z.enum(["none", "each_piece"]),
  budgetCents: z.number().int().describe("Budget in cents (USD)."),
  spentCents: z.number().int().describe("Charged for mailed pieces, in cents."),
  reservedCents: z.number().int().describe("Held for pieces on their way, in cents."),
  fulfilmentContractId: z.string().nullable(),
  destinationUrl: z.string().nullable(),
  headline: z.string(),
  bodyTemplate: z.string(),
  signOff: z.string(),
  responseMode: z
    .enum(RESPONSE_MODES)
    .describe(
      "What the printed link opens: redirect (the destination with sid), landing_page (a personal page on this service) or gift_claim (the recipient claims the gift before it ships).",
    ),
  pageCallToAction: z
    .enum(PAGE_CALLS_TO_ACTION)
    .describe("The landing page's call to action: reply, meeting or visit_site."),
  meetingUrl: z.string().nullable(),
  giftOptions: z.array(z.string()).describe("Gift catalogue ids the claim page offers (empty: the design's gift)."),
  claimWindowDays: z.number().int().describe("Days a recipient has to claim a gift."),
  endsAt: z.string().nullable(),
  wentLiveAt: z.string().nullable(),
  pausedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  createdAt: z.string(),
});

export function campaignView(c: Campaign): z.infer<typeof ZCampaignView> {
  return {
    id: c.id,
    name: c.name,
    format: c.format,
    status: c.status,
    audienceId: c.audienceId,
    designId: c.designId,
    acceptsApiEvents: c.acceptsApiEvents,
    entryPolicy: c.entryPolicy,
    sendAt: iso(c.sendAt),
    reentryAfterDays: c.reentryAfterDays,
    holdoutShare: c.holdoutShare,
    frequencyCapContact: c.frequencyCapContact,
    frequencyCapAccount: c.frequencyCapAccount,
    frequencyWindowDays: c.frequencyWindowDays,
    reviewGate: c.reviewGate,
    budgetCents: c.budgetCents,
    spentCents: c.spentCents,
    reservedCents: c.reservedCents,
    fulfilmentContractId: c.fulfilmentContractId,
    destinationUrl: c.destinationUrl,
    headline: c.headline,
    bodyTemplate: c.bodyTemplate,
    signOff: c.signOff,
    responseMode: c.responseMode,
    pageCallToAction: c.pageCallToAction,
    meetingUrl: c.meetingUrl,
    giftOptions: c.giftOptions,
    claimWindowDays: c.claimWindowDays,
    endsAt: iso(c.endsAt),
    wentLiveAt: iso(c.wentLiveAt),
    pausedAt: iso(c.pausedAt),
    endedAt: iso(c.endedAt),
    createdAt: c.createdAt.toISOString(),
  };
}

const counts = <T extends readonly string[]>(keys: T, describe: string) =>
  z
    .object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<T[number], z.ZodNumber>)
    .describe(describe);
const PIECE_STATUSES = ["pending_review", "approved", "rendered", "printed", "mailed", "cancelled", "failed"] as const;

export const ZCampaignDetailView = ZCampaignView.extend({
  audience: z.object({ id: z.string(), name: z.string(), contacts: z.number().int() }).nullable(),
  contract: z
    .object({
      id: z.string(),
      name: z.string(),
      status: z.enum(["proposed", "approved", "revoked"]),
      ...ZContractPrices.shape,
    })
    .nullable(),
  plan: z.enum(["audit", "paid"]),
  mailingEnabled: z
    .boolean()
    .describe("False on the free audit plan or without an approved contract: nothing is printed."),
  headroomCents: z.number().int().describe("budgetCents - spentCents - reservedCents: what can still be spent."),
  arms: z
    .object({ treatmentAccounts: z.number().int(), holdoutAccounts: z.number().int() })
    .describe("Accounts per arm, frozen at go-live."),
  eventsByStatus: counts(ENTRY_STATUSES, "Entry events per lifecycle status."),
  skipsByReason: counts(SKIP_REASONS, "Skipped events per skip reason."),
  piecesByStatus: counts(PIECE_STATUSES, "Mail pieces per status."),
});

export function campaignDetailView(d: TCampaignDetail): z.infer<typeof ZCampaignDetailView> {
  const fill = <T extends readonly string[]>(keys: T, from: Record<string, number>) =>
    Object.fromEntries(keys.map((k) => [k, from[k] ?? 0])) as Record<T[number], number>;
  return {
    ...campaignView(d),
    audience: d.audience ? { id: d.audience.id, name: d.audience.name, contacts: d.audience._count.members } : null,
    contract: d.fulfilmentContract
      ? {
          id: d.fulfilmentContract.id,
          name: d.fulfilmentContract.name,
          status: d.fulfilmentContract.status,
          ...contractPricesView(d.fulfilmentContract),
        }
      : null,
    plan: d.plan,
    mailingEnabled: d.plan === "paid" && d.fulfilmentContract?.status === "approved",
    headroomCents: d.budgetCents - d.spentCents - d.reservedCents,
    arms: { treatmentAccounts: d.armAccounts.treatment, holdoutAccounts: d.armAccounts.holdout },
    eventsByStatus: fill(ENTRY_STATUSES, d.eventsByStatus),
    skipsByReason: fill(SKIP_REASONS, d.skipsByReason),
    piecesByStatus: fill(PIECE_STATUSES, d.piecesByStatus),
  };
}
