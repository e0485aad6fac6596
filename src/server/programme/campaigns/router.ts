import { z } from "zod";
import { ENTRY_STATUSES } from "@/server/programme/entry/lifecycle-states";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZCampaignDraft, ZCampaignId, ZPage } from "./schema";
import {
  changeCampaignState,
  createDraft,
  getCampaignDetail,
  goLiveIn,
  listCampaignEvents,
  listCampaignPieces,
  listCampaigns,
  setBudget,
  updateDraft,
} from "./service";
import { GO_LIVE_TX } from "./entry-policy";
import { assertReady, campaignReadiness } from "./readiness";
import { ownerGoLivePreview } from "./go-live-preview";
import { sendToContacts, ZSendTo } from "./send-to";

/** Campaigns for the owner's browser. Going live, and every other change, is confirmed by the person in the UI first. */
export const campaignRouter = router({
  list: ownerProcedure.query(({ ctx }) => listCampaigns(ctx.db, { workspaceId: ctx.workspaceId })),
  get: ownerProcedure
    .input(ZCampaignId)
    .query(({ ctx, input }) =>
      getCampaignDetail(ctx.db, { workspaceId: ctx.workspaceId, campaignId: input.campaignId }),
    ),
  create: ownerProcedure
    .input(z.object({ draft: ZCampaignDraft }))
    .mutation(({ ctx, input }) =>
      createDraft(ctx.db, { workspaceId: ctx.workspaceId, input: input.draft, actor: ctx.actor }),
    ),
  update: ownerProcedure.input(ZCampaignId.extend({ draft: ZCampaignDraft.partial() })).mutation(({ ctx, input }) =>
    updateDraft(ctx.db, {
      workspaceId: ctx.workspaceId,
      campaignId: input.campaignId,
      input: input.draft,
      actor: ctx.actor,
    }),
  ),
  readiness: ownerProcedure
    .input(ZCampaignId)
    .query(({ ctx, input }) =>
      campaignReadiness(ctx.db, { workspaceId: ctx.workspaceId, campaignId: input.campaignId }),
    ),
  /** What going live does now (who enters, who is held out, what it costs), for the go-live dialog. */
  goLivePreview: ownerProcedure
    .input(ZCampaignId)
    .query(({ ctx, input }) =>
      ownerGoLivePreview(ctx.db, { workspaceId: ctx.workspaceId, campaignId: input.campaignId }),
    ),
  /** The owner's go-live: refused while the readiness panel shows a blocker, checked in the same transaction. */
  goLive: ownerProcedure
    // The draft version the person looked at: if it changed since, nothing goes live (they see the new one first).
    .input(ZCampaignId.extend({ draftVersion: z.number().int().min(0).max(2_147_483_647).optional() }))
    .mutation(({ ctx, input }) =>
      ctx.db.$transaction(async (tx) => {
        const p = { workspaceId: ctx.workspaceId, campaignId: input.campaignId, actor: ctx.actor };
        await assertReady(tx, p);
        return goLiveIn(tx, { ...p, draftVersion: input.draftVersion });
      }, GO_LIVE_TX),
    ),
  changeState: ownerProcedure
    .input(ZCampaignId.extend({ change: z.enum(["pause", "resume", "end"]) }))
    .mutation(({ ctx, input }) =>
      changeCampaignState(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: input.campaignId,
        change: input.change,
        actor: ctx.actor,
      }),
    ),
  setBudget: ownerProcedure
    .input(ZCampaignId.extend({ budgetCents: z.number().int().min(0).max(100_000_000_00) }))
    .mutation(({ ctx, input }) =>
      setBudget(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: input.campaignId,
        budgetCents: input.budgetCents,
        actor: ctx.actor,
      }),
    ),
  events: ownerProcedure
    .input(
      ZCampaignId.merge(ZPage).extend({
        status: z.enum(ENTRY_STATUSES, { error: `status must be one of ${ENTRY_STATUSES.join(", ")}.` }).optional(),
      }),
    )
    .query(({ ctx, input }) =>
      listCampaignEvents(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: input.campaignId,
        cursor: input.cursor,
        take: input.take,
        status: input.status,
      }),
    ),
  /** "Send to one more person": contacts of the audience entered by hand (source owner). */
  sendTo: ownerProcedure.input(ZSendTo).mutation(({ ctx, input }) =>
    sendToContacts(ctx.db, {
      workspaceId: ctx.workspaceId,
      campaignId: input.campaignId,
      contactIds: input.contactIds,
      source: "owner",
      actor: ctx.actor,
    }),
  ),
  pieces: ownerProcedure.input(ZCampaignId.merge(ZPage)).query(({ ctx, input }) =>
    listCampaignPieces(ctx.db, {
      workspaceId: ctx.workspaceId,
      campaignId: input.campaignId,
      cursor: input.cursor,
      take: input.take,
    }),
  ),
});
