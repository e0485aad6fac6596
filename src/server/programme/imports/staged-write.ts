import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import { resolveAccounts } from "@/server/records/contacts/account-resolve";
import {
  type ExistingContact,
  newId,
  type Plan,
  type TWriteOutcome,
  type WriteOptions,
} from "@/server/records/contacts/write-model";
import { findExisting, lockContactWrites, mergeUpdate, slices, updateContacts } from "@/server/records/contacts/write";
import {
  createdBy,
  recordFieldChanges,
  type THistoryRow,
  TRACKED_FIELDS,
  writerForSource,
} from "@/server/records/contacts/provenance";
import type { Batch } from "./prepare";
import { batchRange, clearStageSql } from "./stage";

/** What the match statement says of one staged row. */
interface Matched {
  row: number;
  /** The existing contact the row is (email, else CRM id, else name and address), or null. */
  cid: string | null;
  /** 1 for the first row of the batch that is this contact; a later one is merged as a duplicate. */
  nth: number;
  accountId: string | null;
  /** The contact's email, first and last name, each only where the row has none (an account named after the person, or the email's domain). */
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  /** Another contact holding the row's CRM id (asked only when the contact has none of its own). */
  crmOwner: string | null;
  /** Every value the row gives equals the contact's and was last written by this source: nothing to write. */
  same: boolean;
}

/**
 * A source's value of a field, unchanged: for every tracked field the row gives (an empty cell gives
 * nothing), the contact's value is the same and its writer is this source. Conservative: a row it
 * cannot prove unchanged goes through mergeUpdate (field provenance) like any changed row.
 *
 * First the common case in plain comparisons: a contact no one but its maker has written (no
 * per-field writers), made by this source, whose values include every value the row gives (custom
 * fields by JSON containment). Only a row that fails it is checked field by field, each field's
 * writer read from the provenance (a subquery per row, several times the cost).
 */
function samePredicate(source: string) {
  const fields = TRACKED_FIELDS.map(
    (f) => Prisma.sql`(${f}::text, s.${Prisma.raw(`"${f}"`)}, c.${Prisma.raw(`"${f}"`)})`,
  );
  const writer = (field: Prisma.Sql) =>
    Prisma.sql`coalesce(c."fieldSources"->'f'->${field}->>'k', c."fieldSources"->>'o')`;
  const equal = TRACKED_FIELDS.map((f) => Prisma.raw(`(s."${f}" IS NULL OR s."${f}" = '' OR s."${f}" = c."${f}")`));
  return Prisma.sql`((c."fieldSources"->'f' IS NULL AND c."fieldSources"->>'o' = ${source}
      AND ${Prisma.join(equal, " AND ")} AND s."customFields" <@ c."customFields")
    OR (NOT EXISTS (SELECT 1 FROM (VALUES ${Prisma.join(fields)}) AS v(f, inc, cur)
                 WHERE v.inc <> '' AND (v.inc IS DISTINCT FROM v.cur OR ${writer(Prisma.sql`v.f`)} IS DISTINCT FROM ${source}))
    AND NOT EXISTS (SELECT 1 FROM jsonb_each_text(s."customFields") e
                     WHERE e.value <> '' AND (c."customFields"->>e.key IS DISTINCT FROM e.value OR ${writer(Prisma.sql`('custom:' || e.key)`)} IS DISTINCT FROM ${source}))))`;
}

/**
 * Writes an import's staged batch (stage.ts) with set-based statements, in the caller's
 * transaction: one statement matches every staged row to the workspace's contacts (email, else CRM
 * id, else name and address with no disagreeing email or CRM id; the oldest contact first, as
 * dedupe.ts; the staged row carried along, not looked up again) and says which rows change nothing; accounts are resolved for the rows that need one
 * (resolveAccounts, cached per import); new contacts are inserted from the staging table; rows it
 * cannot prove unchanged are merged by field provenance (mergeUpdate) and updated; every row's
 * contact joins the audience; the staged rows are deleted. Returns, per batch row, what happened,
 * as writeContacts does.
 */
