import { z } from "zod";
import { ZJobStatus, ZJobView } from "@/server/records/jobs/schema";

export const CRM_KINDS = ["hubspot", "salesforce"] as const;
export const ZCrmKind = z.enum(CRM_KINDS).describe("hubspot or salesforce.");
export const CRM_LABELS: Record<(typeof CRM_KINDS)[number], string> = { hubspot: "HubSpot", salesforce: "Salesforce" };

/** Minutes between scheduled syncs. */
export const SCHEDULE_MINUTES = { min: 15, max: 1440, default: 60 } as const;

const secret = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(8, `Paste the ${what}.`)
    .max(max, `A ${what} is at most ${max} characters; check what was pasted.`)
    .regex(/^\S+$/, `The ${what} has spaces or line breaks in it; paste it again without them.`);

export const ZConnectionId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^crm_[0-9a-f]{32}$/, "Not a CRM connection id (crm_…).");
export const ZSyncId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^cs_[0-9a-f]{32}$/, "Not a sync id (cs_…).");

export const ZConnectInput = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("hubspot"),
    accessToken: secret("private app access token", 500),
    leads: z
      .literal(false, "Leads are a Salesforce choice; a HubSpot connection syncs contacts, companies, deals and lists.")
      .optional(),
  }),
  z.object({
    kind: z.literal("salesforce"),
    myDomainUrl: z
      .string()
      .trim()
      .min(1, "Paste your My Domain URL.")
      .max(300, "A My Domain URL is at most 300 characters."),
    clientId: secret("consumer key", 300),
    clientSecret: secret("consumer secret", 300),
    leads: z
      .boolean("Leads is yes or no (true or false).")
      .default(false)
      .describe(
        "Also sync Salesforce Leads: unconverted leads become contacts, lead members of campaigns join their audiences. Off by default.",
      ),
  }),
]);
/** As callers write it (leads optional, off when left out). */
export type TConnectInput = z.input<typeof ZConnectInput>;

export const ZScheduleInput = z.object({
  connectionId: ZConnectionId,
  scheduleMinutes: z
    .number()
    .int("Whole minutes.")
    .min(SCHEDULE_MINUTES.min, `At least every ${SCHEDULE_MINUTES.min} minutes.`)
    .max(SCHEDULE_MINUTES.max, "At most once a day (1,440 minutes).")
    .nullable()
    .describe("Minutes between scheduled syncs, or null for no schedule."),
});

const count = (what: string) => z.number().int().min(0).describe(what);
const ZTypeCounts = z.object({
  read: count("Objects read from the CRM."),
  created: count("Records created here."),
  updated: count("Records changed here."),
  unchanged: count("Records already up to date."),
  errors: count("Objects not written, each with its reason in the sync's issues."),
});

export const ZLeadsInput = z.object({
  connectionId: ZConnectionId,
  leads: z.boolean("Leads is yes or no (true or false).").describe("Whether Salesforce Leads are synced."),
});

/** What a sync read and did, by object type. */
export const ZSyncCounts = z.object({
  companies: ZTypeCounts.describe("Companies (HubSpot) or Accounts (Salesforce) → accounts."),
  contacts: ZTypeCounts.describe("Contacts → contacts."),
  leads: ZTypeCounts.extend({
    converted: count("Leads converted in Salesforce: their contact stays the one contact, now the Contact's."),
  })
    .describe("Salesforce Leads (unconverted) → contacts; not counted among contacts. Zero when leads are not synced.")
    .default({ read: 0, created: 0, updated: 0, unchanged: 0, errors: 0, converted: 0 }),
  deals: z.object({
    read: count("Deals or opportunities read."),
    errors: count("Deals not counted (no company, no creation date)."),
    excluded: count("Deals outside the pipelines and stages chosen to count; their outcomes are removed.").default(0),
  }),
  outcomes: z.object({
    created: count("Account outcomes recorded."),
    updated: count("Outcomes whose amount, date or account changed."),
    removed: count("Outcomes the CRM no longer supports (a deal no longer won)."),
  }),
  lists: z.object({ read: count("Lists or campaigns read."), errors: count("Lists not synced.") }),
  audienceMembers: z.object({
    added: count("Contacts added to list audiences."),
    removed: count("Contacts taken out of list audiences (no longer in the list)."),
  }),
  suppressions: z.object({ added: count("Suppressions added for contacts who opted out in the CRM.") }),
  deleted: z
    .object({
      contacts: count("Contacts deleted in the CRM: kept here, unlinked from it and taken out of its list audiences."),
      companies: count("Companies deleted in the CRM: their accounts kept, unlinked from it."),
      deals: count("Deals deleted in the CRM: their outcomes removed."),
      leads: count("Salesforce Leads deleted (or no longer synced): their contacts kept, unlinked from them.").default(
        0,
      ),
    })
    .default({ contacts: 0, companies: 0, deals: 0, leads: 0 }),
  rateLimitWaits: count(
    "Times the CRM asked to slow down (429, Salesforce's concurrent-request limit) and the sync waited.",
  ),
  issues: z.object({ errors: count("Objects with an error."), warnings: count("Objects written with a warning.") }),
});
export type TSyncCounts = z.infer<typeof ZSyncCounts>;

