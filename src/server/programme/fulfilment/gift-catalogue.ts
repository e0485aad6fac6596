import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { openConnection } from "./connections";
import { GoodyApi, goodyApiUrl } from "./vendors/goody/api";
import { type GiftProduct, giftProductsOf } from "./vendors/goody/catalogue";

export type { GiftProduct };

/** The gifts a workspace can send: its connected gift vendor's catalogue, or none. */
export interface GiftCatalogue {
  /** "goody" when the workspace has a connected Goody account; null when it has none. */
  vendor: "goody" | null;
  connectionId: string | null;
  mode: "test" | "live" | null;
  products: GiftProduct[];
}

/** The workspace's connected Goody account (its newest), if any. */
async function goodyConnection(db: Db, workspaceId: string) {
  return db.printVendorConnection.findFirst({
    where: { workspaceId, vendor: "goody", status: "connected" },
    orderBy: { connectedAt: "desc" },
    select: { id: true, mode: true },
  });
}

/**
 * The gift catalogue of the workspace's connected vendor (Goody's GET /v1/products, read now): the
 * products a gift can ship as, each at Goody's price and shipping. Without a Goody account there is
 * no vendor catalogue (sandbox gifts use the service's own small catalogue).
 */
export async function workspaceGiftCatalogue(db: Db, p: { workspaceId: string }): Promise<GiftCatalogue> {
  const c = await goodyConnection(db, p.workspaceId);
  if (!c) return { vendor: null, connectionId: null, mode: null, products: [] };
  const account = await openConnection(db, c.id);
  let products: GiftProduct[];
  try {
    products = giftProductsOf(await new GoodyApi(goodyApiUrl(), account.apiKey).products());
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    throw new AppError(
      "invalid_state",
      `Goody's catalogue could not be read right now (${said}); try again in a moment.`,
    );
  }
  return { vendor: "goody", connectionId: c.id, mode: account.mode as "test" | "live", products };
}

/**
 * The Goody product a gift campaign names, checked against the connected account's catalogue: its
 * price and shipping (what each gift is held and charged). Refuses, naming giftProductId, when the
 * workspace has no Goody account or Goody does not offer the product.
 */
export async function resolveGiftProduct(db: Db, p: { workspaceId: string; productId: string }): Promise<GiftProduct> {
  const catalogue = await workspaceGiftCatalogue(db, p);
  const refuse = (detail: string) =>
    new AppError("validation_failed", detail, { errors: [{ pointer: "/giftProductId", detail }] });
  if (!catalogue.vendor)
    throw refuse("A gift product comes from a gift vendor's catalogue: connect Goody in Settings → Printing first.");
  const found = catalogue.products.find((x) => x.id === p.productId);
  if (!found)
    throw refuse(
      `Goody's catalogue has no product “${p.productId.slice(0, 100)}” that ships without a choice to make; pick one from gifts_catalogue_list.`,
    );
  return found;
}
