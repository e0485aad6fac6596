import type { EntryEventStatus, EntryPolicy, MailPieceStatus, Prisma, PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { wakeCampaignEvents } from "@/server/ground/signals/entry-wake";
import { cancelUnsentVendorPieces } from "@/server/programme/entry/cancel-pieces";
import { requireCampaign } from "@/server/records/campaign-records/lookup";
import { AppError } from "@/server/ground/errors";
import { formatPlural } from "@/server/ground/render/format-words";
import { retryTransient } from "@/server/ground/platform/database-errors";
import { freezeHoldoutArms } from "@/server/programme/holdouts/assignment";
import { PROGRAMME } from "@/server/programme/holdouts/programme";
import { checkResponseSettings, responseGoLiveProblems } from "@/server/programme/responses/page-settings";
import { resolveGiftProduct } from "@/server/programme/fulfilment/gift-catalogue";
import { noteDraftChange } from "@/server/records/campaign-records/draft-version";
import { enterAudienceAtGoLive, entryProblem, GO_LIVE_TX } from "./entry-policy";
import { publicAddressProblem } from "./public-address";
import type { TCampaignDraft } from "./schema";
import { piecePdf, printFileSelect } from "@/server/records/pieces/print-file";
import { REALLY_MAILED, SIMULATED_MAILED } from "@/server/records/campaign-records/reached-pieces";

const notFound = () => new AppError("not_found", "No such campaign.");

/**
 * The campaign of the workspace, locked for the rest of the caller's transaction (`FOR UPDATE`):
 * draft edits, going live and budget changes of one campaign take this lock first, so they run
 * one after the other and each sees what the one before it wrote.
 */
export async function lockCampaign(tx: Db, p: { workspaceId: string; campaignId: string }) {
  await tx.$queryRaw`SELECT id FROM "Campaign" WHERE id = ${p.campaignId} AND "workspaceId" = ${p.workspaceId} FOR UPDATE`;
  return requireCampaign(tx, p);
}

/** Checks that referenced records belong to the same workspace. */
async function checkReferences(db: Db, workspaceId: string, input: Partial<TCampaignDraft>) {
  if (
    input.audienceId &&
    !(await db.audience.findFirst({ where: { id: input.audienceId, workspaceId }, select: { id: true } }))
  ) {
    throw new AppError("validation_failed", "No such audience in this workspace.", {
      errors: [{ pointer: "/audienceId", detail: "No such audience in this workspace." }],
    });
  }
  if (input.designId) {
    const design = await db.design.findFirst({ where: { id: input.designId, workspaceId }, select: { format: true } });
    if (!design)
      throw new AppError("validation_failed", "No such design in this workspace.", {
        errors: [{ pointer: "/designId", detail: "No such design in this workspace; designs_list shows the designs." }],
      });
    if (input.format && design.format !== input.format) {
      throw new AppError("validation_failed", `The design is a ${design.format}, not a ${input.format}.`, {
        errors: [
          { pointer: "/designId", detail: `The design is a ${design.format}; choose a ${input.format} design.` },
        ],
      });
    }
  }
  if (input.fulfilmentContractId) {
    const contract = await db.fulfilmentContract.findFirst({ where: { id: input.fulfilmentContractId, workspaceId } });
    if (!contract)
      throw new AppError("validation_failed", "No such fulfilment contract.", {
        errors: [{ pointer: "/fulfilmentContractId", detail: "No such fulfilment contract in this workspace." }],
      });
    if (input.format && contract.format !== input.format) {
      throw new AppError(
        "validation_failed",
        `The contract is for ${formatPlural(contract.format)}, not ${formatPlural(input.format)}.`,
        {
          errors: [
            {
              pointer: "/fulfilmentContractId",
              detail: `The contract is for ${formatPlural(contract.format)}; choose one for ${formatPlural(input.format)}.`,
            },
          ],
        },
      );
    }
  }
}

export async function listCampaigns(db: Db, p: { workspaceId: string }) {
  const campaigns = await db.campaign.findMany({
    where: { workspaceId: p.workspaceId },
    orderBy: [{ createdAt: "desc" }],
    include: { audience: { select: { name: true } } },
  });
  const counts = await db.entryEvent.groupBy({
    by: ["campaignId"],
    where: { workspaceId: p.workspaceId },
    _count: { _all: true },
  });
  const [mailed, simulatedRows] = await Promise.all([
    db.mailPiece.groupBy({
      by: ["campaignId"],
      where: { workspaceId: p.workspaceId, ...REALLY_MAILED },
      _count: { _all: true },
    }),
    db.mailPiece.groupBy({
      by: ["campaignId"],
      where: { workspaceId: p.workspaceId, ...SIMULATED_MAILED },
      _count: { _all: true },
    }),
  ]);
  const byId = (rows: { campaignId: string; _count: { _all: number } }[]) =>
    new Map(rows.map((r) => [r.campaignId, r._count._all]));
  const events = byId(counts);
  const pieces = byId(mailed);
  const simulated = byId(simulatedRows);
  return campaigns.map((c) => ({
    id: c.id,
    name: c.name,
    format: c.format,
    status: c.status,
    audienceName: c.audience?.name ?? null,
    acceptsApiEvents: c.acceptsApiEvents,
    budgetCents: c.budgetCents,
    spentCents: c.spentCents,
    reservedCents: c.reservedCents,
    events: events.get(c.id) ?? 0,
    piecesMailed: pieces.get(c.id) ?? 0,
    piecesSimulated: simulated.get(c.id) ?? 0,
    createdAt: c.createdAt,
  }));
}

/** One page of campaigns, newest first, optionally of one status (agents page through them). */
export async function pageCampaigns(
  db: Db,
  p: { workspaceId: string; status?: "draft" | "live" | "paused" | "ended"; cursor?: string | null; take: number },
) {
  if (
    p.cursor &&
    !(await db.campaign.findFirst({ where: { id: p.cursor, workspaceId: p.workspaceId }, select: { id: true } }))
  ) {
    throw new AppError("not_found", "The cursor does not name a campaign of this workspace.", {
      nextStep: "Call again without a cursor to start from the first page.",
    });
  }
  const rows = await db.campaign.findMany({
    where: { workspaceId: p.workspaceId, ...(p.status ? { status: p.status } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
    include: {
      audience: { select: { name: true } },
      _count: { select: { entryEvents: true, mailPieces: { where: REALLY_MAILED } } },
    },
  });
  const page = rows.slice(0, p.take);
  return { campaigns: page, nextCursor: rows.length > p.take ? page[page.length - 1].id : null };
}

/** A campaign with what its page shows: audience, contract, arms, events by status, spend. */
export async function getCampaignDetail(db: Db, p: { workspaceId: string; campaignId: string }) {
  const campaign = await db.campaign.findFirst({
    where: { id: p.campaignId, workspaceId: p.workspaceId },
    include: {
      audience: { select: { id: true, name: true, _count: { select: { members: true } } } },
      fulfilmentContract: true,
      workspace: { select: { plan: true } },
    },
  });
  if (!campaign) throw notFound();
  const [
    byStatus,
    bySkip,
    arms,
    pieces,
    testPieces,
    simulatedPieces,
    heldOutContacts,
    measured,
    heldOutByOthers,
    heldOutByProgramme,
  ] = await Promise.all([
    db.entryEvent.groupBy({ by: ["status"], where: { campaignId: campaign.id }, _count: { _all: true } }),
    db.entryEvent.groupBy({
      by: ["skipReason"],
      where: { campaignId: campaign.id, status: "skipped" },
      _count: { _all: true },
    }),
    db.holdoutAssignment.groupBy({ by: ["arm"], where: { campaignId: campaign.id }, _count: { _all: true } }),
    db.mailPiece.groupBy({ by: ["status"], where: { campaignId: campaign.id }, _count: { _all: true } }),
    // Pieces "mailed" through a vendor's test key: nothing really reached the post.
    db.mailPiece.count({ where: { campaignId: campaign.id, status: "mailed", vendorMode: "test" } }),
    // Pieces through every step that reached nobody: the sandbox's and a test key's.
    db.mailPiece.count({ where: { campaignId: campaign.id, ...SIMULATED_MAILED } }),
    // The audience's contacts whose account is held out: never mailed by this campaign.
    campaign.audienceId
      ? db.contact.count({
          where: {
            workspaceId: p.workspaceId,
            audienceMembers: { some: { audienceId: campaign.audienceId } },
            account: { holdoutAssignments: { some: { campaignId: campaign.id, arm: "holdout" } } },
          },
        })
      : Promise.resolve(0),
    // The accounts Results measures: treated ones mailed, held-out ones entered (src/server/programme/holdouts/results.ts).
    db.$queryRaw<{ arm: string; accounts: bigint }[]>`
      SELECT en.arm::text AS arm, COUNT(DISTINCT en."accountId") AS accounts
        FROM "Enrollment" en
       WHERE en."campaignId" = ${campaign.id} AND en."workspaceId" = ${p.workspaceId} AND en."accountId" IS NOT NULL
         AND (en.arm = 'holdout' OR EXISTS (SELECT 1 FROM "MailPiece" pc WHERE pc."enrollmentId" = en.id AND pc.status = 'mailed' AND pc."mailedAt" IS NOT NULL))
         AND en."heldOutBy" IS NULL
       GROUP BY en.arm`,
    // Contacts this campaign held out because another live campaign holds their account out.
    db.enrollment.count({ where: { campaignId: campaign.id, heldOutBy: { not: null, notIn: [PROGRAMME] } } }),
    // Contacts this campaign held out because the workspace's programme holdout holds their account out.
    db.enrollment.count({ where: { campaignId: campaign.id, heldOutBy: PROGRAMME } }),
  ]);
  const measuredOf = (arm: string) => Number(measured.find((m) => m.arm === arm)?.accounts ?? 0);
  // A real vendor's contract prints through the workspace's account there, with a test or a live key.
  const connectionId = campaign.fulfilmentContract?.connectionId;
  const printer = connectionId
    ? await db.printVendorConnection.findFirst({
        where: { id: connectionId, workspaceId: p.workspaceId },
        select: { mode: true },
      })
    : null;
  const { workspace, ...rest } = campaign;
  return {
    ...rest,
    plan: workspace.plan,
    eventsByStatus: Object.fromEntries(byStatus.map((r) => [r.status, r._count._all])) as Record<string, number>,
    skipsByReason: Object.fromEntries(bySkip.map((r) => [r.skipReason ?? "unknown", r._count._all])) as Record<
      string,
      number
    >,
    armAccounts: {
      treatment: arms.find((a) => a.arm === "treatment")?._count._all ?? 0,
      holdout: arms.find((a) => a.arm === "holdout")?._count._all ?? 0,
    },
    /** Of those, the accounts Results measures so far: treated ones mailed, held-out ones entered. */
    measuredAccounts: { treatment: measuredOf("treatment"), holdout: measuredOf("holdout") },
    /** "test" when the printer is a vendor's test key (nothing is really printed or mailed), "live", or null (the sandbox). */
    printerMode: (printer?.mode === "test" || printer?.mode === "live" ? printer.mode : null) as "test" | "live" | null,
    heldOutContacts,
    /** Contacts held out because another live campaign of the workspace holds their account out (heldOutBy): not mailed, not measured here. */
    heldOutByOthers,
    /** Contacts held out because the workspace's programme holdout holds their account out: mailed by no campaign. */
    heldOutByProgramme,
    piecesByStatus: Object.fromEntries(pieces.map((r) => [r.status, r._count._all])) as Record<string, number>,
    /** Of the mailed pieces, those printed through a vendor's test key: not really mailed. */
    testMailed: testPieces,
    /** Of the mailed pieces, those the sandbox or a test key fulfilled: never mailed to a person. */
    simulatedMailed: simulatedPieces,
  };
}
export type TCampaignDetail = Awaited<ReturnType<typeof getCampaignDetail>>;

export async function createDraft(
  prisma: PrismaClient,
  p: { workspaceId: string; input: TCampaignDraft; actor: Actor },
) {
  // Without a destination of its own, response links lead to the brand kit's default destination.
  const destinationUrl =
    p.input.destinationUrl ??
    (await prisma.brandKit.findUnique({ where: { workspaceId: p.workspaceId }, select: { destinationUrl: true } }))
      ?.destinationUrl ??
    null;
  const input = { ...p.input, destinationUrl };
  await checkReferences(prisma, p.workspaceId, input);
  checkResponseSettings(input);
  const gift = await giftPriceOf(prisma, p.workspaceId, input);
  return prisma.$transaction(async (tx) => {
    const campaign = await tx.campaign.create({
      data: { ...input, ...gift, workspaceId: p.workspaceId, status: "draft" },
    });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "campaign.created",
      { type: "campaign", id: campaign.id },
      { name: campaign.name },
    );
    return campaign;
  });
}

/**
 * Edits a draft. Once live, the entry policy, arms and copy are frozen. The check and the write
 * happen under the campaign's lock, so an edit racing an accepted go-live card either lands first
 * (and voids the card) or is refused.
 */
export async function updateDraft(
  prisma: PrismaClient,
  p: { workspaceId: string; campaignId: string; input: Partial<TCampaignDraft>; actor: Actor },
) {
  // The vendor's catalogue is read before the campaign's lock is taken (an HTTP call inside it would hold it).
  const gift = await giftPriceOf(prisma, p.workspaceId, p.input);
  return prisma.$transaction(async (tx) => {
    const campaign = await lockCampaign(tx, p);
    if (campaign.status !== "draft")
      throw new AppError(
        "invalid_state",
        `The campaign is ${campaign.status}; only drafts can be edited. Its entry policy, holdout and copy were frozen when it went live.`,
      );
    await checkReferences(tx, p.workspaceId, { format: campaign.format, ...p.input });
    checkResponseSettings({ ...campaign, ...p.input });
    if (p.input.giftProductId && (p.input.format ?? campaign.format) !== "gift")
      throw new AppError("validation_failed", "A gift product belongs to gift campaigns.", {
        errors: [{ pointer: "/giftProductId", detail: `This campaign is a ${p.input.format ?? campaign.format}.` }],
      });
    // A pending go-live card describes the draft as it was: it expires, and a new request describes this one.
    await noteDraftChange(tx, { workspaceId: p.workspaceId, where: { id: campaign.id } });
    const copyChanged = COPY_FIELDS.some((f) => p.input[f] !== undefined && p.input[f] !== campaign[f]);
    const updated = await tx.campaign.update({
      where: { id: campaign.id, workspaceId: p.workspaceId, status: "draft" },
      data: { ...p.input, ...gift, ...(copyChanged ? { copyChangedAt: new Date() } : {}) },
    });
    await recordAudit(tx, p.workspaceId, p.actor, "campaign.updated", { type: "campaign", id: campaign.id }, {
      fields: Object.keys(p.input),
    } as Prisma.InputJsonValue);
    return updated;
  });
}

/**
 * The gift product a draft names, checked against the workspace's gift vendor catalogue: its
 * price there (product and shipping) is kept as giftPriceCents, what each gift is held and charged.
 * Naming none (null) clears both; leaving it out changes neither.
 */
async function giftPriceOf(db: Db, workspaceId: string, input: Partial<TCampaignDraft>) {
  if (input.giftProductId === undefined) return {};
  if (input.giftProductId === null) return { giftProductId: null, giftPriceCents: null };
  if (input.format !== undefined && input.format !== "gift")
    throw new AppError("validation_failed", "A gift product belongs to gift campaigns.", {
      errors: [{ pointer: "/giftProductId", detail: `This campaign is a ${input.format}.` }],
    });
  const product = await resolveGiftProduct(db, { workspaceId, productId: input.giftProductId });
  return { giftProductId: product.id, giftPriceCents: product.totalCents };
}

/** The fields a campaign's drafts are rendered from: changing one makes the drafts out of date. */
const COPY_FIELDS = ["headline", "bodyTemplate", "signOff", "designId", "format"] as const;

/** What must be true before a draft can go live; empty when ready. */
export async function goLiveProblems(
  db: Db,
  campaign: {
    audienceId: string | null;
    destinationUrl: string | null;
    headline: string;
    bodyTemplate: string;
    designId?: string | null;
    responseMode?: string;
    pageCallToAction?: string;
    meetingUrl?: string | null;
    entryPolicy?: EntryPolicy;
    acceptsApiEvents?: boolean;
  },
) {
  const problems: string[] = [];
  const entry = entryProblem(campaign);
  if (entry) problems.push(entry);
  if (!campaign.audienceId) problems.push("choose an audience");
  else if ((await db.audienceMember.count({ where: { audienceId: campaign.audienceId } })) === 0)
    problems.push("the audience has no contacts");
  // The destination URL where the printed link (or the landing page's button) leads there; the meeting link for a meeting page.
  problems.push(
    ...responseGoLiveProblems({
      responseMode: campaign.responseMode ?? "redirect",
      pageCallToAction: campaign.pageCallToAction ?? "reply",
      meetingUrl: campaign.meetingUrl ?? null,
      destinationUrl: campaign.destinationUrl,
    }),
  );
  // The copy is the campaign's own, or its design's text blocks.
  if ((!campaign.headline.trim() || !campaign.bodyTemplate.trim()) && !campaign.designId)
    problems.push("write the headline and the message, or choose a design");
  return problems;
}

/**
 * Going live on the free audit plan would enter the audience only to skip every entry
 * (mailing_disabled), using up each contact's one entry in the campaign: refused before anything
 * is written, by every door (the owner's button, tRPC, an agent's card request, an accepted card).
 */
export async function refuseGoLiveOnAuditPlan(db: Db, p: { workspaceId: string; door: "owner" | "agent" }) {
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true } });
  if (workspace.plan === "paid") return;
  throw new AppError(
    "plan_does_not_mail",
    p.door === "agent"
      ? "The workspace is on the free audit plan: nothing is printed or mailed, so the campaign cannot go live and nobody entered it. Nothing was requested."
      : "The workspace is on the free audit plan: nothing is printed or mailed, so the campaign did not go live and nobody entered it. Choose the paid plan in Settings → Plan, then go live.",
    {
      nextStep:
        p.door === "agent"
          ? "Ask for the paid plan with plans_request_change; once the person accepts it, ask to go live again."
          : "Choose the paid plan in Settings → Plan (/settings/plan), then go live.",
    },
  );
}

