import type { GoodyProduct } from "./api";

/** A Goody product as the designer, the campaign form and agents see it. */
export interface GiftProduct {
  /** Goody's product id: what a gift campaign names as giftProductId. */
  id: string;
  name: string;
  brand: string | null;
  description: string | null;
  /** The product's price in cents. */
  priceCents: number;
  /** The brand's shipping price for it (0 when the price reaches the brand's free-shipping minimum). */
  shippingCents: number;
  /** What one gift costs at Goody before tax and Goody's fees: price and shipping. */
  totalCents: number;
  /** US states Goody does not ship this product to. */
  restrictedStates: string[];
}

/**
 * The products a gift can be sent as by direct send with no choice left to make: a fixed price
 * and no variants to pick ([OA] CartItemInput.variants: direct send must name them).
 */
export function giftProductsOf(products: GoodyProduct[]): GiftProduct[] {
  return products
    .filter((p) => !p.price_is_variable && !p.variants_num_selectable && p.price > 0)
    .map((p) => {
      const shipping = p.brand?.shipping_price ?? 0;
      const free = p.brand?.free_shipping_minimum;
      const shippingCents = free != null && p.price >= free ? 0 : shipping;
      return {
        id: p.id,
        name: p.name,
        brand: p.brand?.name ?? null,
        description: p.subtitle ?? null,
        priceCents: p.price,
        shippingCents,
        totalCents: p.price + shippingCents,
        restrictedStates: p.restricted_states ?? [],
      };
    });
}
