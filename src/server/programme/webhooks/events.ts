import { z } from "zod";

/**
 * The closed list of outbound webhook event types, each with the documented shape of its `data`.
 * The database writes them (triggers in the migration `outbound_webhooks`, in the same
 * transaction as the change); these schemas document them (openapi.json `webhooks`, the Webhooks
 * page) and the tests check every payload the triggers write against them. A field without a
 * value is left out, as in the REST status read. Version 1 of every type; a change that is not
 * backward compatible gets a new version.
 */

const id = (prefix: string, what: string) => z.string().describe(`${what} (${prefix}…)`);
const time = (what: string) => z.string().datetime().describe(what);

/** Beside every contactId: the contact as the receiver's own systems know it. */
const contactIdentity = {
  contactEmail: z.string().optional().describe("The contact's email address, when it has one"),
  contactCrmIds: z
    .array(z.string())
    .optional()
    .describe(
      "The CRM records the workspace's CRM connections synced the contact from, written as the API's contactId takes them (hubspot:<id>, salesforce:<id>); empty when none. Present with contactId",
    ),
};

const ZEntryEventData = z.object({
  eventId: id("evt_", "The entry event"),
  campaignId: id("cmp_", "Its campaign"),
  contactId: id("ctc_", "The contact it admitted or skipped (absent once the contact was deleted)").optional(),
  ...contactIdentity,
  status: z.enum(["completed", "skipped", "failed", "held_out"]),
  source: z.string().describe("How it entered: api, agent, owner, or the campaign's own entry"),
  idempotencyKey: z.string().describe("The key it was posted with"),
  skipReason: z.string().optional().describe("Why it was skipped (skipped only; the values of /docs/lifecycle)"),
  enrollmentId: id("enr_", "The enrollment it created").optional(),
  occurredAt: time("When the source event happened"),
  completedAt: time("When the lifecycle finished with it").optional(),
});

const ZPieceData = z.object({
  pieceId: id("pc_", "The printed piece"),
  campaignId: id("cmp_", "Its campaign"),
  contactId: id("ctc_", "Its recipient (absent once the contact was deleted)").optional(),
  ...contactIdentity,
  enrollmentId: id("enr_", "Its enrollment").optional(),
  eventId: id("evt_", "The entry event that admitted the recipient").optional(),
  sid: z.string().length(16).describe("The conversion id its response link carries"),
  status: z.string().describe("The piece's status"),
  vendor: z.string().describe("The printer (sandbox, lob, …)"),
  vendorRef: z.string().optional().describe("The printer's id for it"),
  vendorMode: z.enum(["test", "live"]).optional().describe("test: printed through a test key, nothing really mailed"),
  trackingStatus: z
    .string()
    .optional()
    .describe("The printer's latest tracking status (mailed, in_transit, …, delivered, returned_to_sender)"),
  costCents: z.number().int().describe("What it cost, in cents"),
  printedAt: time("When it was printed").optional(),
  mailedAt: time("When the printer mailed it").optional(),
});

const ZResponseData = z.object({
  responseId: id("rsp_", "The response"),
  kind: z.enum([
    "scan",
    "click",
    "page_view",
    "reply",
    "meeting_click",
    "site_click",
    "gift_claim",
    "address_change",
    "gift_decline",
  ]),
  campaignId: id("cmp_", "Its campaign"),
  pieceId: id("pc_", "The piece responded to"),
  contactId: id("ctc_", "The recipient (absent once the contact was deleted)").optional(),
  ...contactIdentity,
  sid: z.string().length(16).describe("The piece's conversion id"),
  occurredAt: time("When it happened"),
  details: z
    .record(z.string(), z.unknown())
    .describe("What the recipient sent: a reply's text, the gift chosen, the new address"),
});

const ZConversionData = z.object({
  outcomeId: z.string().describe("The outcome (out_… for a report against a sid, oc_… for an account's outcome)"),
  kind: z.enum([
    "reply",
    "meeting_booked",
    "opportunity_created",
    "signup",
    "trial_started",
    "purchase",
    "pipeline_dollars",
    "closed_won",
  ]),
  amountCents: z.number().int().optional().describe("Money in cents (purchase, pipeline_dollars, closed_won)"),
  at: time("When it happened"),
  externalId: z.string().optional().describe("The id in the reporting system"),
  source: z
    .enum(["api", "crm", "csv"])
    .describe("Reported with an API key (api), synced from a CRM or imported from a CSV"),
  campaignId: id("cmp_", "The campaign of the piece (api only)").optional(),
  pieceId: id("pc_", "The piece whose sid it was reported against (api only)").optional(),
  contactId: id("ctc_", "The piece's recipient (api only)").optional(),
  ...contactIdentity,
  accountId: id("acc_", "The account").optional(),
  sid: z.string().length(16).optional().describe("The sid it was reported against (api only)"),
});

