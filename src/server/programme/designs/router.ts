import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { FONT_FAMILIES, HANDWRITING_FONTS, TEXT_FONTS } from "@/server/ground/render/fonts";
import { LAYOUTS } from "@/server/ground/render";
import { ARTWORKS } from "@/server/ground/render/input";
import { DEFAULT_SIZE, FORMATS, SIZES } from "@/server/ground/render/page-specs";
import { GIFT_CATALOG } from "./gift-catalog";
import { MERGE_FIELDS } from "./merge-fields";
import { SUGGESTED_BLOCKS } from "./defaults";
import { checkDesignShape, ZBlocks, ZDesignChanges, ZDesignCreate, ZDesignId, ZFormat, ZImageChoice } from "./schema";
import { createDesign, getDesign, listDesigns, previewDesign, previewSavedDesign, updateDesign } from "./service";
import { ZHexColor } from "@/server/programme/brand/schema";
import { listContacts } from "@/server/records/contacts/service";

const ZPreviewDraft = z
  .object({
    format: ZFormat,
    size: z.string().max(20),
    layout: z.string().max(40),
    blocks: ZBlocks.partial(),
    colors: z.object({ primary: ZHexColor, accent: ZHexColor, text: ZHexColor }).partial(),
    image: ZImageChoice,
    giftItem: z.string().max(40).nullable(),
  })
  .superRefine(checkDesignShape);

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString("base64")}`;

/** Designs for the owner's browser, with the live preview the editor shows as a person types. */
export const designRouter = router({
  catalog: ownerProcedure.query(() => ({
    formats: FORMATS.map((format) => ({
      format,
      sizes: Object.entries(SIZES[format]).map(([value, s]) => ({ value, label: s.label })),
      defaultSize: DEFAULT_SIZE[format],
      layouts: Object.entries(LAYOUTS[format]).map(([value, l]) => ({ value, ...l })),
      suggested: SUGGESTED_BLOCKS[format],
    })),
    artworks: ARTWORKS,
    fonts: {
      text: TEXT_FONTS.map((f) => ({ value: f, label: FONT_FAMILIES[f].label })),
      handwriting: HANDWRITING_FONTS.map((f) => ({ value: f, label: FONT_FAMILIES[f].label })),
    },
    gifts: Object.entries(GIFT_CATALOG).map(([value, g]) => ({ value, ...g })),
    mergeFields: Object.entries(MERGE_FIELDS).map(([name, description]) => ({ name, description })),
  })),
  list: ownerProcedure
    .input(
      z.object({
        format: ZFormat.optional(),
        cursor: z.string().max(64).nullish(),
        take: z.number().int().min(1).max(100).default(24),
      }),
    )
    .query(({ ctx, input }) =>
      listDesigns(ctx.db, {
        workspaceId: ctx.workspaceId,
        format: input.format,
        cursor: input.cursor,
        take: input.take,
      }),
    ),
  get: ownerProcedure
    .input(z.object({ designId: ZDesignId }))
    .query(({ ctx, input }) => getDesign(ctx.db, { workspaceId: ctx.workspaceId, designId: input.designId })),
  create: ownerProcedure
    .input(z.object({ design: ZDesignCreate }))
    .mutation(({ ctx, input }) =>
      createDesign(ctx.db, { workspaceId: ctx.workspaceId, input: input.design, actor: ctx.actor }),
    ),
  update: ownerProcedure.input(z.object({ designId: ZDesignId, changes: ZDesignChanges })).mutation(({ ctx, input }) =>
    updateDesign(ctx.db, {
      workspaceId: ctx.workspaceId,
      designId: input.designId,
      changes: input.changes,
      actor: ctx.actor,
    }),
  ),
  /** The live preview of the fields being edited (nothing is saved). */
  preview: ownerProcedure
    .input(z.object({ design: ZPreviewDraft, contactId: z.string().max(64).nullish() }))
    .query(async ({ ctx, input }) => {
      const r = await previewDesign(ctx.db, {
        workspaceId: ctx.workspaceId,
        design: input.design as never,
        contactId: input.contactId,
        widthPx: 1100,
      });
      return { ...r, pdf: undefined, pages: r.pages.map((page) => ({ label: page.label, src: dataUrl(page.png) })) };
    }),
  /** Contacts to preview a design for (search by name, email or company). */
  previewContacts: ownerProcedure
    .input(z.object({ query: z.string().max(100).optional() }))
    .query(async ({ ctx, input }) =>
      (await listContacts(ctx.db, { workspaceId: ctx.workspaceId, search: input.query, take: 20 })).contacts.map(
        (c) => ({ id: c.id, name: `${c.firstName} ${c.lastName}`.trim(), company: c.account?.name ?? null }),
      ),
    ),
  previewSaved: ownerProcedure
    .input(z.object({ designId: ZDesignId, contactId: z.string().max(64).nullish() }))
    .query(async ({ ctx, input }) => {
      const r = await previewSavedDesign(ctx.db, {
        workspaceId: ctx.workspaceId,
        designId: input.designId,
        contactId: input.contactId,
        widthPx: 600,
      });
      return { ...r, pdf: undefined, pages: r.pages.map((page) => ({ label: page.label, src: dataUrl(page.png) })) };
    }),
});
