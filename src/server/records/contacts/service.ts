import { Prisma, type PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { toCountryCode } from "@/server/records/addresses/countries";
import { contactFilterSql, decodeCursor, encodeCursor, suppressedSql, type TContactFilter } from "./filter";
import { contactKeys, normaliseEmail, toDomain } from "./keys";
import type { TContactFields } from "./schema";
import { reasonFromDb } from "./suppressions";
import { applyEdit, parseProvenance, recordFieldChanges, valuesOf } from "./provenance";
import { lockContactWrites, writeContacts } from "./write";

export interface TContactRow {
  id: string;
  firstName: string;
  lastName: string;
  title: string | null;
  email: string | null;
  phone: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
  addressStatus: "unverified" | "deliverable" | "undeliverable";
  crmId: string | null;
  source: "import" | "crm" | "agent" | "owner";
  createdAt: Date;
  account: { id: string; name: string; domain: string | null } | null;
  suppressed: boolean;
}

interface RawRow extends Omit<TContactRow, "account"> {
  accountId: string | null;
  accountName: string | null;
  accountDomain: string | null;
}

/**
 * One page of the workspace's contacts, newest first, by a filter (search, audience, account,
 * country, suppressed). Keyset paging on (createdAt, id), so page 2,000 costs what page 1 does.
 * An unknown audience or account is an error, not an empty list.
 */
export async function listContacts(
  db: Db,
  p: TContactFilter & { workspaceId: string; cursor?: string | null; take: number },
) {
  await checkFilterRefs(db, p.workspaceId, p);
  const after = p.cursor ? decodeCursor(p.cursor) : null;
  if (
    after &&
    !(await db.contact.findFirst({ where: { id: after.id, workspaceId: p.workspaceId }, select: { id: true } }))
  ) {
    throw new AppError("not_found", "The cursor names no contact of this workspace; start again without it.");
  }
  const rows = await db.$queryRaw<RawRow[]>`
    SELECT c.id, c."firstName", c."lastName", c.title, c.email, c.phone, c.city, c.region, c.country, c."addressStatus"::text AS "addressStatus",
           c."crmId", c.source::text AS source, c."createdAt", a.id AS "accountId", a.name AS "accountName", a.domain AS "accountDomain",
           ${suppressedSql(p.workspaceId)} AS suppressed
      FROM "Contact" c LEFT JOIN "Account" a ON a.id = c."accountId"
     WHERE ${contactFilterSql(p.workspaceId, p)}
       ${after ? Prisma.sql`AND (c."createdAt", c.id) < (${after.createdAt}::timestamp(3), ${after.id})` : Prisma.empty}
     ORDER BY c."createdAt" DESC, c.id DESC
     LIMIT ${p.take + 1}`;
  const page = rows.slice(0, p.take).map(({ accountId, accountName, accountDomain, ...c }) => ({
    ...c,
    account: accountId ? { id: accountId, name: accountName!, domain: accountDomain } : null,
  }));
  const last = page[page.length - 1];
  return {
    contacts: page as TContactRow[],
    nextCursor: rows.length > p.take ? encodeCursor(last.createdAt, last.id) : null,
  };
}

/** How many contacts a filter selects. */
export async function countContacts(db: Db, p: TContactFilter & { workspaceId: string }): Promise<number> {
  await checkFilterRefs(db, p.workspaceId, p);
  const [row] = await db.$queryRaw<
    { n: bigint }[]
  >`SELECT count(*) AS n FROM "Contact" c WHERE ${contactFilterSql(p.workspaceId, p)}`;
  return Number(row.n);
}

/** The countries the workspace's contacts are in, with counts (for the country filter). */
export async function contactCountries(db: Db, p: { workspaceId: string }) {
  const rows = await db.contact.groupBy({
    by: ["country"],
    where: { workspaceId: p.workspaceId, country: { not: null } },
    _count: { _all: true },
    orderBy: { country: "asc" },
  });
  return rows.map((r) => ({ country: r.country!, contacts: r._count._all }));
}

async function checkFilterRefs(db: Db, workspaceId: string, f: TContactFilter) {
  if (
    f.audienceId &&
    !(await db.audience.findFirst({ where: { id: f.audienceId, workspaceId }, select: { id: true } }))
  ) {
    throw new AppError("not_found", "No such audience in this workspace; audiences_list gives the audiences' ids.");
  }
  if (f.accountId && !(await db.account.findFirst({ where: { id: f.accountId, workspaceId }, select: { id: true } }))) {
    throw new AppError("not_found", "No such account in this workspace; accounts_list gives the accounts' ids.");
  }
}

/** Every field of one contact, its account, audiences, mail pieces, outcomes and the suppressions that stop it. */
export async function getContact(db: Db, p: { workspaceId: string; contactId: string }) {
  const c = await db.contact.findFirst({
    where: { id: p.contactId, workspaceId: p.workspaceId },
    omit: { addressKey: true, matchKey: true, workspaceId: true },
    include: {
      account: { select: { id: true, name: true, domain: true, crmId: true } },
      audienceMembers: {
        select: { audience: { select: { id: true, name: true } } },
        orderBy: { addedAt: "desc" },
        take: 100,
      },
    },
  });
  if (!c)
    throw new AppError(
      "not_found",
      "No such contact in this workspace; contacts_list finds contacts by name, email or company.",
    );
  const [pieces, suppressions] = await Promise.all([
    db.mailPiece.findMany({
      where: { contactId: c.id, workspaceId: p.workspaceId },
      orderBy: { createdAt: "desc" },
      take: 50,
      select: {
        id: true,
        status: true,
        costCents: true,
        createdAt: true,
        mailedAt: true,
        // Where it is in the post (the printer's tracking), or why the printer did not take it.
        trackingStatus: true,
        trackingEvents: true,
        vendorIssue: true,
        vendorIssueDetail: true,
        vendorMode: true,
        campaign: { select: { id: true, name: true, format: true } },
        conversions: { select: { id: true, kind: true, at: true, amountCents: true } },
      },
    }),
    matchingSuppressions(db, p.workspaceId, c),
  ]);
  const outcomes = c.accountId
    ? await db.accountOutcome.findMany({
        where: { accountId: c.accountId, workspaceId: p.workspaceId },
        orderBy: { at: "desc" },
        take: 50,
        select: { id: true, kind: true, at: true, amountCents: true, source: true },
      })
    : [];
  const { audienceMembers, ...rest } = c;
  return {
    ...rest,
    customFields: (rest.customFields ?? {}) as Record<string, string>,
    audiences: audienceMembers.map((m) => ({ id: m.audience.id, name: m.audience.name })),
    pieces: pieces.map(({ conversions, ...piece }) => ({
      ...piece,
      conversions: conversions.map((x) => ({
        ...x,
        amountCents: x.amountCents === null ? null : Number(x.amountCents),
      })),
    })),
    accountOutcomes: outcomes.map((o) => ({
      ...o,
      amountCents: o.amountCents === null ? null : Number(o.amountCents),
    })),
    suppressions,
  };
}

async function matchingSuppressions(
  db: Db,
  workspaceId: string,
  c: {
    id: string;
    email: string | null;
    accountId: string | null;
    account?: { domain: string | null } | null;
    addressKey?: string | null;
  },
) {
  const keys: Prisma.SuppressionWhereInput[] = [{ kind: "contact", value: c.id }];
  if (c.email) keys.push({ kind: "email", value: c.email }, { kind: "domain", value: c.email.split("@")[1] });
  if (c.accountId) keys.push({ kind: "account", value: c.accountId });
  if (c.account?.domain) keys.push({ kind: "domain", value: c.account.domain });
  const full = await db.contact.findFirst({ where: { id: c.id, workspaceId }, select: { addressKey: true } });
  if (full?.addressKey) keys.push({ kind: "address", value: full.addressKey });
  const rows = await db.suppression.findMany({
    where: { workspaceId, OR: keys },
    select: { id: true, kind: true, label: true, value: true, reason: true, createdAt: true },
  });
  return rows.map(({ value, reason, ...s }) => ({ ...s, label: s.label || value, reason: reasonFromDb(reason) }));
}

/** A contact's fields as they are kept: email lower-case and checked, country as ISO code, derived keys. */
export function normaliseFields(f: TContactFields) {
  const errors: { pointer: string; detail: string }[] = [];
  const email = f.email ? normaliseEmail(f.email) : null;
  if (f.email && !email) errors.push({ pointer: "/email", detail: `“${f.email}” is not an email address.` });
  const country = f.country ? toCountryCode(f.country) : null;
  if (f.country && !country)
    errors.push({
      pointer: "/country",
      detail: `“${f.country}” is not a country we know; use a name or an ISO code such as US, GB or DE.`,
    });
  if (!f.firstName && !f.lastName && !email)
    errors.push({ pointer: "/firstName", detail: "A contact needs a name or an email." });
  if (errors.length) throw new AppError("validation_failed", errors.map((e) => e.detail).join(" "), { errors });
  const fields = { ...f, email, country };
  return { ...fields, ...contactKeys(fields) };
}

/**
 * Edits a contact (a person in the browser, or an agent; `as: "fix"` for an accepted audit fix). A
 * new street address resets the address's verification; an email or CRM id another contact has is
 * a conflict. Each changed field goes into the contact's history and its provenance (an import or
 * sync then keeps it until the source's own value changes). Audit-logged with the names of the
 * fields that changed.
 */
export async function updateContact(
  prisma: PrismaClient,
  p: { workspaceId: string; contactId: string; fields: TContactFields; actor: Actor; as?: "fix"; revertOf?: string },
) {
  const next = normaliseFields(p.fields);
  return prisma.$transaction(async (tx) => {
    await lockContactWrites(tx, p.workspaceId);
    const current = await tx.contact.findFirst({ where: { id: p.contactId, workspaceId: p.workspaceId } });
    if (!current) throw new AppError("not_found", "No such contact in this workspace.");
    await assertUnique(tx, p.workspaceId, p.contactId, next);
    const changed = (Object.keys(next) as (keyof typeof next)[]).filter(
      (k) => JSON.stringify(next[k] ?? null) !== JSON.stringify((current as Record<string, unknown>)[k] ?? null),
    );
    if (!changed.length) return current;
    const addressChanged = ["addressLine1", "addressLine2", "city", "region", "postalCode", "country"].some((k) =>
      changed.includes(k as never),
    );
    const kind = p.as ?? (p.actor.kind === "user" ? "owner" : "agent");
    const before = valuesOf(current as never);
    // A custom field the edit leaves out is cleared (the edit names every field).
    const edited = { ...Object.fromEntries(Object.keys(before).map((k) => [k, null])), ...valuesOf(next) };
    const edit = applyEdit(before, parseProvenance(current.fieldSources), kind, edited, new Date().toISOString());
    await tx.contact.updateMany({
      where: { id: p.contactId, workspaceId: p.workspaceId },
      data: {
        ...next,
        fieldSources: edit.provenance as object,
        ...(addressChanged ? { addressStatus: "unverified", undeliverableReason: null } : {}),
      },
    });
    await recordFieldChanges(
      tx,
      p.workspaceId,
      { key: kind, kind, label: p.actor.label, ref: null },
      edit.changes.map((c) => ({ contactId: p.contactId, ...c })),
      p.revertOf ?? null,
    );
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "contact.updated",
      { type: "contact", id: p.contactId },
      { fields: changed.filter((k) => k !== "addressKey" && k !== "matchKey") },
    );
    return tx.contact.findFirstOrThrow({ where: { id: p.contactId, workspaceId: p.workspaceId } });
  });
}

