import { z } from "zod";
import { ZCampaignDraft } from "@/server/campaigns/schema";
import { createDraft, getCampaignDetail, listCampaigns, updateDraft } from "@/server/campaigns/service";
import { defineTool } from "../tool";

const ZCampaignIdArg = z.string().min(1).max(64).describe("The campaign's id (cmp_…).");

/** What an agent may set on a draft: everything the owner can, with ends-at as an ISO date-time. */
const ZDraftFields = ZCampaignDraft.omit({ endsAt: true }).extend({
  endsAt: z.iso.datetime({ offset: true }).nullable().describe("When the campaign stops admitting contacts (ISO 8601 with offset), or null.").optional(),
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
  destinationUrl: null,
  headline: "",
  bodyTemplate: "",
  signOff: "",
};

const toDraft = <T extends { endsAt?: string | null }>(fields: T) => {
  const { endsAt, ...rest } = fields;
  return { ...rest, ...(endsAt !== undefined ? { endsAt: endsAt === null ? null : new Date(endsAt) } : {}) };
};

const ZCampaignRow = z.looseObject({ id: z.string(), name: z.string(), format: z.string(), status: z.enum(["draft", "live", "paused", "ended"]) });

export const campaignTools = [
  defineTool({
    name: "campaigns_list",
    title: "List campaigns",
    description: "Every campaign of the workspace, newest first: format, status, audience, whether it accepts API entry events, budget and spend in cents, events and mailed pieces.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({}),
    result: z.object({ campaigns: z.array(ZCampaignRow) }),
    run: async (ctx) => ({ requested: "The list of campaigns.", changed: [], result: { campaigns: await listCampaigns(ctx.db, { workspaceId: ctx.workspaceId }) } }),
  }),
  defineTool({
    name: "campaigns_get",
    title: "Read a campaign",
    description:
      "One campaign with its settings (entry policy, holdout share, frequency caps, review gate, budget, copy), its audience and fulfilment contract, entry events by status, skips by reason, accounts per arm and pieces by status.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ campaignId: ZCampaignIdArg }),
    result: ZCampaignRow,
    run: async (ctx, a) => ({ requested: `Campaign ${a.campaignId}.`, changed: [], result: await getCampaignDetail(ctx.db, { workspaceId: ctx.workspaceId, campaignId: a.campaignId }) }),
  }),
  defineTool({
    name: "campaigns_create_draft",
    title: "Create a draft campaign",
    description:
      "Creates a draft campaign. A draft mails nothing and spends nothing; taking it live is a separate request (campaigns_request_go_live) that a person must accept. Unset fields get defaults: no audience, no API entry, 20% holdout, no caps, no review gate, budget 0.",
    scope: "campaigns:write",
    kind: "write",
    idempotent: false,
    input: ZDraftFields.partial().required({ name: true, format: true }),
    result: ZCampaignRow,
    run: async (ctx, a) => {
      const campaign = await createDraft(ctx.db, { workspaceId: ctx.workspaceId, input: { ...DRAFT_DEFAULTS, endsAt: null, ...toDraft(a) }, actor: ctx.actor });
      return { requested: `Create the draft campaign “${a.name}”.`, changed: [`Created draft campaign ${campaign.id} (“${campaign.name}”).`], result: campaign };
    },
  }),
  defineTool({
    name: "campaigns_update_draft",
    title: "Edit a draft campaign",
    description: "Changes fields of a draft campaign. Live, paused and ended campaigns cannot be edited: their entry policy, holdout and copy were frozen when they went live.",
    scope: "campaigns:write",
    kind: "write",
    idempotent: true,
    input: z.object({ campaignId: ZCampaignIdArg, changes: ZDraftFields.partial().describe("Only the fields to change.") }),
    result: ZCampaignRow,
    run: async (ctx, a) => {
      const campaign = await updateDraft(ctx.db, { workspaceId: ctx.workspaceId, campaignId: a.campaignId, input: toDraft(a.changes), actor: ctx.actor });
      const fields = Object.keys(a.changes);
      return { requested: `Edit ${fields.join(", ") || "nothing"} of draft ${a.campaignId}.`, changed: fields.length ? [`Updated ${fields.join(", ")} of draft ${campaign.id}.`] : [], result: campaign };
    },
  }),
];
