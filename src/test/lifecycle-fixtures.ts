import type { Plan, Prisma, PrismaClient } from "@/generated/prisma/client";
import { acceptEntryEvent } from "@/server/programme/entry/service";
import { processBatch } from "@/server/programme/entry/lifecycle/batch";
import { claimDueEvents, defaultDeps, processEvent, type RunnerDeps } from "@/server/programme/entry/lifecycle/runner";
import { createAudience, createOwnerWorkspace, uniq } from "./factories";

/** A clock tests move by hand. */
/**
 * The lifecycle's clock in tests: a second ahead of the wall clock when made, moved on by
 * `advance`, and never behind the wall clock (plus that second). Events posted without a time are
 * due at the wall clock's time: on a busy machine a test may take longer than a second between
 * making the clock and posting an event, and a clock left behind would never find it due (an event
 * stayed `accepted`).
 */
export function testClock(start = new Date(Date.now() + 1000)) {
  let now = start;
  const catchUp = () => {
    const floor = Date.now() + 1000;
    if (now.getTime() < floor) now = new Date(floor);
    return now;
  };
  return {
    now: catchUp,
    advance(ms: number) {
      now = new Date(catchUp().getTime() + ms);
    },
  };
}

/**
 * A paid workspace with an approved sandbox postcard contract at 120 cents and a live campaign
 * over an audience; every account is in the treatment arm unless `holdoutAccounts` says otherwise.
 */
export async function liveCampaign(
  prisma: PrismaClient,
  opts: {
    plan?: Plan;
    accounts?: number;
    perAccount?: number;
    campaign?: Partial<Prisma.CampaignUncheckedCreateInput>;
    contract?: boolean;
    holdoutAccounts?: number;
  } = {},
) {
  const owner = await createOwnerWorkspace(prisma, { plan: opts.plan ?? "paid" });
  const { audience, contacts } = await createAudience(prisma, owner.workspaceId, {
    accounts: opts.accounts ?? 3,
    perAccount: opts.perAccount ?? 2,
  });
  const contract =
    opts.contract === false
      ? null
      : await prisma.fulfilmentContract.create({
          data: {
            workspaceId: owner.workspaceId,
            name: "Sandbox postcards",
            format: "postcard",
            unitCostCents: 120,
            status: "approved",
            approvedAt: new Date(),
          },
        });
  const campaign = await prisma.campaign.create({
    data: {
      workspaceId: owner.workspaceId,
      name: `Campaign ${uniq()}`,
      format: "postcard",
      status: "live",
      acceptsApiEvents: true,
      audienceId: audience.id,
      holdoutShare: 0,
      budgetCents: 100_000,
      fulfilmentContractId: contract?.id,
      destinationUrl: "https://www.example.com/welcome?utm_source=mail",
      headline: "{{firstName}}, hello",
      bodyTemplate: "Hi {{firstName}} at {{company}}.",
      signOff: "Sam",
      wentLiveAt: new Date(),
      entryPolicyFrozenAt: new Date(),
      ...opts.campaign,
    },
  });
  const accountIds = [...new Set(contacts.map((c) => c.accountId!))];
  await prisma.holdoutAssignment.createMany({
    data: accountIds.map((accountId, i) => ({
      campaignId: campaign.id,
      accountId,
      workspaceId: owner.workspaceId,
      arm: i < (opts.holdoutAccounts ?? 0) ? ("holdout" as const) : ("treatment" as const),
    })),
  });
  return { ...owner, audience, contacts, campaign, contract, accountIds };
}

export type LiveCampaign = Awaited<ReturnType<typeof liveCampaign>>;

export function postEvent(prisma: PrismaClient, f: LiveCampaign, contactId: string, now?: Date) {
  return acceptEntryEvent(prisma, {
    workspaceId: f.workspaceId,
    apiKeyId: null,
    source: "api",
    input: { campaignId: f.campaign.id, contactId, idempotencyKey: uniq("k") },
    now,
  });
}

/**
 * Runs the lifecycle until nothing of the workspace is due at the clock's time. Scoped to one
 * workspace because test files share the database on PostgreSQL.
 */
export async function drain(
  prisma: PrismaClient,
  clock: { now: () => Date },
  workspaceId: string,
  deps: Partial<RunnerDeps> = {},
  mode: "batch" | "single" = "batch",
) {
  const all: RunnerDeps = { ...defaultDeps, log: () => {}, ...deps, clock: clock.now };
  for (let round = 0; round < 50; round++) {
    const claims = await claimDueEvents(prisma, { limit: 8, now: clock.now(), workspaceId });
    if (claims.length === 0) return;
    // As the worker runs them: a batch (processBatch), or one event at a time (the single path, which batches fall back on).
    if (mode === "batch") await processBatch(prisma, claims, all);
    else await Promise.all(claims.map((c) => processEvent(prisma, c, all)));
  }
  throw new Error("the lifecycle did not settle in 50 rounds");
}

export function eventRow(prisma: PrismaClient, eventId: string) {
  return prisma.entryEvent.findUniqueOrThrow({
    where: { id: eventId },
    include: { enrollment: { include: { mailPiece: true, reservation: true } } },
  });
}
