import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { searchQuery } from "./filter";

export interface TAccountRow {
  id: string;
  name: string;
  domain: string | null;
  crmId: string | null;
  source: string;
  contacts: number;
  createdAt: Date;
}

/**
 * A page of the workspace's accounts with their contact counts, newest first; `search` matches
 * the start of a word of the name or the domain.
 */
export async function listAccounts(
  db: Db,
  p: { workspaceId: string; search?: string | null; cursor?: string | null; take: number },
) {
  const cursor = p.cursor
    ? await db.account.findFirst({
        where: { id: p.cursor, workspaceId: p.workspaceId },
        select: { id: true, createdAt: true },
      })
    : null;
  if (p.cursor && !cursor)
    throw new AppError("not_found", "The cursor names no account of this workspace; start again without it.");
  const search = p.search?.trim();
  const rows = await db.$queryRaw<(Omit<TAccountRow, "contacts"> & { contacts: bigint })[]>`
    SELECT a.id, a.name, a.domain, a."crmId", a.source::text AS source, a."createdAt",
           (SELECT count(*) FROM "Contact" c WHERE c."accountId" = a.id) AS contacts
      FROM "Account" a
     WHERE a."workspaceId" = ${p.workspaceId}
       ${search ? Prisma.sql`AND a.search @@ ${searchQuery(search)}` : Prisma.empty}
       ${cursor ? Prisma.sql`AND (a."createdAt", a.id) < (${cursor.createdAt}, ${cursor.id})` : Prisma.empty}
     ORDER BY a."createdAt" DESC, a.id DESC
     LIMIT ${p.take + 1}`;
  const page = rows.slice(0, p.take).map((r) => ({ ...r, contacts: Number(r.contacts) }));
  return { accounts: page as TAccountRow[], nextCursor: rows.length > p.take ? page[page.length - 1].id : null };
}

/** One account: its fields, contact count, audiences its contacts are in, holdout arms and outcomes. */
export async function getAccount(db: Db, p: { workspaceId: string; accountId: string }) {
  const account = await db.account.findFirst({
    where: { id: p.accountId, workspaceId: p.workspaceId },
    select: {
      id: true,
      name: true,
      domain: true,
      crmId: true,
      source: true,
      sourceDetail: true,
      createdAt: true,
      updatedAt: true,
    },
  });
  if (!account)
    throw new AppError("not_found", "No such account in this workspace; accounts_list gives the accounts' ids.");
  const [contacts, audiences, assignments, outcomes] = await Promise.all([
    db.contact.count({ where: { accountId: account.id, workspaceId: p.workspaceId } }),
    db.$queryRaw<{ id: string; name: string; contacts: bigint }[]>`
      SELECT au.id, au.name, count(*) AS contacts FROM "AudienceMember" m
        JOIN "Contact" c ON c.id = m."contactId" JOIN "Audience" au ON au.id = m."audienceId"
       WHERE c."accountId" = ${account.id} AND m."workspaceId" = ${p.workspaceId}
       GROUP BY au.id, au.name ORDER BY au.name LIMIT 50`,
    db.holdoutAssignment.findMany({
      where: { accountId: account.id, workspaceId: p.workspaceId },
      select: { arm: true, assignedAt: true, campaign: { select: { id: true, name: true } } },
      orderBy: { assignedAt: "desc" },
      take: 50,
    }),
    db.accountOutcome.findMany({
      where: { accountId: account.id, workspaceId: p.workspaceId },
      orderBy: { at: "desc" },
      take: 50,
      select: { id: true, kind: true, at: true, amountCents: true, source: true, externalId: true },
    }),
  ]);
  return {
    ...account,
    contacts,
    audiences: audiences.map((a) => ({ ...a, contacts: Number(a.contacts) })),
    campaigns: assignments.map((a) => ({
      id: a.campaign.id,
      name: a.campaign.name,
      arm: a.arm,
      assignedAt: a.assignedAt,
    })),
    outcomes: outcomes.map((o) => ({ ...o, amountCents: o.amountCents === null ? null : Number(o.amountCents) })),
  };
}
