import { z } from "zod";
import { workspaceGiftCatalogue } from "@/server/programme/fulfilment/gift-catalogue";
import { defineTool } from "../tool";

const cents = z.number().int();

export const giftTools = [
  defineTool({
    name: "gifts_catalogue_list",
    title: "List gifts",
    description: "Goody gifts: giftProductId choices, at totalCents.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({}),
    result: z.object({
      vendor: z.enum(["goody"]).nullable(),
      mode: z.enum(["test", "live"]).nullable(),
      products: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          brand: z.string().nullable(),
          priceCents: cents,
          shippingCents: cents,
          totalCents: cents,
        }),
      ),
    }),
    run: async (ctx) => {
      const c = await workspaceGiftCatalogue(ctx.db, { workspaceId: ctx.workspaceId });
      return {
        requested: "The gift catalogue of the workspace's gift vendor.",
        changed: [],
        result: {
          vendor: c.vendor,
          mode: c.mode,
          products: c.products.map(({ description: _, restrictedStates: __, ...p }) => p),
        },
      };
    },
    errorHints: { invalid_state: "Goody did not answer; try again shortly." },
  }),
];