/**
 * Goes live: freezes the entry policy and assigns the account-level arms from the audience as it
 * is now, once. A consequential action: owners confirm it in the browser; agents get a card.
 */
export function goLive(prisma: PrismaClient, p: GoLiveParams) {
  return prisma.$transaction((tx) => goLiveIn(tx, p), GO_LIVE_TX);
}

type GoLiveParams = { workspaceId: string; campaignId: string; actor: Actor; now?: Date };

/** goLive inside the caller's transaction (an accepted confirmation card runs it this way). */
export async function goLiveIn(tx: Db, p: GoLiveParams & { draftVersion?: number }) {
  const now = p.now ?? new Date();
  const campaign = await lockCampaign(tx, p);
  if (campaign.status !== "draft") throw new AppError("invalid_state", `The campaign is already ${campaign.status}.`);
  await refuseGoLiveOnAuditPlan(tx, { workspaceId: p.workspaceId, door: p.actor.kind === "user" ? "owner" : "agent" });
  if (p.draftVersion !== undefined && campaign.draftVersion !== p.draftVersion) {
    throw new AppError(
      "invalid_state",
      "The draft changed after it was shown for approval, so nothing went live: what was approved no longer describes it. Look at the draft as it is now and go live again (an agent asks again for a new card).",
    );
  }
  // Drafts being rendered now would change after the approval: going live waits for the job.
  const rendering = await tx.job.findFirst({
    where: {
      workspaceId: p.workspaceId,
      kind: "drafts_generate",
      status: { in: ["queued", "running"] },
      input: { path: ["campaignId"], equals: campaign.id },
    },
    select: { id: true },
  });
  if (rendering)
    throw new AppError(
      "invalid_state",
      "Drafts are still being generated for this campaign, so nothing went live: go live once the job has finished, so that the drafts approved are the ones printed.",
    );
  const problems = await goLiveProblems(tx, campaign);
  if (problems.length) throw new AppError("invalid_state", `Before going live: ${problems.join("; ")}.`);
  const unreachable = await publicAddressProblem(tx, campaign);
  if (unreachable) throw new AppError("invalid_state", unreachable);
  const moved = await tx.campaign.updateMany({
    where: { id: campaign.id, workspaceId: p.workspaceId, status: "draft", draftVersion: campaign.draftVersion },
    data: {
      status: "live",
      wentLiveAt: now,
      entryPolicyFrozenAt: now,
      copyApprovedAt: campaign.copyApprovedAt ?? now,
      copyApprovedBy: campaign.copyApprovedBy ?? p.actor.id,
    },
  });
  if (moved.count !== 1) throw new AppError("invalid_state", "The campaign changed meanwhile; reload it.");
  const arms = await freezeHoldoutArms(tx, {
    workspaceId: p.workspaceId,
    campaignId: campaign.id,
    audienceId: campaign.audienceId!,
    holdoutShare: campaign.holdoutShare,
    now,
  });
  // The audience enters now (or waits for sendAt), in this transaction: all of it exactly once, or nothing if going live fails.
  const entered =
    campaign.entryPolicy === "none"
      ? 0
      : await enterAudienceAtGoLive(tx, {
          workspaceId: p.workspaceId,
          campaignId: campaign.id,
          audienceId: campaign.audienceId!,
          sendAt: campaign.sendAt,
          now,
        });
  await recordAudit(
    tx,
    p.workspaceId,
    p.actor,
    "campaign.went_live",
    { type: "campaign", id: campaign.id },
    { ...arms, entryPolicy: campaign.entryPolicy, entered },
  );
  return { ...(await tx.campaign.findUniqueOrThrow({ where: { id: campaign.id } })), arms, entered };
}

