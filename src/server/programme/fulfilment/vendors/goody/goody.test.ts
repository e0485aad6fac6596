import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { POST as goodyRoute } from "@/app/api/webhooks/goody/[connectionId]/route";
import { testDatabase } from "@/test/database";
import { type FakeGoody, startFakeGoody } from "@/test/fake-goody";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { adapterFor } from "../../registry";
import { GoodyApi } from "./api";
import { giftProductsOf } from "./catalogue";
import { connectVendor } from "../../connections";
import { receiveGoodyWebhook } from "./webhooks";

let prisma: PrismaClient;
let goody: FakeGoody;
beforeAll(async () => {
  process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
  prisma = (await testDatabase()).prisma;
  goody = await startFakeGoody();
  process.env.GOODY_API_URL = goody.url;
});
afterAll(async () => {
  delete process.env.GOODY_API_URL;
  await goody.close();
});

const actorOf = (f: { user: { id: string; email: string } }) => ({
  kind: "user" as const,
  id: f.user.id,
  label: f.user.email,
});

/** A live gift campaign whose contract sends through the workspace's Goody account (the fake's sandbox). */
async function goodyCampaign() {
  const coffee = giftProductsOf(goody.products).find((p) => p.name === "Coffee sampler")!;
  const f = await liveCampaign(prisma, {
    accounts: 1,
    perAccount: 1,
    campaign: { format: "gift", giftProductId: coffee.id, giftPriceCents: coffee.totalCents },
  });
  const c = await connectVendor(prisma, {
    workspaceId: f.workspaceId,
    input: { vendor: "goody", apiKey: goody.apiKey, webhookSecret: goody.webhookSecret },
    actor: actorOf(f),
  });
  await prisma.fulfilmentContract.update({
    where: { id: f.contract!.id },
    data: { vendor: "goody", format: "gift", connectionId: c.connectionId, size: "4x6", countries: ["US"] },
  });
  return { f, connectionId: c.connectionId, coffee, clock: testClock() };
}

/** One gift sent to Goody by the lifecycle: the piece and its entry event. */
async function sentGift() {
  const g = await goodyCampaign();
  const e = await postEvent(prisma, g.f, g.f.contacts[0].id);
  await drain(prisma, g.clock, g.f.workspaceId);
  const piece = await prisma.mailPiece.findFirstOrThrow({ where: { workspaceId: g.f.workspaceId } });
  return { ...g, piece, eventId: e.eventId };
}

function webhook(connectionId: string, signed: { body: string; headers: Record<string, string> }) {
  return receiveGoodyWebhook(prisma, { connectionId, rawBody: signed.body, headers: new Headers(signed.headers) });
}

describe("Goody: connecting an account", { timeout: 120_000 }, () => {
  it("a key Goody refuses is answered with the exact sentence and nothing is written", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    const attempt = connectVendor(prisma, {
      workspaceId: f.workspaceId,
      input: { vendor: "goody", apiKey: "not-a-goody-key", webhookSecret: goody.webhookSecret },
      actor: actorOf(f),
    });
    await expect(attempt).rejects.toMatchObject({
      code: "validation_failed",
      message:
        "Goody refused this API key: it is wrong or has been revoked. Create a key in Goody (Account → API Keys). Nothing was saved.",
    });
    const noSecret = connectVendor(prisma, {
      workspaceId: f.workspaceId,
      input: { vendor: "goody", apiKey: goody.apiKey },
      actor: actorOf(f),
    });
    await expect(noSecret).rejects.toMatchObject({
      message:
        "Paste the signing secret of the webhook endpoint you added in Goody (it starts with whsec_): without it Goody's shipping events cannot be trusted.",
    });
    expect(await prisma.printVendorConnection.count({ where: { workspaceId: f.workspaceId } })).toBe(0);
    expect(
      await prisma.auditLogEntry.count({ where: { workspaceId: f.workspaceId, action: "print_vendor.connected" } }),
    ).toBe(0);
  });

  it("a good key connects in test mode (not Goody's production API) and answers the webhook URL to paste", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    const c = await connectVendor(prisma, {
      workspaceId: f.workspaceId,
      input: { vendor: "goody", apiKey: goody.apiKey, webhookSecret: goody.webhookSecret },
      actor: actorOf(f),
    });
    expect(c).toMatchObject({ vendor: "goody", mode: "test" });
    expect(c.webhookUrl).toMatch(new RegExp(`/api/webhooks/goody/${c.connectionId}$`));
    const row = await prisma.printVendorConnection.findUniqueOrThrow({ where: { id: c.connectionId } });
    expect(row).toMatchObject({ vendor: "goody", mode: "test", status: "connected", keyHint: goody.apiKey.slice(-4) });
    expect(row.credentials).not.toContain(goody.apiKey);
  });
});

