import { z } from "zod";
import { openGiftClaims, listResponses } from "@/server/programme/responses/list";
import { RESPONSE_KINDS } from "@/server/programme/responses/kinds";
import { defineTool } from "../tool";

const ZCampaignIdArg = z.string().min(1).max(64).describe("The campaign's id (cmp_…).");
const ZCursor = z.string().min(1).max(64).optional().describe("nextCursor of the previous page.");
const ZTake = z.number().int().min(1).max(100).default(25).describe("Page size, 1 to 100.");
const ZKind = z.enum(RESPONSE_KINDS, { error: `kind must be one of ${RESPONSE_KINDS.join(", ")}.` });

const ZAddress = z.object({
  addressLine1: z.string(),
  addressLine2: z.string().nullable(),
  city: z.string(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().describe("ISO 3166-1 alpha-2."),
  version: z
    .number()
    .int()
    .describe(
      "The shipping address's version (1 is the contact's address when the claim opened; earlier versions are kept).",
    ),
});

export const responseTools = [
  defineTool({
    name: "responses_list",
    title: "List what recipients did",
    description: `What recipients did with a campaign's printed links and hosted page, a page at a time, newest first. Kinds: scan (QR code), click (typed link), page_view (views within 30 minutes are one visit), reply (reply.text), meeting_click, site_click (once per 30 minutes), gift_claim (gift), address_change (address; the original stays), gift_decline.`,
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      campaignId: ZCampaignIdArg,
      kind: ZKind.optional().describe("Only responses of this kind."),
      cursor: ZCursor,
      take: ZTake,
    }),
    result: z.object({
      responses: z.array(
        z.object({
          responseId: z.string().describe("rsp_…"),
          kind: ZKind,
          occurredAt: z.string().describe("When it happened (ISO 8601, UTC)."),
          pieceId: z.string().describe("The mail piece whose link or page it was (pc_…)."),
          contactId: z.string().nullable().describe("null: the contact was deleted."),
          recipient: z.string(),
          company: z.string().nullable(),
          reply: z
            .object({
              text: z.string(),
              replyTo: z.string().nullable().describe("How the recipient asked to be reached, if they said."),
            })
            .nullable()
            .describe("For reply: what the recipient wrote."),
          gift: z
            .object({ item: z.string().describe("Gift catalogue id."), name: z.string() })
            .nullable()
            .describe("For gift_claim: the gift chosen."),
          address: ZAddress.nullable().describe("For address_change: the new shipping address (the gift ships there)."),
        }),
      ),
      nextCursor: z.string().nullable(),
    }),
    run: async (ctx, a) => {
      const page = await listResponses(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: a.campaignId,
        kind: a.kind,
        cursor: a.cursor,
        take: a.take,
      });
      return {
        requested: `A page of the responses to ${a.campaignId}${a.kind ? ` (${a.kind})` : ""}.`,
        changed: [],
        result: {
          responses: page.responses.map((r) => ({ ...r, occurredAt: r.occurredAt.toISOString() })),
          nextCursor: page.nextCursor,
        },
      };
    },
    errorHints: {
      not_found: "Find the campaign's id with campaigns_list; a cursor must come from this campaign's previous page.",
    },
  }),
  defineTool({
    name: "gift_claims_list",
    title: "List gifts waiting for their recipient's claim",
    description:
      "A gift-claim campaign's unclaimed gifts, soonest to expire first, each with its claimUrl for the team to send. Unclaimed at expiresAt, one ends skipped (gift_unclaimed), its budget released.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ campaignId: ZCampaignIdArg, cursor: ZCursor, take: ZTake }),
    result: z.object({
      claims: z.array(
        z.object({
          claimId: z.string().describe("gcl_…"),
          pieceId: z.string(),
          contactId: z.string().nullable(),
          recipient: z.string(),
          company: z.string().nullable(),
          email: z.string().nullable(),
          claimUrl: z
            .string()
            .describe(
              "The recipient's own claim page ({base_url}/r/{code}); anyone with it can claim, so send it only to them.",
            ),
          openedAt: z.string(),
          expiresAt: z.string().describe("When the claim expires (ISO 8601, UTC)."),
        }),
      ),
      nextCursor: z.string().nullable(),
    }),
    run: async (ctx, a) => {
      const page = await openGiftClaims(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: a.campaignId,
        cursor: a.cursor,
        take: a.take,
      });
      return {
        requested: `The open gift claims of ${a.campaignId}.`,
        changed: [],
        result: {
          claims: page.claims.map((c) => ({
            ...c,
            openedAt: c.openedAt.toISOString(),
            expiresAt: c.expiresAt.toISOString(),
          })),
          nextCursor: page.nextCursor,
        },
      };
    },
    errorHints: {
      not_found: "Find the campaign's id with campaigns_list; a cursor must come from this campaign's previous page.",
    },
  }),
];
