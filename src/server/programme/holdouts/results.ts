import type { ConversionKind } from "@/generated/prisma/client";
import { requireCampaign } from "@/server/records/campaign-records/lookup";
import { holdoutSize } from "@/server/records/calculators/formulas";
import { MONEY_KINDS } from "@/server/programme/conversions/schema";
import type { Db } from "@/server/ground/db";
import { PAGE_ACTION_KINDS, type TPageActionKind } from "@/server/programme/responses/kinds";
import { compareProportions, incrementalMoney, type ProportionComparison, sampleRatioMismatch } from "./lift";
import { type AlwaysValidResult, judgeAlwaysValid } from "./always-valid";
import { SIMULATED_MAILED } from "@/server/records/campaign-records/reached-pieces";
import { type KindMoney, kindMoney } from "./money";

/** Hosted-page actions shown as response rates (a reply is an observed outcome instead, under kinds). */
export const RATE_ACTION_KINDS = PAGE_ACTION_KINDS.filter((k) => k !== "reply") as Exclude<TPageActionKind, "reply">[];

import { ATTRIBUTION_WINDOW_DAYS } from "./window";

export { ATTRIBUTION_WINDOW_DAYS };
const DAY = 86_400_000;
/** Fewer held-out or treated accounts than this, or fewer converted ones in all, is not enough to say anything. */
const MIN_ACCOUNTS = 30;
const MIN_CONVERSIONS = 10;

export type Verdict = "lift" | "negative" | "no_detectable_lift" | "not_enough_data" | "not_measurable";

export interface KindResult extends ProportionComparison, KindMoney {
  kind: ConversionKind;
  treated: { accounts: number; converted: number };
  holdout: { accounts: number; converted: number };
  /** False when the only reports of this kind come through response links, which held-out accounts never get. */
  holdoutObservable: boolean;
  required: { holdout: number; treated: number; plannedLift: number } | null;
  money: ReturnType<typeof incrementalMoney> | null;
  verdict: Verdict;
  explanation: string;
  /** The lift's interval and verdict that stay valid however often they are read while the campaign runs (always-valid.ts). */
  alwaysValid: AlwaysValidResult;
  /** Where the outcomes that count came from: the CRM (synced by a connection, or imported as a CRM export), a CSV, reported through the API, or observed on a hosted page. */
  sources: OutcomeSources;
}

export interface OutcomeSources {
  /** From the CRM: synced by a CRM connection or imported as a CRM export. */
  crm: number;
  /** Of those, synced by a CRM connection (HubSpot deals, Salesforce opportunities). */
  crmSynced: number;
  csv: number;
  /** Replies sent on a hosted response page, observed by the service itself. */
  observed: number;
  /** Reported against a printed piece's sid through the REST API. */
  reported: number;
}

interface Unit {
  accountId: string;
  arm: "treatment" | "holdout";
  start: Date;
}

