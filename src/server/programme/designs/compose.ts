import { returnAddressLines } from "@/server/records/addresses/address-block";
import type { RenderBrand } from "@/server/programme/brand/service";
import { LAYOUTS } from "@/server/ground/render";
import type { RenderInput, TBlock } from "@/server/ground/render/input";
import { DEFAULT_SIZE, type TFormat } from "@/server/ground/render/page-specs";
import { SUGGESTED_BLOCKS } from "./defaults";
import { GIFT_CATALOG, STANDARD_GIFT, type TGiftItem } from "./gift-catalog";
import { fillTemplate } from "./merge-fields";
import { addressBlock, mergeValues, type RecipientContact } from "./recipient";
import type { TBlocks } from "./schema";

/** The parts of a design the renderer needs (a saved Design row, or the fields being edited). */
export interface DesignLike {
  format: TFormat;
  size: string;
  layout: string;
  blocks: Partial<TBlocks>;
  colors: { primary?: string; accent?: string; text?: string };
  image: RenderInput["image"];
  giftItem: string | null;
}

/** A campaign without a design prints its format's first layout with the suggested copy. */
export function standardDesign(format: TFormat, hasLogo: boolean): DesignLike {
  return {
    format,
    size: DEFAULT_SIZE[format],
    layout: Object.keys(LAYOUTS[format])[0],
    blocks: {},
    colors: {},
    image: hasLogo ? "logo" : "none",
    giftItem: format === "gift" ? STANDARD_GIFT : null,
  };
}

/** Who a preview shows when no contact is chosen. */
export const SAMPLE_CONTACT: RecipientContact = {
  id: "sample",
  firstName: "Ada",
  lastName: "Okafor",
  title: "VP Operations",
  email: "ada@brightline.example",
  addressLine1: "500 Boylston St",
  addressLine2: "Floor 3",
  city: "Boston",
  region: "MA",
  postalCode: "02116",
  country: "US",
  account: { name: "Brightline Logistics", domain: "brightline.example" },
};

export interface ComposeParts {
  title: string;
  brand: RenderBrand;
  design: DesignLike;
  /** The campaign's own copy; a non-empty field replaces the design's block. */
  campaignCopy?: { headline: string; bodyTemplate: string; signOff: string } | null;
  /** One recipient's own copy (a draft edit); replaces everything else for its blocks. */
  override?: Partial<Record<"headline" | "body" | "signOff", string>> | null;
  contact: RecipientContact;
  response: { url: string; label: string };
  specimen: boolean;
  /** The print vendor that prints the address block itself (its name), if the campaign's printer does (RenderInput.addressPrintedBy). */
  addressPrintedBy?: string | null;
}

export interface Composed {
  input: RenderInput;
  /** The templates used per block (before merging). */
  templates: Record<TBlock, string>;
  /** Each block's text as printed. */
  blocks: Record<TBlock, string>;
  missing: string[];
  fallbacks: string[];
}

/**
 * Decides each block's text and fills its merge fields: a recipient's own copy first, then the
 * campaign's copy, then the design's block, then the format's suggested copy (and the brand kit's
 * sign-off).
 */
export function composePiece(p: ComposeParts): Composed {
  const d = p.design;
  const suggested = SUGGESTED_BLOCKS[d.format];
  const pick = (...values: (string | null | undefined)[]) =>
    values.find((v) => v !== undefined && v !== null && v.trim() !== "") ?? "";
  const templates: Record<TBlock, string> = {
    headline: pick(p.override?.headline, p.campaignCopy?.headline, d.blocks.headline, suggested.headline),
    body: pick(p.override?.body, p.campaignCopy?.bodyTemplate, d.blocks.body, suggested.body),
    signOff: pick(p.override?.signOff, p.campaignCopy?.signOff, d.blocks.signOff, p.brand.signOff, suggested.signOff),
    cta: pick(d.blocks.cta, suggested.cta),
  };
  const values = mergeValues(p.contact);
  const missing = new Set<string>();
  const fallbacks = new Set<string>();
  const blocks = {} as Record<TBlock, string>;
  for (const [block, template] of Object.entries(templates) as [TBlock, string][]) {
    const filled = fillTemplate(template, values);
    blocks[block] = filled.text;
    filled.missing.forEach((f) => missing.add(f));
    filled.fallbacks.forEach((f) => fallbacks.add(f));
  }
  const gift = d.giftItem && Object.hasOwn(GIFT_CATALOG, d.giftItem) ? GIFT_CATALOG[d.giftItem as TGiftItem] : null;
  const input: RenderInput = {
    title: p.title,
    format: d.format,
    size: d.size,
    layout: d.layout,
    colors: { ...p.brand.colors, ...d.colors },
    fonts: p.brand.fonts,
    companyName: p.brand.companyName,
    logo: p.brand.logo,
    signature: p.brand.signature,
    image: d.image === "logo" && !p.brand.logo ? "none" : d.image,
    returnAddress: returnAddressLines(p.brand.returnAddress, p.contact.country),
    text: blocks,
    recipient: {
      name: `${p.contact.firstName} ${p.contact.lastName}`.trim(),
      addressLines: addressBlock({ ...p.contact, company: p.contact.account?.name ?? null }),
      country: p.contact.country,
    },
    response: p.response,
    gift: gift ? { name: gift.name, description: gift.description } : null,
    specimen: p.specimen,
    addressPrintedBy: p.addressPrintedBy ?? null,
  };
  return { input, templates, blocks, missing: [...missing], fallbacks: [...fallbacks] };
}