const transitions = {
  pause: { from: ["live"], to: "paused", stamp: "pausedAt" },
  resume: { from: ["paused"], to: "live", stamp: null },
  end: { from: ["live", "paused"], to: "ended", stamp: "endedAt" },
} as const;

type StateChangeParams = {
  workspaceId: string;
  campaignId: string;
  change: keyof typeof transitions;
  actor: Actor;
  now?: Date;
};

/** Pause, resume or end. Resuming wakes the campaign's waiting events; ending lets them skip and release their budget. */
export async function changeCampaignState(prisma: PrismaClient, p: StateChangeParams) {
  // Waking the campaign's events can meet a lifecycle batch that holds some of them and waits for
  // the campaign's row: PostgreSQL ends one of the two as a deadlock, and this one runs again.
  const campaign = await retryTransient(() => prisma.$transaction((tx) => changeCampaignStateIn(tx, p)));
  // Paused or ended: pieces a real printer has but has not sent are cancelled there, and their holds given back.
  if (p.change === "end" || p.change === "pause")
    await cancelUnsentVendorPieces(prisma, {
      workspaceId: p.workspaceId,
      campaignId: campaign.id,
      because: p.change === "end" ? "ended" : "paused",
      now: p.now,
    });
  return campaign;
}

/** changeCampaignState inside the caller's transaction (an accepted resume card runs it this way). */
export async function changeCampaignStateIn(tx: Db, p: StateChangeParams) {
  const now = p.now ?? new Date();
  const t = transitions[p.change];
  const campaign = await requireCampaign(tx, p);
  // The events it wakes are locked before the campaign's row, in id order, as a lifecycle batch
  // takes them (its events first, the campaign's row last for the budget): the two wait for each
  // other instead of deadlocking.
  if (p.change !== "pause") {
    await tx.$queryRaw`SELECT id FROM "EntryEvent" WHERE "campaignId" = ${campaign.id} AND status IN ('accepted', 'processing', 'waiting', 'enrolled') ORDER BY id FOR UPDATE`;
  }
  const moved = await tx.campaign.updateMany({
    where: { id: campaign.id, workspaceId: p.workspaceId, status: { in: [...t.from] } },
    data: { status: t.to, ...(t.stamp ? { [t.stamp]: now } : {}) },
  });
  if (moved.count !== 1) throw new AppError("invalid_state", `A ${campaign.status} campaign cannot ${p.change}.`);
  if (p.change !== "pause") await wakeCampaignEvents(tx, campaign.id, now);
  await recordAudit(
    tx,
    p.workspaceId,
    p.actor,
    `campaign.${p.change === "end" ? "ended" : p.change === "pause" ? "paused" : "resumed"}`,
    { type: "campaign", id: campaign.id },
  );
  return tx.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
}

