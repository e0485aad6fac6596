import { z } from "zod";
import { ZCampaignDraft } from "@/server/programme/campaigns/schema";
import {
  changeCampaignState,
  createDraft,
  getCampaignDetail,
  pageCampaigns,
  updateDraft,
} from "@/server/programme/campaigns/service";
import { requestResume } from "@/server/programme/confirmations/requests";
import { MAX_SEND_TO, sendToContacts } from "@/server/programme/campaigns/send-to";
import { KNOWN_FIELDS_SENTENCE } from "@/server/programme/designs/merge-fields";
import { CLAIM_WINDOW_DAYS } from "@/server/programme/responses/page-settings";
import { isStorableTime, LATEST_TIMESTAMP } from "@/server/ground/http/fields";
import { ZCursor, ZTake } from "./paging";
import { DESCRIBED_ELSEWHERE } from "../listing-meta";
import { defineTool } from "../tool";
import { AppError } from "@/server/ground/errors";
import { resolveContactRefs } from "@/server/records/contacts/contact-refs";
import { identityFieldsOf, ZContactIdentityFields } from "./contact-identity";
import {
  campaignDetailView,
  campaignView,
  ZCampaignDetailView,
  ZCampaignStatus,
  ZCampaignView,
} from "./campaign-views";
import { cardDetail, waitNote, ZCardDetail } from "./card-detail";

const ZCampaignIdArg = z.string().min(1).max(64).describe("The campaign's id (cmp_…).");
const copyNote = `Merge fields ({{name}}) are filled per recipient. ${KNOWN_FIELDS_SENTENCE} Any other name is refused.`;

/** What an agent may set on a draft: everything the owner can, each field documented, ends-at as an ISO date-time. */
const ZDraftFields = ZCampaignDraft.extend({
  name: ZCampaignDraft.shape.name.describe("What people call the campaign, 1 to 120 characters."),
  format: ZCampaignDraft.shape.format.describe("postcard, letter, handwritten (a handwritten-style card) or gift."),
  audienceId: ZCampaignDraft.shape.audienceId.describe(
    "The audience it mails (aud_…, from audiences_list), or null. Required before go-live.",
  ),
  acceptsApiEvents: ZCampaignDraft.shape.acceptsApiEvents.describe(
    "Whether entry events (REST with an API key, or entry_events_post) may admit contacts. Frozen at go-live.",
  ),
  holdoutShare: ZCampaignDraft.shape.holdoutShare.describe(
    "Fraction of accounts held out (0.2 is 20%). Frozen at go-live.",
  ),
  frequencyCapContact: ZCampaignDraft.shape.frequencyCapContact.describe(
    "Most pieces per contact within frequencyWindowDays, across campaigns; null: no cap.",
  ),
  frequencyCapAccount: ZCampaignDraft.shape.frequencyCapAccount.describe(
    "Most pieces per account within frequencyWindowDays; null: no cap.",
  ),
  frequencyWindowDays: ZCampaignDraft.shape.frequencyWindowDays.describe(
    "The window of the frequency caps, in days (1 to 365).",
  ),
  reviewGate: ZCampaignDraft.shape.reviewGate.describe(
    "each_piece: a person approves every piece on a card before it prints.",
  ),
  budgetCents: ZCampaignDraft.shape.budgetCents.describe(
    "The most it may spend on printing and postage, in integer cents (50000 is 500 USD). Going live approves up to it.",
  ),
  fulfilmentContractId: ZCampaignDraft.shape.fulfilmentContractId.describe(
    "The printer contract for its format (ful_…, from contracts_list), or null. Nothing prints without an approved one.",
  ),
  destinationUrl: ZCampaignDraft.shape.destinationUrl.describe(
    "Where the printed link leads (http or https; sid=… is appended). Needed for redirect and visit_site.",
  ),
  headline: ZCampaignDraft.shape.headline.describe(`The headline, at most 160 characters. ${copyNote}`),
  bodyTemplate: ZCampaignDraft.shape.bodyTemplate.describe(
    "The message, at most 2,400 characters; blank lines separate paragraphs. Merge fields as in headline.",
  ),
  signOff: ZCampaignDraft.shape.signOff.describe("The sign-off, at most 160 characters. Merge fields as in headline."),
  designId: ZCampaignDraft.shape.designId,
  responseMode: ZCampaignDraft.shape.responseMode.describe(
    "What the response link opens (default redirect): redirect, destinationUrl (sid added); landing_page, a personal page with one call to action; gift_claim (gift campaigns), a claim page (ships once claimed).",
  ),
  pageCallToAction: ZCampaignDraft.shape.pageCallToAction.describe(
    "The landing page's call to action (default reply): reply (a short form), meeting (meetingUrl) or visit_site (destinationUrl with sid).",
  ),
  meetingUrl: ZCampaignDraft.shape.meetingUrl.describe(
    "The https scheduling link of the meeting button (pageCallToAction meeting); null clears it.",
  ),
  giftOptions: ZCampaignDraft.shape.giftOptions.describe(
    "gift_claim only: gifts the recipient may choose from, each once; empty: the design's gift.",
  ),
  giftProductId: ZCampaignDraft.shape.giftProductId.describe("From gifts_catalogue_list."),
  claimWindowDays: ZCampaignDraft.shape.claimWindowDays.describe(
    `gift_claim: days to claim (default ${CLAIM_WINDOW_DAYS.default}); its cost is held meanwhile; unclaimed, it ends skipped (gift_unclaimed).`,
  ),
  entryPolicy: ZCampaignDraft.shape.entryPolicy,
})
  .omit({ endsAt: true, sendAt: true })
  .extend({
    sendAt: z.iso
      .datetime({ offset: true })
      .refine((v) => isStorableTime(Date.parse(v)), `The send date must be before ${LATEST_TIMESTAMP}.`)
      .nullable()
      .optional()
      .describe("When service-made entries are mailed: ISO 8601 with offset; null: at once. Frozen at go-live."),
    endsAt: z.iso
      .datetime({ offset: true })
      .refine((v) => Date.parse(v) > Date.now(), "The end must be in the future.")
      .refine((v) => isStorableTime(Date.parse(v)), `The end must be before ${LATEST_TIMESTAMP}.`)
      .nullable()
      .optional()
      .describe("When it stops admitting contacts: a future ISO 8601 date-time with offset; null: no end."),
  });

