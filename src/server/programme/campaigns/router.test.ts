import type { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { callerFor, createAudience, createOwnerWorkspace, uniq } from "@/test/factories";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/** A workspace with a campaign holding one entry event and one piece. */
async function campaignWithActivity() {
  const o = await createOwnerWorkspace(prisma);
  const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 1, perAccount: 1 });
  const campaign = await prisma.campaign.create({
    data: { workspaceId: o.workspaceId, name: "Active", format: "postcard", status: "live", audienceId: audience.id },
  });
  const event = await prisma.entryEvent.create({
    data: {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      contactId: contacts[0].id,
      idempotencyKey: uniq(),
      fingerprint: "x",
      occurredAt: new Date(),
    },
  });
  const sid = uniq("s").padEnd(16, "0").slice(0, 16);
  const piece = await prisma.mailPiece.create({
    data: {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      contactId: contacts[0].id,
      sid,
      responseCode: sid.slice(0, 10),
      status: "mailed",
    },
  });
  return { ...o, campaign, event, piece };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (error: TRPCError) => ({ code: error.code, message: error.message }),
  );

describe("campaign activity pages", () => {
  it("a cursor that is another workspace's event or piece answers exactly as an unknown one: not found", async () => {
    const mine = await campaignWithActivity();
    const theirs = await campaignWithActivity();
    const caller = await callerFor(prisma, mine.user);
    const base = { workspaceId: mine.workspaceId, campaignId: mine.campaign.id };
    const foreignEvent = await refusal(caller.campaign.events({ ...base, cursor: theirs.event.id }));
    const unknownEvent = await refusal(
      caller.campaign.events({ ...base, cursor: "evt_00000000000000000000000000000000" }),
    );
    expect(foreignEvent).toEqual({ code: "NOT_FOUND", message: expect.stringContaining("cursor") });
    expect(foreignEvent).toEqual(unknownEvent);
    const foreignPiece = await refusal(caller.campaign.pieces({ ...base, cursor: theirs.piece.id }));
    const unknownPiece = await refusal(
      caller.campaign.pieces({ ...base, cursor: "pc_00000000000000000000000000000000" }),
    );
    expect(foreignPiece).toEqual({ code: "NOT_FOUND", message: expect.stringContaining("cursor") });
    expect(foreignPiece).toEqual(unknownPiece);
    // The campaign's own ids page on as before.
    expect((await caller.campaign.events({ ...base, cursor: mine.event.id })).items).toEqual([]);
    expect((await caller.campaign.pieces({ ...base, cursor: mine.piece.id })).items).toEqual([]);
  });

  it("an unknown status filter is a 400 naming the statuses, not a 500", async () => {
    const mine = await campaignWithActivity();
    const caller = await callerFor(prisma, mine.user);
    const refused = await refusal(
      caller.campaign.events({ workspaceId: mine.workspaceId, campaignId: mine.campaign.id, status: "bogus" as never }),
    );
    expect(refused).toEqual({ code: "BAD_REQUEST", message: expect.stringContaining("accepted") });
    const page = await caller.campaign.events({
      workspaceId: mine.workspaceId,
      campaignId: mine.campaign.id,
      status: "accepted",
    });
    expect(page.items.map((e) => e.id)).toEqual([mine.event.id]);
  });
});