export async function writeStaged(
  tx: Db,
  importId: string,
  batch: Batch,
  o: WriteOptions & { asyncCommit?: boolean },
): Promise<{ outcome: TWriteOutcome; contactId: string; keptFields: number }[]> {
  await lockContactWrites(tx, o.workspaceId, { asyncCommit: o.asyncCommit });
  const writer = writerForSource(o.source, {
    importId: o.sourceImportId,
    connectionId: o.connectionId,
    label: o.sourceDetail,
  });
  const ws = o.workspaceId;
  const [first, last] = batchRange(batch.rowNumbers);
  const matched = await hotSql<Matched>(
    tx,
    Prisma.sql`
    WITH k AS (
      SELECT s.*, coalesce(
        (SELECT c.id FROM "Contact" c WHERE c."workspaceId" = ${ws} AND c.email = s.email),
        (SELECT c.id FROM "Contact" c WHERE c."workspaceId" = ${ws} AND c."crmId" = s."crmId"),
        (SELECT c.id FROM "Contact" c WHERE c."workspaceId" = ${ws} AND c."matchKey" = s."matchKey"
            AND (s.email IS NULL OR c.email IS NULL) AND (s."crmId" IS NULL OR c."crmId" IS NULL)
          ORDER BY c."createdAt", c.id COLLATE "C" LIMIT 1)) AS cid
        FROM "ContactImportStage" s WHERE s."importId" = ${importId} AND s.row BETWEEN ${first} AND ${last}),
    m AS (SELECT k.*, (row_number() OVER (PARTITION BY k.cid ORDER BY k.row))::int AS nth FROM k)
    SELECT s.row, s.cid, s.nth, c."accountId",
           -- Read (by resolveAccounts) only where the row has none of its own.
           CASE WHEN s.email IS NULL THEN c.email END AS email, CASE WHEN s."firstName" = '' THEN c."firstName" END AS "firstName",
           CASE WHEN s."lastName" = '' THEN c."lastName" END AS "lastName",
           CASE WHEN c.id IS NOT NULL AND c."crmId" IS NULL AND s."crmId" IS NOT NULL
                THEN (SELECT o.id FROM "Contact" o WHERE o."workspaceId" = ${ws} AND o."crmId" = s."crmId") END AS "crmOwner",
           (c.id IS NOT NULL AND s.nth = 1 AND ${samePredicate(writer.key)}
             AND (c."crmId" IS NOT NULL OR s."crmId" IS NULL
                  OR EXISTS (SELECT 1 FROM "Contact" o WHERE o."workspaceId" = ${ws} AND o."crmId" = s."crmId"))) AS same
      FROM m s LEFT JOIN "Contact" c ON c.id = s.cid`,
  );
  const byRow = new Map(matched.map((m) => [m.row, m]));

  type StagedPlan = Plan & { same: boolean; crmOwner: string | null };
  const results: { outcome: TWriteOutcome; contactId: string; keptFields: number }[] = [];
  const plans: StagedPlan[] = [];
  batch.rows.forEach((row, i) => {
    const m = byRow.get(batch.rowNumbers[i]);
    if (!m) throw new Error(`row ${batch.rowNumbers[i]} of the import is not staged`);
    const keys = row.keys ?? { addressKey: null, matchKey: null };
    if (m.cid && m.nth > 1) return results.push({ outcome: "duplicate", contactId: m.cid, keptFields: 0 });
    if (!m.cid) {
      const plan: StagedPlan = {
        i,
        kind: "create",
        contactId: newId("ctc"),
        row,
        keys,
        needsAccount: true,
        same: false,
        crmOwner: null,
      };
      plans.push(plan);
      return results.push({ outcome: "created", contactId: plan.contactId, keptFields: 0 });
    }
    const existing = {
      id: m.cid,
      accountId: m.accountId,
      email: m.email,
      firstName: m.firstName ?? "",
      lastName: m.lastName ?? "",
      // Only what resolveAccounts reads: the merge reads the whole contact again (findExisting).
    } as ExistingContact;
    const update = o.onExisting === "update";
    const moves = Boolean(row.company || row.website || row.accountId);
    plans.push({
      i,
      kind: update ? "update" : "keep",
      contactId: m.cid,
      existing,
      row,
      keys,
      needsAccount: update && (moves || !m.accountId),
      same: m.same,
      crmOwner: m.crmOwner,
    });
    results.push({ outcome: update ? "unchanged" : "skipped", contactId: m.cid, keptFields: 0 });
  });

  const accountOf = await resolveAccounts(
    tx,
    o,
    plans.filter((p) => p.needsAccount),
  );
  const creates = plans.filter((p) => p.kind === "create");
  // Rows not proven unchanged, or whose account moves: merged by field provenance with the whole contact.
  const toMerge = plans.filter(
    (p) => p.kind === "update" && (!p.same || (accountOf.get(p) ?? p.existing!.accountId) !== p.existing!.accountId),
  );
  for (const part of slices(creates)) {
    await hotSql(
      tx,
      Prisma.sql`
      INSERT INTO "Contact" (id, "workspaceId", "accountId", "firstName", "lastName", title, email, phone, "addressLine1", "addressLine2",
                             city, region, "postalCode", country, "addressKey", "matchKey", "crmId", "customFields", "fieldSources",
                             source, "sourceImportId", "sourceDetail", "createdAt", "updatedAt")
      SELECT v.id, ${ws}, v."accountId", s."firstName", s."lastName", s.title, s.email, s.phone, s."addressLine1", s."addressLine2",
             s.city, s.region, s."postalCode", s.country, s."addressKey", s."matchKey", s."crmId", s."customFields", ${JSON.stringify(createdBy(writer.key))}::jsonb,
             ${o.source}::"RecordSource", ${o.sourceImportId}, ${o.sourceDetail}, now(), now()
        FROM unnest(${part.map((p) => batch.rowNumbers[p.i])}::int[], ${part.map((p) => p.contactId)}::text[], ${part.map((p) => accountOf.get(p) ?? null)}::text[]) AS v(row, id, "accountId")
        JOIN "ContactImportStage" s ON s."importId" = ${importId} AND s.row = v.row
       ORDER BY v.row`,
    );
  }
  if (toMerge.length) {
    const full = new Map(
      (
        await findExisting(
          tx,
          ws,
          [],
          toMerge.map((p) => p.contactId),
        )
      ).map((e) => [e.id, e]),
    );
    const crmIdsTaken = new Map<string, string>();
    for (const p of toMerge) {
      const owner = p.crmOwner;
      if (owner && p.row.crmId) crmIdsTaken.set(p.row.crmId, owner);
    }
    const at = new Date().toISOString();
    const updates: Record<string, unknown>[] = [];
    const history: THistoryRow[] = [];
    for (const p of toMerge) {
      const e = full.get(p.contactId)!;
      // The row's email is never another contact's: a row whose email a contact has is that contact.
      const u = mergeUpdate(
        e,
        p.row,
        { emailsTaken: new Map(), crmIdsTaken },
        writer,
        at,
        accountOf.get(p) ?? e.accountId,
      );
      results[p.i] = { outcome: u.outcome, contactId: p.contactId, keptFields: u.kept };
      if (u.update) updates.push(u.update);
      history.push(...u.history);
    }
    for (const part of slices(updates)) await updateContacts(tx, ws, part);
    for (const part of slices(history, 5000)) await recordFieldChanges(tx, ws, writer, part);
  }
  // The batch's staged rows are removed in the statement that adds its contacts to the audience (one round trip).
  const clear = clearStageSql(importId, [first, last]);
  if (o.audienceId) {
    await hotSql(
      tx,
      Prisma.sql`
      WITH cleared AS (${clear})
      INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId", "addedAt")
      SELECT ${o.audienceId}, x, ${ws}, now() FROM unnest(${plans.map((p) => p.contactId)}::text[]) AS x
      ON CONFLICT DO NOTHING`,
    );
  } else await hotSql(tx, clear);
  return results;
}
