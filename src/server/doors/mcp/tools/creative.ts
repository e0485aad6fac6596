import { z } from "zod";
import { ZBrandKitUpdate, ZFonts, ZHexColor, ZReturnAddress } from "@/server/programme/brand/schema";
import { getBrandKit, updateBrandKit } from "@/server/programme/brand/service";
import { GIFT_ITEMS } from "@/server/programme/designs/gift-catalog";
import { KNOWN_FIELDS_SENTENCE } from "@/server/programme/designs/merge-fields";
import {
  ZBlocks,
  ZDesignChanges,
  ZDesignCreate,
  ZDesignId,
  ZFormat,
  ZImageChoice,
} from "@/server/programme/designs/schema";
import { createDesign, listDesigns, previewSavedDesign, updateDesign } from "@/server/programme/designs/service";
import {
  ZDraftBlocks,
  ZDraftFilter,
  ZDraftId,
  ZDraftIssue,
  ZDraftMailabilityFields,
} from "@/server/programme/drafts/schema";
import {
  draftImages,
  draftsJobStatus,
  getDraft,
  listDrafts,
  requestDraftGeneration,
  updateDraftBlocks,
} from "@/server/programme/drafts/service";
import { ZJobStatus, ZJobView } from "@/server/records/jobs/schema";
import { AppError } from "@/server/ground/errors";
import { HANDWRITING_FONTS, TEXT_FONTS } from "@/server/ground/render/fonts";
import { DESCRIBED_ELSEWHERE } from "../listing-meta";
import { logWork } from "../logging";
import { defineTool } from "../tool";

const png = (b: Buffer) => ({ data: b.toString("base64"), mimeType: "image/png" as const });
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const ZBrandKitOut = z.object({
  companyName: z.string(),
  colors: z.object({ primary: z.string(), accent: z.string(), text: z.string() }).describe("#rrggbb"),
  fonts: z.object({ heading: z.enum(TEXT_FONTS), body: z.enum(TEXT_FONTS), handwriting: z.enum(HANDWRITING_FONTS) }),
  logo: z
    .object({ type: z.enum(["image/png", "image/svg+xml"]), width: z.number().int(), height: z.number().int() })
    .nullable()
    .describe("The logo's type and size in pixels (units for SVG); null when there is none."),
  returnAddress: z
    .object({
      addressLine1: z.string(),
      addressLine2: z.string().nullable(),
      city: z.string(),
      region: z.string().nullable(),
      postalCode: z.string(),
      country: z.string(),
    })
    .nullable(),
  signOff: z.string(),
  destinationUrl: z.string().nullable(),
  contrastWarnings: z.array(z.string()),
  updatedAt: z.string().nullable().describe("ISO 8601; null until the brand kit is first saved."),
});
const brandOut = (k: Awaited<ReturnType<typeof getBrandKit>>) => ({
  ...k,
  signature: undefined,
  updatedAt: iso(k.updatedAt),
});

