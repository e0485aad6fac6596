import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import { MatchIndex, type MatchFields } from "./dedupe";
import { contactKeys } from "./keys";
import { resolveAccounts } from "./account-resolve";
import {
  applySource,
  createdBy,
  parseProvenance,
  recordFieldChanges,
  type THistoryRow,
  TRACKED_FIELDS,
  type TWriter,
  valuesOf,
  writerForSource,
} from "./provenance";
import {
  type ExistingContact,
  newId,
  type Plan,
  type TContactInput,
  type Taken,
  type TWriteOutcome,
  type WriteOptions,
} from "./write-model";

/**
 * Serialises writers of one workspace's contacts (imports, CRM syncs, edits) for the rest of the
 * transaction, so that two of them never both create the same person or the same account.
 */
export async function lockContactWrites(tx: Db, workspaceId: string, o: { asyncCommit?: boolean } = {}): Promise<void> {
  // One row (not the lock function's void, which Prisma cannot read); straight on the connection in a hot transaction (imports).
  // asyncCommit: the transaction also commits without waiting for its write-ahead log (synchronous_commit off), in the same round trip.
  const also = o.asyncCommit
    ? Prisma.sql`, set_config('synchronous_commit', 'off', true) AS "asyncCommit"`
    : Prisma.empty;
  await hotSql(
    tx,
    Prisma.sql`SELECT 1 AS locked${also} FROM pg_advisory_xact_lock(hashtext(${`contacts:${workspaceId}`}))`,
  );
}

const ADDRESS = ["addressLine1", "addressLine2", "city", "region", "postalCode", "country"] as const;

/**
 * Writes a batch of contacts with a handful of set-based statements (whatever the batch's size):
 * finds each row's contact (email, else CRM id, else name and address; see dedupe.ts), its account
 * (company name, else web domain, else email domain unless free mail, else an account of its own),
 * creates the new ones, updates the existing ones (`update`: by field provenance, see
 * mergeInto; an empty value never erases) and adds every row's contact to
 * the audience. Runs in the caller's transaction, which it first locks for the workspace.
 * Returns, per row, what happened and the contact's id.
 */
