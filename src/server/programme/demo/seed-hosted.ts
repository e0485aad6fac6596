import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { acceptEntryEvent } from "@/server/programme/entry/service";
import { claimDueEvents, defaultDeps, processEvent } from "@/server/programme/entry/lifecycle/runner";
import { SandboxPrintVendor } from "@/server/programme/fulfilment/sandbox";
import { freezeDemoArms } from "./arms";
import { claimGift } from "@/server/programme/responses/gift-claims";
import { sendReply } from "@/server/programme/responses/replies";
import { recordVisits } from "@/server/programme/responses/visits";

const LANDING = "Pilot check-in, personal page (demo)";
const GIFTS = "Renewal thank-you gifts, claim page (demo)";

type CampaignData = Omit<Prisma.CampaignUncheckedCreateInput, "workspaceId" | "name">;

/**
 * The hosted response pages of the demo (paid workspace only): a live postcard campaign whose
 * printed link opens a personal landing page with a reply form, two of its pieces mailed (one with
 * a view and a reply already), and a live gift campaign whose gifts ship only after a claim, with
 * one gift waiting for its recipient's claim and one claimed to a corrected address. Everything goes
 * through the real lifecycle and the same services as a recipient's page; a second run finds it
 * all again (by the entry events' idempotency keys) and changes nothing.
 */
export async function seedHostedPages(
  prisma: PrismaClient,
  p: {
    workspaceId: string;
    handle: string;
    ownerName: string;
    userId: string;
    audienceId: string;
    designId: string;
    candidates: string[];
  },
) {
  const { workspaceId } = p;
  const postcards = await prisma.fulfilmentContract.findFirstOrThrow({
    where: { workspaceId, name: "Sandbox postcards 6x9" },
  });
  const gifts = await giftContract(prisma, workspaceId, p.userId);
  const now = new Date();
  const live = (data: CampaignData): CampaignData => ({
    status: "live",
    entryPolicyFrozenAt: now,
    wentLiveAt: now,
    copyApprovedAt: now,
    copyApprovedBy: p.userId,
    audienceId: p.audienceId,
    acceptsApiEvents: true,
    holdoutShare: 0.2,
    ...data,
  });
  const campaign = async (name: string, data: CampaignData) => {
    const found = await prisma.campaign.findFirst({ where: { workspaceId, name } });
    if (found) return found;
    const made = await prisma.campaign.create({ data: { workspaceId, name, ...data } });
    await freezeDemoArms(prisma, {
      workspaceId,
      campaignId: made.id,
      campaignName: made.name,
      audienceId: p.audienceId,
      holdoutShare: made.holdoutShare,
    });
    return made;
  };
  const landing = await campaign(
    LANDING,
    live({
      format: "postcard",
      designId: p.designId,
      fulfilmentContractId: postcards.id,
      budgetCents: 20_000,
      responseMode: "landing_page",
      pageCallToAction: "reply",
      destinationUrl: `https://www.${p.handle}.example/pilot`,
      headline: "{{firstName}}, how is the pilot going?",
      bodyTemplate:
        "Hi {{firstName}},\n\nThe {{company}} pilot is a month in. We would love to hear what is working and what is not, in your own words: a line or two is plenty.\n\nReply right on this page: it comes straight to our team.",
      signOff: p.ownerName,
    }),
  );
  const giftCampaign = await campaign(
    GIFTS,
    live({
      format: "gift",
      fulfilmentContractId: gifts.id,
      budgetCents: 50_000,
      responseMode: "gift_claim",
      giftOptions: ["coffee-sampler", "tea-tin", "chocolates"],
      claimWindowDays: 30,
      headline: "A thank-you for the {{company}} team",
      bodyTemplate:
        "{{firstName}}, thank you for renewing with us this year. Choose a small gift and tell us where to send it.",
      signOff: p.ownerName,
    }),
  );

  // Recipients: US contacts of each campaign's treatment arm whose account no demo campaign holds
  // out (another live campaign's holdout is never mailed), none used by another demo path.
  const used = new Set<string>();
  const pick = async (campaignId: string, n: number) => {
    const rows = await prisma.contact.findMany({
      where: {
        id: { in: p.candidates },
        country: "US",
        account: { holdoutAssignments: { some: { campaignId, arm: "treatment" }, none: { arm: "holdout" } } },
      },
      orderBy: { crmId: "asc" },
      select: { id: true },
    });
    const chosen = rows
      .map((r) => r.id)
      .filter((id) => !used.has(id))
      .slice(0, n);
    chosen.forEach((id) => used.add(id));
    return chosen;
  };
  const landingContacts = await pick(landing.id, 2);
  const giftContacts = await pick(giftCampaign.id, 2);
  const events = [
    ...landingContacts.map((contactId, i) => ({ campaignId: landing.id, contactId, key: `demo-hosted-page-${i}` })),
    ...giftContacts.map((contactId, i) => ({ campaignId: giftCampaign.id, contactId, key: `demo-gift-claim-${i}` })),
  ];
  const accepted = [];
  for (const e of events) {
    accepted.push(
      await acceptEntryEvent(prisma, {
        workspaceId,
        apiKeyId: null,
        source: "owner",
        input: { campaignId: e.campaignId, contactId: e.contactId, idempotencyKey: e.key },
      }),
    );
  }
  await runUntilSettled(
    prisma,
    workspaceId,
    accepted.map((a) => a.eventId),
  );
  const pieceOf = async (eventId: string) => {
    const event = await prisma.entryEvent.findUniqueOrThrow({
      where: { id: eventId },
      include: { enrollment: { include: { mailPiece: true } } },
    });
    const piece = event.enrollment?.mailPiece;
    if (!piece)
      throw new Error(
        `The demo's hosted-page event ${eventId} ended ${event.status}${event.skipReason ? ` (${event.skipReason})` : ""} without a piece.`,
      );
    return piece;
  };
  const [shownPiece, answeredPiece] = await Promise.all(
    accepted.slice(0, landingContacts.length).map((a) => pieceOf(a.eventId)),
  );
  const [claimablePiece, claimedPiece] = await Promise.all(
    accepted.slice(landingContacts.length).map((a) => pieceOf(a.eventId)),
  );

  // What a recipient did, once: a look at the page and a reply; a gift claimed to a new address.
  if (answeredPiece && (await prisma.responseEvent.count({ where: { pieceId: answeredPiece.id } })) === 0) {
    const ua =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
    // Just after the piece was mailed (the sandbox mails a second after printing).
    const at = new Date(Math.max(Date.now(), (answeredPiece.mailedAt?.getTime() ?? 0) + 1000));
    await recordVisits(prisma, { piece: answeredPiece, kinds: ["scan", "page_view"], userAgent: ua, now: at });
    await sendReply(prisma, {
      code: answeredPiece.responseCode,
      nonce: "demoReply0000000",
      input: {
        message:
          "Going well so far: the routing rules saved us a day a week. Could someone walk our finance team through the invoices?",
        replyTo: null,
      },
      userAgent: ua,
      now: at,
    });
  }
  if (claimedPiece && (await prisma.giftClaim.findUnique({ where: { pieceId: claimedPiece.id } }))?.status === "open") {
    await claimGift(prisma, {
      code: claimedPiece.responseCode,
      giftItem: "tea-tin",
      address: {
        addressLine1: "77 Summer St",
        addressLine2: "Apt 4B",
        city: "Boston",
        region: "MA",
        postalCode: "02110",
        country: "US",
      },
      userAgent: "Mozilla/5.0 (Android 15; Mobile)",
    });
    await runUntilSettled(prisma, workspaceId, [accepted[accepted.length - 1].eventId]);
  }
  return {
    hostedPage: landing.id,
    giftClaim: giftCampaign.id,
    hostedPageCode: shownPiece.responseCode,
    giftClaimCode: claimablePiece.responseCode,
    contacts: [...used],
  };
}