const DRAFT_DEFAULTS = {
  audienceId: null,
  acceptsApiEvents: false,
  holdoutShare: 0.2,
  frequencyCapContact: null,
  frequencyCapAccount: null,
  frequencyWindowDays: 30,
  reviewGate: "none" as const,
  budgetCents: 0,
  fulfilmentContractId: null,
  designId: null,
  destinationUrl: null,
  headline: "",
  bodyTemplate: "",
  signOff: "",
};

const toDate = (v: string | null) => (v === null ? null : new Date(v));
const toDraft = <T extends { endsAt?: string | null; sendAt?: string | null }>(fields: T) => {
  const { endsAt, sendAt, ...rest } = fields;
  return {
    ...rest,
    ...(endsAt !== undefined ? { endsAt: toDate(endsAt) } : {}),
    ...(sendAt !== undefined ? { sendAt: toDate(sendAt) } : {}),
  };
};

const goLiveNeeds =
  "Go-live (campaigns_request_go_live) needs a way in (entryPolicy audience_at_go_live or audience_joins, or acceptsApiEvents), an audience with contacts, a headline and message (or a design), and a destinationUrl (or meetingUrl for a meeting button); mail also needs the paid plan, an approved contract for the format and a budget. gift_claim needs a gift campaign.";

const ZListRow = z.object({
  id: z.string(),
  name: z.string(),
  format: z.enum(["postcard", "letter", "handwritten", "gift"]),
  status: ZCampaignStatus,
  audienceId: z.string().nullable(),
  audienceName: z.string().nullable(),
  designId: z.string().nullable(),
  acceptsApiEvents: z.boolean(),
  budgetCents: z.number().int(),
  spentCents: z.number().int(),
  reservedCents: z.number().int(),
  entryEvents: z.number().int(),
  piecesMailed: z
    .number()
    .int()
    .describe(
      "Pieces mailed to real people (a real vendor, live key); the sandbox's and test-mode pieces are not counted.",
    ),
  createdAt: z.string(),
});

