import { z } from "zod";
import type { PrismaClient } from "@/generated/prisma/client";
import { newAccountCache } from "@/server/records/contacts/write-model";
import type { Db } from "@/server/ground/db";
import { defineJobHandler, JobCancelled, JobError, JobLeaseLost, type JobRun } from "@/server/records/jobs/handler";
import { forgetQueryHistory } from "@/server/programme/imports/query-history";
import {
  CRM_OBJECT_TYPES,
  CrmAccessError,
  type CrmAdapter,
  CrmCredentialsRevoked,
  CrmCursorExpired,
  CrmQuotaExceeded,
  CrmRateLimited,
  MAX_LIST_MEMBERS,
} from "./adapter";
import { dealFilterOf } from "./deal-rules";
import { applyDeleted, markSeen, type TRecordType, unseenRecords } from "./deletions";
import { leadsChoice, moveConverted, writeLeadsPage } from "./leads";
import { adapterFor, openCredentials } from "./registry";
import { CRM_LABELS, type TSyncCounts } from "./schema";
import { SecretBoxError } from "@/server/ground/platform/secret-box";
import { markNeedsReconnect } from "./service";
import { type Issue, type PageContext, writeCompanies, writeContactsPage, writeList } from "./sync-writes";
import { countsOf } from "./views";
import { countedDealsWriter } from "./deal-writes";
import {
  type Cursor,
  estimateTotal,
  isDataError,
  LeadsUnreadable,
  ListsUnreadable,
  MAX_KEPT_ISSUES,
  MAX_RATE_LIMIT_TRIES,
  MAX_WAIT_MS,
  nextPhase,
  wait,
  WATERMARK_OVERLAP_MS,
} from "./sync-steps";

/**
 * The crm_sync job: companies, then contacts (so each finds its account), then lists (so each
 * finds its members), then deals (so each finds its account), a page at a time. Each page is
 * written in one transaction with the sync's counts, its issues and the job's checkpoint, so a
 * crash resumes at the next page and writes nothing twice. A page whose transaction fails is
 * written again one object at a time, so one object's error never stops the others. A 429 waits
 * the CRM's Retry-After. When every page is read, the connection's watermarks move to the newest
 * last-modified times read: the next sync reads only what changed since.
 */
export const crmSyncJob = defineJobHandler({
  kind: "crm_sync",
  input: z.object({ syncId: z.string() }),
  async run(run) {
    return { ...(await runSync(run.db, run, run.input.syncId)) };
  },
});

/** Counts of what a sync did, returned as the job's result. */
type TResult = TSyncCounts & { syncId: string };

