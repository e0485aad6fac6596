import { z } from "zod";
import { requestPlanChange } from "@/server/programme/confirmations/requests";
import { pageContracts } from "@/server/programme/fulfilment/contracts";
import { contractPricesView, ZContractPrices } from "./contract-prices";
import { defineTool } from "../tool";
import { ZCursor, ZNextCursor, ZTake } from "./paging";
import { cardDetail, waitNote, ZCardDetail } from "./card-detail";

const ZContract = z.object({
  id: z.string().describe("The contract's id (ful_…); a campaign's fulfilmentContractId."),
  name: z.string(),
  vendor: z.string().describe("The print vendor's adapter: sandbox (the built-in test printer) or lob."),
  mode: z
    .enum(["test", "live"])
    .nullable()
    .describe(
      "For a real vendor (lob): test when it prints through a test key (nothing is really printed or mailed), live when pieces reach mailboxes; null for the sandbox.",
    ),
  format: z.enum(["postcard", "letter", "handwritten", "gift"]),
  size: z.string().nullable().describe("The product size, e.g. 6x9 or us_letter."),
  sizeLabel: z.string(),
  countries: z.array(z.string()).describe("ISO 3166-1 alpha-2 codes of the countries it mails to."),
  ...ZContractPrices.shape,
  status: z
    .enum(["proposed", "approved", "revoked"])
    .describe("Only an approved contract prints; the owner approves contracts in Settings → Printing."),
  campaigns: z.number().int().describe("Campaigns that use it."),
});

export const planTools = [
  defineTool({
    name: "contracts_list",
    title: "List printer contracts",
    description:
      "The printer contracts: vendor, format and size, countries, price per piece per country, whether approved. A campaign prints only through an approved contract for its format (an admin or the owner approves), on the paid plan.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      status: z.enum(["proposed", "approved", "revoked"]).optional().describe("Only contracts in this status."),
      cursor: ZCursor,
      take: ZTake,
    }),
    result: z.object({ contracts: z.array(ZContract), nextCursor: ZNextCursor }),
    run: async (ctx, a) => {
      const { contracts, nextCursor } = await pageContracts(ctx.db, {
        workspaceId: ctx.workspaceId,
        status: a.status,
        cursor: a.cursor,
        take: a.take,
      });
      return {
        requested: "The printer contracts.",
        changed: [],
        result: {
          contracts: contracts.map((c) => ({
            id: c.id,
            name: c.name,
            vendor: c.vendor,
            mode: c.mode,
            format: c.format,
            size: c.size,
            sizeLabel: c.sizeLabel,
            countries: c.countries,
            ...contractPricesView(c),
            status: c.status,
            campaigns: c.campaigns,
          })),
          nextCursor,
        },
      };
    },
  }),
  defineTool({
    name: "plans_request_change",
    title: "Ask to change the workspace's plan",
    description: `Asks the owner to move to the paid plan (mailing on; a monthly subscription starts) or back to the free audit plan (new mail stops). With Stripe the plan changes once Stripe confirms (workspace_get_summary). ${waitNote}`,
    scope: "campaigns:write",
    kind: "request",
    idempotent: true,
    input: z.object({
      plan: z.enum(["audit", "paid"]).describe("paid: mailing on; audit: the free plan, nothing is mailed."),
    }),
    result: ZCardDetail,
    run: async (ctx, a) => {
      const { card, created } = await requestPlanChange(ctx.db, {
        workspaceId: ctx.workspaceId,
        plan: a.plan,
        requestedBy: ctx.actor,
      });
      return {
        requested: `Move the workspace to the ${a.plan} plan.`,
        changed: created ? [`Created confirmation card ${card.id}; the plan is unchanged.`] : [],
        result: cardDetail(ctx, card),
      };
    },
  }),
];