/** The approved sandbox contract the demo's gifts ship with (the countries its claim page offers). */
async function giftContract(prisma: PrismaClient, workspaceId: string, userId: string) {
  const name = "Sandbox gift boxes (demo)";
  const existing = await prisma.fulfilmentContract.findFirst({ where: { workspaceId, name } });
  if (existing) return existing;
  const countries = ["US", "CA"];
  const quote = await new SandboxPrintVendor(prisma).quote({ format: "gift", size: "4x6", countries });
  return prisma.fulfilmentContract.create({
    data: {
      workspaceId,
      name,
      format: "gift",
      size: "4x6",
      countries,
      unitCostCents: quote.unitCostCents,
      quote,
      vendor: "sandbox",
      status: "approved",
      approvedAt: new Date(),
      approvedByUserId: userId,
    },
  });
}

/** Runs the lifecycle of the workspace until these events wait or end (a worker of this process may take some first). */
async function runUntilSettled(prisma: PrismaClient, workspaceId: string, eventIds: string[]) {
  const deps = { ...defaultDeps, log: () => {} };
  for (let round = 0; round < 100; round++) {
    const unsettled = await prisma.entryEvent.count({
      where: {
        id: { in: eventIds },
        OR: [
          { status: { in: ["accepted", "processing", "enrolled"] } },
          { status: "waiting", runAfter: { lte: new Date() } },
        ],
      },
    });
    if (unsettled === 0) return;
    const claims = await claimDueEvents(prisma, { limit: 8, now: new Date(), workspaceId });
    if (claims.length) await Promise.all(claims.map((c) => processEvent(prisma, c, deps)));
    else await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("The demo's hosted-page events did not settle.");
}