/** Sets a new budget; it cannot go below what is spent and held. Raising it wakes no one by itself. */
export function setBudget(prisma: PrismaClient, p: SetBudgetParams) {
  return prisma.$transaction((tx) => setBudgetIn(tx, p));
}

type SetBudgetParams = { workspaceId: string; campaignId: string; budgetCents: number; actor: Actor };

/** setBudget inside the caller's transaction. */
export async function setBudgetIn(tx: Db, p: SetBudgetParams) {
  const campaign = await lockCampaign(tx, p);
  if (campaign.status === "ended") throw new AppError("invalid_state", "The campaign has ended.");
  const floor = campaign.spentCents + campaign.reservedCents;
  // One condition on the row as it is now: workers may be reserving at this moment.
  const updated = await tx.$executeRaw`
    UPDATE "Campaign" SET "budgetCents" = ${p.budgetCents}, "updatedAt" = now()
     WHERE id = ${campaign.id} AND "workspaceId" = ${p.workspaceId} AND "spentCents" + "reservedCents" <= ${p.budgetCents}`;
  if (updated !== 1)
    throw new AppError(
      "invalid_state",
      `The budget cannot be below the ${(floor / 100).toFixed(2)} USD already spent or held.`,
    );
  await recordAudit(
    tx,
    p.workspaceId,
    p.actor,
    "campaign.budget_set",
    { type: "campaign", id: campaign.id },
    { from: campaign.budgetCents, to: p.budgetCents },
  );
  return tx.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
}

