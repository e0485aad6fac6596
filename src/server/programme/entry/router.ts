import { apiKeyProcedure, router } from "@/server/ground/trpc";
import { ZEntryEventAccepted, ZEntryEventStatus, ZGetEntryEventInput, ZPostEntryEventInput } from "./schema";
import { acceptEntryEvent, getEntryEventStatus } from "./service";

/** REST: entry events (spec 4.1, 4.2). */
export const entryEventRestRouter = router({
  post: apiKeyProcedure("post_entry_events")
    .meta({
      successStatus: 202,
      problems: [
        "not_found",
        "idempotency_key_reused",
        "campaign_not_live",
        "api_entry_not_accepted",
        "contact_not_found",
        "contact_not_in_audience",
      ],
      openapi: {
        method: "POST",
        path: "/v1/campaigns/{campaignId}/events",
        operationId: "postEntryEvent",
        tags: ["Entry events"],
        summary: "Post a campaign entry event",
        description:
          "Admits an existing contact, already in the campaign's audience, to a live campaign whose frozen entry policy accepts API events. `contactId` names the contact the way your own systems know it: our id (ctc_…), its email address (any case), or the id of the CRM record it was synced or imported from, written `hubspot:<id>` or `salesforce:<id>`; one that names no contact of the workspace, or more than one, is 422 contact-not-found with a detail saying which, and nothing is written. Naming the same contact another way under the same idempotencyKey is the same event. Accepted events are processed afterwards through every gate of the campaign (audience membership, suppression, address review, holdout, frequency cap, review gate, budget headroom, fulfilment contract); poll the status read to follow one. Repeating the same body with the same idempotencyKey is safe and returns the same event with its current status; the key with different data is 409. Idempotency keys are scoped to the workspace (across its campaigns and keys) and kept as long as the event, i.e. for good.",
        successDescription:
          "Accepted: the event is stored and will be processed. `Location` points to its status read.",
      },
    })
    .input(ZPostEntryEventInput)
    .output(ZEntryEventAccepted)
    .mutation(async ({ ctx, input }) => {
      const accepted = await acceptEntryEvent(ctx.db, {
        workspaceId: ctx.workspaceId,
        apiKeyId: ctx.apiKey.id,
        source: "api",
        input,
      });
      ctx.responseHeaders.Location = `/api/v1/campaigns/${encodeURIComponent(input.campaignId)}/events/${accepted.eventId}`;
      return accepted;
    }),
  get: apiKeyProcedure("post_entry_events")
    .meta({
      problems: ["not_found"],
      openapi: {
        method: "GET",
        path: "/v1/campaigns/{campaignId}/events/{eventId}",
        operationId: "getEntryEvent",
        tags: ["Entry events"],
        summary: "Read an entry event",
        description:
          "The bounded status of an event this same key posted to this campaign: the only read an API key has. Optional members are absent when they have no value. A missing campaign, an event of another campaign, another key's or another workspace's event all give the same 404.",
        successDescription: "The event's current status.",
      },
    })
    .input(ZGetEntryEventInput)
    .output(ZEntryEventStatus)
    .query(({ ctx, input }) =>
      getEntryEventStatus(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: input.campaignId,
        eventId: input.eventId,
        apiKeyId: ctx.apiKey.id,
      }),
    ),
});
