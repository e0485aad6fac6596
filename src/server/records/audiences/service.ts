import { Prisma, type AudienceSource, type PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { contactFilterSql, type TContactFilter } from "@/server/records/contacts/filter";
import type { TAudienceSummary } from "./schema";
import { isUniqueViolation } from "@/server/ground/platform/database-errors";

/** The workspace's audiences with their sizes (for choosing one), newest first. */
export async function listAudiences(db: Db, p: { workspaceId: string }) {
  const audiences = await db.audience.findMany({
    where: { workspaceId: p.workspaceId },
    orderBy: { createdAt: "desc" },
    take: 500,
    select: { id: true, name: true, source: true, createdAt: true, _count: { select: { members: true } } },
  });
  return audiences.map(({ _count, ...a }) => ({ ...a, members: _count.members }));
}

/** Sizes and account counts of some audiences, in one statement. */
async function sizesOf(db: Db, workspaceId: string, ids: string[]) {
  if (!ids.length) return new Map<string, { size: number; accounts: number }>();
  const rows = await db.$queryRaw<{ audienceId: string; size: bigint; accounts: bigint }[]>`
    SELECT m."audienceId", count(*) AS size, count(DISTINCT c."accountId") AS accounts
      FROM "AudienceMember" m JOIN "Contact" c ON c.id = m."contactId"
     WHERE m."workspaceId" = ${workspaceId} AND m."audienceId" IN (${Prisma.join(ids)})
     GROUP BY m."audienceId"`;
  return new Map(rows.map((r) => [r.audienceId, { size: Number(r.size), accounts: Number(r.accounts) }]));
}

function summary(
  a: { id: string; name: string; source: AudienceSource; createdAt: Date },
  sizes: Map<string, { size: number; accounts: number }>,
): TAudienceSummary {
  const s = sizes.get(a.id) ?? { size: 0, accounts: 0 };
  return {
    id: a.id,
    name: a.name,
    source: a.source,
    size: s.size,
    accounts: s.accounts,
    createdAt: a.createdAt.toISOString(),
  };
}

/** A page of audiences, newest first, with sizes and account counts. */
export async function listAudiencePage(
  db: Db,
  p: { workspaceId: string; search?: string | null; cursor?: string | null; take: number },
) {
  const cursor = p.cursor
    ? await db.audience.findFirst({
        where: { id: p.cursor, workspaceId: p.workspaceId },
        select: { id: true, createdAt: true },
      })
    : null;
  if (p.cursor && !cursor)
    throw new AppError("not_found", "The cursor names no audience of this workspace; start again without it.");
  const rows = await db.audience.findMany({
    where: {
      workspaceId: p.workspaceId,
      ...(p.search?.trim() ? { name: { contains: p.search.trim(), mode: "insensitive" } } : {}),
      ...(cursor
        ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
    select: { id: true, name: true, source: true, createdAt: true },
  });
  const page = rows.slice(0, p.take);
  const sizes = await sizesOf(
    db,
    p.workspaceId,
    page.map((a) => a.id),
  );
  return {
    audiences: page.map((a) => summary(a, sizes)),
    nextCursor: rows.length > p.take ? page[page.length - 1].id : null,
  };
}

async function loadAudience(db: Db, p: { workspaceId: string; audienceId: string }) {
  const audience = await db.audience.findFirst({ where: { id: p.audienceId, workspaceId: p.workspaceId } });
  if (!audience)
    throw new AppError("not_found", "No such audience in this workspace; audiences_list gives the audiences' ids.");
  return audience;
}

/** One audience: size, accounts, contacts per country, the campaigns that mail it. */
export async function getAudience(db: Db, p: { workspaceId: string; audienceId: string }) {
  const audience = await loadAudience(db, p);
  // One read after another: adding or removing members reads this inside their transaction (one connection).
  const sizes = await sizesOf(db, p.workspaceId, [audience.id]);
  const byCountry = await db.$queryRaw<{ country: string | null; contacts: bigint }[]>`
      SELECT c.country, count(*) AS contacts FROM "AudienceMember" m JOIN "Contact" c ON c.id = m."contactId"
       WHERE m."audienceId" = ${audience.id} AND m."workspaceId" = ${p.workspaceId}
       GROUP BY c.country ORDER BY count(*) DESC, c.country LIMIT 50`;
  const campaigns = await db.campaign.findMany({
    where: { audienceId: audience.id, workspaceId: p.workspaceId },
    select: { id: true, name: true, status: true },
    orderBy: { createdAt: "desc" },
    take: 50,
  });
  return {
    ...summary(audience, sizes),
    byCountry: byCountry.map((r) => ({ country: r.country, contacts: Number(r.contacts) })),
    campaigns,
  };
}

async function assertNameFree(db: Db, workspaceId: string, name: string, except?: string) {
  // lower() = lower(), not Prisma's insensitive equals: that is an ILIKE, where a name's \, % and _ are patterns.
  const [same] = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM "Audience" WHERE "workspaceId" = ${workspaceId} AND lower(name) = lower(${name}) AND (${except ?? null}::text IS NULL OR id <> ${except ?? null}) LIMIT 1`;
  if (same)
    throw new AppError(
      "conflict",
      `There is already an audience named “${name}” (${same.id}); choose another name or add contacts to that one.`,
      { extra: { audienceId: same.id } },
    );
}

/**
 * The audience an import lands in: the one named by id (it must be this workspace's), else the one
 * with exactly this name, else a new one (so importing a file again lands in the same audience).
 */
export async function findOrCreateAudience(
  db: Db,
  p: { workspaceId: string; audienceId?: string; name: string; source: AudienceSource; actor: Actor },
) {
  if (p.audienceId) return loadAudience(db, { workspaceId: p.workspaceId, audienceId: p.audienceId });
  const existing = await db.audience.findFirst({ where: { workspaceId: p.workspaceId, name: p.name } });
  if (existing) return existing;
  const created = await db.audience.create({
    data: { workspaceId: p.workspaceId, name: p.name.slice(0, 120), source: p.source },
  });
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "audience.created",
    { type: "audience", id: created.id },
    { name: created.name },
  );
  return created;
}

/**
 * Makes a static audience: empty, from chosen contacts, or from every contact a filter selects
 * (copied now; later contacts do not join by themselves). Unknown contact ids write nothing.
 */
export async function createAudience(
  prisma: PrismaClient,
  p: {
    workspaceId: string;
    name: string;
    contactIds?: string[];
    filter?: TContactFilter;
    actor: Actor;
    source?: AudienceSource;
  },
) {
  // Two creates of one name at once both find the name free; the unique index stops the second,
  // which then gets the same 409 (naming the audience that won) as a sequential duplicate.
  return createAudienceOnce(prisma, p).catch(async (error: unknown) => {
    if (!isUniqueViolation(error)) throw error;
    await assertNameFree(prisma, p.workspaceId, p.name);
    throw error;
  });
}

function createAudienceOnce(prisma: PrismaClient, p: Parameters<typeof createAudience>[1]) {
  return prisma.$transaction(async (tx) => {
    await assertNameFree(tx, p.workspaceId, p.name);
    const audience = await tx.audience.create({
      data: { workspaceId: p.workspaceId, name: p.name, source: p.source ?? "manual" },
    });
    let added = 0;
    if (p.contactIds?.length)
      added = (await addMembers(tx, { workspaceId: p.workspaceId, audienceId: audience.id, contactIds: p.contactIds }))
        .added;
    if (p.filter)
      added += await addFiltered(tx, { workspaceId: p.workspaceId, audienceId: audience.id, filter: p.filter });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "audience.created",
      { type: "audience", id: audience.id },
      { name: audience.name, contacts: added, ...(p.filter ? { filter: JSON.parse(JSON.stringify(p.filter)) } : {}) },
    );
    const sizes = await sizesOf(tx, p.workspaceId, [audience.id]);
    return summary(audience, sizes);
  });
}

async function unknownContacts(db: Db, workspaceId: string, ids: string[]) {
  const found = await db.contact.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } });
  const known = new Set(found.map((c) => c.id));
  return [...new Set(ids)].filter((id) => !known.has(id));
}

async function addMembers(db: Db, p: { workspaceId: string; audienceId: string; contactIds: string[] }) {
  const unknown = await unknownContacts(db, p.workspaceId, p.contactIds);
  if (unknown.length) {
    throw new AppError(
      "not_found",
      `No contact ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ""} in this workspace; nothing was added. contacts_list gives the contacts' ids.`,
    );
  }
  const result = await db.audienceMember.createMany({
    data: [...new Set(p.contactIds)].map((contactId) => ({
      audienceId: p.audienceId,
      contactId,
      workspaceId: p.workspaceId,
    })),
    skipDuplicates: true,
  });
  return { added: result.count, alreadyMembers: new Set(p.contactIds).size - result.count };
}