describe("Goody: the catalogue", () => {
  it("lists the products a gift can be sent as, at Goody's price and shipping; one needing a variant choice is left out", async () => {
    const products = giftProductsOf(await new GoodyApi(goody.url, goody.apiKey).products());
    expect(products.map((p) => [p.name, p.priceCents, p.shippingCents, p.totalCents])).toEqual([
      ["Coffee sampler", 3200, 800, 4000],
      ["Potted succulent", 3500, 800, 4300],
    ]);
    expect(products[1].restrictedStates).toEqual(["HI", "AK"]);
  });
});

describe("Goody: a gift to a known address", { timeout: 120_000 }, () => {
  it("is one direct_send order batch with the piece id as its reference, the contact's address and the campaign's product", async () => {
    const { piece, coffee, f } = await sentGift();
    expect(piece).toMatchObject({ status: "printed", vendor: "goody", vendorMode: "test" });
    const order = goody.orders.get(piece.vendorRef!)!;
    expect(order.cart.items.map((i) => i.product.id)).toEqual([coffee.id]);
    const creates = goody.requests.filter((r) => r.method === "POST" && r.path === "/v1/order_batches");
    const mine = creates.filter(
      (r) => (r.body as { customer_reference_id?: string }).customer_reference_id === piece.id,
    );
    expect(mine).toHaveLength(1);
    const contact = f.contacts[0];
    expect(mine[0].body).toMatchObject({
      send_method: "direct_send",
      recipients: [
        {
          first_name: contact.firstName,
          mailing_address: {
            address_1: contact.addressLine1,
            city: contact.city,
            state: contact.region,
            postal_code: contact.postalCode,
            country: "US",
          },
        },
      ],
      cart: { items: [{ product_id: coffee.id, quantity: 1 }] },
    });
    // Each gift is held at the Goody price the campaign shows: product and shipping.
    expect(piece.costCents).toBe(coffee.totalCents);
  });

  it("a create whose answer was lost is looked up by its reference on the retry: one order at Goody, not two", async () => {
    const g = await goodyCampaign();
    const e = await postEvent(prisma, g.f, g.f.contacts[0].id);
    goody.loseNextAnswers(1);
    await drain(prisma, g.clock, g.f.workspaceId);
    g.clock.advance(10 * 60_000);
    await drain(prisma, g.clock, g.f.workspaceId);
    const piece = (await eventRow(prisma, e.eventId)).enrollment!.mailPiece!;
    expect(piece.status).toBe("printed");
    const batches = goody.requests.filter(
      (r) =>
        r.method === "POST" &&
        r.path === "/v1/order_batches" &&
        (r.body as { customer_reference_id?: string }).customer_reference_id === piece.id,
    );
    expect(batches).toHaveLength(1);
    expect([...goody.orders.values()].filter((o) => o.id === piece.vendorRef)).toHaveLength(1);
  });

  it("the fake refuses what Goody refuses: an unknown product, a recipient without an address for direct send, a missing variant", async () => {
    const api = new GoodyApi(goody.url, goody.apiKey);
    const address = { address_1: "1 Main St", city: "Boston", state: "MA", postal_code: "02116", country: "US" };
    const base = { from_name: "Acme", send_method: "direct_send" };
    const cookies = goody.products.find((p) => p.name === "Six cookies")!;
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          ...base,
          recipients: [{ first_name: "A", mailing_address: address }],
          cart: { items: [{ product_id: "nope", quantity: 1 }] },
        },
        "Product not found: nope",
      ],
      [
        {
          ...base,
          recipients: [{ first_name: "A" }],
          cart: { items: [{ product_id: goody.products[0].id, quantity: 1 }] },
        },
        "Mailing address is required for direct send",
      ],
      [
        { ...base, send_method: "mail", recipients: [{ first_name: "A" }], cart: { items: [] } },
        "Send method must be one of email_and_link, link_multiple_custom_list, direct_send",
      ],
      [
        {
          ...base,
          recipients: [{ first_name: "A", mailing_address: address }],
          cart: { items: [{ product_id: cookies.id, quantity: 1 }] },
        },
        "Variants must be 1 of Chocolate chip, Oatmeal for Six cookies",
      ],
    ];
    for (const [body, said] of cases)
      await expect(api.createOrderBatch(body)).rejects.toMatchObject({ status: 400, said });
    await expect(new GoodyApi(goody.url, "wrong").me()).rejects.toMatchObject({
      status: 401,
      said: "Failed to authorize",
    });
  });

  it("Goody refusing the gift refuses only that piece (its reason and sentence kept); the connection stays connected", async () => {
    const g = await goodyCampaign();
    await prisma.campaign.update({ where: { id: g.f.campaign.id }, data: { giftProductId: "unknown-product" } });
    const e = await postEvent(prisma, g.f, g.f.contacts[0].id);
    await drain(prisma, g.clock, g.f.workspaceId);
    expect((await eventRow(prisma, e.eventId)).enrollment!.mailPiece).toMatchObject({
      status: "failed",
      vendorIssue: "address_refused",
      vendorIssueDetail: "Goody refused the gift: Product not found: unknown-product.",
    });
    expect(await prisma.printVendorConnection.findUniqueOrThrow({ where: { id: g.connectionId } })).toMatchObject({
      status: "connected",
    });
  });
});