export const campaignTools = [
  defineTool({
    name: "campaigns_list",
    title: "List campaigns",
    description: "One page of campaigns, newest first, with status, audience, design, budget, spend and counts.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      status: ZCampaignStatus.optional().describe("Only campaigns in this status."),
      cursor: ZCursor,
      take: ZTake,
    }),
    result: z.object({ campaigns: z.array(ZListRow), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => {
      const page = await pageCampaigns(ctx.db, {
        workspaceId: ctx.workspaceId,
        status: a.status,
        cursor: a.cursor,
        take: a.take,
      });
      return {
        requested: "A page of campaigns.",
        changed: [],
        result: {
          campaigns: page.campaigns.map((c) => ({
            id: c.id,
            name: c.name,
            format: c.format,
            status: c.status,
            audienceId: c.audienceId,
            audienceName: c.audience?.name ?? null,
            designId: c.designId,
            acceptsApiEvents: c.acceptsApiEvents,
            budgetCents: c.budgetCents,
            spentCents: c.spentCents,
            reservedCents: c.reservedCents,
            entryEvents: c._count.entryEvents,
            piecesMailed: c._count.mailPieces,
            createdAt: c.createdAt.toISOString(),
          })),
          nextCursor: page.nextCursor,
        },
      };
    },
  }),
  defineTool({
    name: "campaigns_get",
    title: "Read a campaign",
    description:
      "One campaign: settings, audience, contract, whether mail can go out, entry events, skips, arms, pieces.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ campaignId: ZCampaignIdArg }),
    result: ZCampaignDetailView,
    run: async (ctx, a) => ({
      requested: `Campaign ${a.campaignId}.`,
      changed: [],
      result: campaignDetailView(
        await getCampaignDetail(ctx.db, { workspaceId: ctx.workspaceId, campaignId: a.campaignId }),
      ),
    }),
    errorHints: { not_found: "Find the campaign's id with campaigns_list." },
  }),
  defineTool({
    name: "campaigns_create_draft",
    title: "Create a draft campaign",
    description: `Creates a draft campaign (it mails and spends nothing). Defaults: entryPolicy none, holdoutShare 0.2, a 30-day window, budgetCents 0, responseMode redirect; the rest unset. ${goLiveNeeds}`,
    scope: "campaigns:write",
    kind: "write",
    idempotent: false,
    input: ZDraftFields.partial().required({ name: true, format: true }),
    result: ZCampaignView,
    run: async (ctx, a) => {
      const campaign = await createDraft(ctx.db, {
        workspaceId: ctx.workspaceId,
        input: { ...DRAFT_DEFAULTS, endsAt: null, ...toDraft(a) },
        actor: ctx.actor,
      });
      return {
        requested: `Create the draft campaign “${a.name}”.`,
        changed: [`Created draft campaign ${campaign.id} (“${campaign.name}”).`],
        result: campaignView(campaign),
      };
    },
  }),
  defineTool({
    name: "campaigns_update_draft",
    title: "Edit a draft campaign",
    description: `Changes fields of a draft campaign (as campaigns_create_draft describes them). Live, paused or ended ones cannot be edited. An edit expires a pending go-live card.`,
    scope: "campaigns:write",
    kind: "write",
    idempotent: true,
    destructive: true,
    input: z.object({
      campaignId: ZCampaignIdArg,
      changes: ZDraftFields.partial().meta({
        description: "Only the fields to change, each as campaigns_create_draft describes it.",
        [DESCRIBED_ELSEWHERE]: true,
      }),
    }),
    result: ZCampaignView,
    run: async (ctx, a) => {
      const campaign = await updateDraft(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: a.campaignId,
        input: toDraft(a.changes),
        actor: ctx.actor,
      });
      const fields = Object.keys(a.changes);
      return {
        requested: `Edit ${fields.join(", ") || "nothing"} of draft ${a.campaignId}.`,
        changed: fields.length ? [`Updated ${fields.join(", ")} of draft ${campaign.id}.`] : [],
        result: campaignView(campaign),
      };
    },
    errorHints: {
      invalid_state: "Only drafts can be edited; read the campaign with campaigns_get.",
      invalid_argument: "Fix the fields named; responseMode gift_claim and giftOptions need format gift.",
    },
  }),
  defineTool({
    name: "campaigns_pause",
    title: "Pause a live campaign",
    description:
      "Pauses a live campaign at once: no printing or spending; entry events wait. No card; resuming needs one (campaigns_request_resume).",
    scope: "campaigns:write",
    kind: "write",
    idempotent: true,
    input: z.object({ campaignId: ZCampaignIdArg }),
    result: ZCampaignView,
    run: async (ctx, a) => {
      const current = await ctx.db.campaign.findFirst({ where: { id: a.campaignId, workspaceId: ctx.workspaceId } });
      if (current?.status === "paused")
        return { requested: `Pause campaign ${a.campaignId}.`, changed: [], result: campaignView(current) };
      const campaign = await changeCampaignState(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: a.campaignId,
        change: "pause",
        actor: ctx.actor,
      });
      return {
        requested: `Pause campaign ${a.campaignId}.`,
        changed: [`Paused campaign ${campaign.id}: nothing more prints until it is resumed.`],
        result: campaignView(campaign),
      };
    },
    errorHints: { invalid_state: "Only a live campaign can be paused; read it with campaigns_get." },
  }),
  defineTool({
    name: "campaigns_end",
    title: "End a campaign",
    description:
      "Ends a live or paused campaign for good: waiting entry events are skipped (campaign_ended), their budget released. Pieces at the printer and claimed gifts are still sent.",
    scope: "campaigns:write",
    kind: "write",
    idempotent: false,
    destructive: true,
    input: z.object({ campaignId: ZCampaignIdArg }),
    result: ZCampaignView,
    run: async (ctx, a) => {
      const campaign = await changeCampaignState(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: a.campaignId,
        change: "end",
        actor: ctx.actor,
      });
      return {
        requested: `End campaign ${a.campaignId}.`,
        changed: [`Ended campaign ${campaign.id}: it admits no one and spends nothing more.`],
        result: campaignView(campaign),
      };
    },
    errorHints: { invalid_state: "Only a live or paused campaign can end; read it with campaigns_get." },
  }),
  defineTool({
    name: "campaigns_request_resume",
    title: "Ask to resume a paused campaign",
    description: `Asks an approver to resume a paused campaign (it prints and spends again). ${waitNote}`,
    scope: "campaigns:write",
    kind: "request",
    idempotent: true,
    input: z.object({ campaignId: ZCampaignIdArg }),
    result: ZCardDetail,
    run: async (ctx, a) => {
      const { card, created } = await requestResume(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: a.campaignId,
        requestedBy: ctx.actor,
      });
      return {
        requested: `Resume campaign ${a.campaignId}.`,
        changed: created ? [`Created confirmation card ${card.id}; the campaign is still paused.`] : [],
        result: cardDetail(ctx, card),
      };
    },
  }),
  defineTool({
    name: "campaigns_send_to",
    title: "Send a live campaign to more people",
    mails: true,
    description: `Enters audience contacts into a live campaign by hand, whatever its entry policy: each an entry event (source agent) through every gate, within the approved budget, no card. One already entered is not again. All or nothing; up to ${MAX_SEND_TO}; follow with entry_events_get.`,
    scope: "entry_events:write",
    kind: "write",
    idempotent: true,
    input: z.object({
      campaignId: ZCampaignIdArg,
      contactIds: z
        .array(z.string().min(1).max(200))
        .min(1)
        .max(MAX_SEND_TO)
        .refine((ids) => new Set(ids).size === ids.length, "Name each contact once.")
        .describe(`Contacts of the campaign's audience (ctc_… id, email or CRM id), 1 to ${MAX_SEND_TO}, each once.`),
    }),
    result: z.object({
      entries: z.array(
        z.object({
          contactId: z.string(),
          ...ZContactIdentityFields,
          eventId: z.string().describe("The contact's entry event in this campaign (evt_…)."),
          entered: z.boolean().describe("True when this call entered the contact; false when they had entered before."),
        }),
      ),
    }),
    run: async (ctx, a) => {
      const contactIds = await resolveContactRefs(ctx.db, {
        workspaceId: ctx.workspaceId,
        refs: a.contactIds,
        pointer: "/contactIds",
      });
      if (new Set(contactIds).size !== contactIds.length)
        throw new AppError(
          "validation_failed",
          "contactIds names one contact twice (by two of its ids); name each contact once. Nothing was written.",
          { errors: [{ pointer: "/contactIds", detail: "Names one contact twice." }] },
        );
      const sent = await sendToContacts(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: a.campaignId,
        contactIds,
        source: "agent",
        actor: ctx.actor,
      });
      const identity = await identityFieldsOf(
        ctx.db,
        ctx.workspaceId,
        sent.map((e) => e.contactId),
      );
      const entries = sent.map((e) => ({ ...e, ...identity(e.contactId) }));
      const entered = entries.filter((e) => e.entered);
      return {
        requested: `Send campaign ${a.campaignId} to ${a.contactIds.length} contact${a.contactIds.length === 1 ? "" : "s"}.`,
        changed: entered.length
          ? [
              `Entered ${entered.length} contact${entered.length === 1 ? "" : "s"} (${entered.map((e) => e.eventId).join(", ")}); the lifecycle now decides whether a piece is mailed.`,
            ]
          : [],
        result: { entries },
      };
    },
    errorHints: {
      not_found: "Find the campaign's id with campaigns_list, and contact ids with contacts_list.",
      invalid_argument:
        "Only contacts of the campaign's audience can be sent to; add them to the audience first (audiences tools).",
      invalid_state: "Only a live campaign can be sent to; read it with campaigns_get.",
    },
  }),
];
