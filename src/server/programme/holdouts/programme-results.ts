import type { ConversionKind } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { MONEY_KINDS } from "@/server/programme/conversions/schema";
import { holdoutSize } from "@/server/records/calculators/formulas";
import { compareProportions, incrementalMoney } from "./lift";
import { kindMoney } from "./money";
import { PROGRAMME } from "./programme";
import { judgeAlwaysValid } from "./always-valid";
import { judge, type KindResult, tooSmall } from "./results";
import { ATTRIBUTION_WINDOW_DAYS } from "./window";

const DAY = 86_400_000;

export type ProgrammeKindResult = Omit<KindResult, "sources">;

/**
 * The programme's results: every account any campaign mailed against the programme holdout's
 * accounts a campaign entered (and held out because of it), per outcome kind, all mail against
 * none. An outcome counts within the outcome window of the account's first mailed piece (held out:
 * of its first entry). Outcomes come from the CRM or a CSV, the only ones recorded for held-out
 * accounts too. With the spend of every campaign: cost per incremental outcome and money per dollar.
 */
export async function getProgrammeResults(db: Db, p: { workspaceId: string; now?: Date }) {
  const now = p.now ?? new Date();
  const workspace = await db.workspace.findUniqueOrThrow({
    where: { id: p.workspaceId },
    select: { programmeHoldoutShare: true },
  });
  const rows = await db.$queryRaw<{ accountId: string; arm: "treatment" | "holdout"; start: Date }[]>`
    SELECT COALESCE(ct."accountId", pc."accountId") AS "accountId", 'treatment' AS arm, MIN(pc."mailedAt") AS start
      FROM "MailPiece" pc LEFT JOIN "Contact" ct ON ct.id = pc."contactId"
     WHERE pc."workspaceId" = ${p.workspaceId} AND pc.status = 'mailed' AND pc."mailedAt" IS NOT NULL
       AND COALESCE(ct."accountId", pc."accountId") IS NOT NULL
     GROUP BY 1
    UNION ALL
    SELECT en."accountId", 'holdout' AS arm, MIN(en."createdAt") AS start
      FROM "Enrollment" en JOIN "ProgrammeHoldout" ph ON ph."workspaceId" = en."workspaceId" AND ph."accountId" = en."accountId" AND ph.arm = 'holdout'
     WHERE en."workspaceId" = ${p.workspaceId}
     GROUP BY en."accountId"`;
  // An account mailed while the holdout was off is a mailed account, whatever its draw.
  const mailedIds = new Set(rows.filter((r) => r.arm === "treatment").map((r) => r.accountId));
  const units = rows.filter((r) => r.arm === "treatment" || !mailedIds.has(r.accountId));
  const byAccount = new Map(units.map((u) => [u.accountId, u]));
  const [outcomes, observableKinds, campaigns] = await Promise.all([
    db.accountOutcome.findMany({
      where: { workspaceId: p.workspaceId, accountId: { in: [...byAccount.keys()] } },
      select: { accountId: true, kind: true, amountCents: true, at: true },
    }),
    db.accountOutcome.groupBy({ by: ["kind"], where: { workspaceId: p.workspaceId } }),
    db.campaign.findMany({
      where: { workspaceId: p.workspaceId, status: { not: "draft" } },
      select: { id: true, name: true, status: true, spentCents: true, wentLiveAt: true },
      orderBy: [{ wentLiveAt: "asc" }, { id: "asc" }],
    }),
  ]);
  const counted = outcomes.filter((o) => {
    const u = byAccount.get(o.accountId)!;
    return o.at >= u.start && o.at.getTime() <= u.start.getTime() + ATTRIBUTION_WINDOW_DAYS * DAY && o.at <= now;
  });
  const treated = units.filter((u) => u.arm === "treatment");
  const held = units.filter((u) => u.arm === "holdout");
  const spendCents = campaigns.reduce((sum, c) => sum + c.spentCents, 0);
  const observable = new Set(observableKinds.map((k) => k.kind));
  const kinds = [...new Set(counted.map((o) => o.kind))].sort() as ConversionKind[];

  const results: ProgrammeKindResult[] = kinds.map((kind) => {
    const converted = new Set(counted.filter((o) => o.kind === kind).map((o) => o.accountId));
    const xt = treated.filter((u) => converted.has(u.accountId)).length;
    const xh = held.filter((u) => converted.has(u.accountId)).length;
    const cmp = compareProportions(xt, treated.length, xh, held.length);
    let money = null;
    if (MONEY_KINDS.includes(kind)) {
      const totals = new Map<string, number>();
      for (const o of counted)
        if (o.kind === kind) totals.set(o.accountId, (totals.get(o.accountId) ?? 0) + Number(o.amountCents ?? 0n));
      money = incrementalMoney(
        treated.map((u) => totals.get(u.accountId) ?? 0),
        held.map((u) => totals.get(u.accountId) ?? 0),
      );
    }
    const plannedLift = cmp.relativeLift !== null && cmp.relativeLift > 0.01 ? Math.min(cmp.relativeLift, 10) : 0.2;
    const share = Math.min(0.95, Math.max(0.05, workspace.programmeHoldoutShare));
    const size =
      cmp.holdoutRate > 0 && cmp.holdoutRate * (1 + plannedLift) < 1
        ? holdoutSize({
            baselineRate: cmp.holdoutRate,
            relativeLift: plannedLift,
            alpha: 0.05,
            power: 0.8,
            holdoutShare: share,
          })
        : null;
    const required = size ? { holdout: size.holdoutSize, treated: size.treatedSize, plannedLift } : null;
    const { verdict, explanation } = judge(cmp, {
      xt,
      xh,
      nt: treated.length,
      nh: held.length,
      holdoutObservable: observable.has(kind),
      required,
    });
    const alwaysValid = judgeAlwaysValid(xt, treated.length, xh, held.length, {
      holdoutObservable: observable.has(kind),
      tooSmall: tooSmall({ xt, xh, nt: treated.length, nh: held.length }),
    });
    const treatedArm = { accounts: treated.length, converted: xt };
    return {
      kind,
      ...cmp,
      ...kindMoney({ verdict, explanation, ...cmp, treated: treatedArm, money }, spendCents),
      treated: treatedArm,
      holdout: { accounts: held.length, converted: xh },
      holdoutObservable: observable.has(kind),
      required,
      money,
      verdict,
      explanation,
      alwaysValid,
    };
  });

  const mailedBy = await db.mailPiece.groupBy({
    by: ["campaignId"],
    where: { workspaceId: p.workspaceId, status: "mailed", mailedAt: { not: null } },
    _count: { _all: true },
  });
  const heldOutBy = await db.enrollment.groupBy({
    by: ["campaignId"],
    where: { workspaceId: p.workspaceId, heldOutBy: PROGRAMME },
    _count: { _all: true },
  });
  return {
    programmeHoldoutShare: workspace.programmeHoldoutShare,
    attributionWindowDays: ATTRIBUTION_WINDOW_DAYS,
    /** Charged for every campaign's mailed pieces, in cents. */
    spendCents,
    /** Accounts that count: mailed by any campaign; held out by the programme holdout and entered by a campaign. */
    arms: { treatment: treated.length, holdout: held.length },
    campaigns: campaigns.map((c) => ({
      id: c.id,
      name: c.name,
      status: c.status,
      spendCents: c.spentCents,
      piecesMailed: mailedBy.find((m) => m.campaignId === c.id)?._count._all ?? 0,
      /** Contacts this campaign held out because the programme holdout holds their account out. */
      heldOutByProgramme: heldOutBy.find((m) => m.campaignId === c.id)?._count._all ?? 0,
    })),
    kinds: results,
    generatedAt: now,
  };
}
