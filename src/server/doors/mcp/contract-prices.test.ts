import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { agentFor, toolResult } from "@/test/mcp";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/** An agent planning a send reads what each piece costs in each country, not only the contract's highest price. */
describe("contract prices for agents", () => {
  it("contracts_list and campaigns_get give the price per country, the lowest and the highest", async () => {
    const { workspace } = await createOwnerWorkspace(prisma, { plan: "paid" });
    const contract = await prisma.fulfilmentContract.create({
      data: {
        workspaceId: workspace.id,
        name: "Lob postcards",
        format: "postcard",
        unitCostCents: 218,
        countries: ["US", "CA", "GB"],
        countryPrices: { US: 104, CA: 218, GB: 207 },
        status: "approved",
        approvedAt: new Date(),
      },
    });
    // A contract made before prices were kept per country: every country at its one price.
    await prisma.fulfilmentContract.create({
      data: {
        workspaceId: workspace.id,
        name: "Old letters",
        format: "letter",
        unitCostCents: 150,
        countries: ["US"],
        status: "proposed",
      },
    });
    const campaign = await prisma.campaign.create({
      data: { workspaceId: workspace.id, name: "Q4 renewals", format: "postcard", fulfilmentContractId: contract.id },
    });

    const agent = await agentFor(prisma, workspace.id);
    const { contracts } = toolResult<{
      contracts: { name: string; unitCostCents: number; lowCostCents: number; countryPrices: Record<string, number> }[];
    }>(await agent.callTool({ name: "contracts_list", arguments: {} }));
    expect(
      contracts.map(({ name, unitCostCents, lowCostCents, countryPrices }) => ({
        name,
        unitCostCents,
        lowCostCents,
        countryPrices,
      })),
    ).toEqual([
      { name: "Lob postcards", unitCostCents: 218, lowCostCents: 104, countryPrices: { US: 104, CA: 218, GB: 207 } },
      { name: "Old letters", unitCostCents: 150, lowCostCents: 150, countryPrices: { US: 150 } },
    ]);

    const detail = toolResult<{
      contract: { unitCostCents: number; lowCostCents: number; countryPrices: Record<string, number> };
    }>(await agent.callTool({ name: "campaigns_get", arguments: { campaignId: campaign.id } }));
    expect(detail.contract).toMatchObject({
      unitCostCents: 218,
      lowCostCents: 104,
      countryPrices: { US: 104, CA: 218, GB: 207 },
    });
  });
});
