import { z } from "zod";
import { ARTWORKS } from "@/server/ground/render/input";
import { isLayout, LAYOUTS } from "@/server/ground/render";
import { FORMATS, SIZES, sizeSpec } from "@/server/ground/render/page-specs";
import { ZHexColor } from "@/server/programme/brand/schema";
import { GIFT_ITEMS } from "./gift-catalog";
import { mergeFieldProblems } from "./merge-fields";

/** A text block: bounded, no NUL, and only known merge fields. */
export const templateText = (label: string, max: number) =>
  z
    .string()
    .max(max, `${label} has at most ${max} characters.`)
    .refine((v) => !v.includes("\u0000"), `${label} cannot contain a NUL character.`)
    .superRefine((v, ctx) => {
      for (const problem of mergeFieldProblems(v)) ctx.addIssue({ code: "custom", message: `${label} ${problem}` });
    });

export const ZBlocks = z.object({
  headline: templateText("The headline", 200).describe(
    "The headline; merge fields such as {{firstName|there}} allowed.",
  ),
  body: templateText("The message", 3000).describe("The message; blank lines separate paragraphs."),
  signOff: templateText("The sign-off", 200).describe(
    "The sign-off, printed in the handwriting font; empty uses the brand kit's.",
  ),
  cta: templateText("The call to action", 200).describe("The line printed beside the QR code."),
});
export type TBlocks = z.infer<typeof ZBlocks>;

export const ZImageChoice = z
  .enum(["logo", "none", ...ARTWORKS])
  .describe("The brand kit's logo, none, or an artwork in the design's colours.");
export const ZFormat = z.enum(FORMATS);

const sizesText = FORMATS.map((f) => `${f}: ${Object.keys(SIZES[f]).join(", ")}`).join("; ");
const layoutsText = FORMATS.map((f) => `${f}: ${Object.keys(LAYOUTS[f]).join(", ")}`).join("; ");

const ZDesignFields = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the design a name.")
    .max(120, "A name has at most 120 characters.")
    .refine((v) => !v.includes("\u0000"), "The name cannot contain a NUL character.")
    .describe("The design's name."),
  format: ZFormat.describe("The design's format; it cannot change."),
  size: z.string().max(20).optional().describe(`The size (${sizesText}); the format's first size when left out.`),
  layout: z.string().max(40).describe(`The layout (${layoutsText}).`),
  blocks: ZBlocks.partial()
    .optional()
    .describe("Text blocks; the ones left out start from the format's suggested copy."),
  colors: z
    .object({ primary: ZHexColor, accent: ZHexColor, text: ZHexColor })
    .partial()
    .optional()
    .describe("Colours replacing the brand kit's for this design (#rrggbb)."),
  image: ZImageChoice.optional(),
  giftItem: z.enum(GIFT_ITEMS).nullish().describe("Gift designs: the gift."),
});

/** Size, layout and gift must fit the format. */
export function checkDesignShape(
  v: { format: (typeof FORMATS)[number]; size?: string | null; layout?: string | null; giftItem?: string | null },
  ctx: z.RefinementCtx,
) {
  if (v.size && !sizeSpec(v.format, v.size))
    ctx.addIssue({
      code: "custom",
      path: ["size"],
      message: `A ${v.format} comes in ${Object.keys(SIZES[v.format]).join(", ")}.`,
    });
  if (v.layout && !isLayout(v.format, v.layout))
    ctx.addIssue({
      code: "custom",
      path: ["layout"],
      message: `The ${v.format} layouts are ${Object.keys(LAYOUTS[v.format]).join(", ")}.`,
    });
  if (v.format === "gift" && v.giftItem === null)
    ctx.addIssue({
      code: "custom",
      path: ["giftItem"],
      message: `A gift design names its gift: one of ${GIFT_ITEMS.join(", ")}.`,
    });
}

export const ZDesignCreate = ZDesignFields.superRefine(checkDesignShape);
export type TDesignCreate = z.infer<typeof ZDesignCreate>;

export const ZDesignChanges = ZDesignFields.omit({ format: true }).partial();
export type TDesignChanges = z.infer<typeof ZDesignChanges>;

export const ZDesignId = z.string().min(1).max(64).describe("The design's id (dsn_…).");

/** A design as pages and tools read it. */
export const ZDesign = z.object({
  id: z.string(),
  name: z.string(),
  format: ZFormat,
  size: z.string(),
  layout: z.string(),
  blocks: ZBlocks,
  colors: z.object({ primary: z.string().optional(), accent: z.string().optional(), text: z.string().optional() }),
  image: ZImageChoice,
  giftItem: z.enum(GIFT_ITEMS).nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  campaigns: z.number().int().describe("How many campaigns print this design."),
});
export type TDesign = z.infer<typeof ZDesign>;
