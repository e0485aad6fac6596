import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { type FakeLob, startFakeLob } from "@/test/fake-lob";
import { type LobTrackingName, signLobWebhook, track } from "@/test/fake-lob-print";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { getCampaignDetail } from "@/server/programme/campaigns/service";
import { connectVendor } from "./connections";
import { POST as lobRoute } from "@/app/api/webhooks/lob/[connectionId]/route";
import { DRAIN_MAX_BYTES } from "@/server/ground/platform/capped-body";
import { MAX_LOB_WEBHOOK_BYTES } from "./lob-webhook-route";
import { receiveLobWebhook } from "./webhooks";

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

const SECRET = "whsec_lob_test_1";
const DAY = 86_400_000;

/** A postcard printed through Lob (a test key) for one contact, waiting for the post. */
async function printedPiece() {
  const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
  await prisma.brandKit.upsert({
    where: { workspaceId: f.workspaceId },
    create: {
      workspaceId: f.workspaceId,
      companyName: "Acme",
      returnAddressLine1: "185 Berry St",
      returnCity: "San Francisco",
      returnRegion: "CA",
      returnPostalCode: "94107",
      returnCountry: "US",
    },
    update: {},
  });
  const c = await connectVendor(prisma, {
    workspaceId: f.workspaceId,
    input: { vendor: "lob", apiKey: lob.apiKey, webhookSecret: SECRET },
    actor: { kind: "user", id: f.user.id, label: f.user.email },
  });
  await prisma.fulfilmentContract.update({
    where: { id: f.contract!.id },
    data: { vendor: "lob", connectionId: c.connectionId, size: "6x9", countries: ["US"] },
  });
  const clock = testClock();
  const e = await postEvent(prisma, f, f.contacts[0].id);
  await drain(prisma, clock, f.workspaceId);
  const piece = await prisma.mailPiece.findFirstOrThrow({ where: { workspaceId: f.workspaceId } });
  expect(piece.status).toBe("printed");
  return { f, clock, eventId: e.eventId, piece, connectionId: c.connectionId };
}

/** Delivers a Lob event to the service as Lob would: signed with the connection's secret, now. */
function deliver(
  connectionId: string,
  event: unknown,
  opts: { secret?: string; timestamp?: string; signature?: string | null } = {},
) {
  const rawBody = JSON.stringify(event);
  const timestamp = opts.timestamp ?? String(Date.now());
  const signature =
    opts.signature === undefined ? signLobWebhook(opts.secret ?? SECRET, rawBody, timestamp) : opts.signature;
  return receiveLobWebhook(prisma, { connectionId, rawBody, signature, timestamp });
}

const scan = (ref: string, name: LobTrackingName, at: Date) => track(lob.print, ref, name, at);

