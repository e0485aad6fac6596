import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { getCampaignDetail } from "@/server/programme/campaigns/service";
import { testDatabase } from "@/test/database";
import { type FakeHandwrytten, startFakeHandwrytten } from "@/test/fake-handwrytten";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { connectVendor } from "./connections";
import { createContract } from "./contracts";
import { HANDWRYTTEN_POLL_MS } from "./vendors/handwrytten/adapter";

let prisma: PrismaClient;
let hw: FakeHandwrytten;
beforeAll(async () => {
  process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
  prisma = (await testDatabase()).prisma;
  hw = await startFakeHandwrytten();
  process.env.HANDWRYTTEN_API_URL = hw.url;
});
afterAll(async () => {
  delete process.env.HANDWRYTTEN_API_URL;
  await hw.close();
});

const person = (o: { user: { id: string; email: string } }) => ({
  kind: "user" as const,
  id: o.user.id,
  label: o.user.email,
});

/** A live note campaign writing through Handwrytten (the account in test mode), with the brand kit's return address. */
async function noteCampaign(opts: { accounts?: number } = {}) {
  const f = await liveCampaign(prisma, {
    accounts: opts.accounts ?? 1,
    perAccount: 1,
    campaign: { format: "handwritten" },
  });
  await prisma.brandKit.upsert({
    where: { workspaceId: f.workspaceId },
    create: {
      workspaceId: f.workspaceId,
      companyName: "Acme Analytics",
      returnAddressLine1: "185 Berry St",
      returnCity: "San Francisco",
      returnRegion: "CA",
      returnPostalCode: "94107",
      returnCountry: "US",
    },
    update: {
      returnAddressLine1: "185 Berry St",
      returnCity: "San Francisco",
      returnRegion: "CA",
      returnPostalCode: "94107",
    },
  });
  const connected = await connectVendor(prisma, {
    workspaceId: f.workspaceId,
    input: { vendor: "handwrytten", apiKey: hw.apiKey },
    actor: person(f),
  });
  await prisma.fulfilmentContract.update({
    where: { id: f.contract!.id },
    data: {
      vendor: "handwrytten",
      connectionId: connected.connectionId,
      format: "handwritten",
      size: "5x7",
      countries: ["US"],
      unitCostCents: 325,
    },
  });
  return { ...f, connectionId: connected.connectionId };
}

const piecesOf = (workspaceId: string) =>
  prisma.mailPiece.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } });
const ordersFor = (pieceId: string) => [...hw.orders.values()].filter((o) => o.client_metadata === pieceId);

describe("a Handwrytten contract", { timeout: 120_000 }, () => {
  it("needs a connected account and the owner's price, writes notes only, and records the mode", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1, contract: false });
    const input = {
      name: "Notes",
      vendor: "handwrytten",
      format: "handwritten" as const,
      size: "5x7",
      countries: ["US"],
    };
    await expect(
      createContract(prisma, { workspaceId: f.workspaceId, input: { ...input, unitCostCents: 325 }, actor: person(f) }),
    ).rejects.toMatchObject({
      code: "invalid_state",
      message:
        "Connect your Handwrytten account first (Settings → Printing): a Handwrytten contract prints through it.",
    });
    const { connectionId } = await connectVendor(prisma, {
      workspaceId: f.workspaceId,
      input: { vendor: "handwrytten", apiKey: hw.apiKey },
      actor: person(f),
    });
    await expect(
      createContract(prisma, {
        workspaceId: f.workspaceId,
        input: { ...input, format: "postcard", size: "6x9", unitCostCents: 89 },
        actor: person(f),
      }),
    ).rejects.toMatchObject({ message: "Handwrytten writes handwritten notes only (5 × 7 in note cards)." });
    await expect(createContract(prisma, { workspaceId: f.workspaceId, input, actor: person(f) })).rejects.toMatchObject(
      {
        message: expect.stringContaining("Enter the price per note your Handwrytten account pays"),
      },
    );
    expect(await prisma.fulfilmentContract.count({ where: { workspaceId: f.workspaceId } })).toBe(0);
    const c = await createContract(prisma, {
      workspaceId: f.workspaceId,
      input: { ...input, unitCostCents: 325, connectionId },
      actor: person(f),
    });
    expect(c).toMatchObject({
      vendor: "handwrytten",
      connectionId,
      mode: "test",
      unitCostCents: 325,
      status: "proposed",
    });
  });
});

