import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { drain, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { advanceSandboxPost, returnsToSender, sandboxTrackingEvents } from "./sandbox-post";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const DAY = 60_000;
const statusesOf = async (pieceId: string) => {
  const piece = await prisma.mailPiece.findUniqueOrThrow({ where: { id: pieceId } });
  return { status: piece.trackingStatus, events: (piece.trackingEvents as { status: string }[]).map((e) => e.status) };
};

describe("the sandbox printer's simulated post", { timeout: 120_000 }, () => {
  it("moves each mailed piece through Lob's tracking events a simulated day apart, once each, and a return marks the address undeliverable", async () => {
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1 });
    const [delivered, returned] = f.contacts;
    await prisma.contact.update({ where: { id: returned.id }, data: { addressLine1: "1 Return to Sender Way" } });
    const clock = testClock();
    for (const c of f.contacts) await postEvent(prisma, f, c.id);
    await drain(prisma, clock, f.workspaceId);
    const pieces = await prisma.mailPiece.findMany({
      where: { campaignId: f.campaign.id },
      orderBy: { contactId: "asc" },
    });
    expect(pieces.map((p) => p.status)).toEqual(["mailed", "mailed"]);
    const pieceOf = (contactId: string) => pieces.find((p) => p.contactId === contactId)!;
    const mailedAt = pieceOf(delivered.id).mailedAt!;
    const at = (days: number) => new Date(mailedAt.getTime() + days * DAY + 1);

    await advanceSandboxPost(prisma, at(0), DAY, f.workspaceId);
    expect(await statusesOf(pieceOf(delivered.id).id)).toEqual({ status: "mailed", events: ["mailed"] });
    await advanceSandboxPost(prisma, at(3.5), DAY, f.workspaceId);
    expect(await statusesOf(pieceOf(delivered.id).id)).toEqual({
      status: "in_local_area",
      events: ["mailed", "in_transit", "in_local_area"],
    });
    // Two workers ticking at once record each event once.
    await Promise.all([
      advanceSandboxPost(prisma, at(7), DAY, f.workspaceId),
      advanceSandboxPost(prisma, at(7), DAY, f.workspaceId),
    ]);
    expect(await statusesOf(pieceOf(delivered.id).id)).toEqual({
      status: "delivered",
      events: ["mailed", "in_transit", "in_local_area", "processed_for_delivery", "delivered"],
    });
    expect(await statusesOf(pieceOf(returned.id).id)).toEqual({
      status: "returned_to_sender",
      events: ["mailed", "in_transit", "in_local_area", "returned_to_sender"],
    });
    // The return is the contact's: the audit, the address gate and readiness see it.
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: returned.id } })).toMatchObject({
      addressStatus: "undeliverable",
      undeliverableReason: `returned to sender (piece ${pieceOf(returned.id).id})`,
    });
    expect((await prisma.contact.findUniqueOrThrow({ where: { id: delivered.id } })).addressStatus).not.toBe(
      "undeliverable",
    );
    // Delivered and returned pieces are done: a later tick changes nothing.
    expect(await advanceSandboxPost(prisma, at(30), DAY, f.workspaceId)).toBe(0);
  });

  it("schedules the route from the mailed date and returns only pieces addressed to return to sender", () => {
    const mailedAt = new Date("2026-11-20T10:00:00Z");
    const events = sandboxTrackingEvents({
      pieceId: "pc_1",
      mailedAt,
      returns: false,
      now: new Date("2026-11-24T10:00:00Z"),
      dayMs: 86_400_000,
    });
    expect(events.map((e) => [e.status, e.at.toISOString()])).toEqual([
      ["mailed", "2026-11-20T10:00:00.000Z"],
      ["in_transit", "2026-11-21T10:00:00.000Z"],
      ["in_local_area", "2026-11-23T10:00:00.000Z"],
      ["processed_for_delivery", "2026-11-24T10:00:00.000Z"],
    ]);
    expect(events[0].eventId).toBe("sandbox:pc_1:mailed");
    for (const line of ["1 Return to Sender Way", "RETURN-TO-SENDER", "returned to sender"])
      expect(returnsToSender(line), line).toBe(true);
    for (const line of ["77 Elm St", "", null]) expect(returnsToSender(line), String(line)).toBe(false);
  });
});
