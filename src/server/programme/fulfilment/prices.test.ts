import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { requestGoLive } from "@/server/programme/confirmations/requests";
import { contactKeys } from "@/server/records/contacts/keys";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { approveContract, createContract } from "./contracts";
import { pricePerPiece } from "@/server/records/pieces/contract-price";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const person = (o: { user: { id: string; email: string } }) => ({
  kind: "user" as const,
  id: o.user.id,
  label: o.user.email,
});
const BERLIN = {
  addressLine1: "Friedrichstraße 68",
  addressLine2: null,
  city: "Berlin",
  region: null,
  postalCode: "10117",
  country: "DE",
};

/** Moves a contact to Berlin, its derived keys with it. */
async function toGermany(contactId: string) {
  const c = await prisma.contact.update({ where: { id: contactId }, data: BERLIN });
  await prisma.contact.update({ where: { id: c.id }, data: contactKeys(c) });
}

describe("prices per destination", () => {
  it("a contract over US and DE keeps each country's price; a US piece reserves and costs the US price, a German one the German price", async () => {
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1, contract: false });
    const contract = await createContract(prisma, {
      workspaceId: f.workspaceId,
      input: {
        name: "US and DE postcards",
        vendor: "sandbox",
        format: "postcard",
        size: "6x9",
        countries: ["US", "DE"],
      },
      actor: person(f),
    });
    expect(contract).toMatchObject({ unitCostCents: 218, countryPrices: { US: 104, DE: 218 } });
    await approveContract(prisma, { workspaceId: f.workspaceId, contractId: contract.id, actor: person(f) });
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { fulfilmentContractId: contract.id } });
    await toGermany(f.contacts[1].id);

    const us = await postEvent(prisma, f, f.contacts[0].id);
    const de = await postEvent(prisma, f, f.contacts[1].id);
    await drain(prisma, testClock(), f.workspaceId);
    const usRow = await eventRow(prisma, us.eventId);
    const deRow = await eventRow(prisma, de.eventId);
    expect([usRow.status, deRow.status]).toEqual(["completed", "completed"]);
    expect(usRow.enrollment!.mailPiece!.costCents).toBe(104);
    expect(deRow.enrollment!.mailPiece!.costCents).toBe(218);
    const charges = await prisma.budgetReservation.findMany({
      where: { campaignId: f.campaign.id },
      select: { enrollmentId: true, amountCents: true, status: true },
    });
    expect(charges.find((r) => r.enrollmentId === usRow.enrollment!.id)).toMatchObject({
      amountCents: 104,
      status: "charged",
    });
    expect(charges.find((r) => r.enrollmentId === deRow.enrollment!.id)).toMatchObject({
      amountCents: 218,
      status: "charged",
    });
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).toMatchObject({
      spentCents: 104 + 218,
      reservedCents: 0,
    });
  }, 120_000);

  it("a review-gated US piece asks to reserve the US price", async () => {
    const f = await liveCampaign(prisma, {
      accounts: 1,
      perAccount: 1,
      contract: false,
      campaign: { reviewGate: "each_piece" },
    });
    const contract = await createContract(prisma, {
      workspaceId: f.workspaceId,
      input: {
        name: "US and DE postcards",
        vendor: "sandbox",
        format: "postcard",
        size: "6x9",
        countries: ["US", "DE"],
      },
      actor: person(f),
    });
    await approveContract(prisma, { workspaceId: f.workspaceId, contractId: contract.id, actor: person(f) });
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { fulfilmentContractId: contract.id } });
    await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, testClock(), f.workspaceId);
    const card = await prisma.confirmationCard.findFirstOrThrow({
      where: { workspaceId: f.workspaceId, kind: "approve_piece" },
    });
    expect(card).toMatchObject({ costCents: 104 });
    expect(card.summary).toContain("Approving reserves 1.04 USD of the campaign's budget.");
  }, 120_000);

  it("the go-live card estimates the cost from the audience's countries", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 4, perAccount: 2 });
    for (const c of contacts.slice(0, 2)) await toGermany(c.id);
    const contract = await createContract(prisma, {
      workspaceId: o.workspaceId,
      input: {
        name: "US and DE postcards",
        vendor: "sandbox",
        format: "postcard",
        size: "6x9",
        countries: ["US", "DE"],
      },
      actor: person(o),
    });
    await approveContract(prisma, { workspaceId: o.workspaceId, contractId: contract.id, actor: person(o) });
    const campaign = await prisma.campaign.create({
      data: {
        workspaceId: o.workspaceId,
        name: "Two countries",
        format: "postcard",
        entryPolicy: "audience_at_go_live",
        holdoutShare: 0,
        audienceId: audience.id,
        budgetCents: 100_000,
        fulfilmentContractId: contract.id,
        destinationUrl: "https://acme.example/x",
        headline: "Hi {{firstName}}",
        bodyTemplate: "Hello from us.",
      },
    });
    const { card } = await requestGoLive(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      requestedBy: { kind: "agent", id: "grt_test", label: "Test agent (agent)" },
    });
    // Six US contacts at 1.04 and two German ones at 2.18, not eight at the dearest price (17.44).
    expect(card.costCents).toBe(6 * 104 + 2 * 218);
    // The card says what each piece is charged, in the owner's pages' words: the range, by the recipient's country.
    expect(card.summary).toContain(
      "US and DE postcards: 1.04 USD to 2.18 USD a piece, by the recipient's country (this audience: US 1.04 USD, DE 2.18 USD); about 10.60 USD for the audience's countries.",
    );
    expect(card.summary).toContain(
      "At an average of about 1.33 USD a piece (each at its recipient's country's price), mailing all 8 would cost about 10.60 USD against a budget of 1,000.00 USD.",
    );
    expect(card.summary).not.toContain("At about 2.18 USD");
  }, 120_000);

  it("the go-live card's budget warnings use the cheapest piece and the audience's countries, never one price for all", async () => {
    for (const [budgetCents, warning] of [
      [
        50,
        "The budget of 0.50 USD is less than the cheapest piece costs (1.04 USD): no piece can be paid for until it is raised.",
      ],
      // 6 US pieces at 1.04 and 2 German ones at 2.18: 10.60 USD, not 8 at the cheapest (8.32) nor at the dearest (17.44).
      [
        500,
        "The budget of 5.00 USD is below the audience's estimated cost of 10.60 USD (8 pieces at an average of 1.33 USD, each at its recipient's country's price): about 3 can be mailed before it runs out.",
      ],
    ] as const) {
      const o = await createOwnerWorkspace(prisma);
      const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 4, perAccount: 2 });
      for (const c of contacts.slice(0, 2)) await toGermany(c.id);
      const contract = await createContract(prisma, {
        workspaceId: o.workspaceId,
        input: {
          name: "US and DE postcards",
          vendor: "sandbox",
          format: "postcard",
          size: "6x9",
          countries: ["US", "DE"],
        },
        actor: person(o),
      });
      await approveContract(prisma, { workspaceId: o.workspaceId, contractId: contract.id, actor: person(o) });
      const campaign = await prisma.campaign.create({
        data: {
          workspaceId: o.workspaceId,
          name: "Two countries",
          format: "postcard",
          entryPolicy: "audience_at_go_live",
          holdoutShare: 0,
          audienceId: audience.id,
          budgetCents,
          fulfilmentContractId: contract.id,
          destinationUrl: "https://acme.example/x",
          headline: "Hi {{firstName}}",
          bodyTemplate: "Hello from us.",
        },
      });
      const { card } = await requestGoLive(prisma, {
        workspaceId: o.workspaceId,
        campaignId: campaign.id,
        requestedBy: { kind: "agent", id: "grt_test", label: "Test agent (agent)" },
      });
      expect((card.params as { warnings: string[] }).warnings).toEqual([warning]);
      expect(card.summary).toContain(warning);
    }
  }, 120_000);

  it("a contract without a price for a country charges its highest price there, never less", () => {
    expect(pricePerPiece({ unitCostCents: 218, countryPrices: { US: 104, DE: 218 } }, "us")).toBe(104);
    expect(pricePerPiece({ unitCostCents: 218, countryPrices: { US: 104 } }, "FR")).toBe(218);
    expect(pricePerPiece({ unitCostCents: 218, countryPrices: {} }, null)).toBe(218);
  });
});