describe("notes through Handwrytten", { timeout: 120_000 }, () => {
  it("each note is one order over HTTP with the card, font, message and addresses; polling the order marks it mailed, as a test", async () => {
    const f = await noteCampaign();
    const clock = testClock();
    const { eventId } = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    const [piece] = await piecesOf(f.workspaceId);
    const [order] = ordersFor(piece.id);
    expect(ordersFor(piece.id)).toHaveLength(1);
    expect(piece).toMatchObject({
      vendor: "handwrytten",
      status: "printed",
      vendorRef: String(order.id),
      vendorMode: "test",
      mailedAt: null,
    });
    const create = hw.requests.find((r) => r.path === "orders/singleStepOrder")!;
    expect(create.authorization).toBe(hw.apiKey);
    expect(order.body).toMatchObject({
      card_id: 3404,
      font_label: "Casual David",
      message: expect.stringMatching(/hello[\s\S]*Hi .+ at /),
      wishes: "Sam",
      recipient_address1: expect.stringMatching(/Main St$/),
      recipient_city: "Boston",
      recipient_state: "MA",
      recipient_zip: "02116",
      sender_address1: "185 Berry St",
      sender_city: "San Francisco",
      sender_state: "CA",
      sender_zip: "94107",
      client_metadata: piece.id,
    });
    // Handwrytten sends no webhooks: the event waits for the next read of the order.
    const waiting = await eventRow(prisma, eventId);
    expect(waiting).toMatchObject({ status: "enrolled", enrollment: { reservation: { status: "held" } } });
    expect(waiting.runAfter.getTime() - clock.now().getTime()).toBeGreaterThan(HANDWRYTTEN_POLL_MS - 60_000);

    // Not yet written: a read, and the piece stays printed.
    clock.advance(HANDWRYTTEN_POLL_MS + 1000);
    await drain(prisma, clock, f.workspaceId);
    expect(hw.requests.filter((r) => r.path === `orders/get/${order.id}`)).toHaveLength(1);
    expect((await piecesOf(f.workspaceId))[0].status).toBe("printed");

    hw.markSent(order.id);
    clock.advance(HANDWRYTTEN_POLL_MS + 1000);
    await drain(prisma, clock, f.workspaceId);
    const [mailed] = await piecesOf(f.workspaceId);
    expect(mailed).toMatchObject({ status: "mailed", vendorMode: "test", mailedAt: expect.any(Date) });
    expect(await eventRow(prisma, eventId)).toMatchObject({
      status: "completed",
      enrollment: { reservation: { status: "charged" } },
    });
    expect(ordersFor(piece.id)).toHaveLength(1);
    // Honest counts: a note written in test mode is counted apart, never as mailed to a person.
    const detail = await getCampaignDetail(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id });
    expect(detail).toMatchObject({ testMailed: 1, simulatedMailed: 1, printerMode: "test" });
  });

  it("a retry after a lost answer looks the order up by the piece id: one order, never two", async () => {
    const f = await noteCampaign();
    const clock = testClock();
    await postEvent(prisma, f, f.contacts[0].id);
    hw.loseNextAnswers(1);
    await drain(prisma, clock, f.workspaceId);
    const [piece] = await piecesOf(f.workspaceId);
    expect(piece.vendorRef).toBeNull();
    expect(piece.vendorSubmittedAt).not.toBeNull();
    expect(ordersFor(piece.id)).toHaveLength(1);
    const lookUps = hw.requests.filter((r) => r.path === "orders/list").length;
    clock.advance(60_000);
    await drain(prisma, clock, f.workspaceId);
    expect(hw.requests.filter((r) => r.path === "orders/list").length).toBeGreaterThan(lookUps);
    expect(ordersFor(piece.id)).toHaveLength(1);
    const [after] = await piecesOf(f.workspaceId);
    expect(after).toMatchObject({ status: "printed", vendorRef: String(ordersFor(piece.id)[0].id) });
  });

  it("an address Handwrytten refuses ends the note with address_refused and gives its hold back; nothing is ordered", async () => {
    const f = await noteCampaign();
    const clock = testClock();
    const { eventId } = await postEvent(prisma, f, f.contacts[0].id);
    // The brand kit's return address has no state: Handwrytten requires one for a US sender.
    await prisma.brandKit.update({ where: { workspaceId: f.workspaceId }, data: { returnRegion: null } });
    await drain(prisma, clock, f.workspaceId);
    const [piece] = await piecesOf(f.workspaceId);
    expect(piece).toMatchObject({
      status: "failed",
      vendorIssue: "address_refused",
      vendorIssueDetail:
        "Handwrytten refused the address: sender_state is required for an address in the United States or Canada.",
    });
    expect(ordersFor(piece.id)).toHaveLength(0);
    expect(await eventRow(prisma, eventId)).toMatchObject({
      status: "failed",
      enrollment: { reservation: { status: "released" } },
    });
  });

  it("an account that cannot pay suspends nothing and the note is written once it can; a refused key suspends the connection", async () => {
    const f = await noteCampaign();
    const clock = testClock();
    await postEvent(prisma, f, f.contacts[0].id);
    hw.failNext(1, 400, "Insufficient credits: add a credit card to your account.");
    await drain(prisma, clock, f.workspaceId);
    expect((await prisma.printVendorConnection.findUniqueOrThrow({ where: { id: f.connectionId } })).status).toBe(
      "connected",
    );
    const [waiting] = await piecesOf(f.workspaceId);
    expect(waiting.status).not.toBe("failed");
    clock.advance(60_000);
    await drain(prisma, clock, f.workspaceId);
    const [written] = await piecesOf(f.workspaceId);
    expect(written.status).toBe("printed");
    expect(ordersFor(written.id)).toHaveLength(1);

    const g = await noteCampaign();
    await postEvent(prisma, g, g.contacts[0].id);
    hw.failNext(1, 401, "Invalid API key.");
    await drain(prisma, clock, g.workspaceId);
    expect(await prisma.printVendorConnection.findUniqueOrThrow({ where: { id: g.connectionId } })).toMatchObject({
      status: "key_revoked",
      statusReason: expect.stringContaining("Handwrytten refused the workspace's API key"),
    });
  });
});
