import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { loadPiecePdf } from "@/server/records/pieces/print-file";
import { testDatabase } from "@/test/database";
import { type FakeLob, startFakeLob } from "@/test/fake-lob";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { hasPoppler, pdfText } from "@/test/pdf-tools";
import { printFileOf } from "./print-files";
import { adapterFor } from "./registry";
import { connectVendor, disconnectVendor, listVendorConnections } from "./connections";
import { createContract } from "./contracts";
import { changeCampaignState, getCampaignDetail } from "@/server/programme/campaigns/service";

let prisma: PrismaClient;
let lob: FakeLob;
beforeAll(async () => {
  process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
  prisma = (await testDatabase()).prisma;
  lob = await startFakeLob();
  process.env.LOB_API_URL = lob.url;
});
afterAll(async () => {
  delete process.env.LOB_API_URL;
  await lob.close();
});

const person = (o: { user: { id: string; email: string } }) => ({
  kind: "user" as const,
  id: o.user.id,
  label: o.user.email,
});

/** A live campaign printing 6x9 postcards through Lob (a test key), with the brand kit's return address. */
async function lobCampaign(opts: { accounts?: number } = {}) {
  const f = await liveCampaign(prisma, { accounts: opts.accounts ?? 1, perAccount: 1 });
  await prisma.brandKit.upsert({
    where: { workspaceId: f.workspaceId },
    create: {
      workspaceId: f.workspaceId,
      companyName: "Acme Analytics",
      returnAddressLine1: "185 Berry St",
      returnAddressLine2: "Ste 6100",
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
    input: { vendor: "lob", apiKey: lob.apiKey, webhookSecret: "whsec_test_secret" },
    actor: person(f),
  });
  await prisma.fulfilmentContract.update({
    where: { id: f.contract!.id },
    data: { vendor: "lob", connectionId: connected.connectionId, size: "6x9", countries: ["US"] },
  });
  return { ...f, connectionId: connected.connectionId };
}

const piecesOf = (workspaceId: string) =>
  prisma.mailPiece.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } });
const createsFor = (pieceId: string) =>
  lob.print.printRequests.filter((r) => r.method === "POST" && r.idempotencyKey === pieceId);
const createdFor = (pieceId: string) =>
  [...lob.print.objects.values()].filter((o) => (o.metadata as Record<string, string>).piece_id === pieceId);