/** An unknown cursor, or one of another campaign or workspace, is the same not-found (it reveals nothing). */
async function checkCursor(found: Promise<unknown>) {
  if (!(await found))
    throw new AppError("not_found", "The cursor does not name an item of this list.", {
      nextStep: "Call again without a cursor to start from the first page.",
    });
}

/** The campaign's entry events, newest first, one page at a time. */
export async function listCampaignEvents(
  db: Db,
  p: { workspaceId: string; campaignId: string; cursor?: string | null; take: number; status?: EntryEventStatus },
) {
  await requireCampaign(db, p);
  if (p.cursor)
    await checkCursor(
      db.entryEvent.findFirst({
        where: { id: p.cursor, campaignId: p.campaignId, workspaceId: p.workspaceId },
        select: { id: true },
      }),
    );
  const rows = await db.entryEvent.findMany({
    where: { campaignId: p.campaignId, workspaceId: p.workspaceId, ...(p.status ? { status: p.status } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
    select: {
      id: true,
      status: true,
      skipReason: true,
      mailabilityReasons: true,
      source: true,
      occurredAt: true,
      createdAt: true,
      completedAt: true,
      lastError: true,
      contact: { select: { id: true, firstName: true, lastName: true, account: { select: { name: true } } } },
      enrollment: { select: { id: true, arm: true, scheduledFor: true } },
    },
  });
  return { items: rows.slice(0, p.take), nextCursor: rows.length > p.take ? rows[p.take - 1].id : null };
}

/** The campaign's pieces (without their PDFs), newest first. */
export async function listCampaignPieces(
  db: Db,
  p: { workspaceId: string; campaignId: string; cursor?: string | null; take: number; status?: MailPieceStatus },
) {
  await requireCampaign(db, p);
  if (p.cursor)
    await checkCursor(
      db.mailPiece.findFirst({
        where: { id: p.cursor, campaignId: p.campaignId, workspaceId: p.workspaceId },
        select: { id: true },
      }),
    );
  const rows = await db.mailPiece.findMany({
    where: { campaignId: p.campaignId, workspaceId: p.workspaceId, ...(p.status ? { status: p.status } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
    select: {
      id: true,
      sid: true,
      status: true,
      costCents: true,
      recipient: true,
      contactId: true,
      createdAt: true,
      renderedAt: true,
      printedAt: true,
      mailedAt: true,
      vendorRef: true,
      vendor: true,
      vendorMode: true,
      vendorIssue: true,
      vendorIssueDetail: true,
      trackingStatus: true,
      trackingEvents: true,
      trackingUpdatedAt: true,
      contact: { select: { firstName: true, lastName: true } },
    },
  });
  return { items: rows.slice(0, p.take), nextCursor: rows.length > p.take ? rows[p.take - 1].id : null };
}

/** A piece's print-ready proof, for the owner's browser. */
export async function getPieceProof(db: Db, p: { workspaceId: string; pieceId: string }) {
  const piece = await db.mailPiece.findFirst({
    where: { id: p.pieceId, workspaceId: p.workspaceId },
    select: { id: true, ...printFileSelect },
  });
  const pdf = piece && piecePdf(piece);
  if (!pdf) throw new AppError("not_found", "No proof for this piece.");
  return { id: piece.id, pdf };
}
