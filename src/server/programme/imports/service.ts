import type { ContactImport, Job, PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import { findOrCreateAudience } from "@/server/records/audiences/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { claimJob, runJob } from "@/server/records/jobs/runner";
import { enqueueJob, jobView } from "@/server/records/jobs/service";
import { jobDeps } from "@/server/records/jobs/worker";
import { contactsImportJob } from "./job";
import {
  CONTACT_FIELDS,
  customFieldName,
  customTargetBeside,
  isColumnTarget,
  mappingProblems,
  type TColumnTarget,
} from "@/server/records/contacts/csv-headers";
import type { TColumnOutcome, TImportStartInput, TImportView } from "./schema";

type ImportWithRefs = ContactImport & { job?: Job | null; audienceName?: string | null };

export function importView(
  record: ImportWithRefs,
  job: Job | null,
  audienceName: string | null,
  now = new Date(),
): TImportView {
  return {
    importId: record.id,
    fileName: record.fileName,
    status: job ? job.status : "awaiting_mapping",
    encoding: record.encoding,
    delimiter: record.delimiter,
    columns: record.columns,
    columnMapping: columnOutcomes(record.columns, record.mapping),
    onExisting: record.onExisting,
    audienceId: record.audienceId,
    audienceName,
    rows: record.rowCount,
    rowsDone: record.rowsDone,
    created: record.created,
    updated: record.updated,
    skipped: record.skipped,
    duplicates: record.duplicates,
    refusedCount: record.refused,
    warningCount: record.warnings,
    keptFields: record.keptFields,
    requestedBy: record.requestedByLabel,
    createdAt: record.createdAt.toISOString(),
    startedAt: record.startedAt?.toISOString() ?? null,
    finishedAt: record.finishedAt?.toISOString() ?? null,
    job: job ? jobView(job, now) : null,
  };
}

/** Each column of the file with what its mapping made of it (the custom field's name as kept); null before the import starts. */
export function columnOutcomes(columns: string[], mapping: unknown): TColumnOutcome[] | null {
  if (!Array.isArray(mapping)) return null;
  return columns.map((column, i) => {
    const target = typeof mapping[i] === "string" ? (mapping[i] as string) : "ignore";
    return { column, became: target.startsWith("custom:") ? `custom:${customFieldName(target)}` : target };
  });
}

async function loadImport(db: Db, p: { workspaceId: string; importId: string }) {
  const record = await db.contactImport.findFirst({ where: { id: p.importId, workspaceId: p.workspaceId } });
  if (!record)
    throw new AppError(
      "not_found",
      "No such import in this workspace; imports_get takes the importId that contacts_import returned.",
    );
  return record;
}

/** One import with its job's progress. */
export async function getImport(db: Db, p: { workspaceId: string; importId: string }): Promise<TImportView> {
  const record = await loadImport(db, p);
  const [job, audience] = await Promise.all([
    record.jobId ? db.job.findFirst({ where: { id: record.jobId, workspaceId: p.workspaceId } }) : null,
    record.audienceId
      ? db.audience.findFirst({ where: { id: record.audienceId, workspaceId: p.workspaceId }, select: { name: true } })
      : null,
  ]);
  return importView(record, job, audience?.name ?? null);
}

/**
 * The workspace's imports that were started, newest first, a page at a time. Uploads never
 * imported are not among them: they wrote nothing, and are listed apart (listUnstartedUploads).
 */
export async function listImports(db: Db, p: { workspaceId: string; cursor?: string | null; take: number }) {
  const cursor = p.cursor
    ? await db.contactImport.findFirst({
        where: { id: p.cursor, workspaceId: p.workspaceId, jobId: { not: null } },
        select: { id: true, createdAt: true },
      })
    : null;
  if (p.cursor && !cursor)
    throw new AppError("not_found", "The cursor does not name an import of this workspace; start again without it.");
  const rows = await db.contactImport.findMany({
    where: {
      workspaceId: p.workspaceId,
      jobId: { not: null },
      ...(cursor
        ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
  });
  const page = rows.slice(0, p.take);
  const jobs = await db.job.findMany({
    where: { workspaceId: p.workspaceId, id: { in: page.flatMap((r) => (r.jobId ? [r.jobId] : [])) } },
  });
  const audiences = await db.audience.findMany({
    where: { workspaceId: p.workspaceId, id: { in: page.flatMap((r) => (r.audienceId ? [r.audienceId] : [])) } },
    select: { id: true, name: true },
  });
  const now = new Date();
  return {
    imports: page.map((r) =>
      importView(
        r,
        jobs.find((j) => j.id === r.jobId) ?? null,
        audiences.find((a) => a.id === r.audienceId)?.name ?? null,
        now,
      ),
    ),
    nextCursor: rows.length > p.take ? page[page.length - 1].id : null,
  };
}

/** The most uploads never imported that the imports page lists (they are removed after a day; more are counted). */
export const MAX_LISTED_UPLOADS = 20;

/**
 * Files uploaded but never imported (the mapping was never confirmed), newest first, not counting
 * a file still being received: at most
 * MAX_LISTED_UPLOADS of them, and how many there are. Each can be discarded (discardUpload).
 */
export async function listUnstartedUploads(db: Db, p: { workspaceId: string }) {
  // Only uploads whose file has arrived (read and scanned: it has columns), not one still on its way.
  const where = { workspaceId: p.workspaceId, jobId: null, NOT: { columns: { isEmpty: true } } };
  const [rows, total] = await Promise.all([
    db.contactImport.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: MAX_LISTED_UPLOADS }),
    db.contactImport.count({ where }),
  ]);
  return {
    uploads: rows.map((r) => ({
      importId: r.id,
      fileName: r.fileName,
      rows: r.rowCount,
      columns: r.columns.length,
      byteSize: r.byteSize,
      uploadedBy: r.requestedByLabel,
      uploadedAt: r.createdAt.toISOString(),
    })),
    total,
  };
}

/** The refusal of discarding an import that has started: its contacts are written and its report is their record. */
export const STARTED_IMPORT_NOT_DISCARDED =
  "This import has started, so it cannot be discarded: its report is the record of the contacts it wrote. Only a file that was uploaded and never imported can be discarded.";

/**
 * Discards a file that was uploaded but never imported: the import record and its kept file (its
 * chunks) are deleted, and the audit log says so. An import that has started is refused
 * (invalid_state) and nothing is deleted; one of another workspace is not found. A start racing
 * the discard either wins (the discard is refused) or finds the upload gone (startImport).
 */
export async function discardUpload(
  prisma: PrismaClient,
  p: { workspaceId: string; importId: string; actor: Actor },
): Promise<{ importId: string; fileName: string; discarded: true }> {
  return prisma.$transaction(async (tx) => {
    const record = await tx.contactImport.findFirst({
      where: { id: p.importId, workspaceId: p.workspaceId },
      select: { id: true, fileName: true, rowCount: true, jobId: true },
    });
    if (!record) throw new AppError("not_found", "No such import in this workspace.");
    if (record.jobId) throw new AppError("invalid_state", STARTED_IMPORT_NOT_DISCARDED);
    // Only while it is still not started: a start that committed meanwhile keeps it. Its chunks
    // (and anything else of it) go with it: their foreign keys cascade.
    const gone = await tx.contactImport.deleteMany({
      where: { id: record.id, workspaceId: p.workspaceId, jobId: null },
    });
    if (gone.count !== 1) throw new AppError("invalid_state", STARTED_IMPORT_NOT_DISCARDED);
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "contacts.import.discarded",
      { type: "import", id: record.id },
      { fileName: record.fileName, rows: record.rowCount },
    );
    return { importId: record.id, fileName: record.fileName, discarded: true as const };
  });
}