describe("connecting Lob (Settings → Printing)", { timeout: 120_000 }, () => {
  it("checks the key with Lob at once; a wrong or publishable key is refused with a sentence and nothing is saved", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    const actor = person(f);
    await expect(
      connectVendor(prisma, {
        workspaceId: f.workspaceId,
        input: { vendor: "lob", apiKey: "test_wrong_key", webhookSecret: "s" },
        actor,
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      message:
        "Lob refused this API key: it is wrong or has been revoked. Copy a secret key from Lob's dashboard (Settings → API Keys). Nothing was saved.",
    });
    await expect(
      connectVendor(prisma, {
        workspaceId: f.workspaceId,
        input: { vendor: "lob", apiKey: "pk_123", webhookSecret: "s" },
        actor,
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("starts with test_ or live_"),
    });
    await expect(
      connectVendor(prisma, {
        workspaceId: f.workspaceId,
        input: { vendor: "lob", apiKey: "test_pub_abc", webhookSecret: "s" },
        actor,
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining("publishable key") });
    expect(await prisma.printVendorConnection.count({ where: { workspaceId: f.workspaceId } })).toBe(0);

    const ok = await connectVendor(prisma, {
      workspaceId: f.workspaceId,
      input: { vendor: "lob", apiKey: lob.apiKey, webhookSecret: "whsec_1" },
      actor,
    });
    expect(ok).toEqual({
      connectionId: expect.stringMatching(/^pvc_[0-9a-f]{32}$/),
      vendor: "lob",
      mode: "test",
      webhookUrl: expect.stringMatching(new RegExp(`/api/webhooks/lob/${ok.connectionId}$`)),
    });
    const row = await prisma.printVendorConnection.findUniqueOrThrow({ where: { id: ok.connectionId } });
    expect(row.credentials).not.toContain(lob.apiKey);
    expect(row.credentials).not.toContain("whsec_1");
    const [listed] = await listVendorConnections(prisma, { workspaceId: f.workspaceId });
    expect(listed).toMatchObject({
      connectionId: ok.connectionId,
      mode: "test",
      status: "connected",
      keyHint: lob.apiKey.slice(-4),
    });
    expect(JSON.stringify(listed)).not.toContain(lob.apiKey);

    await disconnectVendor(prisma, { workspaceId: f.workspaceId, connectionId: ok.connectionId, actor });
    expect(
      (await prisma.printVendorConnection.findUniqueOrThrow({ where: { id: ok.connectionId } })).credentials,
    ).toBeNull();
    await expect(
      disconnectVendor(prisma, { workspaceId: f.workspaceId, connectionId: ok.connectionId, actor }),
    ).rejects.toMatchObject({ code: "invalid_state" });
  });

  it("a Lob contract needs a connected account and the owner's price; it records the mode", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1, contract: false });
    const input = { name: "Lob postcards", vendor: "lob", format: "postcard" as const, size: "6x9", countries: ["US"] };
    await expect(
      createContract(prisma, { workspaceId: f.workspaceId, input: { ...input, unitCostCents: 89 }, actor: person(f) }),
    ).rejects.toMatchObject({
      code: "invalid_state",
      message: expect.stringContaining("Connect your Lob account first"),
    });
    await connectVendor(prisma, {
      workspaceId: f.workspaceId,
      input: { vendor: "lob", apiKey: lob.apiKey, webhookSecret: "s" },
      actor: person(f),
    });
    await expect(createContract(prisma, { workspaceId: f.workspaceId, input, actor: person(f) })).rejects.toMatchObject(
      {
        code: "validation_failed",
        message: expect.stringContaining("Enter the price per piece your Lob plan charges"),
      },
    );
    await expect(
      createContract(prisma, {
        workspaceId: f.workspaceId,
        input: { ...input, size: "a4", format: "letter", unitCostCents: 89 },
        actor: person(f),
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      message:
        "Lob prints letters on US Letter and US Legal paper only (its letter sizes us_letter and us_legal), not A4: choose US Letter for a Lob contract, or another printer for A4 letters.",
    });
    expect(await prisma.fulfilmentContract.count({ where: { workspaceId: f.workspaceId } })).toBe(0);
    const c = await createContract(prisma, {
      workspaceId: f.workspaceId,
      input: { ...input, unitCostCents: 89 },
      actor: person(f),
    });
    expect(c).toMatchObject({ vendor: "lob", mode: "test", unitCostCents: 89, status: "proposed" });
  });
});

