import { z } from "zod";
import { ZGetEntryEventInput, ZPostEntryEventInput } from "@/server/entry/schema";
import { acceptEntryEvent, getEntryEventStatus } from "@/server/entry/service";
import { defineTool } from "../tool";

export const entryTools = [
  defineTool({
    name: "entry_events_post",
    title: "Post an entry event",
    description:
      "Admits a contact already in the campaign's audience to a live campaign, as the REST API's POST /api/v1/campaigns/{campaignId}/events does. The contact still passes every gate (holdout, suppression, address, frequency cap, review gate, budget, plan); follow it with entry_events_get. Idempotent per idempotencyKey.",
    scope: "entry_events:write",
    kind: "write",
    idempotent: true,
    input: ZPostEntryEventInput,
    result: z.object({ eventId: z.string(), status: z.string() }),
    run: async (ctx, a) => {
      const accepted = await acceptEntryEvent(ctx.db, { workspaceId: ctx.workspaceId, apiKeyId: null, source: "agent", input: a });
      return {
        requested: `Admit contact ${a.contactId} to campaign ${a.campaignId} (idempotency key ${a.idempotencyKey}).`,
        changed: !accepted.replayed ? [`Accepted entry event ${accepted.eventId}; the lifecycle now decides whether a piece is mailed.`] : [],
        result: { eventId: accepted.eventId, status: accepted.status },
      };
    },
  }),
  defineTool({
    name: "entry_events_get",
    title: "Read an entry event's status",
    description: "The bounded status of an entry event: its lifecycle status, skip reason, enrollment and completion time.",
    scope: "entry_events:write",
    kind: "read",
    idempotent: true,
    input: ZGetEntryEventInput,
    result: z.looseObject({ eventId: z.string(), status: z.string(), occurredAt: z.string() }),
    run: async (ctx, a) => ({ requested: `The status of event ${a.eventId}.`, changed: [], result: await getEntryEventStatus(ctx.db, { workspaceId: ctx.workspaceId, ...a }) }),
  }),
];