const ZCampaignData = z.object({
  campaignId: id("cmp_", "The campaign"),
  name: z.string(),
  format: z.string().describe("postcard, letter, handwritten or gift"),
  status: z.enum(["live", "ended"]),
  previousStatus: z.string().describe("draft when it went live, paused when it resumed"),
  acceptsApiEvents: z.boolean(),
  holdoutShare: z.number().describe("Share of accounts held out (a fraction)"),
  budgetCents: z.number().int(),
  spentCents: z.number().int(),
  wentLiveAt: time("When it went live").optional(),
  endedAt: time("When it ended").optional(),
});

const ZAuditData = z.object({
  auditId: id("mla_", "The mailability audit"),
  audienceId: id("aud_", "The audience audited").optional(),
  campaignId: id("cmp_", "The campaign it was run for").optional(),
  contacts: z.number().int(),
  mailable: z.number().int(),
  fixable: z.number().int(),
  unmailable: z.number().int(),
  accountsWithMailableContact: z.number().int(),
  finishedAt: time("When it finished").optional(),
});

const ZImportData = z.object({
  importId: id("imp_", "The CSV import"),
  jobId: id("job_", "Its job"),
  fileName: z.string(),
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  refused: z.number().int(),
  audienceId: id("aud_", "The audience the contacts were added to").optional(),
  finishedAt: time("When it finished").optional(),
});

const ZCrmSyncData = z.object({
  syncId: id("cs_", "The CRM sync"),
  jobId: id("job_", "Its job"),
  connectionId: id("crm_", "The CRM connection"),
  crm: z.string().describe("hubspot or salesforce"),
  mode: z.enum(["full", "incremental"]),
  trigger: z.string().describe("What started it: the schedule, the owner, an agent"),
  counts: z.record(z.string(), z.unknown()).describe("Objects read, created, updated per type"),
  finishedAt: time("When it finished").optional(),
});

export const webhookEvents = {
  "entry_event.completed": {
    data: ZEntryEventData,
    summary:
      "An entry event finished: its contact was enrolled and its piece is on its way, or it was enrolled in a campaign without print.",
  },
  "entry_event.skipped": {
    data: ZEntryEventData,
    summary: "An entry event was skipped by a gate (skipReason says which).",
  },
  "entry_event.failed": { data: ZEntryEventData, summary: "An entry event failed after its retries." },
  "entry_event.held_out": {
    data: ZEntryEventData,
    summary: "An entry event's contact belongs to a held-out account: nothing is mailed, and the account is measured.",
  },
  "piece.printed": { data: ZPieceData, summary: "A piece was printed." },
  "piece.mailed": { data: ZPieceData, summary: "The printer mailed a piece (lift counts from this date)." },
  "piece.delivered": {
    data: ZPieceData,
    summary: "The postal service delivered a piece (from the printer's tracking).",
  },
  "piece.returned": {
    data: ZPieceData,
    summary: "A piece came back to the sender; the address is marked undeliverable.",
  },
  "piece.failed": { data: ZPieceData, summary: "A piece could not be printed." },
  "response.received": {
    data: ZResponseData,
    summary:
      "A recipient responded: scanned or followed the printed link, used the hosted page (reply, meeting, gift claim).",
  },
  "conversion.recorded": {
    data: ZConversionData,
    summary: "An outcome was recorded: reported against a piece's sid, or an account's outcome from a CRM or CSV.",
  },
  "campaign.live": { data: ZCampaignData, summary: "A campaign went live (or resumed after a pause)." },
  "campaign.ended": { data: ZCampaignData, summary: "A campaign ended." },
  "audit.completed": { data: ZAuditData, summary: "A mailability audit finished." },
  "import.completed": { data: ZImportData, summary: "A CSV import of contacts finished." },
  "crm_sync.completed": { data: ZCrmSyncData, summary: "A CRM sync finished." },
} as const;

export type TWebhookEventType = keyof typeof webhookEvents;
export const webhookEventTypes = Object.keys(webhookEvents) as [TWebhookEventType, ...TWebhookEventType[]];
export const ZWebhookEventType = z.enum(webhookEventTypes);

/** Sent by "Send test event": never chosen, sent to the one endpoint asked. */
export const TEST_EVENT_TYPE = "webhook.test";
export const WEBHOOK_EVENT_VERSION = 1;

/** The JSON body of every delivery: Standard Webhooks' `type`, `timestamp` and `data`, with our ids. */
export function webhookBody(event: {
  id: string;
  workspaceId: string;
  type: string;
  data: unknown;
  occurredAt: Date;
}): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    version: WEBHOOK_EVENT_VERSION,
    timestamp: event.occurredAt.toISOString(),
    workspaceId: event.workspaceId,
    data: event.data,
  });
}
