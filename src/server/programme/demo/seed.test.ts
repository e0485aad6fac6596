import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { hashApiKey } from "@/server/records/api-keys/secret";
import { verifyCredentials } from "@/server/records/auth/service";
import { ConfigError } from "@/server/ground/platform/config";
import { testDatabase } from "@/test/database";
import { acceptEntryEvent } from "@/server/programme/entry/service";
import { drain, testClock } from "@/test/lifecycle-fixtures";
import { getCampaignResults } from "@/server/programme/holdouts/results";
import { getCampaignDetail } from "@/server/programme/campaigns/service";
import { getImport } from "@/server/programme/imports/service";
import { draftSummary } from "@/server/programme/drafts/service";
import { resolveLink } from "@/server/programme/responses/page-model";
import { type DemoSummary, seedDemo } from "./seed";

let prisma: PrismaClient;
let first: DemoSummary;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  first = await seedDemo(prisma);
}, 120_000);

describe("seedDemo", () => {
  it("draws the same arms on every install: the live campaigns hold out the same accounts, by name", async () => {
    const held = async (campaignId: string) =>
      (
        await prisma.holdoutAssignment.findMany({
          where: { campaignId, arm: "holdout" },
          select: { account: { select: { name: true } } },
        })
      )
        .map((h) => h.account.name)
        .sort();
    const { campaigns } = first.workspaces.acme;
    expect(await held(campaigns.liveApiEntry)).toEqual(["Northpeak Software", "Tidewater Bank"]);
    expect(await held(campaigns.reviewGated)).toEqual(["Lumenfield Energy", "Northpeak Software"]);
    expect(await held(campaigns.giftClaim!)).toEqual(["Ironbridge Capital", "Northpeak Software"]);
  });

  it("gives each piece the demo mailed the draft it was printed from, as the lifecycle does, and none is out of date", async () => {
    const { acme } = first.workspaces;
    const pieces = await prisma.mailPiece.findMany({
      where: { campaignId: acme.campaigns.liveApiEntry },
      include: { printDraft: { select: { sid: true, contactId: true } } },
    });
    expect(pieces.length).toBe(5);
    for (const piece of pieces) {
      expect(piece.proofPdf).toBeNull();
      expect(piece.printDraft).toEqual({ sid: piece.sid, contactId: piece.contactId });
    }
    expect(await draftSummary(prisma, { workspaceId: acme.id, campaignId: acme.campaigns.liveApiEntry })).toMatchObject(
      { total: 5, outOfDate: 0 },
    );
  });

  it("creates Acme on the paid plan and Globex on the audit plan, each with an owner who can sign in", async () => {
    const { acme, globex } = first.workspaces;
    expect(acme).toMatchObject({ plan: "paid", name: "Acme" });
    expect(globex).toMatchObject({ plan: "audit", name: "Globex" });
    for (const ws of [acme, globex]) {
      expect(ws.id).toMatch(/^ws_/);
      const user = await verifyCredentials(prisma, ws.owner.email, ws.owner.password);
      expect(user).not.toBeNull();
      const membership = await prisma.membership.findFirst({ where: { workspaceId: ws.id, userId: user!.id } });
      expect(membership?.role).toBe("owner");
    }
  });

  it("gives Acme a team: an admin, an approver, a member and a viewer who can sign in, and one pending invitation", async () => {
    const { acme } = first.workspaces;
    expect(acme.team?.members.map((m) => m.role)).toEqual(["admin", "approver", "member", "viewer"]);
    for (const m of acme.team?.members ?? []) {
      const user = await verifyCredentials(prisma, m.email, acme.owner.password);
      expect(user, m.email).not.toBeNull();
      const membership = await prisma.membership.findFirst({ where: { workspaceId: acme.id, userId: user?.id } });
      expect(membership?.role).toBe(m.role);
    }
    const { describeInvitation } = await import("@/server/records/team/invitations");
    const invitation = acme.team?.pendingInvitation;
    expect(await describeInvitation(prisma, { token: invitation?.token ?? "" })).toMatchObject({
      email: "newhire@acme.example",
      role: "member",
      problem: null,
    });
  });

  it("gives each workspace what the REST tests need", async () => {
    for (const ws of Object.values(first.workspaces)) {
      const live = await prisma.campaign.findUniqueOrThrow({ where: { id: ws.campaigns.liveApiEntry } });
      const liveNoApi = await prisma.campaign.findUniqueOrThrow({ where: { id: ws.campaigns.liveNoApiEntry } });
      const draft = await prisma.campaign.findUniqueOrThrow({ where: { id: ws.campaigns.draft } });
      expect([live.status, live.acceptsApiEvents, live.workspaceId]).toEqual(["live", true, ws.id]);
      expect([liveNoApi.status, liveNoApi.acceptsApiEvents]).toEqual(["live", false]);
      expect(draft.status).toBe("draft");

      const members = await prisma.audienceMember.findMany({
        where: { audienceId: live.audienceId! },
        include: { contact: true },
      });
      const memberIds = new Set(members.map((m) => m.contactId));
      expect(ws.contacts.inAudience.length).toBeGreaterThanOrEqual(20);
      expect(ws.contacts.inAudience.every((id) => memberIds.has(id))).toBe(true);
      const accounts = new Set(
        members.filter((m) => ws.contacts.inAudience.includes(m.contactId)).map((m) => m.contact.accountId),
      );
      expect(accounts.size).toBeGreaterThanOrEqual(8);
      expect(memberIds.has(ws.contacts.notInAudience)).toBe(false);
      expect((await prisma.contact.findUniqueOrThrow({ where: { id: ws.contacts.notInAudience } })).workspaceId).toBe(
        ws.id,
      );
      expect(memberIds.has(ws.contacts.suppressed)).toBe(true);
      expect(ws.contacts.inAudience).not.toContain(ws.contacts.suppressed);
      expect(
        await prisma.suppression.findFirst({
          where: { workspaceId: ws.id, kind: "contact", value: ws.contacts.suppressed },
        }),
      ).not.toBeNull();

      const keys = Object.fromEntries(
        await Promise.all(
          Object.entries(ws.apiKeys).map(async ([k, secret]) => {
            expect(secret).toMatch(/^dmk_[0-9A-Za-z]{32}$/);
            const row = await prisma.apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(secret) } });
            expect(row.workspaceId).toBe(ws.id);
            return [k, [...row.scopes].sort()];
          }),
        ),
      );
      expect(keys).toEqual({
        full: ["post_conversions", "post_entry_events"],
        entryOnly: ["post_entry_events"],
        conversionsOnly: ["post_conversions"],
      });

      expect(ws.sids.length).toBeGreaterThanOrEqual(3);
      for (const sid of ws.sids) {
        expect(sid).toMatch(/^[0-9A-Za-z]{16}$/);
        expect((await prisma.mailPiece.findUniqueOrThrow({ where: { sid } })).workspaceId).toBe(ws.id);
      }
    }
  });

  it("keeps the lifecycle's invariants: no campaign has spent or held more than its budget, and its spend is what its printed pieces cost", async () => {
    const campaigns = await prisma.campaign.findMany({
      where: { workspaceId: { in: [first.workspaces.acme.id, first.workspaces.globex.id] } },
    });
    expect(campaigns.length).toBeGreaterThan(3);
    for (const c of campaigns) {
      expect(c.spentCents + c.reservedCents, c.name).toBeLessThanOrEqual(c.budgetCents);
      const printed = await prisma.mailPiece.aggregate({
        where: { campaignId: c.id, status: { in: ["printed", "mailed"] } },
        _sum: { costCents: true },
      });
      expect(printed._sum.costCents ?? 0, c.name).toBe(c.spentCents);
    }
  });

  it("offers a contact and a campaign for every path of the lifecycle, and each takes its path", async () => {
    const { acme, globex } = first.workspaces;
    const live = await prisma.campaign.findUniqueOrThrow({ where: { id: acme.campaigns.liveApiEntry } });
    const held = await prisma.contact.findUniqueOrThrow({ where: { id: acme.contacts.heldOut } });
    expect(
      await prisma.holdoutAssignment.findUnique({
        where: { campaignId_accountId: { campaignId: live.id, accountId: held.accountId! } },
      }),
    ).toMatchObject({ arm: "holdout" });
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: acme.contacts.undeliverable } })).toMatchObject({
      addressStatus: "undeliverable",
    });
    expect(
      await prisma.audienceMember.count({
        where: {
          audienceId: live.audienceId!,
          contactId: { in: [acme.contacts.undeliverable, acme.contacts.heldOut, acme.contacts.frequencyCapped] },
        },
      }),
    ).toBe(3);
    const recent = await prisma.mailPiece.findFirstOrThrow({
      where: { contactId: acme.contacts.frequencyCapped, status: "mailed" },
    });
    expect(Date.now() - recent.mailedAt!.getTime()).toBeLessThan(live.frequencyWindowDays * 86_400_000);
    expect(await prisma.campaign.findUniqueOrThrow({ where: { id: acme.campaigns.reviewGated } })).toMatchObject({
      status: "live",
      acceptsApiEvents: true,
      reviewGate: "each_piece",
    });
    const spent = await prisma.campaign.findUniqueOrThrow({ where: { id: acme.campaigns.budgetExhausted } });
    expect(spent).toMatchObject({ status: "live", acceptsApiEvents: true });
    expect(spent.budgetCents - spent.spentCents - spent.reservedCents).toBe(0);
    for (const [i, sid] of acme.sids.entries())
      expect((await prisma.mailPiece.findUniqueOrThrow({ where: { sid } })).responseCode).toBe(acme.responseCodes[i]);
    // Globex is on the audit plan: its pieces are drafts that never reached a mailbox.
    expect(await prisma.mailPiece.count({ where: { workspaceId: globex.id, status: "mailed" } })).toBe(0);

    const treatmentContact = async (campaignId: string) =>
      (
        await prisma.contact.findFirstOrThrow({
          // A US contact: the demo's printers mail to the US only (others are skipped as unsupported_country).
          where: {
            id: { in: acme.contacts.inAudience },
            country: "US",
            // Treated here and held out by no other live campaign (which would hold it out here too).
            account: { holdoutAssignments: { some: { campaignId, arm: "treatment" }, none: { arm: "holdout" } } },
          },
          orderBy: { crmId: "desc" },
        })
      ).id;
    const post = (campaignId: string, contactId: string) =>
      acceptEntryEvent(prisma, {
        workspaceId: acme.id,
        apiKeyId: null,
        source: "api",
        input: { campaignId, contactId, idempotencyKey: `demo-path-${campaignId}-${contactId}` },
      });
    const paths = {
      heldOut: await post(live.id, acme.contacts.heldOut),
      undeliverable: await post(live.id, acme.contacts.undeliverable),
      suppressed: await post(live.id, acme.contacts.suppressed),
      frequencyCapped: await post(live.id, acme.contacts.frequencyCapped),
      reviewGated: await post(acme.campaigns.reviewGated, await treatmentContact(acme.campaigns.reviewGated)),
      budgetExhausted: await post(
        acme.campaigns.budgetExhausted,
        await treatmentContact(acme.campaigns.budgetExhausted),
      ),
    };
    await drain(prisma, testClock(), acme.id);
    const outcome = async (eventId: string) => {
      const e = await prisma.entryEvent.findUniqueOrThrow({ where: { id: eventId } });
      return e.skipReason ? `${e.status}:${e.skipReason}` : e.status;
    };
    expect({
      heldOut: await outcome(paths.heldOut.eventId),
      undeliverable: await outcome(paths.undeliverable.eventId),
      suppressed: await outcome(paths.suppressed.eventId),
      frequencyCapped: await outcome(paths.frequencyCapped.eventId),
      reviewGated: await outcome(paths.reviewGated.eventId),
      budgetExhausted: await outcome(paths.budgetExhausted.eventId),
    }).toEqual({
      heldOut: "held_out",
      undeliverable: "skipped:address_invalid",
      suppressed: "skipped:suppressed",
      frequencyCapped: "waiting",
      reviewGated: "waiting",
      budgetExhausted: "skipped:budget_exhausted",
    });
    expect(
      await prisma.confirmationCard.count({
        where: { workspaceId: acme.id, kind: "approve_piece", status: "pending" },
      }),
    ).toBe(1);
  });

  it("the trial sign-up campaign's mailed pieces each came from an entry event, as the campaign page counts them", async () => {
    const acme = first.workspaces.acme;
    const pieces = await prisma.mailPiece.findMany({
      where: { campaignId: acme.campaigns.liveApiEntry, status: "mailed" },
      include: { enrollment: { include: { entryEvent: true } } },
    });
    expect(pieces.length).toBeGreaterThan(0);
    for (const piece of pieces)
      expect(piece.enrollment).toMatchObject({
        arm: "treatment",
        status: "mailed",
        contactId: piece.contactId,
        entryEvent: { status: "completed", contactId: piece.contactId },
      });
    const detail = await getCampaignDetail(prisma, { workspaceId: acme.id, campaignId: acme.campaigns.liveApiEntry });
    expect(detail.eventsByStatus.completed).toBeGreaterThanOrEqual(pieces.length);
    expect(detail.measuredAccounts.treatment).toBe(new Set(pieces.map((x) => x.enrollment!.accountId)).size);
    // The sandbox post has moved them: delivered, and the undeliverable contact's piece returned to the sender.
    expect(pieces.filter((x) => x.trackingStatus === "delivered").length).toBeGreaterThanOrEqual(4);
    const returned = pieces.filter((x) => x.trackingStatus === "returned_to_sender");
    expect(returned.map((x) => x.contactId)).toEqual([acme.contacts.undeliverable]);
  });

  it("gives the ended campaign the same measurable result on every install", async () => {
    const acme = first.workspaces.acme;
    const results = await getCampaignResults(prisma, { workspaceId: acme.id, campaignId: acme.campaigns.ended! });
    expect(results.arms).toEqual({ treatment: 800, holdout: 200 });
    const verdicts = Object.fromEntries(results.kinds.map((k) => [k.kind, k.verdict]));
    expect(verdicts).toMatchObject({ meeting_booked: "lift", reply: "not_measurable" });
  });

  it("shows a brand kit, designs in three formats and a draft campaign with one draft per recipient, one rewritten", async () => {
    for (const ws of Object.values(first.workspaces)) {
      const kit = await prisma.brandKit.findUniqueOrThrow({ where: { workspaceId: ws.id } });
      expect([kit.logoType, kit.returnAddressLine1 !== "", kit.signOff !== ""]).toEqual(["image/svg+xml", true, true]);
      const designs = await prisma.design.findMany({ where: { workspaceId: ws.id } });
      expect(new Set(designs.map((d) => d.format))).toEqual(new Set(["postcard", "handwritten", "letter"]));
      const creative = await prisma.campaign.findUniqueOrThrow({ where: { id: ws.campaigns.creative } });
      expect([creative.status, creative.designId]).toEqual(["draft", ws.designs.launch]);
      const members = await prisma.audienceMember.count({ where: { audienceId: creative.audienceId! } });
      expect(await prisma.draft.count({ where: { campaignId: creative.id } })).toBe(members);
      expect(await prisma.draft.count({ where: { campaignId: creative.id, editedAt: { not: null } } })).toBe(1);
      expect(await prisma.draft.count({ where: { campaignId: creative.id, specimen: ws.plan === "audit" } })).toBe(
        members,
      );
    }
  });

  it("freezes account-level arms for the live campaigns", async () => {
    const arms = await prisma.holdoutAssignment.groupBy({
      by: ["arm"],
      where: { campaignId: first.workspaces.acme.campaigns.liveApiEntry },
      _count: { _all: true },
    });
    expect(Object.fromEntries(arms.map((a) => [a.arm, a._count._all]))).toEqual({ treatment: 10, holdout: 2 });
  });

  it("shows a CSV import with its report, the audiences it made, accounts and suppressions of each kind", async () => {
    for (const ws of Object.values(first.workspaces)) {
      const report = await getImport(prisma, { workspaceId: ws.id, importId: ws.imports!.tradeShow });
      expect(report).toMatchObject({
        status: "succeeded",
        fileName: "trade-show-leads-demo.csv",
        rows: 16,
        created: 14,
        skipped: 1,
        duplicates: 1,
        refusedCount: 1,
        warningCount: 1,
      });
      const audience = await prisma.audience.findFirstOrThrow({
        where: { id: ws.imports!.tradeShowAudience!, workspaceId: ws.id },
      });
      expect(audience.name).toBe("Trade show leads (demo)");
      expect(await prisma.audienceMember.count({ where: { audienceId: audience.id } })).toBe(14);
      const uk = await prisma.audience.findFirstOrThrow({
        where: { workspaceId: ws.id, name: "UK leads (demo)" },
        include: { members: { include: { contact: true } } },
      });
      expect(uk.members.map((m) => m.contact.country)).toEqual(["GB", "GB", "GB"]);
      const brennwerk = await prisma.account.findFirstOrThrow({
        where: { workspaceId: ws.id, name: "Brennwerk GmbH" },
        include: { _count: { select: { contacts: true } } },
      });
      expect(brennwerk).toMatchObject({ domain: "brennwerk.de", source: "import", _count: { contacts: 2 } });
      const kinds = await prisma.suppression.groupBy({
        by: ["kind"],
        where: { workspaceId: ws.id },
        _count: { _all: true },
      });
      expect(kinds.map((k) => k.kind).sort()).toEqual(["address", "contact", "domain", "email"]);
    }
  });

  it("gives Acme a live personal landing page and a gift waiting for its claim, each with its /r/ code", async () => {
    const { acme, globex } = first.workspaces;
    const landing = await prisma.campaign.findUniqueOrThrow({ where: { id: acme.campaigns.hostedPage! } });
    expect(landing).toMatchObject({
      status: "live",
      responseMode: "landing_page",
      pageCallToAction: "reply",
      workspaceId: acme.id,
    });
    expect(await resolveLink(prisma, acme.hostedPageCode!)).toMatchObject({
      kind: "page",
      page: { kind: "landing_page", piece: { campaignId: landing.id } },
    });
    expect(await prisma.responseEvent.count({ where: { campaignId: landing.id, kind: "reply" } })).toBe(1);
    const gift = await prisma.campaign.findUniqueOrThrow({ where: { id: acme.campaigns.giftClaim! } });
    expect(gift).toMatchObject({ status: "live", format: "gift", responseMode: "gift_claim" });
    expect(await resolveLink(prisma, acme.giftClaimCode!)).toMatchObject({
      kind: "page",
      page: { kind: "gift_claim", claim: { state: "open" }, piece: { campaignId: gift.id } },
    });
    expect(await prisma.giftClaim.count({ where: { campaignId: gift.id, status: "claimed" } })).toBe(1);
    expect(await prisma.shippingAddress.count({ where: { piece: { campaignId: gift.id }, source: "recipient" } })).toBe(
      1,
    );
    // The contacts they mailed are not offered as plain members.
    const mailed = await prisma.mailPiece.findMany({
      where: { campaignId: { in: [landing.id, gift.id] } },
      select: { contactId: true },
    });
    for (const m of mailed) expect(acme.contacts.inAudience).not.toContain(m.contactId);
    expect(acme.contacts.inAudience.length).toBeGreaterThanOrEqual(20);
    expect(globex.hostedPageCode).toBeUndefined();
  });

  it("is safe to run again: same answer, no new rows", async () => {
    const ids = Object.values(first.workspaces).map((w) => w.id);
    const where = { workspaceId: { in: ids } };
    const counts = () =>
      Promise.all([
        prisma.workspace.count({ where: { id: { in: ids } } }),
        prisma.contact.count({ where }),
        prisma.apiKey.count({ where }),
        prisma.mailPiece.count({ where }),
        prisma.campaign.count({ where }),
        prisma.design.count({ where }),
        prisma.draft.count({ where }),
        prisma.user.count({ where: { memberships: { some: where } } }),
        prisma.contactImport.count({ where }),
        prisma.audience.count({ where }),
        prisma.suppression.count({ where }),
        prisma.responseEvent.count({ where }),
        prisma.giftClaim.count({ where }),
        prisma.entryEvent.count({ where }),
      ]);
    const before = await counts();
    const again = await seedDemo(prisma);
    expect(again).toEqual(first);
    expect(await counts()).toEqual(before);
  });

  it("never touches a real workspace or a real person's account", async () => {
    const { acme } = first.workspaces;
    // A real user who happens to own the demo owner's email in a workspace of their own.
    await prisma.workspace.update({ where: { id: acme.id }, data: { isDemo: false } });
    const error = await seedDemo(prisma).catch((e) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(
      "The demo seed stops: owner@acme.example is a real user's account, and the seed never changes real accounts.",
    );
    await prisma.workspace.update({ where: { id: acme.id }, data: { isDemo: true } });
  });
});