async function addFiltered(db: Db, p: { workspaceId: string; audienceId: string; filter: TContactFilter }) {
  return db.$executeRaw`
    INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId", "addedAt")
    SELECT ${p.audienceId}, c.id, ${p.workspaceId}, now() FROM "Contact" c WHERE ${contactFilterSql(p.workspaceId, p.filter)}
    ON CONFLICT DO NOTHING`;
}

/** Adds contacts (by id, or every contact of a filter) to an audience; members already in it stay. Audit-logged. */
export async function addAudienceContacts(
  prisma: PrismaClient,
  p: { workspaceId: string; audienceId: string; contactIds?: string[]; filter?: TContactFilter; actor: Actor },
) {
  return prisma.$transaction(async (tx) => {
    await loadAudience(tx, p);
    let added = 0;
    let alreadyMembers = 0;
    if (p.contactIds?.length)
      ({ added, alreadyMembers } = await addMembers(tx, {
        workspaceId: p.workspaceId,
        audienceId: p.audienceId,
        contactIds: p.contactIds,
      }));
    if (p.filter)
      added += await addFiltered(tx, { workspaceId: p.workspaceId, audienceId: p.audienceId, filter: p.filter });
    if (added)
      await recordAudit(
        tx,
        p.workspaceId,
        p.actor,
        "audience.contacts_added",
        { type: "audience", id: p.audienceId },
        { added, ...(p.contactIds ? { contactIds: p.contactIds.slice(0, 100) } : {}) },
      );
    const audience = await getAudience(tx, p);
    return { added, alreadyMembers, audience };
  });
}

