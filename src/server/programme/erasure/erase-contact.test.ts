import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { reportConversion } from "@/server/programme/conversions/service";
import { getCampaignResults } from "@/server/programme/holdouts/results";
import { resolveLink } from "@/server/programme/responses/page-model";
import { testDatabase } from "@/test/database";
import { callerFor, createOwnerWorkspace } from "@/test/factories";
import { drain, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { agentFor, toolErrorOf, toolResult } from "@/test/mcp";
import { eraseContact } from "./erase-contact";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const HOUR = 3_600_000;
const actor = { kind: "user" as const, id: null, label: "owner@example.test" };

/** What must not change when a contact goes: the workspace's pieces, their spend and the campaign's results. */
async function record(workspaceId: string, campaignId: string, now: Date) {
  const [pieces, campaign, results] = await Promise.all([
    prisma.mailPiece.findMany({
      where: { workspaceId },
      orderBy: { id: "asc" },
      select: { id: true, status: true, costCents: true, mailedAt: true, vendorRef: true, trackingEvents: true },
    }),
    prisma.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { spentCents: true, reservedCents: true } }),
    getCampaignResults(prisma, { workspaceId, campaignId, now }),
  ]);
  return { pieces, campaign, results: { ...results, generatedAt: null } };
}

describe("deleting a contact", () => {
  it("removes the person, keeps the mailed piece for results and lift, and ends their pending event", async () => {
    const clock = testClock();
    const f = await liveCampaign(prisma, { accounts: 3, perAccount: 2, holdoutAccounts: 1 });
    const held = f.contacts[0]; // account 0 is held out
    const mailed = f.contacts[2];
    for (const c of [held, mailed, f.contacts[4]]) await postEvent(prisma, f, c.id);
    await drain(prisma, clock, f.workspaceId);
    const piece = await prisma.mailPiece.findFirstOrThrow({ where: { contactId: mailed.id } });
    expect(piece.status).toBe("mailed");
    // A reply on its hosted page and an outcome reported against its sid: results count both by account.
    await prisma.conversion.create({
      data: {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        pieceId: piece.id,
        kind: "meeting_booked",
        at: new Date(piece.mailedAt!.getTime() + HOUR),
        occurrenceKey: "-",
        fingerprint: "x",
      },
    });
    await prisma.responseEvent.create({
      data: {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        pieceId: piece.id,
        kind: "reply",
        occurredAt: new Date(piece.mailedAt!.getTime() + HOUR),
        data: { text: "Call me on 555-0100" },
        userAgent: "Phone",
      },
    });
    await prisma.contactFieldChange.create({
      data: {
        workspaceId: f.workspaceId,
        contactId: mailed.id,
        field: "title",
        oldValue: null,
        newValue: "CTO",
        byKind: "owner",
        byLabel: "owner@example.test",
      },
    });
    // A second event for them, still queued: it must end, not wait for a contact that is gone.
    const pending = await postEvent(prisma, f, mailed.id);
    const later = new Date(piece.mailedAt!.getTime() + 2 * HOUR);
    const before = await record(f.workspaceId, f.campaign.id, later);
    expect(before.results.kinds.map((k) => k.kind)).toEqual(["meeting_booked", "reply"]);
    expect(before.results.responses.respondingAccounts).toBe(1);

    const r = await eraseContact(prisma, { workspaceId: f.workspaceId, contactId: mailed.id, actor });
    expect(r).toEqual({
      contactId: mailed.id,
      deleted: true,
      audienceMemberships: 1,
      piecesKept: 1,
      piecesCancelled: 0,
      eventsEnded: 1,
      suppressed: [],
    });
    const heldOut = await eraseContact(prisma, { workspaceId: f.workspaceId, contactId: held.id, actor });
    expect(heldOut).toMatchObject({ piecesKept: 0, eventsEnded: 0 });

    // The person is gone, with their memberships and history.
    expect(await prisma.contact.count({ where: { id: { in: [mailed.id, held.id] } } })).toBe(0);
    expect(await prisma.audienceMember.count({ where: { contactId: { in: [mailed.id, held.id] } } })).toBe(0);
    expect(await prisma.contactFieldChange.count({ where: { contactId: mailed.id } })).toBe(0);
    // The piece stays, without the person; results, lift and spend do not move.
    const kept = await prisma.mailPiece.findUniqueOrThrow({ where: { id: piece.id } });
    expect(kept).toMatchObject({
      contactId: null,
      accountId: mailed.accountId,
      status: "mailed",
      costCents: 120,
      recipient: { name: "Deleted contact", lines: [] },
      copy: {},
      proofPdf: null,
      printDraftId: null,
    });
    expect(kept.contactDeletedAt).toBeInstanceOf(Date);
    expect(await record(f.workspaceId, f.campaign.id, later)).toEqual(before);
    expect(await prisma.enrollment.count({ where: { campaignId: f.campaign.id, contactId: null } })).toBe(2);
    const reply = await prisma.responseEvent.findFirstOrThrow({ where: { pieceId: piece.id, kind: "reply" } });
    expect(reply).toMatchObject({ data: { redacted: true }, userAgent: null });
    // The queued event ended with its reason; the completed one stays as it was.
    expect(await prisma.entryEvent.findUniqueOrThrow({ where: { id: pending.eventId } })).toMatchObject({
      status: "skipped",
      skipReason: "contact_deleted",
      contactId: null,
    });
    expect(
      await prisma.entryEvent.count({
        where: { campaignId: f.campaign.id, status: { in: ["completed", "held_out"] }, contactId: null },
      }),
    ).toBe(2);
    const audit = await prisma.auditLogEntry.findFirstOrThrow({
      where: { workspaceId: f.workspaceId, action: "contact.deleted", targetId: mailed.id },
    });
    expect(audit.data).toEqual({
      audienceMemberships: 1,
      piecesKept: 1,
      piecesCancelled: 0,
      eventsEnded: 1,
      suppressed: [],
    });
    // The printed link still answers (no 500) and the lifecycle has nothing left of them.
    expect(await resolveLink(prisma, piece.responseCode)).toMatchObject({ kind: "redirect" });
    await drain(prisma, clock, f.workspaceId);

    // An agent reads the piece: "Deleted contact", no contact id; the campaign's pieces list it too.
    const agent = await agentFor(prisma, f.workspaceId);
    const got = toolResult<{
      contactId: string | null;
      recipient: string;
      addressLines: string[];
      status: string;
      costCents: number;
    }>(await agent.callTool({ name: "pieces_get", arguments: { pieceId: piece.id } }));
    expect(got).toMatchObject({
      contactId: null,
      recipient: "Deleted contact",
      addressLines: [],
      status: "mailed",
      costCents: 120,
    });
    const listed = toolResult<{ pieces: { pieceId: string; recipient: string }[] }>(
      await agent.callTool({ name: "pieces_list", arguments: { campaignId: f.campaign.id } }),
    );
    expect(listed.pieces.find((p) => p.pieceId === piece.id)?.recipient).toBe("Deleted contact");
    const events = toolResult<{ events: { contactId: string | null; contactName: string }[] }>(
      await agent.callTool({ name: "entry_events_list", arguments: { campaignId: f.campaign.id } }),
    );
    expect(events.events.filter((e) => e.contactId === null).every((e) => e.contactName === "Deleted contact")).toBe(
      true,
    );
    expect(
      toolResult(await agent.callTool({ name: "responses_list", arguments: { campaignId: f.campaign.id } })),
    ).toMatchObject({ responses: [{ contactId: null, recipient: "Deleted contact" }] });
  }, 120_000);

  it("cancels an unprinted piece and releases its hold; suppresses on request; refuses while a piece is at the printer", async () => {
    const clock = testClock();
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1, campaign: { reviewGate: "each_piece" } });
    const [a, b] = f.contacts;
    await postEvent(prisma, f, a.id);
    await postEvent(prisma, f, b.id);
    await drain(prisma, clock, f.workspaceId);
    const waiting = await prisma.mailPiece.findFirstOrThrow({ where: { contactId: a.id } });
    expect(waiting.status).toBe("pending_review");
    const reserved = (await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).reservedCents;

    const r = await eraseContact(prisma, { workspaceId: f.workspaceId, contactId: a.id, actor, suppress: true });
    expect(r).toMatchObject({ piecesKept: 0, piecesCancelled: 1, eventsEnded: 1, suppressed: ["email", "address"] });
    expect(await prisma.mailPiece.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({
      status: "cancelled",
      contactId: null,
    });
    // Its review card expired, and no longer names the person.
    const card = await prisma.confirmationCard.findFirstOrThrow({ where: { pieceId: waiting.id } });
    expect(card).toMatchObject({ status: "expired", title: "Approve a piece to a deleted contact" });
    expect(`${card.title} ${card.summary}`).not.toContain(a.lastName);
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).reservedCents).toBe(
      reserved -
        (waiting.enrollmentId &&
        (await prisma.budgetReservation.count({ where: { enrollmentId: waiting.enrollmentId, status: "released" } }))
          ? 120
          : 0),
    );
    expect(
      await prisma.budgetReservation.count({ where: { enrollmentId: waiting.enrollmentId!, status: "held" } }),
    ).toBe(0);
    expect(
      await prisma.suppression.findMany({
        where: { workspaceId: f.workspaceId },
        select: { kind: true, value: true, reason: true },
      }),
    ).toEqual(
      expect.arrayContaining([
        { kind: "email", value: a.email, reason: "do_not_mail" },
        { kind: "address", value: a.addressKey, reason: "do_not_mail" },
      ]),
    );

    // b's piece is at the printer: refused, naming it, and nothing written.
    const atPrinter = await prisma.mailPiece.findFirstOrThrow({ where: { contactId: b.id } });
    await prisma.mailPiece.update({ where: { id: atPrinter.id }, data: { status: "printed", printedAt: new Date() } });
    const audits = await prisma.auditLogEntry.count({ where: { workspaceId: f.workspaceId } });
    await expect(eraseContact(prisma, { workspaceId: f.workspaceId, contactId: b.id, actor })).rejects.toMatchObject({
      code: "invalid_state",
      message: `1 piece for this contact is at the printer and not mailed yet: ${atPrinter.id} (“${f.campaign.name}”, at the sandbox printer). Nothing was deleted. Try again once they are mailed (usually within a few business days; pieces_get shows their status), or end the campaign first to cancel them at the printer.`,
    });
    expect(await prisma.contact.count({ where: { id: b.id } })).toBe(1);
    expect(await prisma.auditLogEntry.count({ where: { workspaceId: f.workspaceId } })).toBe(audits);
    expect(await prisma.mailPiece.findUniqueOrThrow({ where: { id: atPrinter.id } })).toMatchObject({
      contactId: b.id,
      status: "printed",
    });
  }, 120_000);

  it("refuses while a worker holds one of the contact's events, whatever the event's status, and writes nothing", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    const [a] = f.contacts;
    await postEvent(prisma, f, a.id);
    // Claimed by a worker on its way to the printer: enrolled, under a lease.
    await prisma.entryEvent.updateMany({
      where: { contactId: a.id },
      data: { status: "enrolled", lockToken: "worker-1", lockedUntil: new Date(Date.now() + 60_000) },
    });
    const audits = await prisma.auditLogEntry.count({ where: { workspaceId: f.workspaceId } });
    await expect(eraseContact(prisma, { workspaceId: f.workspaceId, contactId: a.id, actor })).rejects.toMatchObject({
      code: "invalid_state",
      message: expect.stringMatching(
        /^A worker is processing entry event evt_\w+ for this contact right now; nothing was deleted\. Try again in a minute\.$/,
      ),
    });
    expect(await prisma.contact.count({ where: { id: a.id } })).toBe(1);
    expect(await prisma.auditLogEntry.count({ where: { workspaceId: f.workspaceId } })).toBe(audits);
    expect(await prisma.entryEvent.findFirstOrThrow({ where: { contactId: a.id } })).toMatchObject({
      status: "enrolled",
      lockToken: "worker-1",
    });
  }, 60_000);

  it("the owner's contact.delete: an unknown id, another workspace's contact and a retry are not_found, and write nothing", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 2 });
    const other = await createOwnerWorkspace(prisma);
    const stranger = await prisma.contact.create({
      data: { workspaceId: other.workspaceId, firstName: "Not", lastName: "Yours", email: "not@yours.example" },
    });
    const caller = await callerFor(prisma, f.user);
    const audits = async () =>
      prisma.auditLogEntry.count({ where: { workspaceId: { in: [f.workspaceId, other.workspaceId] } } });
    const n = await audits();
    for (const contactId of ["ctc_nobody", stranger.id]) {
      await expect(caller.contact.delete({ workspaceId: f.workspaceId, contactId } as never)).rejects.toMatchObject({
        message: `No contact ${contactId} in this workspace: it was deleted already, or never was here. contacts_list finds contacts.`,
      });
    }
    expect(await prisma.contact.count({ where: { id: stranger.id } })).toBe(1);
    expect(await audits()).toBe(n);

    const gone = f.contacts[0];
    expect(await caller.contact.delete({ workspaceId: f.workspaceId, contactId: gone.id } as never)).toMatchObject({
      deleted: true,
      suppressed: [],
    });
    await expect(
      caller.contact.delete({ workspaceId: f.workspaceId, contactId: gone.id } as never),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await audits()).toBe(n + 1);
  }, 60_000);

  it("contacts_delete over MCP: says what it removes and keeps; a second call is not_found", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 2 });
    const agent = await agentFor(prisma, f.workspaceId);
    const tool = (await agent.listTools()).tools.find((t) => t.name === "contacts_delete")!;
    expect((tool.inputSchema.properties?.suppress as { description?: string } | undefined)?.description).toBe(
      "true: also suppress their email and address (default false).",
    );
    expect(tool.description).toContain('as "Deleted contact"');
    expect(tool.description).toContain("not their name or address");
    const c = f.contacts[1];
    const done = await agent.callTool({ name: "contacts_delete", arguments: { contactId: c.id, suppress: true } });
    expect(toolResult(done)).toMatchObject({ contactId: c.id, deleted: true, suppressed: ["email", "address"] });
    expect((done.structuredContent as { changed: string[] }).changed).toEqual([
      `Deleted contact ${c.id} (1 audience memberships); kept 0 printed pieces without the person, cancelled 0 unprinted, ended 0 entry events.`,
      "Suppressed their email and address.",
    ]);
    expect(
      toolErrorOf(await agent.callTool({ name: "contacts_delete", arguments: { contactId: c.id } })),
    ).toMatchObject({
      code: "not_found",
      message: `No contact ${c.id} in this workspace: it was deleted already, or never was here. contacts_list finds contacts.`,
    });
    expect(
      toolErrorOf(await agent.callTool({ name: "contacts_delete", arguments: { contactId: c.id, wipe: true } })),
    ).toMatchObject({ code: "invalid_argument" });
  }, 60_000);

  it("after deletion a conversion by sid counts for the piece's account, and webhooks carry the account, not the person", async () => {
    const clock = testClock();
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    const [c] = f.contacts;
    await postEvent(prisma, f, c.id);
    await drain(prisma, clock, f.workspaceId);
    const piece = await prisma.mailPiece.findFirstOrThrow({ where: { contactId: c.id } });
    await prisma.webhookEndpoint.create({
      data: {
        workspaceId: f.workspaceId,
        url: "https://hooks.example/x",
        events: ["conversion.recorded", "response.received"],
        secretSealed: "x",
      },
    });
    await eraseContact(prisma, { workspaceId: f.workspaceId, contactId: c.id, actor });

    const at = new Date(piece.mailedAt!.getTime() + 60_000).toISOString();
    await reportConversion(prisma, {
      workspaceId: f.workspaceId,
      apiKeyId: null,
      input: { sid: piece.sid, kind: "signup", at } as never,
    });
    await prisma.responseEvent.create({
      data: { workspaceId: f.workspaceId, campaignId: f.campaign.id, pieceId: piece.id, kind: "scan" },
    });
    const hooks = await prisma.webhookEvent.findMany({
      where: { workspaceId: f.workspaceId },
      orderBy: { createdAt: "asc" },
      select: { type: true, data: true },
    });
    expect(hooks.map((h) => h.type).sort()).toEqual(["conversion.recorded", "response.received"]);
    for (const h of hooks) expect(h.data).not.toHaveProperty("contactId");
    expect(hooks.find((h) => h.type === "conversion.recorded")!.data).toMatchObject({
      pieceId: piece.id,
      accountId: c.accountId,
    });
    const results = await getCampaignResults(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      now: new Date(piece.mailedAt!.getTime() + HOUR),
    });
    expect(results.kinds.find((k) => k.kind === "signup")).toBeDefined();
  }, 60_000);
});