export const emptyCounts = (): TSyncCounts => ({
  companies: { read: 0, created: 0, updated: 0, unchanged: 0, errors: 0 },
  contacts: { read: 0, created: 0, updated: 0, unchanged: 0, errors: 0 },
  leads: { read: 0, created: 0, updated: 0, unchanged: 0, errors: 0, converted: 0 },
  deals: { read: 0, errors: 0, excluded: 0 },
  outcomes: { created: 0, updated: 0, removed: 0 },
  lists: { read: 0, errors: 0 },
  audienceMembers: { added: 0, removed: 0 },
  suppressions: { added: 0 },
  deleted: { contacts: 0, companies: 0, deals: 0, leads: 0 },
  rateLimitWaits: 0,
  issues: { errors: 0, warnings: 0 },
});

export const ZSyncMode = z
  .enum(["full", "incremental"])
  .describe("full: every object; incremental: only what changed since the last sync.");
export const ZSyncTrigger = z
  .enum(["owner", "schedule", "agent"])
  .describe("Who started it: the owner's Sync now, the schedule, or an agent.");

export const ZSyncView = z.object({
  syncId: z.string(),
  connectionId: z.string(),
  kind: ZCrmKind,
  mode: ZSyncMode,
  trigger: ZSyncTrigger,
  status: ZJobStatus,
  counts: ZSyncCounts,
  job: ZJobView.describe(
    "Progress in objects (done, total, objects per second, seconds left), as for every long-running tool.",
  ),
  requestedBy: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TSyncView = z.infer<typeof ZSyncView>;

export const ZConnectionView = z.object({
  connectionId: z.string(),
  kind: ZCrmKind,
  name: z.string().describe("The CRM account: HubSpot portal, Salesforce My Domain."),
  status: z
    .enum(["connected", "disconnected", "needs_reconnect"])
    .describe(
      "disconnected: the credentials were deleted; what was synced stays. needs_reconnect: the CRM refused the saved credentials; scheduled syncs stopped until the owner connects it again (see attention).",
    ),
  attention: z
    .string()
    .nullable()
    .describe("Why the connection needs reconnecting, as the CRM said it; null otherwise."),
  listsEnabled: z
    .boolean()
    .describe(
      "Whether CRM lists (HubSpot lists, Salesforce campaigns) become audiences; false when the credentials cannot read them.",
    ),
  leads: z
    .boolean()
    .describe(
      "Salesforce: whether Leads are synced (unconverted leads → contacts, lead campaign members → audiences). Always false for HubSpot.",
    ),
  leadsNote: z
    .string()
    .nullable()
    .describe(
      "Why Leads were switched off without the owner asking (the Run As user cannot read them); null otherwise.",
    ),
  currency: z
    .string()
    .nullable()
    .describe("The CRM account's currency (ISO 4217). Deal amounts in another currency are not counted as dollars."),
  dealFilter: z
    .object({ pipelines: z.array(z.string()).nullable(), stages: z.array(z.string()).nullable() })
    .describe("Which deals count as outcomes: pipeline and stage ids, null meaning all."),
  scheduleMinutes: z.number().int().nullable().describe("Minutes between scheduled syncs; null: no schedule."),
  nextSyncAt: z.string().nullable(),
  connectedAt: z.string(),
  connectedBy: z.string(),
  disconnectedAt: z.string().nullable(),
  lastSync: ZSyncView.nullable().describe("The latest sync, running or finished."),
  lastSuccessfulSyncAt: z.string().nullable(),
});
export type TConnectionView = z.infer<typeof ZConnectionView>;

export const ZIssueView = z.object({
  objectType: z.enum(["contact", "company", "deal", "list"]),
  objectId: z.string().describe("The object's id in the CRM."),
  severity: z
    .enum(["error", "warning"])
    .describe("error: not written; warning: written without one value, or with a note."),
  message: z.string().describe('One sentence, e.g. "contact 123: no name and no email".'),
});

export const ZDealFilter = z.object({
  pipelines: z
    .array(z.string().trim().min(1).max(100))
    .min(1, "Choose at least one pipeline, or every pipeline.")
    .max(100)
    .nullable()
    .describe("Pipeline ids whose deals count; null: every pipeline."),
  stages: z
    .array(z.string().trim().min(1).max(255))
    .min(1, "Choose at least one stage, or every stage.")
    .max(500)
    .nullable()
    .describe("Stage ids (Salesforce: stage names) whose deals count; null: every stage."),
});
export type TDealFilter = z.infer<typeof ZDealFilter>;
export const ZDealFilterInput = ZDealFilter.extend({ connectionId: ZConnectionId });