/** Refused rows and warnings of an import, by row number, a page at a time. */
export async function listImportIssues(
  db: Db,
  p: { workspaceId: string; importId: string; kind: "refused" | "warning"; afterRow?: number | null; take: number },
) {
  await loadImport(db, p);
  const rows = await db.contactImportIssue.findMany({
    where: {
      importId: p.importId,
      kind: p.kind,
      ...(p.afterRow ? { row: { gt: p.afterRow } } : {}),
      import: { workspaceId: p.workspaceId },
    },
    orderBy: [{ row: "asc" }, { id: "asc" }],
    take: p.take + 1,
    select: { row: true, column: true, reason: true, values: true },
  });
  const page = rows.slice(0, p.take);
  return { issues: page, nextAfterRow: rows.length > p.take ? page[page.length - 1].row : null };
}

/** The rows an import merged as duplicates, by row number, with the contact each joined, a page at a time. */
export async function listImportDuplicates(
  db: Db,
  p: { workspaceId: string; importId: string; afterRow?: number | null; take: number },
) {
  await loadImport(db, p);
  const rows = await db.contactImportDuplicate.findMany({
    where: {
      importId: p.importId,
      ...(p.afterRow ? { row: { gt: p.afterRow } } : {}),
      import: { workspaceId: p.workspaceId },
    },
    orderBy: { row: "asc" },
    take: p.take + 1,
    select: { row: true, contactId: true },
  });
  const page = rows.slice(0, p.take);
  const ids = [...new Set(page.flatMap((r) => (r.contactId ? [r.contactId] : [])))];
  const contacts = ids.length
    ? await db.contact.findMany({
        where: { workspaceId: p.workspaceId, id: { in: ids } },
        select: { id: true, firstName: true, lastName: true, email: true },
      })
    : [];
  const nameOf = new Map(contacts.map((c) => [c.id, `${c.firstName} ${c.lastName}`.trim() || c.email || c.id]));
  return {
    // A contact deleted since is no longer named: its id is not given out as if it were still here.
    rows: page.map((r) => ({
      row: r.row,
      contactId: r.contactId && nameOf.has(r.contactId) ? r.contactId : null,
      contactName: (r.contactId && nameOf.get(r.contactId)) || null,
    })),
    nextAfterRow: rows.length > p.take ? page[page.length - 1].row : null,
  };
}