describe("Goody: a revoked key", { timeout: 120_000 }, () => {
  it("suspends the connection (status key_revoked) and the gift is not refused as the recipient's fault", async () => {
    const g = await goodyCampaign();
    const own = await startFakeGoody(goody.apiKey);
    process.env.GOODY_API_URL = own.url;
    try {
      own.revokeKey();
      const e = await postEvent(prisma, g.f, g.f.contacts[0].id);
      await drain(prisma, g.clock, g.f.workspaceId);
      expect(await prisma.printVendorConnection.findUniqueOrThrow({ where: { id: g.connectionId } })).toMatchObject({
        status: "key_revoked",
      });
      const piece = (await eventRow(prisma, e.eventId)).enrollment!.mailPiece!;
      expect(piece.vendorIssue).toBeNull();
      expect(piece.status).not.toBe("printed");
    } finally {
      process.env.GOODY_API_URL = goody.url;
      await own.close();
    }
  });
});

describe("Goody's webhooks (Svix, Standard Webhooks signatures)", { timeout: 120_000 }, () => {
  it("order.shipped marks the gift mailed at the shipment's date and order.delivered delivers it; a repeat changes nothing", async () => {
    const { piece, connectionId } = await sentGift();
    const shippedAt = new Date(Date.now() - 2 * 86_400_000);
    const shipped = goody.event(piece.vendorRef!, "order.shipped", shippedAt);
    expect(await webhook(connectionId, shipped)).toEqual({ status: 200, body: { received: true } });
    expect(await prisma.mailPiece.findUniqueOrThrow({ where: { id: piece.id } })).toMatchObject({
      status: "mailed",
      mailedAt: shippedAt,
    });
    expect(await webhook(connectionId, shipped)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    // Through the route, as Svix posts it.
    const delivered = goody.event(piece.vendorRef!, "order.delivered");
    const res = await goodyRoute(
      new Request(`http://localhost/api/webhooks/goody/${connectionId}`, {
        method: "POST",
        body: delivered.body,
        headers: delivered.headers,
      }),
      { params: Promise.resolve({ connectionId }) },
    );
    expect([res.status, await res.json()]).toEqual([200, { received: true }]);
    expect(await prisma.mailPiece.findUniqueOrThrow({ where: { id: piece.id } })).toMatchObject({
      trackingStatus: "delivered",
    });
  });

  it("a forged, unsigned or stale event gets 401 and changes nothing", async () => {
    const { piece, connectionId } = await sentGift();
    const real = goody.event(piece.vendorRef!, "order.shipped");
    const forged = { body: real.body.replace('"shipped"', '"delivered"'), headers: real.headers };
    expect((await webhook(connectionId, forged)).status).toBe(401);
    expect((await webhook(connectionId, { body: real.body, headers: {} })).status).toBe(401);
    const staleSeconds = String(Math.floor(Date.now() / 1000) - 6 * 60);
    expect(
      (await webhook(connectionId, { body: real.body, headers: { ...real.headers, "svix-timestamp": staleSeconds } }))
        .status,
    ).toBe(401);
    expect(await prisma.mailPiece.findUniqueOrThrow({ where: { id: piece.id } })).toMatchObject({
      status: "printed",
      mailedAt: null,
      trackingStatus: null,
    });
    expect(await prisma.printVendorEvent.count({ where: { connectionId } })).toBe(0);
  });

  it("a signed body that is not a Goody event answers 400 naming where, and changes nothing", async () => {
    const { piece, connectionId } = await sentGift();
    const real = goody.event(piece.vendorRef!, "order.shipped");
    const { Webhook } = await import("standardwebhooks");
    const body = JSON.stringify({ event_type: "order.shipped", data: { id: { not: "" }, status: "shipped" } });
    const now = new Date();
    const headers = {
      "svix-id": "msg_shape",
      "svix-timestamp": String(Math.floor(now.getTime() / 1000)),
      "svix-signature": new Webhook(goody.webhookSecret).sign("msg_shape", now, body),
    };
    const answer = await webhook(connectionId, { body, headers });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^The body is not a Goody event: data\.id: /);
    expect(real).toBeTruthy();
    expect(await prisma.printVendorEvent.count({ where: { connectionId } })).toBe(0);
  });

  it("order.canceled before shipping ends the gift as cancelled at Goody and gives its hold back", async () => {
    const { piece, connectionId, eventId } = await sentGift();
    expect(await webhook(connectionId, goody.event(piece.vendorRef!, "order.canceled"))).toEqual({
      status: 200,
      body: { received: true },
    });
    const row = await eventRow(prisma, eventId);
    expect(row.enrollment).toMatchObject({
      status: "cancelled",
      mailPiece: { status: "failed", vendorIssue: "cancelled_at_vendor" },
      reservation: { status: "released" },
    });
  });

  it("a gift is cancelled at Goody only while Goody allows it (created, notified, opened)", async () => {
    const { piece, connectionId } = await sentGift();
    const adapter = adapterFor("goody", prisma);
    const job = { pieceId: piece.id, vendorRef: piece.vendorRef!, format: "gift" as const, connectionId };
    goody.orders.get(piece.vendorRef!)!.status = "accepted";
    expect(await adapter.cancel!(job)).toBe(false);
    goody.orders.get(piece.vendorRef!)!.status = "created";
    expect(await adapter.cancel!(job)).toBe(true);
    expect(goody.orders.get(piece.vendorRef!)!.status).toBe("canceled");
  });
});