export async function writeContacts(
  tx: Db,
  rows: TContactInput[],
  o: WriteOptions,
): Promise<{ outcome: TWriteOutcome; contactId: string; keptFields: number }[]> {
  await lockContactWrites(tx, o.workspaceId);
  const writer = writerForSource(o.source, {
    importId: o.sourceImportId,
    connectionId: o.connectionId,
    label: o.sourceDetail,
  });
  const at = new Date().toISOString();
  const created = JSON.stringify(createdBy(writer.key));
  const keyed = rows.map((row) => ({ row, keys: row.keys ?? contactKeys(row) }));
  const match = (k: (typeof keyed)[number]): MatchFields => ({
    email: k.row.email,
    crmId: k.row.crmId,
    matchKey: k.keys.matchKey,
  });
  const known = [...new Set(rows.flatMap((r) => (r.contactId ? [r.contactId] : [])))];
  const existing = await findExisting(tx, o.workspaceId, keyed.map(match), known);
  const inDb = new MatchIndex(existing);
  const byId = new Map(existing.map((e) => [e.id, e]));
  const inBatch = new MatchIndex<MatchFields & { plan: Plan }>();
  const claimed = new Map<string, Plan>();
  const emailsTaken = new Map(existing.filter((e) => e.email).map((e) => [e.email!, e.id]));
  const crmIdsTaken = new Map(existing.filter((e) => e.crmId).map((e) => [e.crmId!, e.id]));

  const results: ({ outcome: TWriteOutcome; plan: Plan } | null)[] = [];
  const plans: Plan[] = [];
  keyed.forEach((k, i) => {
    const m = match(k);
    const earlier = inBatch.find(m);
    if (earlier) return results.push({ outcome: "duplicate", plan: earlier.plan });
    const found = (k.row.contactId ? byId.get(k.row.contactId) : undefined) ?? inDb.find(m);
    if (found && claimed.has(found.id)) return results.push({ outcome: "duplicate", plan: claimed.get(found.id)! });
    const moves = Boolean(k.row.company || k.row.website || k.row.accountId);
    const plan: Plan = found
      ? {
          i,
          kind: o.onExisting === "update" ? "update" : "keep",
          contactId: found.id,
          existing: found,
          row: k.row,
          keys: k.keys,
          needsAccount: o.onExisting === "update" && (moves || !found.accountId),
        }
      : { i, kind: "create", contactId: newId("ctc"), row: k.row, keys: k.keys, needsAccount: true };
    if (found) claimed.set(found.id, plan);
    inBatch.add({ ...m, plan });
    plans.push(plan);
    results.push(null);
  });

  const accountOf = await resolveAccounts(
    tx,
    o,
    plans.filter((p) => p.needsAccount),
  );
  const creates: Record<string, unknown>[] = [];
  const updates: Record<string, unknown>[] = [];
  const outcomes = new Map<Plan, TWriteOutcome>();
  const keptOf = new Map<Plan, number>();
  const history: THistoryRow[] = [];
  for (const plan of plans) {
    const { row, keys } = plan;
    if (plan.kind === "create") {
      // Another contact keeps an email or CRM id it already has (only possible for rows matched by name and address).
      creates.push({
        id: plan.contactId,
        accountId: accountOf.get(plan) ?? null,
        firstName: row.firstName,
        lastName: row.lastName,
        title: row.title,
        email: row.email && !emailsTaken.has(row.email) ? row.email : null,
        phone: row.phone,
        addressLine1: row.addressLine1,
        addressLine2: row.addressLine2,
        city: row.city,
        region: row.region,
        postalCode: row.postalCode,
        country: row.country,
        addressKey: keys.addressKey,
        matchKey: keys.matchKey,
        crmId: row.crmId && !crmIdsTaken.has(row.crmId) ? row.crmId : null,
        customFields: row.customFields,
        fieldSources: created,
      });
      outcomes.set(plan, "created");
      continue;
    }
    if (plan.kind === "keep") {
      outcomes.set(plan, "skipped");
      continue;
    }
    const u = mergeUpdate(
      plan.existing!,
      row,
      { emailsTaken, crmIdsTaken },
      writer,
      at,
      accountOf.get(plan) ?? plan.existing!.accountId,
    );
    keptOf.set(plan, u.kept);
    if (u.update) updates.push(u.update);
    history.push(...u.history);
    outcomes.set(plan, u.outcome);
  }
  for (const part of slices(creates)) await insertContacts(tx, o, part);
  for (const part of slices(updates)) await updateContacts(tx, o.workspaceId, part);
  for (const part of slices(history, 5000)) await recordFieldChanges(tx, o.workspaceId, writer, part);
  if (o.audienceId) {
    for (const part of slices(plans, 5000)) {
      await tx.$executeRaw`
        INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId", "addedAt")
        SELECT ${o.audienceId}, x, ${o.workspaceId}, now() FROM unnest(${part.map((p) => p.contactId)}::text[]) AS x
        ON CONFLICT DO NOTHING`;
    }
  }
  const planOf = new Map(plans.map((p) => [p.i, p]));
  return keyed.map((_, i) => {
    const r = results[i];
    if (r) return { outcome: r.outcome, contactId: r.plan.contactId, keptFields: 0 };
    const plan = planOf.get(i)!;
    return { outcome: outcomes.get(plan)!, contactId: plan.contactId, keptFields: keptOf.get(plan) ?? 0 };
  });
}

/**
 * What a source's row does to an existing contact (mergeInto, by field provenance): the row of
 * updateContacts to write, if any, the field history, and whether the contact changed. The
 * import's staged path (imports/staged-write.ts) runs it for the rows it cannot prove unchanged.
 */
export function mergeUpdate(
  existing: ExistingContact,
  row: TContactInput,
  taken: Taken,
  writer: TWriter,
  at: string,
  accountId: string | null,
) {
  const { merged, provenance, changes, kept } = mergeInto(existing, row, taken, writer, at);
  const mergedKeys = contactKeys(merged);
  const changed = accountId !== existing.accountId || !sameContact(existing, merged);
  const fieldSources = JSON.stringify(provenance);
  if (!changed) {
    // Only what the source said changed (it now agrees with a value someone else wrote): kept, the contact untouched.
    const update =
      fieldSources !== JSON.stringify(parseProvenance(existing.fieldSources))
        ? {
            ...existing,
            accountId,
            fieldSources,
            addressKey: mergedKeys.addressKey,
            matchKey: mergedKeys.matchKey,
            addressChanged: false,
            touched: false,
          }
        : null;
    return { outcome: "unchanged" as TWriteOutcome, update, history: [] as THistoryRow[], kept };
  }
  const addressChanged = ADDRESS.some((f) => (merged[f] ?? null) !== (existing[f] ?? null));
  const update = {
    id: existing.id,
    accountId,
    ...merged,
    fieldSources,
    addressKey: mergedKeys.addressKey,
    matchKey: mergedKeys.matchKey,
    addressChanged,
    touched: true,
  };
  return {
    outcome: "updated" as TWriteOutcome,
    update,
    history: changes.map((c) => ({ contactId: existing.id, ...c })),
    kept,
  };
}