/**
 * Starts an uploaded import with the person's (or agent's) mapping: checks the mapping, finds or
 * makes the audience it lands in, and queues the contacts_import job, all in one transaction.
 */
export async function startImport(
  prisma: PrismaClient,
  p: TImportStartInput & { workspaceId: string; actor: Actor; audienceSource?: "csv" | "crm" | "manual" },
): Promise<TImportView> {
  return prisma.$transaction(async (tx) => {
    const record = await loadImport(tx, p);
    if (record.jobId)
      throw new AppError(
        "invalid_state",
        "This import has already started; follow it with imports_get, or upload the file again to import it once more.",
      );
    if (p.mapping.length !== record.columns.length) {
      throw new AppError(
        "validation_failed",
        `The mapping names ${p.mapping.length} columns but the file has ${record.columns.length} (${record.columns.join(", ")}).`,
      );
    }
    const problems = mappingProblems(p.mapping as TColumnTarget[], record.columns);
    if (problems.length)
      throw new AppError("validation_failed", problems.join(" "), {
        errors: problems.map((detail) => ({ pointer: "/mapping", detail })),
      });
    const audience = await findOrCreateAudience(tx, {
      workspaceId: p.workspaceId,
      audienceId: p.audienceId,
      name: p.audienceName ?? `${record.fileName.replace(/\.(csv|tsv|txt)$/i, "")} (import)`,
      source: p.audienceSource ?? "csv",
      actor: p.actor,
    });
    const job = await enqueueJob(tx, {
      workspaceId: p.workspaceId,
      kind: "contacts_import",
      title: `Import of ${record.fileName}`,
      input: { importId: record.id },
      unit: "rows",
      total: record.rowCount,
      requestedBy: p.actor,
    });
    // Only an upload still not started: one discarded meanwhile (discardUpload), or started by a
    // request at the same moment, is not started twice; the job and audience above roll back.
    const moved = await tx.contactImport.updateMany({
      where: { id: record.id, workspaceId: p.workspaceId, jobId: null },
      data: {
        mapping: p.mapping,
        onExisting: p.onExisting,
        audienceId: audience.id,
        jobId: job.id,
        startedAt: new Date(),
      },
    });
    if (moved.count !== 1) {
      const still = await tx.contactImport.findFirst({
        where: { id: record.id, workspaceId: p.workspaceId },
        select: { id: true },
      });
      throw still
        ? new AppError(
            "invalid_state",
            "This import has already started; follow it with imports_get, or upload the file again to import it once more.",
          )
        : new AppError("not_found", "This upload was discarded; upload the file again to import it.");
    }
    const updated = await tx.contactImport.findFirstOrThrow({ where: { id: record.id, workspaceId: p.workspaceId } });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "contacts.import.started",
      { type: "import", id: record.id },
      {
        fileName: record.fileName,
        rows: record.rowCount,
        onExisting: p.onExisting,
        audienceId: audience.id,
      },
    );
    return importView(updated, job, audience.name);
  });
}

/** Starts a failed or cancelled import again where it stopped (its file is kept for a day). */
export async function resumeImport(
  prisma: PrismaClient,
  p: { workspaceId: string; importId: string; actor: Actor },
): Promise<TImportView> {
  return prisma.$transaction(async (tx) => {
    const record = await loadImport(tx, p);
    const job = record.jobId
      ? await tx.job.findFirst({ where: { id: record.jobId, workspaceId: p.workspaceId } })
      : null;
    if (!job || !["failed", "cancelled"].includes(job.status))
      throw new AppError("invalid_state", "Only a failed or cancelled import can be resumed.");
    if ((await tx.contactImportChunk.count({ where: { importId: record.id } })) === 0) {
      throw new AppError(
        "invalid_state",
        "The file of this import is no longer kept; upload it again (rows already imported will be found and not duplicated).",
      );
    }
    const next = await enqueueJob(tx, {
      workspaceId: p.workspaceId,
      kind: "contacts_import",
      title: `Import of ${record.fileName} (resumed)`,
      input: { importId: record.id },
      unit: "rows",
      total: record.rowCount,
      requestedBy: p.actor,
    });
    await tx.job.updateMany({
      where: { id: next.id, workspaceId: p.workspaceId },
      data: { progressDone: record.rowsDone },
    });
    const updated = await tx.contactImport.update({
      where: { id: record.id },
      data: { jobId: next.id, finishedAt: null },
    });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "contacts.import.resumed",
      { type: "import", id: record.id },
      { fromRow: record.rowsDone },
    );
    return importView(updated, { ...next, progressDone: record.rowsDone }, null);
  });
}

