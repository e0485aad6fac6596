import { randomUUID } from "node:crypto";
import { lockContactWrites } from "@/server/records/contacts/write";
import type { Db } from "@/server/ground/db";
import { type LinkScope, linkedHere, linkedIds, writeLinks } from "./links";

/** A company as a CRM sync brings it. */
export interface TCrmAccountInput {
  crmId: string;
  name: string;
  /** Lower-case web domain (toDomain), or null. */
  domain: string | null;
}

export type TAccountOutcome = "created" | "updated" | "unchanged";

/** The account name as the database's generated nameKey column writes it. */
export const nameKeyOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * Writes a batch of CRM companies as accounts, in the caller's transaction. A company's account is
 * the one its connection's link names (see links.ts); else an account of the same domain (else, for
 * a company without a domain, of the same name) that no other company of this connection is: one a
 * CSV import or the other CRM made first, so the company and its people and deals are counted once;
 * otherwise a new account. Each company is then linked to its account. An account keeps the first
 * CRM id it was given. A domain already held by another account is left off, with a warning
 * (domains are unique per workspace).
 */
export async function writeCrmAccounts(tx: Db, rows: TCrmAccountInput[], o: LinkScope & { sourceDetail: string }) {
  await lockContactWrites(tx, o.workspaceId);
  const unique = [...new Map(rows.map((r) => [r.crmId, r])).values()];
  const linked = await linkedIds(
    tx,
    o,
    "account",
    unique.map((r) => r.crmId),
  );
  const domains = [...new Set(unique.flatMap((r) => (r.domain ? [r.domain] : [])))];
  const nameKeys = [
    ...new Set(
      unique
        .filter((r) => !r.domain)
        .map((r) => nameKeyOf(r.name))
        .filter(Boolean),
    ),
  ];
  const existing = await tx.account.findMany({
    where: {
      workspaceId: o.workspaceId,
      OR: [
        { id: { in: [...linked.values()] } },
        { crmId: { in: unique.map((r) => r.crmId) } },
        ...(domains.length ? [{ domain: { in: domains } }] : []),
        ...(nameKeys.length ? [{ nameKey: { in: nameKeys }, domain: null }] : []),
      ],
    },
    select: { id: true, crmId: true, domain: true, name: true, nameKey: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const byId = new Map(existing.map((a) => [a.id, a]));
  const crmIdHolder = new Map(existing.filter((a) => a.crmId).map((a) => [a.crmId!, a.id]));
  const domainHolder = new Map(existing.filter((a) => a.domain).map((a) => [a.domain!, a.id]));
  // Accounts another company of this connection already is: never claimed by a second one.
  const taken = await linkedHere(
    tx,
    o,
    "account",
    existing.map((a) => a.id),
  );
  for (const id of linked.values()) taken.add(id);
  const outcomes = new Map<string, TAccountOutcome>();
  const warnings: { crmId: string; message: string }[] = [];
  const creates: { id: string; name: string; domain: string | null; crmId: string | null }[] = [];
  const updates: { id: string; name: string; domain: string | null; crmId: string | null }[] = [];
  const links: { externalId: string; localId: string }[] = [];

  for (const r of unique) {
    const linkedId = linked.get(r.crmId);
    let account = linkedId ? byId.get(linkedId) : undefined;
    if (!account) {
      account = existing.find(
        (a) => !taken.has(a.id) && (r.domain ? a.domain === r.domain : !a.domain && a.nameKey === nameKeyOf(r.name)),
      );
      if (account) taken.add(account.id);
    }
    const id = account?.id ?? `acc_${randomUUID().replace(/-/g, "")}`;
    let domain = r.domain;
    const holder = domain ? domainHolder.get(domain) : undefined;
    if (domain && holder && holder !== id) {
      warnings.push({
        crmId: r.crmId,
        message: `shares the domain ${domain} with another account; kept without a domain`,
      });
      domain = account?.domain && domainHolder.get(account.domain) === id ? account.domain : null;
    }
    if (domain) domainHolder.set(domain, id);
    links.push({ externalId: r.crmId, localId: id });
    const heldElsewhere = crmIdHolder.has(r.crmId) && crmIdHolder.get(r.crmId) !== id;
    if (!account) {
      creates.push({ id, name: r.name, domain, crmId: heldElsewhere ? null : r.crmId });
      if (!heldElsewhere) crmIdHolder.set(r.crmId, id);
      outcomes.set(r.crmId, "created");
      continue;
    }
    const crmId = account.crmId ?? (heldElsewhere ? null : r.crmId);
    if (crmId && !account.crmId) crmIdHolder.set(crmId, id);
    if (account.name !== r.name || account.domain !== domain || account.crmId !== crmId) {
      updates.push({ id, name: r.name, domain, crmId });
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
  await writeLinks(tx, o, "account", links);
  return { outcomes: rows.map((r) => outcomes.get(r.crmId)!), warnings };
}