describe("Goody: a gift campaign names its product", { timeout: 120_000 }, () => {
  it("at Goody's price and shipping; a product Goody does not offer is refused naming giftProductId and nothing changes", async () => {
    const { updateDraft } = await import("@/server/programme/campaigns/service");
    const g = await goodyCampaign();
    const draft = await prisma.campaign.update({
      where: { id: g.f.campaign.id },
      data: { status: "draft", giftProductId: null, giftPriceCents: null },
    });
    const succulent = giftProductsOf(goody.products).find((p) => p.name === "Potted succulent")!;
    const refused = updateDraft(prisma, {
      workspaceId: g.f.workspaceId,
      campaignId: draft.id,
      input: { giftProductId: "no-such-product" },
      actor: actorOf(g.f),
    });
    await expect(refused).rejects.toMatchObject({
      code: "validation_failed",
      message:
        "Goody's catalogue has no product “no-such-product” that ships without a choice to make; pick one from gifts_catalogue_list.",
    });
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: draft.id } })).toMatchObject({
      giftProductId: null,
      giftPriceCents: null,
    });
    await updateDraft(prisma, {
      workspaceId: g.f.workspaceId,
      campaignId: draft.id,
      input: { giftProductId: succulent.id },
      actor: actorOf(g.f),
    });
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: draft.id } })).toMatchObject({
      giftProductId: succulent.id,
      giftPriceCents: 4300,
    });
  });
});
