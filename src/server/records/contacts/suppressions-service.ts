import Papa from "papaparse";
import type { PrismaClient, RecordSource, SuppressionKind } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError, type FieldError } from "@/server/ground/errors";
import { fieldForHeader } from "@/server/records/contacts/csv-headers";
import {
  normaliseEntry,
  type NormalisedSuppression,
  parseReason,
  reasonFromDb,
  reasonToDb,
  type TSuppressionEntry,
  type TSuppressionReason,
} from "./suppressions";

const view = (s: {
  id: string;
  kind: SuppressionKind;
  value: string;
  label: string;
  reason: Parameters<typeof reasonFromDb>[0];
  source: RecordSource;
  createdBy: string | null;
  createdAt: Date;
}) => ({
  id: s.id,
  kind: s.kind,
  value: s.kind === "address" ? null : s.value,
  label: s.label || s.value,
  reason: reasonFromDb(s.reason),
  source: s.source,
  createdBy: s.createdBy,
  createdAt: s.createdAt.toISOString(),
});

/** The suppression list, newest first, a page at a time; by kind, reason, or words of what is suppressed. */
export async function listSuppressions(
  db: Db,
  p: {
    workspaceId: string;
    kind?: SuppressionKind | null;
    reason?: TSuppressionReason | null;
    search?: string | null;
    cursor?: string | null;
    take: number;
  },
) {
  const cursor = p.cursor
    ? await db.suppression.findFirst({
        where: { id: p.cursor, workspaceId: p.workspaceId },
        select: { id: true, createdAt: true },
      })
    : null;
  if (p.cursor && !cursor)
    throw new AppError("not_found", "The cursor names no suppression of this workspace; start again without it.");
  const rows = await db.suppression.findMany({
    where: {
      workspaceId: p.workspaceId,
      ...(p.kind ? { kind: p.kind } : {}),
      ...(p.reason ? { reason: reasonToDb(p.reason) } : {}),
      ...(p.search?.trim()
        ? {
            OR: [
              { label: { contains: p.search.trim(), mode: "insensitive" } },
              { value: { contains: p.search.trim().toLowerCase() } },
            ],
          }
        : {}),
      ...(cursor
        ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
  });
  const page = rows.slice(0, p.take);
  return { suppressions: page.map(view), nextCursor: rows.length > p.take ? page[page.length - 1].id : null };
}

/** Counts by reason (for the page's summary). */
export async function suppressionCounts(db: Db, p: { workspaceId: string }) {
  const rows = await db.suppression.groupBy({
    by: ["reason"],
    where: { workspaceId: p.workspaceId },
    _count: { _all: true },
  });
  return rows.map((r) => ({ reason: reasonFromDb(r.reason), count: r._count._all }));
}

async function resolveLabels(
  db: Db,
  workspaceId: string,
  entries: NormalisedSuppression[],
  errors: FieldError[],
  pointer: (i: number) => string,
) {
  const accountIds = entries.filter((e) => e.kind === "account").map((e) => e.value);
  const contactIds = entries.filter((e) => e.kind === "contact").map((e) => e.value);
  const accounts = accountIds.length
    ? await db.account.findMany({ where: { workspaceId, id: { in: accountIds } }, select: { id: true, name: true } })
    : [];
  const contacts = contactIds.length
    ? await db.contact.findMany({
        where: { workspaceId, id: { in: contactIds } },
        select: { id: true, firstName: true, lastName: true, email: true },
      })
    : [];
  entries.forEach((e, i) => {
    if (e.kind === "account") {
      const a = accounts.find((x) => x.id === e.value);
      if (a) e.label = a.name;
      else
        errors.push({
          pointer: `${pointer(i)}/accountId`,
          detail: `No account ${e.value} in this workspace; accounts_list gives the accounts' ids.`,
        });
    }
    if (e.kind === "contact") {
      const c = contacts.find((x) => x.id === e.value);
      if (c) e.label = [c.firstName, c.lastName].filter(Boolean).join(" ") || c.email || c.id;
      else errors.push({ pointer: `${pointer(i)}/contactId`, detail: `No contact ${e.value} in this workspace.` });
    }
  });
}

/**
 * Adds suppressions (emails, addresses, domains, accounts, contacts), each with a reason. Every
 * entry is checked first: one bad entry writes nothing. An entry already on the list stays as it
 * is (its reason unchanged). Audit-logged with the actor.
 */
export async function addSuppressions(
  prisma: PrismaClient | Db,
  p: { workspaceId: string; entries: TSuppressionEntry[]; source: RecordSource; actor: Actor },
) {
  const errors: FieldError[] = [];
  const normalised: NormalisedSuppression[] = [];
  p.entries.forEach((entry, i) => {
    const n = normaliseEntry(entry);
    if ("error" in n) errors.push({ pointer: `/entries/${i}/${n.field}`, detail: n.error });
    else normalised.push(n);
  });
  if (!errors.length) await resolveLabels(prisma, p.workspaceId, normalised, errors, (i) => `/entries/${i}`);
  if (errors.length)
    throw new AppError("validation_failed", refusedEntriesSentence(errors, p.entries.length), { errors });
  return insertSuppressions(prisma, { ...p, normalised });
}

/** How many refused entries the sentence names one by one; the field errors name every one. */
const ENTRIES_NAMED = 5;

/**
 * The refusal of a list of entries as a person reads it: each bad entry by its number in the list
 * (counted from 1) with what is wrong, then that nothing was added. A single entry needs no number.
 * The structured field errors beside it keep their JSON Pointers (`/entries/0/email`) for clients.
 */
export function refusedEntriesSentence(errors: FieldError[], entries: number): string {
  const entryOf = (e: FieldError) => Number(/^\/entries\/(\d+)/.exec(e.pointer ?? "")?.[1] ?? Number.NaN) + 1;
  const said = errors
    .slice(0, ENTRIES_NAMED)
    .map((e) => (entries === 1 || !Number.isFinite(entryOf(e)) ? e.detail : `Entry ${entryOf(e)}: ${e.detail}`));
  const more = errors.length - said.length;
  return [
    ...said,
    ...(more > 0 ? [`${more} more ${more === 1 ? "entry has a problem" : "entries have problems"}.`] : []),
    entries === 1 ? "Nothing was added." : "Nothing was added; fix these entries and send the list again.",
  ].join(" ");
}

/**
 * Rows per statement: PostgreSQL takes at most 65,535 parameters in one statement, and a
 * suppression row has eight columns (a lookup two values a pair), so a list of any length is read
 * and written in batches of this many.
 */
export const SUPPRESSION_BATCH = 1000;

function* batches<T>(items: T[], size = SUPPRESSION_BATCH): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

async function insertSuppressions(
  db: Db,
  p: {
    workspaceId: string;
    normalised: NormalisedSuppression[];
    source: RecordSource;
    actor: Actor;
    withRows?: boolean;
  },
) {
  const unique = [...new Map(p.normalised.map((n) => [`${n.kind}:${n.value}`, n])).values()];
  const there = new Set<string>();
  const kinds = [...new Set(unique.map((n) => n.kind))];
  for (const kind of kinds) {
    for (const values of batches(unique.filter((n) => n.kind === kind).map((n) => n.value))) {
      const existing = await db.suppression.findMany({
        where: { workspaceId: p.workspaceId, kind, value: { in: values } },
        select: { kind: true, value: true },
      });
      for (const e of existing) there.add(`${e.kind}:${e.value}`);
    }
  }
  const fresh = unique.filter((n) => !there.has(`${n.kind}:${n.value}`));
  // What this request inserted: another request adding the same entries at the same moment found
  // them free too, and the unique index lets only one of the two insert each (skipDuplicates).
  let added = 0;
  if (fresh.length) {
    for (const batch of batches(fresh)) {
      const inserted = await db.suppression.createMany({
        data: batch.map((n) => ({
          workspaceId: p.workspaceId,
          kind: n.kind,
          value: n.value,
          label: n.label,
          reason: reasonToDb(n.reason),
          source: p.source,
          createdBy: p.actor.label,
        })),
        skipDuplicates: true,
      });
      added += inserted.count;
    }
    if (added)
      await recordAudit(db, p.workspaceId, p.actor, "suppression.added", undefined, {
        count: added,
        entries: fresh.slice(0, 50).map((n) => ({ kind: n.kind, label: n.label, reason: n.reason })),
      });
  }
  // The entries as they are now on the list (at most a batch of them, newest first): what an owner or agent adding a few sees.
  const shown = p.withRows === false ? [] : unique.slice(0, SUPPRESSION_BATCH);
  const rows = shown.length
    ? await db.suppression.findMany({
        where: { workspaceId: p.workspaceId, OR: shown.map((n) => ({ kind: n.kind, value: n.value })) },
        orderBy: { createdAt: "desc" },
        take: SUPPRESSION_BATCH,
      })
    : [];
  return { added, alreadySuppressed: unique.length - added, suppressions: rows.map(view) };
}

/** Takes a suppression off the list (audit-logged: who, what and its reason). */
export async function removeSuppression(
  prisma: PrismaClient,
  p: { workspaceId: string; suppressionId: string; actor: Actor },
) {
  return prisma.$transaction(async (tx) => {
    const s = await tx.suppression.findFirst({ where: { id: p.suppressionId, workspaceId: p.workspaceId } });
    if (!s) throw new AppError("not_found", "No such suppression in this workspace.");
    await tx.suppression.deleteMany({ where: { id: s.id, workspaceId: p.workspaceId } });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "suppression.removed",
      { type: "suppression", id: s.id },
      { kind: s.kind, label: s.label || s.value, reason: reasonFromDb(s.reason) },
    );
    return view(s);
  });
}

export const MAX_SUPPRESSION_CSV_CHARS = 5_000_000;
export const MAX_SUPPRESSION_ROWS = 50_000;

/**
 * A suppression list from a CSV: each row's email, else its domain (a website or domain column),
 * else its street address, with the reason from a reason column or the default. Rows that name
 * nothing usable are refused with their number; the others are added, in batches of
 * SUPPRESSION_BATCH rows. At most MAX_SUPPRESSION_ROWS rows and MAX_SUPPRESSION_CSV_CHARS characters.
 */
export async function importSuppressionsCsv(
  prisma: PrismaClient,
  p: { workspaceId: string; csv: string; defaultReason: TSuppressionReason; actor: Actor },
) {
  const parsed = Papa.parse<string[]>(p.csv.replace(/^\uFEFF/, ""), {
    skipEmptyLines: "greedy",
    delimitersToGuess: [",", ";", "\t", "|"],
  });
  const [header, ...rows] = parsed.data;
  if (!header || !rows.length)
    throw new AppError(
      "validation_failed",
      "The file needs a header row (for example email, reason) and at least one row below it.",
    );
  if (rows.length > MAX_SUPPRESSION_ROWS)
    throw new AppError(
      "validation_failed",
      `At most ${MAX_SUPPRESSION_ROWS.toLocaleString("en-US")} rows at once; split the file.`,
    );
  const col = new Map<string, number>();
  header.forEach((h, i) => {
    const squashed = h.trim().toLowerCase();
    const field = /reason|why|status/.test(squashed) ? "reason" : fieldForHeader(h);
    if (field && !col.has(field)) col.set(field, i);
  });
  if (!["email", "website", "addressLine1"].some((f) => col.has(f))) {
    throw new AppError(
      "validation_failed",
      "The file needs an email, a domain (website) or an address column; none of its columns is one of those.",
    );
  }
  const get = (r: string[], f: string) => (col.has(f) ? (r[col.get(f)!] ?? "").replace(/\u0000/g, "").trim() : "");
  const refused: { row: number; column: string | null; reason: string }[] = [];
  const entries: NormalisedSuppression[] = [];
  rows.forEach((r, i) => {
    const row = i + 2;
    const reasonText = get(r, "reason");
    const reason = reasonText ? parseReason(reasonText) : p.defaultReason;
    if (!reason)
      return refused.push({
        row,
        column: header[col.get("reason")!],
        reason: `“${reasonText}” is not a reason: use opt-out, customer, competitor, do-not-mail or bounced`,
      });
    let entry: TSuppressionEntry | null = null;
    if (get(r, "email")) entry = { email: get(r, "email"), reason };
    else if (get(r, "website")) entry = { domain: get(r, "website"), reason };
    else if (get(r, "addressLine1"))
      entry = {
        address: {
          addressLine1: get(r, "addressLine1"),
          addressLine2: get(r, "addressLine2") || null,
          city: get(r, "city") || null,
          region: get(r, "region") || null,
          postalCode: get(r, "postalCode") || null,
          country: get(r, "country"),
        },
        reason,
      };
    if (!entry) return refused.push({ row, column: null, reason: "no email, domain or address" });
    if (entry.address && !entry.address.country)
      return refused.push({ row, column: null, reason: "an address needs a country" });
    const n = normaliseEntry(entry);
    if ("error" in n)
      return refused.push({
        row,
        column:
          header[col.get(n.field === "email" ? "email" : n.field === "domain" ? "website" : "addressLine1")!] ?? null,
        reason: n.error,
      });
    entries.push(n);
  });
  const result = entries.length
    ? await prisma.$transaction(
        (tx) =>
          insertSuppressions(tx, {
            workspaceId: p.workspaceId,
            normalised: entries,
            source: "import",
            actor: p.actor,
            withRows: false,
          }),
        { timeout: 120_000 },
      )
    : { added: 0, alreadySuppressed: 0 };
  return { rows: rows.length, added: result.added, alreadySuppressed: result.alreadySuppressed, refused };
}
