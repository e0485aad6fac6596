/** The small gift catalogue: each item ships with the design's note card, to a street address only (never a PO box). */
export const GIFT_CATALOG = {
  "coffee-sampler": {
    name: "Coffee sampler",
    description: "Three 4 oz bags of single-origin coffee from a small roaster.",
    priceCents: 3200,
  },
  "notebook-set": {
    name: "Linen notebook and pen",
    description: "An A5 linen-bound notebook with a brass pen.",
    priceCents: 2800,
  },
  succulent: { name: "Potted succulent", description: "A succulent in a 4 in ceramic planter.", priceCents: 3500 },
  chocolates: { name: "Handmade chocolates", description: "A box of 12 handmade chocolates.", priceCents: 4200 },
  "tea-tin": {
    name: "Loose-leaf tea tin",
    description: "Two tins of loose-leaf tea with a steel infuser.",
    priceCents: 2600,
  },
} as const;
export type TGiftItem = keyof typeof GIFT_CATALOG;
export const GIFT_ITEMS = Object.keys(GIFT_CATALOG) as [TGiftItem, ...TGiftItem[]];
/** The gift of a gift design that names none, and of the standard gift layout. */
export const STANDARD_GIFT: TGiftItem = "coffee-sampler";