/** Removes contacts from an audience (the contacts themselves stay). Unknown ids write nothing. Audit-logged. */
export async function removeAudienceContacts(
  prisma: PrismaClient,
  p: { workspaceId: string; audienceId: string; contactIds: string[]; actor: Actor },
) {
  return prisma.$transaction(async (tx) => {
    await loadAudience(tx, p);
    const unknown = await unknownContacts(tx, p.workspaceId, p.contactIds);
    if (unknown.length)
      throw new AppError(
        "not_found",
        `No contact ${unknown.slice(0, 5).join(", ")} in this workspace; nothing was removed.`,
      );
    const result = await tx.audienceMember.deleteMany({
      where: { audienceId: p.audienceId, workspaceId: p.workspaceId, contactId: { in: p.contactIds } },
    });
    if (result.count)
      await recordAudit(
        tx,
        p.workspaceId,
        p.actor,
        "audience.contacts_removed",
        { type: "audience", id: p.audienceId },
        { removed: result.count, contactIds: p.contactIds.slice(0, 100) },
      );
    const audience = await getAudience(tx, p);
    return { removed: result.count, notMembers: new Set(p.contactIds).size - result.count, audience };
  });
}

export async function renameAudience(
  prisma: PrismaClient,
  p: { workspaceId: string; audienceId: string; name: string; actor: Actor },
) {
  return prisma.$transaction(async (tx) => {
    const audience = await loadAudience(tx, p);
    await assertNameFree(tx, p.workspaceId, p.name, audience.id);
    await tx.audience.updateMany({ where: { id: audience.id, workspaceId: p.workspaceId }, data: { name: p.name } });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "audience.renamed",
      { type: "audience", id: audience.id },
      { from: audience.name, to: p.name },
    );
    return getAudience(tx, p);
  });
}

/** Deletes an audience no campaign uses (its contacts stay). */
export async function deleteAudience(
  prisma: PrismaClient,
  p: { workspaceId: string; audienceId: string; actor: Actor },
) {
  return prisma.$transaction(async (tx) => {
    const audience = await loadAudience(tx, p);
    const used = await tx.campaign.findFirst({
      where: { audienceId: audience.id, workspaceId: p.workspaceId },
      select: { name: true },
    });
    if (used)
      throw new AppError(
        "invalid_state",
        `The campaign “${used.name}” mails this audience; it cannot be deleted while a campaign uses it.`,
      );
    await tx.audience.deleteMany({ where: { id: audience.id, workspaceId: p.workspaceId } });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "audience.deleted",
      { type: "audience", id: audience.id },
      { name: audience.name },
    );
    return { deleted: audience.id };
  });
}
