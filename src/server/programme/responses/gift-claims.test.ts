import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { loadPiecePdf } from "@/server/records/pieces/print-file";
import { getEntryEventStatus } from "@/server/programme/entry/service";
import { getEntryEventDetail } from "@/server/programme/entry/event-detail";
import { testDatabase } from "@/test/database";
import { drain, eventRow, postEvent } from "@/test/lifecycle-fixtures";
import { giftClaimCampaign } from "@/test/response-fixtures";
import { claimGift, declineGift } from "./gift-claims";
import { resolveLink } from "./page-model";
import { shippingAddressVersions, type TShippingAddressInput } from "./shipping-address";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const DAY = 86_400_000;
const home: TShippingAddressInput = {
  addressLine1: "12 Elm Street",
  addressLine2: null,
  city: "Cambridge",
  region: "MA",
  postalCode: "02139",
  country: "US",
};

describe("a gift ships only after its recipient claims it", () => {
  it("waits for the claim (gift_claim, until the claim expires), holding its budget, with nothing at the printer", async () => {
    const f = await giftClaimCampaign(prisma);
    const event = await eventRow(prisma, f.eventId);
    expect(event).toMatchObject({
      status: "waiting",
      enrollment: {
        status: "in_fulfilment",
        reservation: { status: "held", amountCents: 3550 },
        mailPiece: { status: "approved" },
      },
    });
    expect(await prisma.sandboxPrintJob.count({ where: { pieceId: f.piece.id } })).toBe(0);
    const claim = await prisma.giftClaim.findUniqueOrThrow({ where: { pieceId: f.piece.id } });
    expect(claim).toMatchObject({ status: "open", giftItem: "coffee-sampler" });
    expect(claim.expiresAt.getTime()).toBe(event.runAfter.getTime());
    expect(Math.round((claim.expiresAt.getTime() - f.clock.now().getTime()) / DAY)).toBe(14);

    const detail = await getEntryEventDetail(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      eventId: f.eventId,
      now: f.clock.now(),
    });
    expect(detail.waiting).toEqual({
      reason: "gift_claim",
      until: claim.expiresAt.toISOString(),
      cardId: null,
      claimUrl: expect.stringMatching(new RegExp(`/r/${f.code}$`)),
    });
    expect(
      await getEntryEventStatus(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, eventId: f.eventId }),
    ).toMatchObject({
      status: "waiting",
      waitingReason: "gift_claim",
      waitingUntil: claim.expiresAt.toISOString(),
    });
    // Drained again, nothing moves: it waits for the person.
    await drain(prisma, f.clock, f.workspaceId);
    expect(await prisma.sandboxPrintJob.count({ where: { pieceId: f.piece.id } })).toBe(0);
  });

  it("a claim with the same address ships the gift once, to that address, and completes the event", async () => {
    const f = await giftClaimCampaign(prisma);
    const contact = f.contacts[0];
    const same = {
      addressLine1: contact.addressLine1!,
      addressLine2: contact.addressLine2,
      city: contact.city!,
      region: contact.region,
      postalCode: contact.postalCode,
      country: "US",
    };
    expect(
      await claimGift(prisma, {
        code: f.code,
        giftItem: "coffee-sampler",
        address: same,
        userAgent: "iPhone",
        now: f.clock.now(),
      }),
    ).toEqual({ kind: "done" });
    // Sent again (a double tap): nothing more is recorded.
    expect(
      await claimGift(prisma, {
        code: f.code,
        giftItem: "coffee-sampler",
        address: same,
        userAgent: "iPhone",
        now: f.clock.now(),
      }),
    ).toEqual({ kind: "done" });
    await drain(prisma, f.clock, f.workspaceId);
    const event = await eventRow(prisma, f.eventId);
    expect(event).toMatchObject({
      status: "completed",
      enrollment: { status: "mailed", reservation: { status: "charged" }, mailPiece: { status: "mailed" } },
    });
    expect(await prisma.sandboxPrintJob.count({ where: { pieceId: f.piece.id } })).toBe(1);
    const kinds = await prisma.responseEvent.findMany({ where: { pieceId: f.piece.id }, select: { kind: true } });
    expect(kinds.map((k) => k.kind).sort()).toEqual(["gift_claim"]);
    expect(
      (await shippingAddressVersions(prisma, { workspaceId: f.workspaceId, pieceId: f.piece.id })).map((v) => v.source),
    ).toEqual(["original"]);
    const page = await resolveLink(prisma, f.code, f.clock.now());
    expect(page).toMatchObject({
      kind: "page",
      page: { kind: "gift_claim", claim: { state: "claimed", giftItem: "coffee-sampler" } },
    });
  });

  it("a corrected address is a new version (the original stays), goes on the label, and is in the audit log", async () => {
    const f = await giftClaimCampaign(prisma);
    const before = await loadPiecePdf(prisma, f.piece.id);
    expect(
      await claimGift(prisma, {
        code: f.code,
        giftItem: "tea-tin",
        address: { ...home, region: "massachusetts" },
        userAgent: "iPhone",
        now: f.clock.now(),
      }),
    ).toEqual({ kind: "done" });
    const versions = await shippingAddressVersions(prisma, { workspaceId: f.workspaceId, pieceId: f.piece.id });
    expect(versions).toMatchObject([
      { version: 1, source: "original", addressLine1: f.contacts[0].addressLine1, city: "Boston" },
      {
        version: 2,
        source: "recipient",
        addressLine1: "12 Elm Street",
        city: "Cambridge",
        region: "MA",
        postalCode: "02139",
      },
    ]);
    const piece = await prisma.mailPiece.findUniqueOrThrow({ where: { id: f.piece.id } });
    expect((piece.recipient as { lines: string[] }).lines).toEqual(
      expect.arrayContaining(["12 Elm Street", "Cambridge, MA 02139"]),
    );
    // The structured address a vendor ships to (Goody, Lob) is the corrected one, not the contact's.
    expect((piece.recipient as { address: unknown }).address).toMatchObject({
      line1: "12 Elm Street",
      city: "Cambridge",
      region: "MA",
      postalCode: "02139",
      country: "US",
    });
    // The note card now names the chosen gift: it was rendered again.
    expect(Buffer.from((await loadPiecePdf(prisma, piece.id))!).equals(Buffer.from(before!))).toBe(false);
    const log = await prisma.auditLogEntry.findMany({
      where: { workspaceId: f.workspaceId, targetId: f.piece.id },
      orderBy: { createdAt: "asc" },
    });
    expect(log.map((l) => l.action)).toEqual(["gift.address_changed", "gift.claimed"]);
    expect(log[0].data).toMatchObject({ from: { city: "Boston" }, to: { city: "Cambridge" }, version: 2 });
    // In the enum's order: gift_claim before address_change.
    const events = await prisma.responseEvent.findMany({ where: { pieceId: f.piece.id }, orderBy: { kind: "asc" } });
    expect(events.map((e) => [e.kind, e.data])).toEqual([
      ["gift_claim", { gift: "tea-tin", giftName: "Loose-leaf tea tin", addressVersion: 2 }],
      ["address_change", { fromVersion: 1, toVersion: 2, address: { ...home } }],
    ]);

    await drain(prisma, f.clock, f.workspaceId);
    expect(await prisma.sandboxPrintJob.count({ where: { pieceId: f.piece.id } })).toBe(1);
    expect((await eventRow(prisma, f.eventId)).status).toBe("completed");
  });

  it("refuses an address the audit would refuse, a gift not offered, and writes nothing", async () => {
    const f = await giftClaimCampaign(prisma);
    const now = f.clock.now();
    const cases: [Partial<TShippingAddressInput>, string, string][] = [
      [{ postalCode: "2139" }, "postalCode", "Did you mean 02139?"],
      [{ addressLine1: "PO Box 12" }, "addressLine1", "PO box"],
      [{ country: "DE", region: null, postalCode: "10115", city: "Berlin" }, "country", "cannot be shipped to"],
      [{ region: "ZZ" }, "region", "not a state or region"],
    ];
    for (const [patch, field, words] of cases) {
      const result = await claimGift(prisma, {
        code: f.code,
        giftItem: "coffee-sampler",
        address: { ...home, ...patch },
        userAgent: null,
        now,
      });
      expect(result.kind).toBe("invalid");
      expect((result as { errors: Record<string, string> }).errors[field]).toContain(words);
    }
    expect(
      await claimGift(prisma, { code: f.code, giftItem: "succulent", address: home, userAgent: null, now }),
    ).toEqual({ kind: "invalid", errors: { gift: "Choose one of the gifts shown." } });
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id } })).toBe(0);
    expect(await prisma.shippingAddress.count({ where: { pieceId: f.piece.id } })).toBe(1);
    expect(await prisma.giftClaim.findUniqueOrThrow({ where: { pieceId: f.piece.id } })).toMatchObject({
      status: "open",
    });
  });

  it("a declined gift never ships: skipped (gift_declined), budget released, and the page says so", async () => {
    const f = await giftClaimCampaign(prisma);
    expect(await declineGift(prisma, { code: f.code, userAgent: null, now: f.clock.now() })).toEqual({ kind: "done" });
    expect(await declineGift(prisma, { code: f.code, userAgent: null, now: f.clock.now() })).toEqual({ kind: "done" });
    expect(
      await claimGift(prisma, {
        code: f.code,
        giftItem: "coffee-sampler",
        address: home,
        userAgent: null,
        now: f.clock.now(),
      }),
    ).toEqual({ kind: "already", state: "declined" });
    await drain(prisma, f.clock, f.workspaceId);
    expect(await eventRow(prisma, f.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "gift_declined",
      enrollment: { status: "cancelled", reservation: { status: "released" }, mailPiece: { status: "cancelled" } },
    });
    expect(await prisma.sandboxPrintJob.count({ where: { pieceId: f.piece.id } })).toBe(0);
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).toMatchObject({
      reservedCents: 0,
      spentCents: 0,
    });
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id, kind: "gift_decline" } })).toBe(1);
    expect(await resolveLink(prisma, f.code, f.clock.now())).toMatchObject({ page: { claim: { state: "declined" } } });
  });

  it("unclaimed at its expiry: skipped (gift_unclaimed), budget released, and the code is then as unknown as any other", async () => {
    const f = await giftClaimCampaign(prisma);
    f.clock.advance(14 * DAY + 1000);
    // Past its expiry the page is gone even before the lifecycle looks again.
    expect(await resolveLink(prisma, f.code, f.clock.now())).toBeNull();
    expect(
      await claimGift(prisma, {
        code: f.code,
        giftItem: "coffee-sampler",
        address: home,
        userAgent: null,
        now: f.clock.now(),
      }),
    ).toEqual({ kind: "gone" });
    await drain(prisma, f.clock, f.workspaceId);
    expect(await eventRow(prisma, f.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "gift_unclaimed",
      enrollment: { reservation: { status: "released" }, mailPiece: { status: "cancelled" } },
    });
    expect(await prisma.giftClaim.findUniqueOrThrow({ where: { pieceId: f.piece.id } })).toMatchObject({
      status: "expired",
    });
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).toMatchObject({
      reservedCents: 0,
    });
    expect(await prisma.sandboxPrintJob.count({ where: { pieceId: f.piece.id } })).toBe(0);
  });

  it("two claims at the same moment record one", async () => {
    const f = await giftClaimCampaign(prisma);
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        claimGift(prisma, { code: f.code, giftItem: "tea-tin", address: home, userAgent: null, now: f.clock.now() }),
      ),
    );
    expect(results.every((r) => r.kind === "done")).toBe(true);
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id, kind: "gift_claim" } })).toBe(1);
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id, kind: "address_change" } })).toBe(1);
    expect(await prisma.shippingAddress.count({ where: { pieceId: f.piece.id } })).toBe(2);
  });

  it("a claimed gift still ships when the campaign ends before the printer has it", async () => {
    const f = await giftClaimCampaign(prisma);
    expect(
      await claimGift(prisma, {
        code: f.code,
        giftItem: "coffee-sampler",
        address: home,
        userAgent: null,
        now: f.clock.now(),
      }),
    ).toEqual({ kind: "done" });
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "ended", endedAt: new Date() } });
    await drain(prisma, f.clock, f.workspaceId);
    expect(await eventRow(prisma, f.eventId)).toMatchObject({ status: "completed" });
    expect(await prisma.sandboxPrintJob.count({ where: { pieceId: f.piece.id } })).toBe(1);
  });

  it("ending the campaign before a claim closes the claim page", async () => {
    const f = await giftClaimCampaign(prisma);
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "ended", endedAt: new Date() } });
    await prisma.entryEvent.update({ where: { id: f.eventId }, data: { runAfter: f.clock.now() } });
    await drain(prisma, f.clock, f.workspaceId);
    expect(await eventRow(prisma, f.eventId)).toMatchObject({ status: "skipped", skipReason: "campaign_ended" });
    expect(await prisma.giftClaim.findUniqueOrThrow({ where: { pieceId: f.piece.id } })).toMatchObject({
      status: "cancelled",
    });
    expect(await resolveLink(prisma, f.code, f.clock.now())).toBeNull();
  });

  it("a held-out account never gets a piece, so never a page", async () => {
    const f = await giftClaimCampaign(prisma);
    await prisma.holdoutAssignment.updateMany({
      where: { campaignId: f.campaign.id, accountId: f.contacts[1].accountId! },
      data: { arm: "holdout" },
    });
    const { eventId } = await postEvent(prisma, f, f.contacts[1].id);
    await drain(prisma, f.clock, f.workspaceId);
    expect(await eventRow(prisma, eventId)).toMatchObject({ status: "held_out", enrollment: { mailPiece: null } });
    expect(await prisma.mailPiece.count({ where: { campaignId: f.campaign.id, contactId: f.contacts[1].id } })).toBe(0);
  });
});