/**
 * Runs a just-started import inside this request (small agent imports answer with their report),
 * unless a worker has already taken it; either way returns the import as it is now.
 */
export async function runImportNow(
  prisma: PrismaClient,
  p: { workspaceId: string; importId: string; jobId: string },
): Promise<TImportView> {
  const job = await claimJob(prisma, { jobId: p.jobId, workspaceId: p.workspaceId, now: new Date() });
  if (job) await runJob(prisma, job, jobDeps({ contacts_import: contactsImportJob }));
  return getImport(prisma, p);
}

/**
 * An agent's mapping by column name ({ "E-mail": "email", "Shoe size": "custom" }) over the
 * suggested one: named columns take the given field (a field given to one column is taken from
 * any other, which is then kept as a custom field under its own header), "custom" keeps the column
 * as a custom field under its own name.
 */
export function mappingByName(
  columns: string[],
  suggested: TColumnTarget[],
  given: Record<string, string> | undefined,
): TColumnTarget[] {
  if (!given) return suggested;
  const targets = [...suggested];
  const errors: string[] = [];
  for (const [column, rawTarget] of Object.entries(given)) {
    const index = columns.findIndex((c) => c.trim().toLowerCase() === column.trim().toLowerCase());
    if (index < 0) {
      errors.push(`The file has no column “${column}”; its columns are ${columns.map((c) => `“${c}”`).join(", ")}.`);
      continue;
    }
    const target =
      rawTarget === "custom" ? (`custom:${columns[index]}` as TColumnTarget) : (rawTarget as TColumnTarget);
    if (!isColumnTarget(target)) {
      errors.push(
        `“${rawTarget}” (for “${column}”) is not a field: use one of ${CONTACT_FIELDS.join(", ")}, "custom", "custom:<name>" or "ignore".`,
      );
      continue;
    }
    targets[index] = target;
    // A column whose field (or custom field) is given to this one is kept as a custom field of its own, not dropped.
    if (target !== "ignore")
      targets.forEach((t, i) => t === target && i !== index && (targets[i] = customTargetBeside(columns[i], targets)));
  }
  if (errors.length)
    throw new AppError("validation_failed", errors.join(" "), {
      errors: errors.map((detail) => ({ pointer: "/mapping", detail })),
    });
  return targets;
}

/** An import's report as agents read it: counts, the first 100 refused rows and warnings, progress. */
export async function importReport(
  db: Db,
  p: { workspaceId: string; importId: string; refusedAfterRow?: number | null; duplicatesAfterRow?: number | null },
) {
  const view = await getImport(db, p);
  const [refused, warnings, merged] = await Promise.all([
    listImportIssues(db, { ...p, kind: "refused", afterRow: p.refusedAfterRow, take: 100 }),
    listImportIssues(db, { ...p, kind: "warning", take: 100 }),
    listImportDuplicates(db, { ...p, afterRow: p.duplicatesAfterRow, take: 100 }),
  ]);
  const issue = ({ row, column, reason }: { row: number; column: string | null; reason: string }) => ({
    row,
    column,
    reason,
  });
  return {
    importId: view.importId,
    status: view.status,
    rows: view.rows,
    created: view.created,
    updated: view.updated,
    skipped: view.skipped,
    duplicates: view.duplicates,
    duplicateRows: merged.rows.map(({ row, contactId }) => ({ row, contactId })),
    nextDuplicatesAfterRow: merged.nextAfterRow,
    columns: view.columnMapping ?? view.columns.map((column) => ({ column, became: "ignore" })),
    refused: refused.issues.map(issue),
    refusedCount: view.refusedCount,
    nextRefusedAfterRow: refused.nextAfterRow,
    warnings: warnings.issues.map(issue),
    warningCount: view.warningCount,
    keptFields: view.keptFields,
    audienceId: view.audienceId,
    progress: view.job?.progress ?? null,
    error: view.job?.error ?? null,
  };
}
