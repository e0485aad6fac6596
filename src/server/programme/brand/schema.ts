import { z } from "zod";
import { toCountryCode } from "@/server/records/addresses/countries";
import { HANDWRITING_FONTS, TEXT_FONTS } from "@/server/ground/render/fonts";
import { MAX_DATA_URL_CHARS } from "./image-upload";

const noNul = (s: string) => !s.includes("\u0000");
const text = (label: string, max: number) =>
  z
    .string()
    .max(max, `${label} has at most ${max} characters.`)
    .refine(noNul, `${label} cannot contain a NUL character.`);

export const ZHexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, "A colour is written #rrggbb, like #1c7ed6.");

export const ZReturnAddress = z.object({
  addressLine1: text("The first address line", 120).trim().min(1, "Give the street address."),
  addressLine2: text("The second address line", 120).trim().nullish(),
  city: text("The city", 80).trim().min(1, "Give the city."),
  region: text("The region", 80).trim().nullish(),
  postalCode: text("The postal code", 20).trim().min(1, "Give the postal code."),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, "The country is a two-letter ISO code, like US or DE.")
    .transform((c) => c.toUpperCase())
    .refine((c) => toCountryCode(c) === c, {
      error: (issue) => `${String(issue.input)} is not a country's ISO code; write one like US or DE.`,
    }),
});

export const ZFonts = z.object({
  heading: z.enum(TEXT_FONTS).describe("Headings."),
  body: z.enum(TEXT_FONTS).describe("Body text."),
  handwriting: z.enum(HANDWRITING_FONTS).describe("Handwritten notes and sign-offs."),
});

const ZImageDataUrl = (label: string) =>
  z
    .string()
    .max(MAX_DATA_URL_CHARS, `${label} is larger than 2 MB.`)
    .describe(
      `${label} as a data URL: data:image/png;base64,… or data:image/svg+xml;base64,… (at most 2 MB). null removes it.`,
    );

/** What an owner or agent may change on the brand kit; every member optional. */
export const ZBrandKitUpdate = z.object({
  companyName: text("The company name", 120).trim().min(1, "Give the company name.").optional(),
  logo: ZImageDataUrl("The logo").nullable().optional(),
  signature: ZImageDataUrl("The signature").nullable().optional(),
  colors: z
    .object({ primary: ZHexColor, accent: ZHexColor, text: ZHexColor })
    .partial()
    .optional()
    .describe("Brand colours as #rrggbb."),
  fonts: ZFonts.partial().optional(),
  returnAddress: ZReturnAddress.optional(),
  signOff: text("The sign-off", 160).optional(),
  destinationUrl: z
    .string()
    .trim()
    .max(2000)
    .refine(
      (v) => /^https?:\/\//.test(v) && URL.canParse(v),
      "The destination must be an http(s) URL, like https://acme.example/welcome.",
    )
    .nullable()
    .optional()
    .describe("Where response links lead when a campaign sets none."),
});
export type TBrandKitUpdate = z.infer<typeof ZBrandKitUpdate>;

const ZImageInfo = z
  .object({ type: z.enum(["image/png", "image/svg+xml"]), width: z.number().int(), height: z.number().int() })
  .nullable();

/** The brand kit as tools and pages read it. */
export const ZBrandKit = z.object({
  companyName: z.string(),
  colors: z.object({ primary: z.string(), accent: z.string(), text: z.string() }),
  fonts: z.object({ heading: z.enum(TEXT_FONTS), body: z.enum(TEXT_FONTS), handwriting: z.enum(HANDWRITING_FONTS) }),
  logo: ZImageInfo.describe("The logo's type and size in pixels (or units for SVG), or null."),
  signature: ZImageInfo,
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
  contrastWarnings: z
    .array(z.string())
    .describe("Colour pairs that are hard to read (WCAG contrast below 4.5:1, or 3:1 for large type)."),
  updatedAt: z.date().nullable(),
});
export type TBrandKit = z.infer<typeof ZBrandKit>;