const ZDesignOut = z.object({
  id: z.string().describe("dsn_…"),
  name: z.string(),
  format: ZFormat,
  size: z.string(),
  layout: z.string(),
  blocks: ZBlocks,
  colors: z
    .object({ primary: z.string().optional(), accent: z.string().optional(), text: z.string().optional() })
    .describe("Overrides of the brand kit's colours."),
  image: ZImageChoice,
  giftItem: z.enum(GIFT_ITEMS).nullable(),
  campaigns: z.number().int().describe("Campaigns that print this design."),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const designOut = (d: Awaited<ReturnType<typeof createDesign>>) => ({
  ...d,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

const ZRenderIssue = z.object({
  block: z.enum(["headline", "body", "signOff", "cta", "address", "returnAddress", "companyName"]),
  kind: z.enum(["overflow", "shrunk", "missing_glyphs"]),
  message: z.string(),
  chars: z
    .array(z.string())
    .optional()
    .describe("For missing_glyphs: the characters no bundled font can print (they would print as empty boxes)."),
});

const ZDraftRowOut = z.object({
  id: z.string().describe("drf_…"),
  contactId: z.string(),
  contactName: z.string(),
  company: z.string().nullable(),
  headline: z.string(),
  edited: z.boolean(),
  overflowing: z.boolean(),
  missingData: z.boolean(),
  missingFields: z.array(z.string()),
  specimen: z.boolean().describe("Carries 'Specimen — not mailed' (free audit plan)."),
  pages: z.number().int(),
  pdfBytes: z.number().int(),
  renderedAt: z.string(),
  ...ZDraftMailabilityFields,
});

const mergeHelp = `Text blocks may use merge fields. ${KNOWN_FIELDS_SENTENCE}`;

export const creativeTools = [
  defineTool({
    name: "brand_kit_get",
    title: "Read the brand kit",
    description: "The brand kit every design and draft uses, with contrast warnings.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({}),
    result: ZBrandKitOut,
    run: async (ctx) => ({
      requested: "The brand kit.",
      changed: [],
      result: brandOut(await getBrandKit(ctx.db, { workspaceId: ctx.workspaceId })),
    }),
  }),
  defineTool({
    name: "brand_kit_update",
    title: "Change the brand kit",
    description: `Changes the members given (SVG logos are sanitised). returnAddress with a two-letter country code. Prints nothing; drafts_generate shows it in drafts.`,
    scope: "campaigns:write",
    kind: "write",
    idempotent: true,
    destructive: true,
    input: z.object({
      companyName: ZBrandKitUpdate.shape.companyName.describe("The company name."),
      logo: ZBrandKitUpdate.shape.logo,
      colors: z
        .object({ primary: ZHexColor, accent: ZHexColor, text: ZHexColor })
        .partial()
        .optional()
        .describe("Any of the three colours."),
      fonts: ZFonts.partial().optional().describe("Any of the three fonts."),
      returnAddress: ZReturnAddress.optional().describe("The return address printed on every piece."),
      signOff: ZBrandKitUpdate.shape.signOff.describe("The default sign-off."),
      destinationUrl: ZBrandKitUpdate.shape.destinationUrl,
    }),
    result: ZBrandKitOut,
    run: async (ctx, a) => {
      const kit = await updateBrandKit(ctx.db, { workspaceId: ctx.workspaceId, input: a, actor: ctx.actor });
      const fields = Object.keys(a).filter((k) => a[k as keyof typeof a] !== undefined);
      return {
        requested: `Change ${fields.join(", ") || "nothing"} of the brand kit.`,
        changed: fields.length ? [`Updated the brand kit's ${fields.join(", ")}.`] : [],
        result: brandOut(kit),
      };
    },
  }),
  defineTool({
    name: "designs_list",
    title: "List designs",
    description:
      "Designs, newest first, 25 a page: format, size, layout, text blocks, image, colours, campaigns printing each.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      format: ZFormat.optional().describe("Only designs of this format."),
      cursor: z.string().max(64).optional().describe("nextCursor of the previous page."),
    }),
    result: z.object({ designs: z.array(ZDesignOut), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => {
      const page = await listDesigns(ctx.db, {
        workspaceId: ctx.workspaceId,
        format: a.format,
        cursor: a.cursor,
        take: 25,
      });
      return {
        requested: "The list of designs.",
        changed: [],
        result: { designs: page.designs.map(designOut), nextCursor: page.nextCursor },
      };
    },
  }),
  defineTool({
    name: "designs_create",
    title: "Create a design",
    description: `Creates a design of one format (sizes and layouts below; a gift design is a 4x6 note card with a giftItem). ${mergeHelp} designs_preview shows it; a draft uses it by designId.`,
    scope: "campaigns:write",
    kind: "write",
    idempotent: false,
    input: ZDesignCreate,
    result: ZDesignOut,
    run: async (ctx, a) => {
      const design = await createDesign(ctx.db, { workspaceId: ctx.workspaceId, input: a, actor: ctx.actor });
      return {
        requested: `Create the ${a.format} design “${a.name}”.`,
        changed: [`Created design ${design.id} (“${design.name}”).`],
        result: designOut(design),
      };
    },
  }),
  defineTool({
    name: "designs_update",
    title: "Edit a design",
    description: `Changes the members given (blocks merged one by one). A design a live or paused campaign prints cannot change: create another. Merge fields as in designs_create.`,
    scope: "campaigns:write",
    kind: "write",
    idempotent: true,
    destructive: true,
    input: ZDesignChanges.extend({ designId: ZDesignId }).meta({ [DESCRIBED_ELSEWHERE]: true }),
    result: ZDesignOut,
    run: async (ctx, a) => {
      const { designId, ...changes } = a;
      const design = await updateDesign(ctx.db, { workspaceId: ctx.workspaceId, designId, changes, actor: ctx.actor });
      const fields = Object.keys(changes);
      return {
        requested: `Edit ${fields.join(", ") || "nothing"} of design ${designId}.`,
        changed: fields.length ? [`Updated ${fields.join(", ")} of design ${design.id}.`] : [],
        result: designOut(design),
      };
    },
  }),
  defineTool({
    name: "designs_preview",
    title: "Preview a design",
    description:
      "Renders a design for one contact (or a sample one) as printed: each page as a PNG, what did not fit, missing merge fields, proofUrl (print PDF, 24 hours).",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      designId: ZDesignId,
      contactId: z.string().min(1).max(64).optional().describe("A contact (ctc_…); contacts_list shows them."),
    }),
    result: z.object({
      designId: z.string(),
      recipient: z.object({ contactId: z.string().nullable(), name: z.string() }),
      pages: z.array(z.string()).describe("Page names in order, e.g. Front, Back; the images follow in this order."),
      issues: z.array(ZRenderIssue),
      missingFields: z.array(z.string()).describe("Merge fields empty for this contact with no fallback."),
      specimen: z.boolean(),
      proofUrl: z.string(),
    }),
    run: async (ctx, a) => {
      const r = await previewSavedDesign(ctx.db, {
        workspaceId: ctx.workspaceId,
        designId: a.designId,
        contactId: a.contactId,
        widthPx: 800,
      });
      return {
        requested: `A preview of design ${a.designId}${a.contactId ? ` for contact ${a.contactId}` : ""}.`,
        changed: [],
        result: {
          designId: a.designId,
          recipient: r.recipient,
          pages: r.pages.map((p) => p.label),
          issues: r.issues,
          missingFields: r.missingFields,
          specimen: r.specimen,
          proofUrl: r.proofUrl,
        },
        images: r.pages.map((p) => png(p.png)),
      };
    },
  }),
  defineTool({
    name: "drafts_generate",
    title: "Generate a campaign's drafts",
    description:
      "Renders one draft per recipient of a draft campaign as a job: campaignId starts it (or returns the running one), jobId follows it. drafts_update copy is kept. Prints nothing.",
    scope: "campaigns:write",
    kind: "write",
    idempotent: true,
    input: z
      .object({
        campaignId: z.string().min(1).max(64).optional().describe("The draft campaign (cmp_…) whose drafts to render."),
        jobId: z
          .string()
          .min(1)
          .max(64)
          .optional()
          .describe("The job a previous call returned, to see its progress and result."),
      })
      .refine((a) => a.campaignId || a.jobId, "Give campaignId to start, or jobId to follow a job."),
    result: z.object({
      jobId: z.string(),
      status: ZJobStatus,
      job: ZJobView,
      drafts: z.number().int().nullable().describe("Drafts of the campaign once the job succeeded; null until then."),
      overflowing: z
        .number()
        .int()
        .nullable()
        .describe("Drafts with text that did not fit its box (drafts_list filter overflowing)."),
      missingData: z
        .number()
        .int()
        .nullable()
        .describe("Drafts with an empty merge field and no fallback (filter missing_data)."),
      unmailable: z
        .number()
        .int()
        .nullable()
        .describe(
          "Drafts whose recipient cannot be mailed, judged now as the lifecycle's gates would (filter unmailable): their piece is skipped when they enter. Null until the job succeeded.",
        ),
      mailability: z
        .string()
        .nullable()
        .describe(
          'In words, with the first few recipients and their reasons ("7 of 8 drafts can be mailed; 1 recipient cannot …"); null when every draft can be mailed, or until the job succeeded.',
        ),
    }),
    run: async (ctx, a) => {
      let jobId = a.jobId;
      let changed: string[] = [];
      if (!jobId && a.campaignId) {
        const { job, created } = await requestDraftGeneration(ctx.db, {
          workspaceId: ctx.workspaceId,
          campaignId: a.campaignId,
          actor: ctx.actor,
        });
        jobId = job.id;
        changed = created ? [`Queued job ${job.id} to render the drafts of campaign ${a.campaignId}.`] : [];
      }
      if (!jobId) throw new AppError("validation_failed", "Give campaignId to start, or jobId to follow a job.");
      const s = await draftsJobStatus(ctx.db, { workspaceId: ctx.workspaceId, jobId });
      await logWork(
        ctx.log,
        `Drafts job ${jobId}`,
        { status: s.job.status, progress: s.view.progress, error: s.view.error },
        { jobId },
      );
      return {
        requested: a.jobId ? `The progress of job ${a.jobId}.` : `Drafts for campaign ${a.campaignId}.`,
        changed,
        result: {
          jobId,
          status: s.job.status,
          job: s.view,
          drafts: s.result?.drafts ?? null,
          overflowing: s.result?.overflowing ?? null,
          missingData: s.result?.missingData ?? null,
          unmailable: s.mailability?.unmailable ?? null,
          mailability: s.mailability?.sentence ?? null,
        },
      };
    },
  }),
  defineTool({
    name: "drafts_list",
    title: "List a campaign's drafts",
    description:
      "A campaign's drafts, 25 a page, optionally filtered; pass nextCursor as cursor for the next page. drafts_get shows one with its image.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      campaignId: z.string().min(1).max(64).describe("The campaign (cmp_…)."),
      filter: ZDraftFilter.optional(),
      cursor: z.string().max(64).optional().describe("nextCursor of the previous page."),
    }),
    result: z.object({ drafts: z.array(ZDraftRowOut), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => {
      const page = await listDrafts(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: a.campaignId,
        filter: a.filter,
        cursor: a.cursor,
        take: 25,
      });
      return {
        requested: `Drafts of campaign ${a.campaignId}${a.filter ? ` (${a.filter})` : ""}.`,
        changed: [],
        result: {
          drafts: page.drafts.map((d) => ({ ...d, renderedAt: d.renderedAt.toISOString() })),
          nextCursor: page.nextCursor,
        },
      };
    },
  }),
  defineTool({
    name: "drafts_get",
    title: "Read one draft",
    description:
      "One recipient's draft: each block as printed, their own copy if any, what did not fit, proofUrl (the print PDF, 24 hours) and each page as a PNG.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ draftId: ZDraftId }),
    result: ZDraftRowOut.extend({
      campaignId: z.string(),
      blocks: z
        .object({ headline: z.string(), body: z.string(), signOff: z.string(), cta: z.string() })
        .describe("Each block as printed for this recipient."),
      overrides: z
        .object({ headline: z.string().optional(), body: z.string().optional(), signOff: z.string().optional() })
        .nullable()
        .describe("This recipient's own copy, or null."),
      issues: z.array(ZDraftIssue),
      responseLink: z.string(),
      outOfDate: z
        .boolean()
        .describe(
          "Rendered before the campaign, its design or the brand kit last changed, or its recipient changed since (recipientChanged): run drafts_generate again.",
        ),
      recipientChanged: z
        .boolean()
        .describe(
          "The recipient's address, name, title, company or custom fields changed since this draft was rendered: it no longer shows what would be printed. Once live, their piece is rendered again when they enter.",
        ),
      editable: z.boolean().describe("False once the campaign went live."),
      proofUrl: z.string(),
    }),
    run: async (ctx, a) => {
      const d = await getDraft(ctx.db, { workspaceId: ctx.workspaceId, draftId: a.draftId });
      const pages = await draftImages(ctx.db, { workspaceId: ctx.workspaceId, draftId: a.draftId, widthPx: 800 });
      return {
        requested: `Draft ${a.draftId}.`,
        changed: [],
        result: { ...d, renderedAt: d.renderedAt.toISOString() },
        images: pages.map((p) => png(p.png)),
      };
    },
  }),
  defineTool({
    name: "drafts_update",
    title: "Rewrite one recipient's draft",
    description: `Writes one recipient's own headline, body or signOff and renders their draft again; an empty string returns to the template. Only while a draft.`,
    scope: "campaigns:write",
    kind: "write",
    idempotent: true,
    destructive: true,
    input: z.object({
      draftId: ZDraftId,
      blocks: ZDraftBlocks.describe("Any of headline, body and signOff."),
    }),
    result: z.object({
      draftId: z.string(),
      edited: z.boolean(),
      overflowing: z.boolean(),
      missingData: z.boolean(),
      blocks: z.object({ headline: z.string(), body: z.string(), signOff: z.string(), cta: z.string() }),
      issues: z.array(ZDraftIssue),
      proofUrl: z.string(),
    }),
    run: async (ctx, a) => {
      const d = await updateDraftBlocks(ctx.db, {
        workspaceId: ctx.workspaceId,
        draftId: a.draftId,
        blocks: a.blocks,
        actor: ctx.actor,
      });
      return {
        requested: `Rewrite ${Object.keys(a.blocks).join(", ")} of draft ${a.draftId}.`,
        changed: [
          `Rendered draft ${d.id} for ${d.contactName} again with ${d.edited ? "their own copy" : "the campaign's copy"}.`,
        ],
        result: {
          draftId: d.id,
          edited: d.edited,
          overflowing: d.overflowing,
          missingData: d.missingData,
          blocks: d.blocks,
          issues: d.issues,
          proofUrl: d.proofUrl,
        },
      };
    },
  }),
];
