import { personName } from "@/server/records/pieces/deleted-contact";
import { z } from "zod";
import { listCampaignEvents } from "@/server/programme/campaigns/service";
import { getEntryEventDetail, WAITING_REASONS, waitingReasonDescriptions } from "@/server/programme/entry/event-detail";
import { ZEntrySource, ZEntryStatus, ZPostEntryEventInput, ZSkipReason } from "@/server/programme/entry/schema";
import { acceptEntryEvent } from "@/server/programme/entry/service";
import { isAppError } from "@/server/ground/errors";
import { toolCodeOf } from "../errors";
import {
  MAILABILITY_REASONS,
  type TMailabilityReason,
  ZMailabilityReason,
} from "@/server/programme/mailability/reasons";
import { ZCursor, ZTake } from "./paging";
import { DESCRIBED_ELSEWHERE } from "../listing-meta";
import { defineTool } from "../tool";
import { identityFieldsOf, ZContactIdentityFields } from "./contact-identity";

const ZCampaignIdArg = z.string().min(1).max(64).describe("The campaign's id (cmp_…).");

const ZEventDetail = z.object({
  eventId: z.string(),
  contactId: z.string().nullable(),
  ...ZContactIdentityFields,
  source: ZEntrySource,
  status: ZEntryStatus,
  occurredAt: z.string(),
  skipReason: ZSkipReason.nullable(),
  mailabilityReasons: z
    .array(ZMailabilityReason)
    .describe(
      "When the suppression or address gate skipped it (skipReason suppressed, address_invalid or address_duplicate): the mailability audit's precise reasons, as audits_get names them (/docs/mailability). Empty otherwise.",
    ),
  enrollmentId: z.string().nullable(),
  heldOutBy: z
    .string()
    .nullable()
    .describe("held_out by another campaign's holdout (its cmp_ id) or the programme holdout (programme); else null."),
  pieceId: z.string().nullable().describe("The mail piece made for it (pc_…), once there is one."),
  completedAt: z.string().nullable(),
  waiting: z
    .object({
      reason: z.enum(WAITING_REASONS).describe(
        Object.entries(waitingReasonDescriptions)
          .map(([k, v]) => `${k}: ${v}`)
          .join(" "),
      ),
      until: z.string().nullable().describe("When it goes on by itself (ISO 8601), or null when a person must act."),
      cardId: z.string().nullable().describe("The confirmation card it waits for, if any."),
      claimUrl: z
        .string()
        .nullable()
        .describe(
          "For gift_claim: the recipient's claim page ({base_url}/r/{code}), for the team to send them; null otherwise.",
        ),
    })
    .nullable()
    .describe("Why an unfinished event is not done yet, and until when; null once it has ended."),
});

/**
 * One event of a batch as the schema checks it: its shape only. Its values (occurredAt in the
 * past, …) are checked event by event, so one refused event does not refuse the others.
 */
const ZBatchEvent = ZPostEntryEventInput.omit({ campaignId: true, occurredAt: true }).extend({
  occurredAt: z
    .string()
    .max(100)
    .optional()
    .describe(ZPostEntryEventInput.shape.occurredAt.description ?? ""),
});

