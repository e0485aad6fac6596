/**
 * The small gift catalogue of the sandbox and of printers without a catalogue of their own: each item
 * ships with the design's note card, to a street address only (never a PO box). Every item costs the
 * same to send, the gift contract's price; a Goody campaign ships its Goody product at Goody's price.
 */
export const GIFT_CATALOG = {
  "coffee-sampler": {
    name: "Coffee sampler",
    description: "Three 4 oz bags of single-origin coffee from a small roaster.",
  },
  "notebook-set": {
    name: "Linen notebook and pen",
    description: "An A5 linen-bound notebook with a brass pen.",
  },
  succulent: { name: "Potted succulent", description: "A succulent in a 4 in ceramic planter." },
  chocolates: { name: "Handmade chocolates", description: "A box of 12 handmade chocolates." },
  "tea-tin": {
    name: "Loose-leaf tea tin",
    description: "Two tins of loose-leaf tea with a steel infuser.",
  },
} as const;
export type TGiftItem = keyof typeof GIFT_CATALOG;
export const GIFT_ITEMS = Object.keys(GIFT_CATALOG) as [TGiftItem, ...TGiftItem[]];
/** The gift of a gift design that names none, and of the standard gift layout. */
export const STANDARD_GIFT: TGiftItem = "coffee-sampler";
