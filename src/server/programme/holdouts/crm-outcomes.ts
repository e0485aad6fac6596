import type { ConversionKind } from "@/generated/prisma/client";
import { occurrenceKey } from "@/server/programme/conversions/service";
import type { Db } from "@/server/ground/db";
import { fingerprint } from "@/server/ground/platform/fingerprint";

/** A CRM deal or opportunity whose account is known: what measurement needs of it. */
export interface TCrmDealInput {
  dealId: string;
  accountId: string;
  amountCents: number | null;
  createdAt: string;
  closedAt: string | null;
  won: boolean;
}

const KINDS: ConversionKind[] = ["opportunity_created", "pipeline_dollars", "closed_won"];

interface Wanted {
  accountId: string;
  kind: ConversionKind;
  amountCents: number | null;
  at: string;
  key: string;
  print: string;
  dealId: string;
}

/**
 * The account outcomes of a page of CRM deals, made to match the CRM, in the caller's transaction.
 * Each deal gives `opportunity_created` at its creation (with its amount) and, when it has an
 * amount, `pipeline_dollars` with it; a won deal also `closed_won` at its close date with its
 * amount. The deal's id is the occurrence identity (externalId, occurrence key `x:<id>`), so a
 * re-sync updates an outcome whose amount, date or account changed, removes the `closed_won` of a
 * deal no longer won, and never counts one twice. Unlike an outcome import, nothing here is all or
 * nothing: every deal is written on its own terms.
 */
export async function syncCrmOutcomes(
  tx: Db,
  deals: TCrmDealInput[],
  o: { workspaceId: string; connectionId: string; sourceDetail: (dealId: string) => string },
) {
  const wanted: Wanted[] = [];
  for (const d of deals) {
    const key = occurrenceKey({ externalId: d.dealId });
    const add = (kind: ConversionKind, at: string, amountCents: number | null) =>
      wanted.push({
        accountId: d.accountId,
        kind,
        amountCents,
        at,
        key,
        dealId: d.dealId,
        print: fingerprint({ kind, amountCents, at, externalId: d.dealId }),
      });
    add("opportunity_created", d.createdAt, d.amountCents);
    if (d.amountCents !== null) add("pipeline_dollars", d.createdAt, d.amountCents);
    if (d.won) add("closed_won", d.closedAt ?? d.createdAt, d.amountCents ?? 0);
  }
  const keys = [...new Set(deals.map((d) => occurrenceKey({ externalId: d.dealId })))];
  const existing = keys.length
    ? await tx.accountOutcome.findMany({
        where: { workspaceId: o.workspaceId, occurrenceKey: { in: keys }, kind: { in: KINDS } },
        select: {
          id: true,
          accountId: true,
          kind: true,
          occurrenceKey: true,
          fingerprint: true,
          source: true,
          crmConnectionId: true,
        },
      })
    : [];
  const byIdentity = new Map<string, typeof existing>();
  for (const e of existing) {
    const k = `${e.kind}\n${e.occurrenceKey}`;
    byIdentity.set(k, [...(byIdentity.get(k) ?? []), e]);
  }
  const creates: Wanted[] = [];
  const updates: (Wanted & { id: string })[] = [];
  const wantedIds = new Set<string>();
  for (const w of wanted) {
    const same = byIdentity.get(`${w.kind}\n${w.key}`) ?? [];
    // The one on the deal's account if there is one, else the CRM's own (the deal moved to another account).
    const keep =
      same.find((e) => e.accountId === w.accountId) ?? same.find((e) => e.crmConnectionId === o.connectionId);
    if (!keep) creates.push(w);
    else {
      wantedIds.add(keep.id);
      if (keep.fingerprint !== w.print || keep.accountId !== w.accountId || keep.crmConnectionId !== o.connectionId)
        updates.push({ ...w, id: keep.id });
    }
  }
  // What this connection recorded before and the CRM no longer says (a deal reopened, an amount removed, a duplicate left behind by a move).
  const removes = existing.filter((e) => e.crmConnectionId === o.connectionId && !wantedIds.has(e.id)).map((e) => e.id);

  if (removes.length)
    await tx.accountOutcome.deleteMany({ where: { workspaceId: o.workspaceId, id: { in: removes } } });
  if (updates.length) {
    await tx.$executeRaw`
      UPDATE "AccountOutcome" a
         SET "accountId" = v."accountId", "amountCents" = v."amountCents", at = v.at::timestamptz, "externalId" = v."dealId", fingerprint = v.print,
             source = 'crm'::"OutcomeSource", "crmConnectionId" = ${o.connectionId}, "sourceDetail" = v.detail
        FROM jsonb_to_recordset(${JSON.stringify(updates.map((u) => ({ ...u, detail: o.sourceDetail(u.dealId) })))}::jsonb)
             AS v(id text, "accountId" text, "amountCents" bigint, at text, "dealId" text, print text, detail text)
       WHERE a.id = v.id AND a."workspaceId" = ${o.workspaceId}`;
  }
  let created = 0;
  if (creates.length) {
    ({ count: created } = await tx.accountOutcome.createMany({
      data: creates.map((c) => ({
        workspaceId: o.workspaceId,
        accountId: c.accountId,
        kind: c.kind,
        amountCents: c.amountCents === null ? null : BigInt(c.amountCents),
        at: c.at,
        externalId: c.dealId,
        occurrenceKey: c.key,
        fingerprint: c.print,
        source: "crm",
        sourceDetail: o.sourceDetail(c.dealId),
        crmConnectionId: o.connectionId,
      })),
      skipDuplicates: true,
    }));
  }
  return { created, updated: updates.length, removed: removes.length };
}