/**
 * The contact each row is now, found as writeContacts finds it (email, else CRM id, else name and
 * address), or null: one set-based look-up for the lot. An import names with it the contact that a
 * row repeating an earlier row of its file joined.
 */
export async function findContactIds(tx: Db, workspaceId: string, rows: MatchFields[]): Promise<(string | null)[]> {
  if (!rows.length) return [];
  const index = new MatchIndex(await findExisting(tx, workspaceId, rows, []));
  return rows.map((r) => index.find(r)?.id ?? null);
}

/** Rows per statement: a statement's arguments stay well under a megabyte. */
const STATEMENT_ROWS = 1000;

export function slices<T>(rows: T[], size = STATEMENT_ROWS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export async function findExisting(
  tx: Db,
  workspaceId: string,
  rows: MatchFields[],
  ids: string[],
): Promise<ExistingContact[]> {
  const emails = [...new Set(rows.flatMap((r) => (r.email ? [r.email] : [])))];
  const crmIds = [...new Set(rows.flatMap((r) => (r.crmId ? [r.crmId] : [])))];
  const matchKeys = [...new Set(rows.flatMap((r) => (r.matchKey ? [r.matchKey] : [])))];
  if (!emails.length && !crmIds.length && !matchKeys.length && !ids.length) return [];
  const columns = Prisma.sql`id, email, "crmId", "matchKey", "accountId", "firstName", "lastName", title, phone,
           "addressLine1", "addressLine2", city, region, "postalCode", country, "customFields", "fieldSources", "createdAt"`;
  const any = (values: string[]) =>
    Prisma.sql`ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;
  // Four index lookups (one per key), not one scan of the workspace's contacts.
  const found = await hotSql<ExistingContact & { createdAt: Date }>(
    tx,
    Prisma.sql`
    SELECT ${columns} FROM "Contact" WHERE "workspaceId" = ${workspaceId} AND email = ${any(emails)}
    UNION ALL
    SELECT ${columns} FROM "Contact" WHERE "workspaceId" = ${workspaceId} AND "crmId" = ${any(crmIds)}
    UNION ALL
    SELECT ${columns} FROM "Contact" WHERE "workspaceId" = ${workspaceId} AND "matchKey" = ${any(matchKeys)}
    UNION ALL
    SELECT ${columns} FROM "Contact" WHERE "workspaceId" = ${workspaceId} AND id = ${any(ids)}`,
  );
  const byId = new Map(found.map((c) => [c.id, c]));
  return [...byId.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
}

type Merged = Omit<ExistingContact, "id" | "accountId" | "matchKey" | "fieldSources"> & { matchKey?: string | null };

/**
 * An existing contact with a source's row (field provenance, see provenance.ts): an empty value
 * never erases; a value is written when the source's own value changed since it last came in, so
 * that a person's or an accepted fix's later edit stands until the source really changes. Custom
 * fields are fields of their own. A CRM id stays the first one the contact was given (a person in
 * two CRMs keeps one; each CRM finds it through its own link).
 */
function mergeInto(e: ExistingContact, row: TContactInput, taken: Taken, writer: TWriter, at: string) {
  const free = (map: Map<string, string>, value: string | null) =>
    value !== null && (!map.has(value) || map.get(value) === e.id);
  const incoming = valuesOf({ ...row, email: row.email && free(taken.emailsTaken, row.email) ? row.email : null });
  const r = applySource(valuesOf(e), parseProvenance(e.fieldSources), writer.key, incoming, at);
  const merged: Merged = {
    email: e.email,
    crmId: e.crmId ?? (row.crmId && free(taken.crmIdsTaken, row.crmId) ? row.crmId : null),
    firstName: e.firstName,
    lastName: e.lastName,
    title: e.title,
    phone: e.phone,
    addressLine1: e.addressLine1,
    addressLine2: e.addressLine2,
    city: e.city,
    region: e.region,
    postalCode: e.postalCode,
    country: e.country,
    customFields: { ...(e.customFields ?? {}) },
  };
  for (const c of r.changes) {
    if (c.field.startsWith("custom:")) merged.customFields[c.field.slice(7)] = c.newValue ?? "";
    else if (c.field === "firstName" || c.field === "lastName") merged[c.field] = c.newValue ?? "";
    else if ((TRACKED_FIELDS as readonly string[]).includes(c.field))
      merged[c.field as Exclude<(typeof TRACKED_FIELDS)[number], "firstName" | "lastName">] = c.newValue;
  }
  return { merged, provenance: r.provenance, changes: r.changes, kept: r.kept };
}

function sameContact(e: ExistingContact, m: Merged): boolean {
  const fields = ["email", "crmId", "firstName", "lastName", "title", "phone", ...ADDRESS] as const;
  if (fields.some((f) => (e[f] ?? null) !== (m[f] ?? null))) return false;
  const a = e.customFields ?? {};
  const b = m.customFields;
  return Object.keys(a).length === Object.keys(b).length && Object.entries(b).every(([k, v]) => a[k] === v);
}

/** The columns a batch writes, in the order of the arrays that carry them. */
const ROW_COLUMNS = [
  "id",
  "accountId",
  "firstName",
  "lastName",
  "title",
  "email",
  "phone",
  ...ADDRESS,
  "addressKey",
  "matchKey",
  "crmId",
  "customFields",
  "fieldSources",
] as const;

/**
 * The rows as one text array per column, unpacked by PostgreSQL's unnest: about half the bytes of
 * a JSON object per row (no key names), with less for Prisma and the driver to encode and for
 * PostgreSQL to parse. Custom fields travel as JSON text.
 */
function columnArrays(rows: Record<string, unknown>[]) {
  const arrays = ROW_COLUMNS.map(
    (column) =>
      Prisma.sql`${rows.map((r) => (column === "customFields" ? JSON.stringify(r[column] ?? {}) : column === "fieldSources" ? (typeof r[column] === "string" ? r[column] : JSON.stringify(r[column] ?? {})) : (r[column] ?? null)))}::text[]`,
  );
  return { arrays: Prisma.join(arrays), names: Prisma.raw(ROW_COLUMNS.map((c) => `"${c}"`).join(", ")) };
}

function insertContacts(tx: Db, o: WriteOptions, rows: Record<string, unknown>[]) {
  const v = columnArrays(rows);
  return tx.$executeRaw`
    INSERT INTO "Contact" (id, "workspaceId", "accountId", "firstName", "lastName", title, email, phone, "addressLine1", "addressLine2",
                           city, region, "postalCode", country, "addressKey", "matchKey", "crmId", "customFields", "fieldSources",
                           source, "sourceImportId", "sourceDetail", "createdAt", "updatedAt")
    SELECT v.id, ${o.workspaceId}, v."accountId", v."firstName", v."lastName", v.title, v.email, v.phone, v."addressLine1", v."addressLine2",
           v.city, v.region, v."postalCode", v.country, v."addressKey", v."matchKey", v."crmId", v."customFields"::jsonb, v."fieldSources"::jsonb,
           ${o.source}::"RecordSource", ${o.sourceImportId}, ${o.sourceDetail}, now(), now()
      FROM unnest(${v.arrays}) AS v(${v.names})`;
}

export function updateContacts(tx: Db, workspaceId: string, rows: Record<string, unknown>[]) {
  const v = columnArrays(rows);
  return hotSql(
    tx,
    Prisma.sql`
    UPDATE "Contact" c
       SET "accountId" = v."accountId", "firstName" = v."firstName", "lastName" = v."lastName", title = v.title, email = v.email,
           phone = v.phone, "addressLine1" = v."addressLine1", "addressLine2" = v."addressLine2", city = v.city, region = v.region,
           "postalCode" = v."postalCode", country = v.country, "addressKey" = v."addressKey", "matchKey" = v."matchKey",
           "crmId" = v."crmId", "customFields" = v."customFields"::jsonb, "fieldSources" = v."fieldSources"::jsonb,
           "addressStatus" = CASE WHEN v."addressChanged" THEN 'unverified'::"AddressStatus" ELSE c."addressStatus" END,
           "undeliverableReason" = CASE WHEN v."addressChanged" THEN NULL ELSE c."undeliverableReason" END,
           "updatedAt" = CASE WHEN v.touched THEN now() ELSE c."updatedAt" END
      FROM unnest(${v.arrays}, ${rows.map((r) => Boolean(r.addressChanged))}::boolean[], ${rows.map((r) => r.touched !== false)}::boolean[]) AS v(${v.names}, "addressChanged", touched)
     WHERE c.id = v.id AND c."workspaceId" = ${workspaceId}`,
  );
}