async function assertUnique(
  tx: Db,
  workspaceId: string,
  contactId: string | null,
  f: { email: string | null; crmId: string | null },
) {
  const others = await tx.contact.findMany({
    where: {
      workspaceId,
      ...(contactId ? { id: { not: contactId } } : {}),
      OR: [...(f.email ? [{ email: f.email }] : []), ...(f.crmId ? [{ crmId: f.crmId }] : [])],
    },
    select: { id: true, email: true, crmId: true, firstName: true, lastName: true },
    take: 2,
  });
  const clash = (f.email || f.crmId) && others[0];
  if (clash) {
    const what = clash.email === f.email ? `the email ${f.email}` : `the CRM id ${f.crmId}`;
    throw new AppError(
      "conflict",
      `Another contact (${[clash.firstName, clash.lastName].filter(Boolean).join(" ") || clash.id}, ${clash.id}) already has ${what}.`,
      {
        extra: { contactId: clash.id },
        errors: [
          { pointer: clash.email === f.email ? "/email" : "/crmId", detail: `Another contact already has ${what}.` },
        ],
      },
    );
  }
}

/** Adds one contact by hand (a person or an agent): its account found or made as an import would. A person already there is a conflict naming them. */
export async function createContact(
  prisma: PrismaClient,
  p: {
    workspaceId: string;
    fields: TContactFields & { company?: string | null; website?: string | null };
    actor: Actor;
    source: "owner" | "agent";
  },
) {
  const { company, website, ...rest } = p.fields;
  const n = normaliseFields(rest);
  const domain = website ? toDomain(website) : null;
  if (website && !domain)
    throw new AppError("validation_failed", `“${website}” is not a web address or domain.`, {
      errors: [{ pointer: "/website", detail: "Not a web address or domain." }],
    });
  return prisma.$transaction(async (tx) => {
    const [result] = await writeContacts(
      tx,
      [
        {
          ...n,
          title: n.title ?? null,
          phone: n.phone ?? null,
          crmId: n.crmId ?? null,
          company: company ?? null,
          website: domain,
        },
      ],
      {
        workspaceId: p.workspaceId,
        onExisting: "skip",
        audienceId: null,
        source: p.source,
        sourceDetail: p.actor.label,
        sourceImportId: null,
      },
    );
    if (result.outcome !== "created") {
      throw new AppError(
        "conflict",
        `This person is already a contact (${result.contactId}): the same email, CRM id, or name and address.`,
        { extra: { contactId: result.contactId } },
      );
    }
    await recordAudit(tx, p.workspaceId, p.actor, "contact.created", { type: "contact", id: result.contactId });
    return { id: result.contactId };
  });
}