describe("Lob's webhooks: POST /api/webhooks/lob/{connectionId}", { timeout: 120_000 }, () => {
  it("a signed in-transit event marks the piece mailed at the scan's date, and its event completes and is charged", async () => {
    const { f, clock, eventId, piece, connectionId } = await printedPiece();
    const at = new Date(Date.now() - 2 * DAY);
    expect(await deliver(connectionId, scan(piece.vendorRef!, "In Transit", at))).toEqual({
      status: 200,
      body: { received: true },
    });
    const after = await prisma.mailPiece.findUniqueOrThrow({ where: { id: piece.id } });
    expect(after).toMatchObject({ status: "mailed", trackingStatus: "in_transit", mailedAt: at });
    // The webhook woke the event (due now); the worker's next round completes it.
    clock.advance(Math.max(0, Date.now() - clock.now().getTime()) + 1000);
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, eventId)).toMatchObject({
      status: "completed",
      enrollment: { status: "mailed", reservation: { status: "charged" } },
    });
  });

  it("forged, unsigned and stale requests get 401 and change nothing", async () => {
    const { piece, connectionId } = await printedPiece();
    const event = scan(piece.vendorRef!, "Delivered", new Date());
    expect((await deliver(connectionId, event, { secret: "not-the-secret" })).status).toBe(401);
    expect((await deliver(connectionId, event, { signature: null })).status).toBe(401);
    expect((await deliver(connectionId, event, { signature: "ab".repeat(32) })).status).toBe(401);
    expect((await deliver(connectionId, event, { timestamp: String(Date.now() - 6 * 60_000) })).status).toBe(401);
    // A body changed after signing.
    const rawBody = JSON.stringify(event);
    const ts = String(Date.now());
    const sig = signLobWebhook(SECRET, rawBody, ts);
    expect(
      (
        await receiveLobWebhook(prisma, {
          connectionId,
          rawBody: rawBody.replace("Delivered", "Returned to Sender"),
          signature: sig,
          timestamp: ts,
        })
      ).status,
    ).toBe(401);
    expect(await prisma.mailPiece.findUniqueOrThrow({ where: { id: piece.id } })).toMatchObject({
      status: "printed",
      trackingStatus: null,
      mailedAt: null,
    });
    expect(await prisma.printVendorEvent.count({ where: { connectionId } })).toBe(0);
    // Another workspace's connection (or none) is no door to this one.
    expect((await deliver(`pvc_${"0".repeat(32)}`, event)).status).toBe(404);
  });

  it("a body over 1 MiB gets 413 without being read whole, signed or not; a signed event through the route is received", async () => {
    const { piece, connectionId } = await printedPiece();
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const total = 40 * 1024 * 1024;
    /** A 40 MB body made as it is read: how much of it the route pulled, and whether it was cancelled. */
    const huge = () => {
      const seen = { pulled: 0, cancelled: false };
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            if (seen.pulled >= total) return controller.close();
            seen.pulled += chunk.byteLength;
            controller.enqueue(chunk);
          },
          cancel() {
            seen.cancelled = true;
          },
        },
        { highWaterMark: 0 },
      );
      return { seen, body };
    };
    const url = `http://localhost/api/webhooks/lob/${connectionId}`;
    const params = Promise.resolve({ connectionId });
    const streamed = huge();
    const res = await lobRoute(
      new Request(url, { method: "POST", body: streamed.body, duplex: "half" } as RequestInit),
      { params },
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      received: false,
      error: "The body is too large: a Lob event is never over 1 MiB.",
    });
    await expect.poll(() => streamed.seen.cancelled).toBe(true);
    // Past the cap the rest is read and dropped (never kept) up to the drain's bound, then cancelled.
    expect(streamed.seen.pulled).toBeLessThanOrEqual(DRAIN_MAX_BYTES + MAX_LOB_WEBHOOK_BYTES + 4 * chunk.byteLength);
    // Declared too long: refused before a byte is read.
    const declared = huge();
    const res2 = await lobRoute(
      new Request(url, {
        method: "POST",
        body: declared.body,
        duplex: "half",
        headers: { "content-length": String(total) },
      } as RequestInit),
      { params },
    );
    expect(res2.status).toBe(413);
    expect(declared.seen.pulled).toBe(0);
    expect(await prisma.printVendorEvent.count({ where: { connectionId } })).toBe(0);

    const rawBody = JSON.stringify(scan(piece.vendorRef!, "In Transit", new Date()));
    const timestamp = String(Date.now());
    const signed = await lobRoute(
      new Request(url, {
        method: "POST",
        body: rawBody,
        headers: { "lob-signature": signLobWebhook(SECRET, rawBody, timestamp), "lob-signature-timestamp": timestamp },
      }),
      { params },
    );
    expect([signed.status, await signed.json()]).toEqual([200, { received: true }]);
  });

  it("a signed body that is not the shape of a Lob event answers 400 with where it is wrong, and changes nothing", async () => {
    const { piece, connectionId } = await printedPiece();
    const event = scan(piece.vendorRef!, "Delivered", new Date()) as Record<string, unknown> & {
      body: Record<string, unknown>;
    };
    const cases: [unknown, string][] = [
      [{ ...event, reference_id: { not: "" } }, "reference_id"],
      [{ ...event, id: { contains: "" } }, "id"],
      [{ ...event, body: { ...event.body, metadata: { piece_id: { not: "" } } } }, "body.metadata.piece_id"],
      [{ ...event, body: { ...event.body, tracking_events: {} } }, "body.tracking_events"],
      [{ ...event, event_type: "postcard.delivered" }, "event_type"],
      [[event], "the body"],
    ];
    for (const [body, where] of cases) {
      const answer = await deliver(connectionId, body);
      expect(answer, where).toMatchObject({ status: 400, body: { received: false } });
      expect(answer.body.error, where).toMatch(
        new RegExp(`^The body is not a Lob event: ${where}: .+\\. Nothing was changed\\.$`),
      );
    }
    expect(await prisma.printVendorEvent.count({ where: { connectionId } })).toBe(0);
    expect(await prisma.mailPiece.findUniqueOrThrow({ where: { id: piece.id } })).toMatchObject({
      status: "printed",
      trackingStatus: null,
    });
    // The same event, well formed, is then received.
    expect((await deliver(connectionId, event)).status).toBe(200);
  });

  it("a repeated event changes nothing; events out of order never move a piece backwards", async () => {
    const { piece, connectionId } = await printedPiece();
    const t0 = Date.now() - 4 * DAY;
    const inTransit = scan(piece.vendorRef!, "In Transit", new Date(t0));
    const local = scan(piece.vendorRef!, "In Local Area", new Date(t0 + DAY));
    const delivered = scan(piece.vendorRef!, "Delivered", new Date(t0 + 2 * DAY));
    // Delivered arrives first, then the earlier scans.
    expect((await deliver(connectionId, delivered)).body).toEqual({ received: true });
    expect((await deliver(connectionId, delivered)).body).toEqual({ received: true, duplicate: true });
    await deliver(connectionId, local);
    await deliver(connectionId, inTransit);
    const after = await prisma.mailPiece.findUniqueOrThrow({ where: { id: piece.id } });
    expect(after.trackingStatus).toBe("delivered");
    expect(after.mailedAt).toEqual(new Date(t0));
    expect((after.trackingEvents as { status: string }[]).map((e) => e.status)).toEqual([
      "in_transit",
      "in_local_area",
      "delivered",
    ]);
  });

  it("returned to sender marks the contact's address undeliverable, with the piece as its source", async () => {
    const { f, piece, connectionId } = await printedPiece();
    // As printed through a live key (the fake takes a test key; the piece's mode is what decides).
    await prisma.mailPiece.update({ where: { id: piece.id }, data: { vendorMode: "live" } });
    await deliver(connectionId, scan(piece.vendorRef!, "In Transit", new Date(Date.now() - 3 * DAY)));
    await deliver(connectionId, scan(piece.vendorRef!, "Returned to Sender", new Date(Date.now() - DAY)));
    expect((await prisma.mailPiece.findUniqueOrThrow({ where: { id: piece.id } })).trackingStatus).toBe(
      "returned_to_sender",
    );
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: f.contacts[0].id } })).toMatchObject({
      addressStatus: "undeliverable",
      undeliverableReason: `returned to sender (piece ${piece.id})`,
    });
    expect(
      await prisma.auditLogEntry.count({
        where: { workspaceId: f.workspaceId, action: "piece.returned_to_sender", targetId: piece.id },
      }),
    ).toBe(1);
  });

  it("a test key's piece returned to sender leaves the contact's real address as it was", async () => {
    const { f, piece, connectionId } = await printedPiece();
    expect(piece.vendorMode).toBe("test");
    const before = await prisma.contact.findUniqueOrThrow({
      where: { id: f.contacts[0].id },
      select: { addressStatus: true, undeliverableReason: true, updatedAt: true },
    });
    await deliver(connectionId, scan(piece.vendorRef!, "In Transit", new Date(Date.now() - 3 * DAY)));
    await deliver(connectionId, scan(piece.vendorRef!, "Returned to Sender", new Date(Date.now() - DAY)));
    // The piece says what Lob's test mode reported; the contact is untouched.
    expect((await prisma.mailPiece.findUniqueOrThrow({ where: { id: piece.id } })).trackingStatus).toBe(
      "returned_to_sender",
    );
    expect(
      await prisma.contact.findUniqueOrThrow({
        where: { id: f.contacts[0].id },
        select: { addressStatus: true, undeliverableReason: true, updatedAt: true },
      }),
    ).toEqual(before);
    // The campaign page counts it mailed, and says it went through a test key.
    expect(await getCampaignDetail(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id })).toMatchObject({
      piecesByStatus: { mailed: 1 },
      testMailed: 1,
      printerMode: "test",
    });
  });

  it("Lob's postcard.rejected refuses the piece with Lob's reason, gives its budget hold back and tells the owner", async () => {
    const { f, piece, connectionId } = await printedPiece();
    const before = await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } });
    expect(before.reservedCents).toBeGreaterThan(0);
    const o = lob.print.objects.get(piece.vendorRef!)!;
    const event = {
      id: "evt_rejected_1",
      body: { ...o, failure_reason: { error_description: "The file could not be rendered." } },
      reference_id: piece.vendorRef,
      event_type: { id: "postcard.rejected", enabled_for_test: true, resource: "postcards", object: "event_type" },
      date_created: new Date().toISOString(),
      object: "event",
    };
    expect(await deliver(connectionId, event)).toEqual({ status: 200, body: { received: true } });
    expect(
      await prisma.mailPiece.findUniqueOrThrow({
        where: { id: piece.id },
        include: { enrollment: { include: { reservation: true } } },
      }),
    ).toMatchObject({
      status: "failed",
      vendorIssue: "file_refused",
      vendorIssueDetail: "Lob rejected this piece (postcard.rejected): The file could not be rendered..",
      enrollment: { status: "cancelled", reservation: { status: "released" } },
    });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).reservedCents).toBe(0);
    expect(
      await prisma.auditLogEntry.count({
        where: { workspaceId: f.workspaceId, action: "piece.refused_by_vendor", targetId: piece.id },
      }),
    ).toBe(1);
    // The same event again changes nothing.
    expect(await deliver(connectionId, event)).toEqual({ status: 200, body: { received: true, duplicate: true } });
  });
});
