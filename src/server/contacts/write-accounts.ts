import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db";
import { lockContactWrites } from "./write";

/** A company as a CRM sync brings it. */
export interface TCrmAccountInput {
  crmId: string;
  name: string;
  /** Lower-case web domain (toDomain), or null. */
  domain: string | null;
}

export type TAccountOutcome = "created" | "updated" | "unchanged";

/** The account name as the database's generated nameKey column writes it. */
export const nameKeyOf = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

/**
 * Writes a batch of CRM companies as accounts, in the caller's transaction: an account with the
 * company's crmId is updated; otherwise an account without a crmId of the same domain (else, for a
 * company without a domain, of the same name) is claimed (a CSV import made it first: it gets the
 * crmId, so later rows of either kind find it); otherwise a new account is made. A domain already
 * held by another account is left off, with a warning (domains are unique per workspace).
 */
export async function writeCrmAccounts(tx: Db, rows: TCrmAccountInput[], o: { workspaceId: string; sourceDetail: string }) {
  await lockContactWrites(tx, o.workspaceId);
  const unique = [...new Map(rows.map((r) => [r.crmId, r])).values()];
  const domains = [...new Set(unique.flatMap((r) => (r.domain ? [r.domain] : [])))];
  const nameKeys = [...new Set(unique.filter((r) => !r.domain).map((r) => nameKeyOf(r.name)).filter(Boolean))];
  const existing = await tx.account.findMany({
    where: { workspaceId: o.workspaceId, OR: [{ crmId: { in: unique.map((r) => r.crmId) } }, ...(domains.length ? [{ domain: { in: domains } }] : []), ...(nameKeys.length ? [{ nameKey: { in: nameKeys }, crmId: null, domain: null }] : [])] },
    select: { id: true, crmId: true, domain: true, name: true, nameKey: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const byCrmId = new Map(existing.filter((a) => a.crmId).map((a) => [a.crmId!, a]));
  const domainHolder = new Map(existing.filter((a) => a.domain).map((a) => [a.domain!, a.id]));
  const claimed = new Set<string>();
  const outcomes = new Map<string, TAccountOutcome>();
  const warnings: { crmId: string; message: string }[] = [];
  const creates: { id: string; name: string; domain: string | null; crmId: string }[] = [];
  const updates: { id: string; name: string; domain: string | null; crmId: string }[] = [];

  for (const r of unique) {
    let account = byCrmId.get(r.crmId);
    if (!account) {
      account = existing.find((a) => !a.crmId && !claimed.has(a.id) && (r.domain ? a.domain === r.domain : !a.domain && a.nameKey === nameKeyOf(r.name)));
      if (account) claimed.add(account.id);
    }
    const id = account?.id ?? `acc_${randomUUID().replace(/-/g, "")}`;
    let domain = r.domain;
    const holder = domain ? domainHolder.get(domain) : undefined;
    if (domain && holder && holder !== id) {
      warnings.push({ crmId: r.crmId, message: `shares the domain ${domain} with another account; kept without a domain` });
      domain = account?.domain && domainHolder.get(account.domain) === id ? account.domain : null;
    }
    if (domain) domainHolder.set(domain, id);
    if (!account) {
      creates.push({ id, name: r.name, domain, crmId: r.crmId });
      outcomes.set(r.crmId, "created");
    } else if (account.name !== r.name || account.domain !== domain || account.crmId !== r.crmId) {
      updates.push({ id, name: r.name, domain, crmId: r.crmId });
      outcomes.set(r.crmId, "updated");
    } else outcomes.set(r.crmId, "unchanged");
  }
  if (updates.length) {
    // Domains are unique: first free the ones that move, then set them.
    await tx.$executeRaw`
      UPDATE "Account" a SET domain = NULL FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS v(id text, domain text)
       WHERE a.id = v.id AND a."workspaceId" = ${o.workspaceId} AND a.domain IS DISTINCT FROM v.domain`;
    await tx.$executeRaw`
      UPDATE "Account" a SET name = v.name, domain = v.domain, "crmId" = v."crmId", "updatedAt" = now()
        FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS v(id text, name text, domain text, "crmId" text)
       WHERE a.id = v.id AND a."workspaceId" = ${o.workspaceId}`;
  }
  if (creates.length) {
    await tx.$executeRaw`
      INSERT INTO "Account" (id, "workspaceId", name, domain, "crmId", source, "sourceDetail", "createdAt", "updatedAt")
      SELECT v.id, ${o.workspaceId}, v.name, v.domain, v."crmId", 'crm'::"RecordSource", ${o.sourceDetail}, now(), now()
        FROM jsonb_to_recordset(${JSON.stringify(creates)}::jsonb) AS v(id text, name text, domain text, "crmId" text)`;
  }
  return { outcomes: rows.map((r) => outcomes.get(r.crmId)!), warnings };
}
