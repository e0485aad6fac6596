import { GIFT_CATALOG, STANDARD_GIFT, type TGiftItem } from "@/server/programme/designs/gift-catalog";

/** The gift a campaign's note card names: its design's, or the standard layout's. */
export const designGiftOf = (design: { giftItem: string | null } | null | undefined): string =>
  design?.giftItem ?? STANDARD_GIFT;

/** The gifts a claim page offers: the campaign's options, or the design's gift alone; the design's first when it is among them. */
export function offeredGifts(p: { giftOptions: string[]; designGift: string | null }): TGiftItem[] {
  const known = (g: string | null): g is TGiftItem => !!g && Object.hasOwn(GIFT_CATALOG, g);
  const options = p.giftOptions.filter(known);
  const design = known(p.designGift) ? p.designGift : STANDARD_GIFT;
  if (options.length === 0) return [design];
  return options.includes(design) ? [design, ...options.filter((o) => o !== design)] : options;
}