describe("printing through Lob, never twice", { timeout: 120_000 }, () => {
  it("creates each admitted contact's postcard at Lob exactly once, with a valid request; later steps only read it back", async () => {
    const f = await lobCampaign({ accounts: 2 });
    const clock = testClock();
    const events = [await postEvent(prisma, f, f.contacts[0].id), await postEvent(prisma, f, f.contacts[1].id)];
    await drain(prisma, clock, f.workspaceId);
    const pieces = await piecesOf(f.workspaceId);
    expect(pieces).toHaveLength(2);
    for (const piece of pieces) {
      expect(piece).toMatchObject({
        vendor: "lob",
        status: "printed",
        vendorRef: expect.stringMatching(/^psc_/),
        vendorMode: "test",
        mailedAt: null,
      });
      const [create] = createsFor(piece.id);
      expect(createsFor(piece.id)).toHaveLength(1);
      expect(create.path).toBe("/v1/postcards");
      expect(create.body).toMatchObject({
        size: "6x9",
        use_type: "marketing",
        metadata: { piece_id: piece.id, workspace_id: f.workspaceId },
        to: {
          address_line1: expect.stringMatching(/Main St$/),
          address_city: "Boston",
          address_state: "MA",
          address_zip: "02116",
          address_country: "US",
          company: expect.any(String),
        },
        from: {
          name: "Acme Analytics",
          address_line1: "185 Berry St",
          address_city: "San Francisco",
          address_zip: "94107",
        },
        // The files travel in the request (multipart): Lob never has to reach this server.
        front: { filename: `${piece.id}-front.pdf`, contentType: "application/pdf", bytes: expect.any(Number) },
        back: { filename: `${piece.id}-back.pdf`, contentType: "application/pdf", bytes: expect.any(Number) },
      });
    }
    for (const e of events)
      expect(await eventRow(prisma, e.eventId)).toMatchObject({
        status: "enrolled",
        enrollment: { reservation: { status: "held" } },
      });
    // The back Lob receives leaves its address block blank: Lob prints the address there itself.
    if (hasPoppler) {
      const back = pdfText(Buffer.from(await printFileOf((await loadPiecePdf(prisma, pieces[0].id))!, "back")));
      expect(back).not.toMatch(/Main St/);
      expect(back).toMatch(/\S/);
    }
    // Hours later, no webhook yet: a reconciliation read (GET), never a second create.
    const reads = lob.print.printRequests.filter((r) => r.method === "GET").length;
    clock.advance(7 * 3_600_000);
    await drain(prisma, clock, f.workspaceId);
    expect(lob.print.printRequests.filter((r) => r.method === "GET").length - reads).toBe(2);
    for (const piece of pieces) expect(createdFor(piece.id)).toHaveLength(1);
  });

  it("a create whose answer was lost is retried with the same idempotency key: one postcard", async () => {
    const f = await lobCampaign();
    const clock = testClock();
    lob.loseNextAnswers(1);
    const e = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    const [piece] = await piecesOf(f.workspaceId);
    expect(piece).toMatchObject({ vendorRef: null, vendorSubmittedAt: expect.any(Date) });
    expect((await eventRow(prisma, e.eventId)).lastError).toContain("Lob could not be reached");
    clock.advance(60_000);
    await drain(prisma, clock, f.workspaceId);
    expect(createsFor(piece.id)).toHaveLength(2);
    expect(createdFor(piece.id)).toHaveLength(1);
    expect((await prisma.mailPiece.findUniqueOrThrow({ where: { id: piece.id } })).vendorRef).toBe(
      createdFor(piece.id)[0].id,
    );
  });

  it("a crash between Lob's answer and recording it prints nothing more", async () => {
    const f = await lobCampaign();
    const clock = testClock();
    let crash = true;
    const crashing = (vendor: string, db: Parameters<typeof adapterFor>[1]) => {
      const real = adapterFor(vendor, db);
      return {
        vendor: real.vendor,
        reconcile: real.reconcile?.bind(real),
        submit: async (job: Parameters<typeof real.submit>[0]) => {
          const result = await real.submit(job);
          if (crash) {
            crash = false;
            throw new Error("worker died after Lob answered");
          }
          return result;
        },
      };
    };
    await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId, { adapterFor: crashing });
    clock.advance(60_000);
    await drain(prisma, clock, f.workspaceId, { adapterFor: crashing });
    const [piece] = await piecesOf(f.workspaceId);
    expect(createsFor(piece.id)).toHaveLength(2);
    expect(createdFor(piece.id)).toHaveLength(1);
    expect(piece).toMatchObject({ status: "printed", vendorRef: createdFor(piece.id)[0].id });
  });

  it("after the idempotency key's lifetime an unanswered piece goes to a person instead of a blind re-send", async () => {
    const f = await lobCampaign();
    const clock = testClock();
    lob.loseNextAnswers(1);
    const e = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    const [piece] = await piecesOf(f.workspaceId);
    clock.advance(25 * 3_600_000);
    await drain(prisma, clock, f.workspaceId);
    expect(createsFor(piece.id)).toHaveLength(1);
    const row = await eventRow(prisma, e.eventId);
    expect(row.status).toBe("failed");
    expect(row.lastError).toContain("We could not confirm this piece with Lob");
    expect(row.enrollment!.mailPiece).toMatchObject({ status: "failed", vendorIssue: "unconfirmed" });
    // It may exist at Lob: the hold stays for a person to settle.
    expect(row.enrollment!.reservation).toMatchObject({ status: "held" });
  });

  it("Lob's 422 for an address ends the piece with address_refused and gives its budget back; nothing is created", async () => {
    const f = await lobCampaign();
    await prisma.contact.update({ where: { id: f.contacts[0].id }, data: { addressLine1: "1 Undeliverable Rd" } });
    const clock = testClock();
    const e = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    const row = await eventRow(prisma, e.eventId);
    expect(row).toMatchObject({
      status: "failed",
      lastError: "Lob refused the address: to address is undeliverable.",
      enrollment: {
        status: "cancelled",
        mailPiece: { status: "failed", vendorIssue: "address_refused" },
        reservation: { status: "released" },
      },
    });
    expect(createdFor(row.enrollment!.mailPiece!.id)).toHaveLength(0);
  });

  it("429 is retried with back-off and then prints once", async () => {
    const f = await lobCampaign();
    const clock = testClock();
    lob.throttleNext(1);
    const e = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    expect((await eventRow(prisma, e.eventId)).lastError).toContain("Lob asked us to slow down (429)");
    clock.advance(60_000);
    await drain(prisma, clock, f.workspaceId);
    const [piece] = await piecesOf(f.workspaceId);
    expect(piece.status).toBe("printed");
    expect(createdFor(piece.id)).toHaveLength(1);
  });

  it("Lob's account answers (a plan limit, no billing address, an unverified payment method) suspend nothing: the piece waits and prints once the owner settles it", async () => {
    const f = await lobCampaign();
    const clock = testClock();
    lob.refuseNext(1, 403, "feature_limit_reached", "The account has reached its resource limit.");
    const e = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    expect((await eventRow(prisma, e.eventId)).lastError).toBe(
      "Lob refused the piece: the Lob account has reached its plan's limit: The account has reached its resource limit.. Upgrade the plan at Lob; the piece is tried again.",
    );
    lob.refuseNext(1, 401, "payment_method_unverified", "Verify a payment method.");
    clock.advance(60_000);
    await drain(prisma, clock, f.workspaceId);
    expect((await eventRow(prisma, e.eventId)).lastError).toContain("Verify a payment method in Lob's dashboard");
    // Neither is a revoked key: the connection and the contract still print.
    expect(await prisma.printVendorConnection.findUniqueOrThrow({ where: { id: f.connectionId } })).toMatchObject({
      status: "connected",
    });
    expect((await prisma.fulfilmentContract.findUniqueOrThrow({ where: { id: f.contract!.id } })).status).not.toBe(
      "suspended",
    );
    clock.advance(5 * 60_000);
    await drain(prisma, clock, f.workspaceId);
    const [piece] = await piecesOf(f.workspaceId);
    expect(piece.status).toBe("printed");
    expect(createdFor(piece.id)).toHaveLength(1);
  });

  it("ending the campaign cancels at Lob the pieces it has not sent and gives their budget back", async () => {
    const f = await lobCampaign();
    const clock = testClock();
    const e = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    const [piece] = await piecesOf(f.workspaceId);
    expect(piece.status).toBe("printed");
    await changeCampaignState(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      change: "end",
      actor: person(f),
    });
    expect(lob.print.objects.get(piece.vendorRef!)).toMatchObject({ deleted: true });
    expect(await eventRow(prisma, e.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "campaign_ended",
      enrollment: {
        status: "cancelled",
        mailPiece: { status: "cancelled", vendorIssue: "cancelled_at_vendor" },
        reservation: { status: "released" },
      },
    });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).reservedCents).toBe(0);
  });

  it("pausing cancels at Lob what it has not sent and gives the hold back; resuming prints the recipient a new piece, once", async () => {
    const f = await lobCampaign();
    const clock = testClock();
    const e = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    const [first] = await piecesOf(f.workspaceId);
    expect(first.status).toBe("printed");
    // The campaign says it prints through a test key.
    expect(
      (await getCampaignDetail(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id })).printerMode,
    ).toBe("test");
    await changeCampaignState(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      change: "pause",
      actor: person(f),
    });
    expect(lob.print.objects.get(first.vendorRef!)).toMatchObject({ deleted: true });
    expect(await prisma.mailPiece.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      status: "cancelled",
      vendorIssue: "cancelled_at_vendor",
      enrollmentId: null,
      vendorIssueDetail: expect.stringContaining("when the campaign was paused"),
    });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).reservedCents).toBe(0);
    // While paused the event waits: nothing new at Lob.
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, e.eventId)).toMatchObject({ status: "waiting" });
    const createdHere = () =>
      [...lob.print.objects.values()].filter(
        (o) => (o.metadata as Record<string, string>).workspace_id === f.workspaceId,
      );
    expect(createdHere()).toHaveLength(1);
    await changeCampaignState(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      change: "resume",
      actor: person(f),
    });
    await drain(prisma, clock, f.workspaceId);
    const pieces = await piecesOf(f.workspaceId);
    expect(pieces.map((x) => x.status)).toEqual(["cancelled", "printed"]);
    const second = pieces[1];
    expect(second.id).not.toBe(first.id);
    expect(createsFor(second.id)).toHaveLength(1);
    expect(createdHere()).toHaveLength(2);
    expect(await eventRow(prisma, e.eventId)).toMatchObject({
      status: "enrolled",
      enrollment: { mailPiece: { id: second.id }, reservation: { status: "held" } },
    });
  });
});
