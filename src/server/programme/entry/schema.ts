import { z } from "zod";
import { pastDateTime, requiredString } from "@/server/ground/http/fields";
import { ENTRY_STATUSES, SKIP_REASONS, WAITING_REASONS } from "./lifecycle-states";

export const ZCampaignIdParam = z.string().max(64).describe("The campaign's id (cmp_…).");

/** POST /api/v1/campaigns/{campaignId}/events (spec 2.1). */
export const ZPostEntryEventInput = z.strictObject({
  campaignId: ZCampaignIdParam,
  contactId: requiredString("contactId", 200).describe(
    "A contact in the campaign's audience: ctc_… id, email, or hubspot:<id> / salesforce:<id>.",
  ),
  idempotencyKey: requiredString("idempotencyKey", 200).describe(
    "Stable for one source event, unique in the workspace. Repeating the same body is safe; the same key with other data is 409.",
  ),
  occurredAt: pastDateTime("occurredAt")
    .optional()
    .describe(
      "When the source event happened: ISO 8601 with offset, not in the future (5 minutes' skew allowed); default: now.",
    ),
});
export type TPostEntryEventInput = z.infer<typeof ZPostEntryEventInput>;

export const ZEntryStatus = z
  .enum(ENTRY_STATUSES)
  .describe("Lifecycle status; see the lifecycle documentation for each value.");
export const ZSkipReason = z.enum(SKIP_REASONS).describe("Why the event was skipped (closed set).");

/** Who made an entry event. */
export const ENTRY_SOURCES = ["api", "agent", "owner", "go_live", "audience_join"] as const;
export const ZEntrySource = z
  .enum(ENTRY_SOURCES)
  .describe(
    "Who made the entry: api (posted with an API key), agent (entry_events_post or campaigns_send_to), owner (a person sent it by hand in the browser), go_live (the service, when the campaign went live with entry policy audience_at_go_live or audience_joins), audience_join (the service, when the contact joined the audience of an audience_joins campaign).",
  );

/** 202 body (spec 2.2). */
export const ZEntryEventAccepted = z.object({
  eventId: z.string().describe("The accepted event's id (evt_…)."),
  status: ZEntryStatus,
});

/** GET /api/v1/campaigns/{campaignId}/events/{eventId} (spec 4.2). */
export const ZGetEntryEventInput = z.strictObject({
  campaignId: ZCampaignIdParam,
  eventId: z.string().max(64).describe("The event's id (evt_…)."),
});

/**
 * 200 body (spec 2.3): optional members are absent, never null, when they have no value. Who made
 * the entry (`source`) is not here: the key that reads it made it; MCP, the owner UI and webhooks show it.
 */
export const ZEntryEventStatus = z.object({
  eventId: z.string(),
  status: ZEntryStatus,
  occurredAt: z.string().describe("ISO 8601 date-time (UTC)."),
  contactId: z
    .string()
    .optional()
    .describe(
      "The contact it admitted (ctc_…), whichever form the event named it by; absent once the contact was deleted.",
    ),
  contactEmail: z.string().optional().describe("The contact's email address, when it has one."),
  contactCrmIds: z
    .array(z.string())
    .optional()
    .describe(
      "The CRM records the workspace's CRM connections synced the contact from, written as contactId takes them (hubspot:<id>, salesforce:<id>); empty when none. Present with contactId.",
    ),
  skipReason: ZSkipReason.optional(),
  enrollmentId: z.string().optional().describe("The enrollment created for the contact (enr_…), once there is one."),
  heldOutBy: z
    .string()
    .optional()
    .describe(
      "Only when status is held_out because of another holdout than this campaign's own: the campaign (cmp_…) that holds the account out while it measures, or programme for the workspace's programme holdout.",
    ),
  completedAt: z.string().optional().describe("When the lifecycle finished (UTC), for terminal statuses."),
  waitingReason: z
    .enum(WAITING_REASONS)
    .optional()
    .describe(
      "Only while status is waiting: what it waits for. frequency_cap: the first date the campaign's frequency cap allows; review: a person's approval of the piece; gift_claim: the recipient's claim of the gift on its hosted page (it ends skipped with gift_unclaimed if the claim expires); campaign_paused: the owner resuming the campaign; retrying: a retry after a failed attempt; queued: a worker, now. The lifecycle documentation explains each.",
    ),
  waitingUntil: z
    .string()
    .optional()
    .describe("Only while status is waiting: when it goes on by itself (UTC), absent when a person must act first."),
});
export type TEntryEventStatus = z.infer<typeof ZEntryEventStatus>;