async function runSync(prisma: PrismaClient, run: JobRun<unknown>, syncId: string): Promise<TResult> {
  const sync = await prisma.crmSync.findFirst({
    where: { id: syncId, workspaceId: run.job.workspaceId },
    include: { connection: true },
  });
  if (!sync) throw new JobError("The sync's record is gone; start a new sync.");
  const connection = sync.connection;
  if (connection.status !== "connected" || !connection.credentials)
    throw new JobError("The CRM was disconnected, so nothing more was read.");
  let adapter: CrmAdapter;
  try {
    const { credentials, resealed } = openCredentials(connection);
    // Key rotation: credentials sealed under an older key are sealed again under the current one.
    if (resealed)
      await prisma.crmConnection.updateMany({
        where: { id: connection.id, credentials: connection.credentials },
        data: { credentials: resealed },
      });
    adapter = await adapterFor(credentials, connection.instanceUrl, {
      leads: connection.kind === "salesforce" && connection.leads,
    });
  } catch (error) {
    if (error instanceof SecretBoxError)
      throw new JobError(
        `The saved credentials cannot be read on this server (${error.message}); connect the CRM again.`,
      );
    throw error;
  }

  const label = CRM_LABELS[connection.kind];
  const counts = countsOf(sync.counts);
  const marks = (connection.watermarks ?? {}) as Partial<Record<TRecordType, string>>;
  // Salesforce Leads, when the owner chose them; switched off (with a warning) if Salesforce refuses them mid-sync.
  let leadsOn = connection.kind === "salesforce" && connection.leads;
  const types = (): TRecordType[] => (leadsOn ? [...CRM_OBJECT_TYPES, "leads"] : [...CRM_OBJECT_TYPES]);
  const since = (type: TRecordType): Date | null =>
    sync.mode === "incremental" && marks[type] ? new Date(Date.parse(marks[type]!) - WATERMARK_OVERLAP_MS) : null;
  let keptIssues = await prisma.crmSyncIssue.count({ where: { syncId } });
  const ctx = (issues: Issue[]): PageContext => ({
    workspaceId: sync.workspaceId,
    connectionId: connection.id,
    label,
    actor: { kind: "system", id: null, label: `${label} sync` },
    accountCache,
    counts,
    issues,
    leads: leadsOn,
  });
  const accountCache = newAccountCache();

  // Deals as they count (the owner's pipelines and stages, the outcomes' currency): crm/deal-writes.ts.
  const writeCountedDeals = countedDealsWriter(dealFilterOf(connection.dealFilter), connection.currency);

  const cursor: Cursor = (run.resumeFrom as Cursor | null) ?? {
    phase: "companies",
    page: null,
    listIndex: 0,
    seen: {},
    done: 0,
    total: null,
  };
  if (!run.resumeFrom) {
    cursor.total = await estimateTotal(adapter, since, leadsOn).catch(() => null);
    await run.progress(0, cursor.total);
  }

  /** A CRM call, waiting out 429s (Retry-After, else a growing pause) while keeping the job's lease. */
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (error) {
        if (error instanceof CrmRateLimited && attempt < MAX_RATE_LIMIT_TRIES) {
          counts.rateLimitWaits++;
          await wait(run, cursor, Math.min(error.retryAfterMs ?? 2_000 * 2 ** attempt, MAX_WAIT_MS));
          continue;
        }
        if (error instanceof CrmAccessError && cursor.phase === "lists" && !(error instanceof CrmCredentialsRevoked))
          throw new ListsUnreadable(error.message);
        if (
          error instanceof CrmAccessError &&
          (cursor.phase === "leads" || cursor.phase === "converted") &&
          !(error instanceof CrmCredentialsRevoked)
        )
          throw new LeadsUnreadable(error.message);
        if (error instanceof CrmAccessError) {
          // Credentials the CRM refuses fail every later sync the same way: stop the schedule and tell the owner.
          await markNeedsReconnect(prisma, {
            workspaceId: sync.workspaceId,
            connectionId: connection.id,
            reason: error.message,
          });
          throw new JobError(
            `${error.message} What was read before is kept; the connection needs reconnecting, and its scheduled syncs are stopped until then.`,
          );
        }
        if (error instanceof CrmAccessError || error instanceof CrmQuotaExceeded)
          throw new JobError(`${error.message} What was read before is kept.`);
        if (error instanceof CrmRateLimited)
          throw new Error(`${label} kept answering 429 after ${MAX_RATE_LIMIT_TRIES} tries.`);
        throw error;
      }
    }
  };

  /** Writes a page with the counts, issues and checkpoint in one transaction; on a database error, object by object. */
  const commit = async (
    write: (tx: Db, c: PageContext, items: unknown[]) => Promise<void>,
    items: unknown[],
    next: Cursor,
    describe: (item: unknown) => Issue,
    seen?: { type: TRecordType; ids: string[] },
  ) => {
    const before = structuredClone(counts);
    const save = async (tx: Db, issues: Issue[]) => {
      // A full sync notes every record it read, written or not: reconciliation keeps their links.
      if (seen && sync.mode === "full")
        await markSeen(tx, { workspaceId: sync.workspaceId, connectionId: connection.id }, seen.type, seen.ids, syncId);
      const keep = issues.slice(0, Math.max(0, MAX_KEPT_ISSUES - keptIssues));
      if (keep.length)
        await tx.crmSyncIssue.createMany({
          data: keep.map((i) => ({ syncId, ...i, message: i.message.slice(0, 500) })),
        });
      keptIssues += keep.length;
      await tx.crmSync.update({ where: { id: syncId }, data: { counts } });
      await run.checkpoint(tx, next, next.done, Math.max(next.total ?? 0, next.done) || null);
    };
    let refused = false;
    try {
      await prisma.$transaction(
        async (tx) => {
          const issues: Issue[] = [];
          await write(tx, ctx(issues), items).catch((error) => {
            refused = isDataError(error);
            throw error;
          });
          await save(tx, issues);
        },
        { timeout: 120_000, maxWait: 30_000 },
      );
    } catch (error) {
      // Only a value or constraint the database refused is one object's fault; anything else
      // (a lost connection, a cancel) stops the run, to resume from the last checkpoint.
      if (!refused || error instanceof JobCancelled || error instanceof JobLeaseLost) throw error;
      console.warn(
        `[crm] sync ${syncId}: a page failed as a whole; writing its ${items.length} objects one by one`,
        error,
      );
      Object.assign(counts, structuredClone(before));
      const issues: Issue[] = [];
      for (const item of items) {
        try {
          await prisma.$transaction(async (tx) => write(tx, ctx(issues), [item]), { timeout: 60_000, maxWait: 30_000 });
        } catch (itemError) {
          if (!isDataError(itemError)) throw itemError;
          const failed = describe(item);
          issues.push(failed);
          counts.issues.errors++;
        }
      }
      await prisma.$transaction((tx) => save(tx, issues));
    }
    forgetQueryHistory();
  };

  /** Salesforce refused Leads mid-sync: leads off (the owner is told why), the rest of the sync goes on. */
  const leadsRefused = async (error: LeadsUnreadable, next: Cursor) => {
    leadsOn = false;
    const note = `${error.message} Leads were switched off; turn them on again once it can.`;
    await commit(
      async (tx, c) => {
        const current = await tx.crmConnection.findUniqueOrThrow({ where: { id: connection.id } });
        await tx.crmConnection.update({
          where: { id: connection.id },
          data: await leadsChoice(tx, current, false, note.slice(0, 500)),
        });
        c.issues.push({
          objectType: "contact",
          objectId: "-",
          severity: "warning",
          message: `leads not synced: ${note}`.slice(0, 500),
        });
        c.counts.issues.warnings++;
      },
      [],
      next,
      () => ({ objectType: "contact", objectId: "-", severity: "warning", message: "leads not synced" }),
    );
  };

  while (cursor.phase !== "done") {
    const phase = cursor.phase;
    if ((phase === "converted" || phase === "leads") && !(leadsOn && adapter.leads)) {
      Object.assign(cursor, { phase: nextPhase(phase), page: null, listIndex: 0 });
      continue;
    }
    if (phase === "converted") {
      // Leads converted since the last read, in full syncs too: their contacts become their Contacts' (nothing to do before the first lead read).
      // Conversions have a watermark of their own: the leads phase, later in the same sync, moves the
      // leads' one past conversions made while this sync ran.
      const mark = (marks as Record<string, string | undefined>).leadsConverted ?? marks.leads;
      const from = mark ? new Date(Date.parse(mark) - WATERMARK_OVERLAP_MS) : null;
      if (!from) {
        Object.assign(cursor, { phase: nextPhase(phase), page: null, listIndex: 0 });
        continue;
      }
      const res = await call(() => adapter.leads!.converted(from, cursor.page)).catch((error) =>
        error instanceof LeadsUnreadable ? error : Promise.reject(error),
      );
      if (res instanceof LeadsUnreadable) {
        await leadsRefused(res, Object.assign(cursor, { phase: "contacts", page: null, listIndex: 0 }));
        continue;
      }
      const newest = res.records.reduce<string | undefined>(
        (m, r) => (r.modifiedAt && (!m || r.modifiedAt > m) ? r.modifiedAt : m),
        cursor.seen.leads,
      );
      const next: Cursor = {
        ...cursor,
        phase: res.next ? phase : nextPhase(phase),
        page: res.next,
        seen: { ...cursor.seen, ...(newest ? { leads: newest } : {}) },
      };
      await commit(
        async (tx, c) => {
          c.counts.leads.converted += await moveConverted(
            tx,
            { workspaceId: c.workspaceId, connectionId: c.connectionId },
            res.records,
          );
        },
        res.records,
        next,
        (item) => ({
          objectType: "contact",
          objectId: (item as { id: string }).id,
          severity: "error",
          message: `lead ${(item as { id: string }).id}: its conversion could not be applied`,
        }),
      );
      Object.assign(cursor, next);
      continue;
    }
    if (phase === "lists") {
      let lists: Awaited<ReturnType<CrmAdapter["lists"]>> = [];
      if (connection.listsEnabled) {
        lists = await call(() => adapter.lists()).catch(async (error) => {
          if (!(error instanceof ListsUnreadable)) throw error;
          // Lists the credentials cannot read are left as they were; contacts and deals still sync.
          await commit(
            async (_tx, c) => {
              c.issues.push({
                objectType: "list",
                objectId: "-",
                severity: "warning",
                message: `lists not synced: ${error.message}`.slice(0, 500),
              });
              c.counts.issues.warnings++;
            },
            [],
            { ...cursor },
            () => ({ objectType: "list", objectId: "-", severity: "warning", message: "lists not synced" }),
          );
          return [];
        });
      }
      for (let i = cursor.listIndex; i < lists.length; i++) {
        const list = lists[i];
        const members: string[] = [];
        let page: string | null = null;
        let tooBig = false;
        do {
          const res = await call(() => adapter.listMembers(list.id, page));
          members.push(...res.records);
          page = res.next;
          if (members.length > MAX_LIST_MEMBERS) tooBig = true;
          await run.progress(cursor.done, cursor.total);
        } while (page && !tooBig);
        const next: Cursor = { ...cursor, listIndex: i + 1, done: cursor.done + 1 };
        counts.lists.read++;
        await commit(
          async (tx, c) => {
            if (tooBig) {
              c.counts.lists.errors++;
              c.issues.push({
                objectType: "list",
                objectId: list.id,
                severity: "error",
                message: `list ${list.id} (${list.name}): more than ${MAX_LIST_MEMBERS.toLocaleString("en-US")} members; its audience was left as it was`,
              });
              c.counts.issues.errors++;
            } else await writeList(tx, c, list, members);
          },
          [list],
          next,
          () => ({
            objectType: "list",
            objectId: list.id,
            severity: "error",
            message: `list ${list.id}: could not be saved`,
          }),
        );
        Object.assign(cursor, next);
      }
      Object.assign(cursor, { phase: nextPhase(phase), page: null, listIndex: 0 });
      continue;
    }

    if (phase === "deleted") {
      // An incremental sync reads what was deleted (archived) since its watermarks; a full one reconciles at the end instead.
      if (sync.mode === "full") {
        Object.assign(cursor, { phase: nextPhase(phase), page: null, listIndex: 0 });
        continue;
      }
      const type = types()[cursor.listIndex];
      if (!type) {
        Object.assign(cursor, { phase: nextPhase(phase), page: null, listIndex: 0 });
        continue;
      }
      const from = since(type) ?? new Date(0);
      const res = await call(() =>
        type === "leads" ? adapter.leads!.deleted(from, cursor.page) : adapter.deleted(type, from, cursor.page),
      ).catch((error) => {
        if (!(error instanceof CrmAccessError) || error instanceof CrmCredentialsRevoked || type !== "leads")
          throw error;
        return { records: [], next: null }; // Leads unreadable now: the next sync that reads them says so.
      });
      const next: Cursor = { ...cursor, page: res.next, listIndex: res.next ? cursor.listIndex : cursor.listIndex + 1 };
      await commit(
        async (tx, c) => {
          c.counts.deleted[type] += await applyDeleted(
            tx,
            { workspaceId: c.workspaceId, connectionId: c.connectionId },
            type,
            res.records.map((r) => r.id),
          );
        },
        res.records,
        next,
        (item) => ({
          objectType: type === "companies" ? "company" : type === "deals" ? "deal" : "contact",
          objectId: (item as { id: string }).id,
          severity: "error",
          message: `${(item as { id: string }).id}: its deletion could not be applied`,
        }),
      );
      Object.assign(cursor, next);
      continue;
    }

    const type = phase;
    const from = since(type);
    const fetchPage = (page: string | null, start: Date | null) =>
      call(() => (type === "leads" ? adapter.leads!.page(start, page) : adapter.page(type, start, page))).catch(
        (error) => {
          if (error instanceof CrmCursorExpired) return "expired" as const;
          if (error instanceof LeadsUnreadable) return error;
          throw error;
        },
      );
    // The next page is fetched while the current one is written.
    let pending = fetchPage(cursor.page, from);
    for (;;) {
      const res = await pending;
      if (res instanceof LeadsUnreadable) {
        await leadsRefused(res, Object.assign(cursor, { phase: nextPhase(type), page: null, listIndex: 0 }));
        break;
      }
      if (res === "expired") {
        // The saved cursor is gone (a Salesforce locator expires): read the type again from what was read last.
        const last = cursor.seen[type];
        pending = fetchPage(null, last ? new Date(Date.parse(last)) : since(type));
        cursor.page = null;
        continue;
      }
      if (res.next) {
        pending = fetchPage(res.next, from);
        pending.catch(() => undefined);
      }
      const newest = res.records.reduce<string | undefined>(
        (m, r) => (r.modifiedAt && (!m || r.modifiedAt > m) ? r.modifiedAt : m),
        cursor.seen[type],
      );
      const next: Cursor = {
        ...cursor,
        phase: res.next ? type : nextPhase(type),
        page: res.next,
        seen: { ...cursor.seen, ...(newest ? { [type]: newest } : {}) },
        done: cursor.done + res.records.length,
      };
      counts[type].read += res.records.length;
      const writer =
        type === "companies"
          ? writeCompanies
          : type === "contacts"
            ? writeContactsPage
            : type === "leads"
              ? writeLeadsPage
              : writeCountedDeals;
      await commit(
        (tx, c, items) => writer(tx, c, items as never),
        res.records,
        next,
        (item) => {
          const id = (item as { id: string }).id;
          const what =
            type === "companies" ? "company" : type === "contacts" ? "contact" : type === "leads" ? "lead" : "deal";
          counts[type].errors++;
          return {
            objectType: what === "lead" ? "contact" : what,
            objectId: id,
            severity: "error",
            message: `${what} ${id}: could not be saved (the database refused it)`,
          };
        },
        { type, ids: res.records.map((r) => r.id) },
      );
      Object.assign(cursor, next);
      if (!res.next) break;
    }
  }

  if (sync.mode === "full") {
    // Reconciliation: what this connection synced before and this full read did not find was deleted in the CRM.
    await prisma.$transaction(
      async (tx) => {
        const scope = { workspaceId: sync.workspaceId, connectionId: connection.id };
        const gone = await unseenRecords(tx, scope, syncId);
        for (const type of [...CRM_OBJECT_TYPES, "leads"] as const)
          counts.deleted[type] += await applyDeleted(tx, scope, type, gone[type]);
        await tx.crmSync.update({
          where: { id: syncId },
          data: { counts },
        });
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
  }

  // Every page read: the watermarks move to the newest last-modified time read (or stay where they were).
  await prisma.$transaction(async (tx) => {
    const current = await tx.crmConnection.findUnique({
      where: { id: connection.id },
      select: { watermarks: true, status: true, leads: true },
    });
    if (current?.status !== "connected") return;
    const old = (current.watermarks ?? {}) as Partial<Record<TRecordType, string>>;
    const startedAt = new Date((run.job.startedAt ?? run.now()).getTime() - WATERMARK_OVERLAP_MS).toISOString();
    // Leads: only while they are synced (turned off, or refused during this sync, they are read from the start next time).
    const leadsRead = leadsOn && current.leads;
    const readNow = (t: TRecordType) =>
      cursor.seen[t] ?? (t === "leads" && !old.leads && leadsRead ? startedAt : undefined);
    // Leads switched off meanwhile get no watermark: they are read from the start if turned on again.
    const updated: Record<string, string | undefined> = Object.fromEntries(
      types()
        .filter((t) => t !== "leads" || leadsRead)
        .map((t) => [
          t,
          [old[t], readNow(t), sync.mode === "full" && !cursor.seen[t] ? startedAt : undefined]
            .filter(Boolean)
            .sort()
            .at(-1),
        ]),
    );
    // The conversions phase ran before anything else of this sync read leads: it has read every conversion up to the sync's start.
    if (leadsRead)
      updated.leadsConverted = [(old as Record<string, string | undefined>).leadsConverted, startedAt]
        .filter(Boolean)
        .sort()
        .at(-1);
    await tx.crmConnection.update({ where: { id: connection.id }, data: { watermarks: updated } });
  });
  if (counts.contacts.created + counts.contacts.updated >= 1000) {
    await prisma
      .$executeRawUnsafe(`ANALYZE "Contact", "Account", "AudienceMember"`)
      .catch((error) => console.error("[crm] ANALYZE after a sync failed", error));
  }
  return { syncId, ...counts };
}