export const entryTools = [
  defineTool({
    name: "entry_events_post",
    title: "Post an entry event",
    description:
      "Admits a contact of the campaign's audience to a live campaign, as REST POST /api/v1/campaigns/{campaignId}/events does. Past every gate (holdout, suppression, address, frequency cap, review gate, budget, plan, printer) it is mailed at the piece's cost, within the approved budget, with no further card. Follow with entry_events_get.",
    scope: "entry_events:write",
    kind: "write",
    idempotent: true,
    mails: true,
    input: ZPostEntryEventInput,
    result: z.object({
      eventId: z.string(),
      status: ZEntryStatus,
      contactId: z.string(),
      ...ZContactIdentityFields,
    }),
    run: async (ctx, a) => {
      const accepted = await acceptEntryEvent(ctx.db, {
        workspaceId: ctx.workspaceId,
        apiKeyId: null,
        source: "agent",
        input: a,
      });
      const identity = await identityFieldsOf(ctx.db, ctx.workspaceId, [accepted.contactId]);
      return {
        requested: `Admit contact ${a.contactId} to campaign ${a.campaignId} (idempotency key ${a.idempotencyKey}).`,
        changed: !accepted.replayed
          ? [`Accepted entry event ${accepted.eventId}; the lifecycle now decides whether a piece is mailed.`]
          : [],
        result: {
          eventId: accepted.eventId,
          status: accepted.status,
          contactId: accepted.contactId,
          ...identity(accepted.contactId),
        },
      };
    },
    errorHints: {
      not_found: "Find contacts of the campaign's audience with contacts_list and its audienceId.",
      invalid_state:
        "Read the campaign with campaigns_get: only a live campaign that accepts API entry events admits contacts.",
    },
  }),
  defineTool({
    name: "entry_events_get",
    title: "Read an entry event",
    description:
      "An entry event's status, skip reason, enrollment, piece, completion time and, while unfinished, why it waits and until when.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      campaignId: ZCampaignIdArg,
      eventId: z.string().min(1).max(64).describe("The event's id (evt_…)."),
    }),
    result: ZEventDetail,
    run: async (ctx, a) => ({
      requested: `The status of event ${a.eventId}.`,
      changed: [],
      result: await getEntryEventDetail(ctx.db, { workspaceId: ctx.workspaceId, ...a }),
    }),
  }),
  defineTool({
    name: "entry_events_list",
    title: "List a campaign's entry events",
    description:
      "One page of a campaign's entry events, newest first, optionally of one status, with the contact, skip reason and arm.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      campaignId: ZCampaignIdArg,
      status: ZEntryStatus.optional().describe("Only events in this status."),
      cursor: ZCursor,
      take: ZTake,
    }),
    result: z.object({
      events: z.array(
        z.object({
          eventId: z.string(),
          status: ZEntryStatus,
          skipReason: ZSkipReason.nullable(),
          mailabilityReasons: z
            .array(ZMailabilityReason)
            .describe(
              "The mailability audit's reasons when the suppression or address gate skipped it; empty otherwise.",
            ),
          source: ZEntrySource,
          contactId: z.string().nullable(),
          ...ZContactIdentityFields,
          contactName: z.string(),
          arm: z.enum(["treatment", "holdout"]).nullable(),
          occurredAt: z.string(),
          createdAt: z.string(),
          completedAt: z.string().nullable(),
        }),
      ),
      nextCursor: z.string().nullable(),
    }),
    run: async (ctx, a) => {
      const page = await listCampaignEvents(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: a.campaignId,
        status: a.status,
        cursor: a.cursor,
        take: a.take,
      });
      const identity = await identityFieldsOf(
        ctx.db,
        ctx.workspaceId,
        page.items.map((e) => e.contact?.id ?? null),
      );
      return {
        requested: `A page of the entry events of ${a.campaignId}.`,
        changed: [],
        result: {
          events: page.items.map((e) => ({
            eventId: e.id,
            status: e.status,
            skipReason: (e.skipReason as z.infer<typeof ZSkipReason> | null) ?? null,
            mailabilityReasons: (e.mailabilityReasons ?? []).filter((r): r is TMailabilityReason =>
              (MAILABILITY_REASONS as readonly string[]).includes(r),
            ),
            source: e.source,
            contactId: e.contact?.id ?? null,
            ...identity(e.contact?.id ?? null),
            contactName: personName(e.contact),
            arm: e.enrollment?.arm ?? null,
            occurredAt: e.occurredAt.toISOString(),
            createdAt: e.createdAt.toISOString(),
            completedAt: e.completedAt?.toISOString() ?? null,
          })),
          nextCursor: page.nextCursor,
        },
      };
    },
  }),
  defineTool({
    name: "entry_events_post_batch",
    title: "Post many entry events",
    description:
      "Posts up to 500 entry events to one live campaign, each as entry_events_post does (own idempotencyKey and answer, in order): one refused does not stop the others.",
    scope: "entry_events:write",
    kind: "write",
    idempotent: true,
    mails: true,
    input: z.object({
      campaignId: ZCampaignIdArg,
      events: z
        .array(ZBatchEvent.meta({ [DESCRIBED_ELSEWHERE]: true }))
        .min(1)
        .max(500)
        .describe("Each { contactId, idempotencyKey, occurredAt? } as entry_events_post takes them."),
    }),
    result: z.object({
      accepted: z.number().int(),
      refused: z.number().int(),
      results: z.array(
        z.object({
          idempotencyKey: z.string(),
          contactId: z.string().describe("Ours (ctc_…) once found; else as given."),
          ...ZContactIdentityFields,
          eventId: z.string().nullable(),
          status: ZEntryStatus.nullable(),
          replayed: z.boolean().describe("The key was seen before with the same data: the original event is returned."),
          error: z
            .object({ code: z.string(), message: z.string() })
            .nullable()
            .describe("Why this one was refused (nothing written for it)."),
        }),
      ),
    }),
    run: async (ctx, a) => {
      const results = [];
      for (const e of a.events) {
        // Each event's own rules (occurredAt not in the future, …) refuse that event alone.
        const checked = ZPostEntryEventInput.safeParse({ ...e, campaignId: a.campaignId });
        if (!checked.success) {
          results.push({
            idempotencyKey: e.idempotencyKey,
            contactId: e.contactId,
            eventId: null,
            status: null,
            replayed: false,
            error: { code: "invalid_argument", message: checked.error.issues.map((i) => i.message).join(" ") },
          });
          continue;
        }
        try {
          const r = await acceptEntryEvent(ctx.db, {
            workspaceId: ctx.workspaceId,
            apiKeyId: null,
            source: "agent",
            input: checked.data,
          });
          results.push({
            idempotencyKey: e.idempotencyKey,
            contactId: r.contactId,
            eventId: r.eventId,
            status: r.status,
            replayed: Boolean(r.replayed),
            error: null,
          });
        } catch (error) {
          if (!isAppError(error)) throw error;
          results.push({
            idempotencyKey: e.idempotencyKey,
            contactId: e.contactId,
            eventId: null,
            status: null,
            replayed: false,
            error: { code: toolCodeOf(error), message: error.message },
          });
        }
      }
      const accepted = results.filter((r) => r.eventId && !r.replayed).length;
      const refused = results.filter((r) => r.error).length;
      const identity = await identityFieldsOf(
        ctx.db,
        ctx.workspaceId,
        results.map((r) => (r.eventId ? r.contactId : null)),
      );
      return {
        requested: `Admit ${a.events.length} contacts to campaign ${a.campaignId}.`,
        changed: accepted
          ? [`Accepted ${accepted} entry events; the lifecycle now decides whether each piece is mailed.`]
          : [],
        result: {
          accepted,
          refused,
          results: results.map((r) => ({ ...r, ...identity(r.eventId ? r.contactId : null) })),
        },
        refused: refused > 0,
      };
    },
    errorHints: { not_found: "Find the campaign's id with campaigns_list." },
  }),
];