export async function getCampaignResults(db: Db, p: { workspaceId: string; campaignId: string; now?: Date }) {
  const now = p.now ?? new Date();
  const campaign = await requireCampaign(db, p);
  const units = await db.$queryRaw<Unit[]>`
    SELECT en."accountId", en.arm::text AS arm, MIN(CASE WHEN en.arm = 'treatment' THEN pc."mailedAt" ELSE en."createdAt" END) AS start
      FROM "Enrollment" en
      LEFT JOIN "MailPiece" pc ON pc."enrollmentId" = en.id AND pc.status = 'mailed'
     WHERE en."campaignId" = ${campaign.id} AND en."workspaceId" = ${p.workspaceId} AND en."accountId" IS NOT NULL
       AND (en.arm = 'holdout' OR pc."mailedAt" IS NOT NULL)
       -- Held out because of another campaign: that campaign's holdout, not a unit of this one's.
       AND en."heldOutBy" IS NULL
     GROUP BY en."accountId", en.arm`;
  const byAccount = new Map(units.map((u) => [u.accountId, u]));
  const simulatedPieces = await db.mailPiece.count({
    where: { workspaceId: p.workspaceId, campaignId: campaign.id, ...SIMULATED_MAILED },
  });
  const inWindow = (accountId: string, at: Date) => {
    const u = byAccount.get(accountId);
    return !!u && at >= u.start && at.getTime() <= u.start.getTime() + ATTRIBUTION_WINDOW_DAYS * DAY && at <= now;
  };

  // Accounts the campaign reached: mailed, or offered a gift on its claim page (the offer is what
  // they respond to, before anything ships). Responses count from then.
  const offered = await db.$queryRaw<{ accountId: string; start: Date }[]>`
    SELECT COALESCE(ct."accountId", pc."accountId") AS "accountId", MIN(gc."createdAt") AS start
      FROM "GiftClaim" gc JOIN "MailPiece" pc ON pc.id = gc."pieceId" LEFT JOIN "Contact" ct ON ct.id = pc."contactId"
     WHERE gc."campaignId" = ${campaign.id} AND gc."workspaceId" = ${p.workspaceId} AND COALESCE(ct."accountId", pc."accountId") IS NOT NULL
     GROUP BY 1`;
  const reached = new Map(units.filter((u) => u.arm === "treatment").map((u) => [u.accountId, u.start]));
  for (const o of offered)
    if (!reached.has(o.accountId) || o.start < reached.get(o.accountId)!) reached.set(o.accountId, o.start);
  const inResponseWindow = (accountId: string, at: Date) => {
    const start = reached.get(accountId);
    return !!start && at >= start && at.getTime() <= start.getTime() + ATTRIBUTION_WINDOW_DAYS * DAY && at <= now;
  };

  // The arms as frozen at go-live (the campaign page's figures): the measured accounts above are those of them mailed, or entered and held out.
  const assignedArms = await db.holdoutAssignment.groupBy({
    by: ["arm"],
    where: { campaignId: campaign.id, workspaceId: p.workspaceId },
    _count: { _all: true },
  });
  const assigned = {
    treatment: assignedArms.find((a) => a.arm === "treatment")?._count._all ?? 0,
    holdout: assignedArms.find((a) => a.arm === "holdout")?._count._all ?? 0,
  };

  const accountIds = [...byAccount.keys()];
  const [imported, reported, responses, importedKinds] = await Promise.all([
    db.accountOutcome.findMany({
      where: { workspaceId: p.workspaceId, accountId: { in: accountIds } },
      select: { accountId: true, kind: true, amountCents: true, at: true, source: true, crmConnectionId: true },
    }),
    db.$queryRaw<{ accountId: string | null; kind: ConversionKind; amountCents: bigint | null; at: Date }[]>`
      SELECT COALESCE(ct."accountId", pc."accountId") AS "accountId", cv.kind::text AS kind, cv."amountCents", cv.at
        FROM "Conversion" cv JOIN "MailPiece" pc ON pc.id = cv."pieceId" LEFT JOIN "Contact" ct ON ct.id = pc."contactId"
       WHERE cv."campaignId" = ${campaign.id} AND cv."workspaceId" = ${p.workspaceId}`,
    db.$queryRaw<{ accountId: string | null; kind: string; at: Date }[]>`
      SELECT COALESCE(ct."accountId", pc."accountId") AS "accountId", r.kind::text AS kind, r."occurredAt" AS at
        FROM "ResponseEvent" r JOIN "MailPiece" pc ON pc.id = r."pieceId" LEFT JOIN "Contact" ct ON ct.id = pc."contactId"
       WHERE r."campaignId" = ${campaign.id} AND r."workspaceId" = ${p.workspaceId}`,
    db.accountOutcome.groupBy({ by: ["kind"], where: { workspaceId: p.workspaceId } }),
  ]);
  const observable = new Set(importedKinds.map((k) => k.kind));
  // A reply sent on the hosted page is an outcome the service observed itself (treated accounts only).
  const observedReplies = responses
    .filter((r) => r.kind === "reply")
    .map((r) => ({ accountId: r.accountId, kind: "reply" as ConversionKind, amountCents: null, at: r.at }));
  const outcomes = [
    ...imported.map((o) => ({
      ...o,
      accountId: o.accountId as string | null,
      from: o.crmConnectionId ? ("crmSynced" as const) : o.source,
    })),
    ...reported.map((o) => ({ ...o, from: "reported" as const })),
    ...observedReplies.map((o) => ({ ...o, from: "observed" as const })),
  ].filter((o): o is typeof o & { accountId: string } => o.accountId !== null && inWindow(o.accountId, o.at));

  const arm = (a: Unit["arm"]) => units.filter((u) => u.arm === a);
  const treatedUnits = arm("treatment");
  const holdoutUnits = arm("holdout");
  const kinds = [...new Set(outcomes.map((o) => o.kind))].sort();

  const results: KindResult[] = kinds.map((kind) => {
    const converted = new Set(outcomes.filter((o) => o.kind === kind).map((o) => o.accountId));
    const xt = treatedUnits.filter((u) => converted.has(u.accountId)).length;
    const xh = holdoutUnits.filter((u) => converted.has(u.accountId)).length;
    const cmp = compareProportions(xt, treatedUnits.length, xh, holdoutUnits.length);
    const holdoutObservable = observable.has(kind);
    let money = null;
    if (MONEY_KINDS.includes(kind)) {
      const totals = new Map<string, number>();
      for (const o of outcomes)
        if (o.kind === kind) totals.set(o.accountId, (totals.get(o.accountId) ?? 0) + Number(o.amountCents ?? 0n));
      money = incrementalMoney(
        treatedUnits.map((u) => totals.get(u.accountId) ?? 0),
        holdoutUnits.map((u) => totals.get(u.accountId) ?? 0),
      );
    }
    const plannedLift = cmp.relativeLift !== null && cmp.relativeLift > 0.01 ? Math.min(cmp.relativeLift, 10) : 0.2;
    const required =
      cmp.holdoutRate > 0 && cmp.holdoutRate * (1 + plannedLift) < 1
        ? {
            ...pick(
              holdoutSize({
                baselineRate: Math.max(cmp.holdoutRate, 0.0001),
                relativeLift: plannedLift,
                alpha: 0.05,
                power: 0.8,
                holdoutShare: clampShare(campaign.holdoutShare),
              }),
            ),
            plannedLift,
          }
        : null;
    const { verdict, explanation } = judge(cmp, {
      xt,
      xh,
      nt: treatedUnits.length,
      nh: holdoutUnits.length,
      holdoutObservable,
      required,
    });
    const alwaysValid = judgeAlwaysValid(xt, treatedUnits.length, xh, holdoutUnits.length, {
      holdoutObservable,
      tooSmall: tooSmall({ xt, xh, nt: treatedUnits.length, nh: holdoutUnits.length }),
    });
    const sources: OutcomeSources = { crm: 0, crmSynced: 0, csv: 0, reported: 0, observed: 0 };
    for (const o of outcomes) {
      if (o.kind !== kind) continue;
      if (o.from === "crmSynced") sources.crmSynced++;
      if (o.from === "crmSynced" || o.from === "crm") sources.crm++;
      else sources[o.from]++;
    }
    const base = {
      verdict,
      explanation,
      ...cmp,
      treated: { accounts: treatedUnits.length, converted: xt },
      money,
    };
    return {
      kind,
      sources,
      ...cmp,
      ...kindMoney(base, campaign.spentCents),
      treated: { accounts: treatedUnits.length, converted: xt },
      holdout: { accounts: holdoutUnits.length, converted: xh },
      holdoutObservable,
      required,
      money,
      verdict,
      explanation,
      alwaysValid,
    };
  });

  const counted = responses.filter(
    (r): r is typeof r & { accountId: string } => !!r.accountId && inResponseWindow(r.accountId, r.at),
  );
  const respondingAccounts = new Set(counted.map((r) => r.accountId));
  const pageActions = RATE_ACTION_KINDS.map((kind) => {
    const of = counted.filter((r) => r.kind === kind);
    const accounts = new Set(of.map((r) => r.accountId)).size;
    return { kind, count: of.length, accounts, rate: reached.size ? accounts / reached.size : 0 };
  });
  return {
    campaign: {
      id: campaign.id,
      name: campaign.name,
      status: campaign.status,
      holdoutShare: campaign.holdoutShare,
      wentLiveAt: campaign.wentLiveAt,
      endedAt: campaign.endedAt,
      responseMode: campaign.responseMode,
    },
    attributionWindowDays: ATTRIBUTION_WINDOW_DAYS,
    /** Charged for the campaign's mailed pieces, in cents: what cost per incremental outcome divides. */
    spendCents: campaign.spentCents,
    /** Accounts measured: treated ones mailed, held-out ones entered (held out when their piece would have gone). */
    arms: { treatment: treatedUnits.length, holdout: holdoutUnits.length },
    /** Accounts assigned to each arm at go-live (the campaign page's figures), mailed or entered or not yet. */
    assigned,
    sampleRatio: sampleRatioMismatch(holdoutUnits.length, treatedUnits.length, campaign.holdoutShare),
    responses: {
      scans: responses.filter((r) => r.kind === "scan").length,
      clicks: responses.filter((r) => r.kind === "click").length,
      respondingAccounts: respondingAccounts.size,
      /** Accounts mailed, or offered a gift on its claim page: what response rates are shares of. */
      reachedAccounts: reached.size,
      rate: reached.size ? respondingAccounts.size / reached.size : 0,
      /** Hosted-page actions: how many, by how many accounts, and that share of the accounts reached. */
      pageActions,
    },
    kinds: results,
    /** Mailed pieces the sandbox or a test key fulfilled: they reached nobody, so what they measure is a rehearsal. */
    simulatedPieces,
    generatedAt: now,
  };
}
export type TCampaignResults = Awaited<ReturnType<typeof getCampaignResults>>;

