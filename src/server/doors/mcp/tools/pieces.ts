import { z } from "zod";
import { proofUrl } from "@/server/programme/designs/proof-links";
import { personName } from "@/server/records/pieces/deleted-contact";
import { getPiece, listPieces, type PieceRow } from "@/server/records/pieces/service";
import type { McpContext } from "../context";
import { defineTool } from "../tool";
import { ZCursor, ZTake } from "./paging";

const PIECE_STATUSES = ["pending_review", "approved", "rendered", "printed", "mailed", "cancelled", "failed"] as const;

const ZPiece = z.object({
  pieceId: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  status: z
    .enum(PIECE_STATUSES)
    .describe(
      "pending_review waits for a person (pieces_request_approval gives its card); then approved, rendered, printed, mailed; or cancelled, failed.",
    ),
  contactId: z.string().nullable().describe("null: the contact was deleted (the piece stays, its recipient redacted)."),
  recipient: z.string().describe('The recipient\'s name as printed; "Deleted contact" once the contact was deleted.'),
  addressLines: z.array(z.string()).describe("The address block as printed (later contact edits do not change it)."),
  costCents: z.number().int().describe("Printing and postage charged to the campaign's budget, in cents."),
  pages: z.number().int().nullable(),
  vendor: z.string().describe("The print vendor."),
  vendorRef: z.string().nullable().describe("The vendor's reference for tracking, once the vendor has the piece."),
  vendorMode: z
    .enum(["test", "live"])
    .nullable()
    .describe("test: printed through a test key, nothing really mailed; null for the sandbox."),
  vendorIssue: z
    .string()
    .nullable()
    .describe("Why the vendor did not take it: address_refused, file_refused, unconfirmed, cancelled_at_vendor."),
  vendorIssueDetail: z.string().nullable(),
  trackingStatus: z
    .string()
    .nullable()
    .describe(
      "The latest tracking status: mailed, in_transit, in_local_area, processed_for_delivery, delivered, re_routed, returned_to_sender.",
    ),
  tracking: z
    .array(z.object({ status: z.string(), at: z.string() }))
    .describe("Every tracking event, in the order they happened."),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
  renderedAt: z.string().nullable(),
  printedAt: z.string().nullable(),
  mailedAt: z.string().nullable(),
  proofUrl: z
    .string()
    .nullable()
    .describe(
      "The print-ready PDF: a signed link that opens without a session for one hour (ask again for a fresh one); null before it is rendered.",
    ),
  proofExpiresAt: z.string().nullable(),
});

async function pieceView(ctx: McpContext, p: PieceRow, now: number): Promise<z.infer<typeof ZPiece>> {
  const recipient = (p.recipient ?? {}) as { name?: string; lines?: string[] };
  const url = p.hasProof
    ? await proofUrl(ctx.db, { kind: "piece", id: p.id, workspaceId: ctx.workspaceId }, now)
    : null;
  return {
    pieceId: p.id,
    campaignId: p.campaignId,
    campaignName: p.campaign.name,
    status: p.status,
    contactId: p.contactId,
    recipient: recipient.name?.trim() || personName(p.contact),
    addressLines: Array.isArray(recipient.lines) ? recipient.lines : [],
    costCents: p.costCents,
    pages: p.pages,
    vendor: p.vendor,
    vendorRef: p.vendorRef,
    vendorMode: p.vendorMode === "test" || p.vendorMode === "live" ? p.vendorMode : null,
    vendorIssue: p.vendorIssue,
    vendorIssueDetail: p.vendorIssueDetail,
    trackingStatus: p.trackingStatus,
    tracking: (Array.isArray(p.trackingEvents) ? (p.trackingEvents as { status?: unknown; at?: unknown }[]) : []).map(
      (t) => ({ status: String(t.status ?? ""), at: String(t.at ?? "") }),
    ),
    createdAt: p.createdAt.toISOString(),
    reviewedAt: p.reviewedAt?.toISOString() ?? null,
    renderedAt: p.renderedAt?.toISOString() ?? null,
    printedAt: p.printedAt?.toISOString() ?? null,
    mailedAt: p.mailedAt?.toISOString() ?? null,
    proofUrl: url,
    proofExpiresAt: url ? new Date(Number(new URL(url).searchParams.get("expires"))).toISOString() : null,
  };
}

export const pieceTools = [
  defineTool({
    name: "pieces_get",
    title: "Read a mail piece",
    description:
      "One mail piece: status, tracking reference, cost in cents, recipient and address as printed, dates, and a signed proof link (one hour, no session needed).",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ pieceId: z.string().min(1).max(64).describe("The piece's id (pc_…).") }),
    result: ZPiece,
    run: async (ctx, a) => ({
      requested: `Mail piece ${a.pieceId}.`,
      changed: [],
      result: await pieceView(
        ctx,
        await getPiece(ctx.db, { workspaceId: ctx.workspaceId, pieceId: a.pieceId }),
        Date.now(),
      ),
    }),
    errorHints: { not_found: "Find piece ids with pieces_list, by campaignId or contactId." },
  }),
  defineTool({
    name: "pieces_list",
    title: "List mail pieces",
    description:
      "One page of mail pieces, newest first, of a campaign and/or a contact, optionally of one status, each as pieces_get gives it.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      campaignId: z.string().min(1).max(64).optional().describe("The campaign's id (cmp_…)."),
      contactId: z.string().min(1).max(64).optional().describe("The contact's id (ctc_…)."),
      status: z.enum(PIECE_STATUSES).optional().describe("Only pieces in this status."),
      cursor: ZCursor,
      take: ZTake,
    }),
    result: z.object({ pieces: z.array(ZPiece), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => {
      const page = await listPieces(ctx.db, { workspaceId: ctx.workspaceId, ...a });
      const now = Date.now();
      const of =
        [a.campaignId && `campaign ${a.campaignId}`, a.contactId && `contact ${a.contactId}`]
          .filter(Boolean)
          .join(" and ") || "the workspace";
      return {
        requested: `A page of the mail pieces of ${of}.`,
        changed: [],
        result: {
          pieces: await Promise.all(page.items.map((p) => pieceView(ctx, p, now))),
          nextCursor: page.nextCursor,
        },
      };
    },
  }),
];