const pick = (s: { holdoutSize: number; treatedSize: number }) => ({ holdout: s.holdoutSize, treated: s.treatedSize });
const clampShare = (h: number) => Math.min(0.95, Math.max(0.05, h));
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Too few accounts or conversions say nothing either way. */
export const tooSmall = (c: { xt: number; xh: number; nt: number; nh: number }) =>
  c.nh < MIN_ACCOUNTS || c.nt < MIN_ACCOUNTS || c.xt + c.xh < MIN_CONVERSIONS;

export function judge(
  cmp: ProportionComparison,
  c: {
    xt: number;
    xh: number;
    nt: number;
    nh: number;
    holdoutObservable: boolean;
    required: { holdout: number; treated: number } | null;
  },
): { verdict: Verdict; explanation: string } {
  if (!c.holdoutObservable) {
    return {
      verdict: "not_measurable",
      explanation:
        "Only response-link reports exist for this kind, and held-out accounts never get a link: import this kind from your CRM for all accounts to measure lift.",
    };
  }
  const small = tooSmall(c);
  if (!small && cmp.pValue < 0.05 && cmp.absoluteLiftCi[0] > 0) {
    return {
      verdict: "lift",
      explanation: `Mail lifted this outcome from ${pct(cmp.holdoutRate)} to ${pct(cmp.treatedRate)} of accounts (p = ${cmp.pValue.toPrecision(2)}).`,
    };
  }
  if (!small && cmp.pValue < 0.05 && cmp.absoluteLiftCi[1] < 0) {
    return {
      verdict: "negative",
      explanation: `Treated accounts converted less (${pct(cmp.treatedRate)} against ${pct(cmp.holdoutRate)}, p = ${cmp.pValue.toPrecision(2)}).`,
    };
  }
  // Not significant: say whether the test could have seen a lift of this size.
  const shortBy = c.required ? Math.max(c.required.holdout - c.nh, 0) : 0;
  if (small || shortBy > 0) {
    return {
      verdict: "not_enough_data",
      explanation: `Not enough data yet: ${c.nh} held-out and ${c.nt} treated accounts with ${c.xt + c.xh} conversions${shortBy > 0 ? `; about ${shortBy.toLocaleString("en-US")} more held-out accounts are needed to detect a lift of this size` : ""}.`,
    };
  }
  return {
    verdict: "no_detectable_lift",
    explanation: `No lift detectable: ${pct(cmp.treatedRate)} treated against ${pct(cmp.holdoutRate)} held out (p = ${cmp.pValue.toPrecision(2)}).`,
  };
}
