import { randomUUID } from "node:crypto";
import type { CrmSyncTrigger, PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { enqueueJob } from "@/server/records/jobs/service";
import { ConfigError } from "@/server/ground/platform/config";
import { CrmAccessError, CrmQuotaExceeded, CrmRateLimited } from "./adapter";
import { leadsChoice } from "./leads";
import { forgetLinks } from "./links";
import { adapterFor, openCredentials, sealCredentials, type TCredentials } from "./registry";
import { notifyVendorConnectionFailed } from "@/server/records/email/notify-events";
import { CRM_LABELS, SCHEDULE_MINUTES, type TConnectInput, type TDealFilter, type TSyncView } from "./schema";
import { keyring } from "@/server/ground/platform/secret-box";
import { salesforceOrigin } from "./urls";
import { connectionViews, syncView, syncViews } from "./views";

/** The workspace's CRM connections (connected and disconnected), HubSpot first. Never their credentials. */
export async function listConnections(db: Db, p: { workspaceId: string }) {
  const rows = await db.crmConnection.findMany({ where: { workspaceId: p.workspaceId }, orderBy: { kind: "asc" } });
  return connectionViews(db, rows);
}

async function requireConnection(db: Db, p: { workspaceId: string; connectionId: string }) {
  const c = await db.crmConnection.findFirst({ where: { id: p.connectionId, workspaceId: p.workspaceId } });
  if (!c)
    throw new AppError("not_found", "No such CRM connection in this workspace.", {
      nextStep: "List the connections with crm_connections_list.",
    });
  return c;
}

export async function getConnection(db: Db, p: { workspaceId: string; connectionId: string }) {
  const [view] = await connectionViews(db, [await requireConnection(db, p)]);
  return view;
}

/**
 * Connects a CRM (or replaces a connection's credentials): checks them with the CRM at once (a
 * sentence naming what is wrong or missing when they do not do), encrypts them, and queues the
 * first sync. Nothing is written when the check fails.
 */
export async function connectCrm(prisma: PrismaClient, p: { workspaceId: string; input: TConnectInput; actor: Actor }) {
  try {
    keyring();
  } catch (error) {
    if (error instanceof ConfigError)
      throw new AppError("invalid_state", `CRM connections are not set up on this server: ${error.message}`);
    throw error;
  }
  let credentials: TCredentials;
  let instanceUrl: string | null = null;
  if (p.input.kind === "hubspot") credentials = { kind: "hubspot", accessToken: p.input.accessToken };
  else {
    const origin = salesforceOrigin(p.input.myDomainUrl);
    if ("error" in origin)
      throw new AppError("validation_failed", origin.error, {
        errors: [{ pointer: "/myDomainUrl", detail: origin.error }],
      });
    instanceUrl = origin.origin;
    credentials = { kind: "salesforce", clientId: p.input.clientId, clientSecret: p.input.clientSecret };
  }
  const wantsLeads = p.input.kind === "salesforce" && p.input.leads === true;
  let identity: Awaited<ReturnType<Awaited<ReturnType<typeof adapterFor>>["verify"]>>;
  try {
    identity = await (await adapterFor(credentials, instanceUrl, { leads: wantsLeads })).verify();
  } catch (error) {
    if (error instanceof CrmAccessError)
      throw new AppError("validation_failed", error.message, {
        errors: [{ pointer: p.input.kind === "hubspot" ? "/accessToken" : "/clientId", detail: error.message }],
      });
    if (error instanceof CrmRateLimited || error instanceof CrmQuotaExceeded) {
      throw new AppError(
        "rate_limited",
        `${CRM_LABELS[p.input.kind]} is limiting this app's requests right now, so the credentials could not be checked; nothing was saved. Try again in a minute.`,
      );
    }
    console.error(`[crm] verifying ${p.input.kind} credentials failed`, error);
    const detail =
      p.input.kind === "salesforce"
        ? `${CRM_LABELS.salesforce} could not be reached at ${instanceUrl} to check the credentials; check the My Domain URL, or try again in a moment. Nothing was saved.`
        : `${CRM_LABELS.hubspot} could not be reached to check the token; try again in a moment. Nothing was saved.`;
    throw new AppError("validation_failed", detail, {
      errors: [{ pointer: p.input.kind === "salesforce" ? "/myDomainUrl" : "/accessToken", detail }],
    });
  }

  return prisma.$transaction(async (tx) => {
    const existing = await tx.crmConnection.findFirst({ where: { workspaceId: p.workspaceId, kind: p.input.kind } });
    const id = existing?.id ?? `crm_${randomUUID().replace(/-/g, "")}`;
    // Another CRM account behind new credentials: its records are new, so the next sync reads everything.
    const sameAccount = existing?.externalAccountId === identity.externalAccountId;
    // Leads when asked for and readable; else off, saying why when they were asked for.
    const leads = await leadsChoice(
      tx,
      {
        id,
        workspaceId: p.workspaceId,
        leads: existing?.leads ?? false,
        watermarks: sameAccount ? (existing?.watermarks ?? {}) : {},
      },
      wantsLeads && !identity.leadsUnreadable,
      identity.leadsUnreadable ?? null,
    );
    const data = {
      status: "connected" as const,
      attention: null,
      listsEnabled: identity.listsReadable,
      currency: identity.currency,
      name: identity.name,
      externalAccountId: identity.externalAccountId,
      instanceUrl,
      credentials: sealCredentials(credentials, id),
      connectedByLabel: p.actor.label,
      connectedAt: new Date(),
      disconnectedAt: null,
      nextSyncAt: new Date(Date.now() + (existing?.scheduleMinutes ?? SCHEDULE_MINUTES.default) * 60_000),
      ...(sameAccount ? {} : { watermarks: {} }),
      ...leads,
    };
    if (existing) {
      // Connecting again (a rotated token, after a disconnect or a revoke): the same row, new credentials.
      await tx.crmConnection.update({ where: { id }, data });
      if (!sameAccount) await forgetLinks(tx, id);
    } else await tx.crmConnection.create({ data: { id, workspaceId: p.workspaceId, kind: p.input.kind, ...data } });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      existing ? "crm.reconnected" : "crm.connected",
      { type: "crm_connection", id },
      { kind: p.input.kind, name: identity.name, leads: leads.leads },
    );
    const sync = await startSyncIn(tx, {
      workspaceId: p.workspaceId,
      connectionId: id,
      trigger: "owner",
      actor: p.actor,
    });
    return { connectionId: id, sync: sync.view, leads: leads.leads, leadsNote: leads.leadsNote };
  });
}

/** Deletes the credentials and stops the schedule; what was synced stays, marked with its source. A running sync is cancelled. */
export async function disconnectCrm(
  prisma: PrismaClient,
  p: { workspaceId: string; connectionId: string; actor: Actor },
) {
  return prisma.$transaction(async (tx) => {
    const c = await requireConnection(tx, p);
    if (c.status === "disconnected") throw new AppError("invalid_state", "This CRM is already disconnected.");
    await tx.crmConnection.update({
      where: { id: c.id },
      data: { status: "disconnected", credentials: null, nextSyncAt: null, disconnectedAt: new Date() },
    });
    const active = await activeSync(tx, c.id);
    if (active)
      await tx.job.updateMany({
        where: { id: active.jobId, status: { in: ["queued", "running"] } },
        data: { cancelRequestedAt: new Date() },
      });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "crm.disconnected",
      { type: "crm_connection", id: c.id },
      { kind: c.kind, name: c.name },
    );
    return { connectionId: c.id };
  });
}

export async function setSchedule(
  db: Db,
  p: { workspaceId: string; connectionId: string; scheduleMinutes: number | null; actor: Actor },
) {
  const c = await requireConnection(db, p);
  if (c.status !== "connected")
    throw new AppError("invalid_state", "Connect the CRM again before scheduling its syncs.");
  await db.crmConnection.update({
    where: { id: c.id },
    data: {
      scheduleMinutes: p.scheduleMinutes,
      nextSyncAt: p.scheduleMinutes === null ? null : new Date(Date.now() + p.scheduleMinutes * 60_000),
    },
  });
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "crm.schedule_changed",
    { type: "crm_connection", id: c.id },
    { scheduleMinutes: p.scheduleMinutes },
  );
  return getConnection(db, p);
}

/** A full sync (which also finds what was deleted in the CRM beyond its recycle bin) at least once a day. */
export const RECONCILE_EVERY_MS = 24 * 60 * 60_000;

/** Whether the connection's last successful full sync is more than a day old. */
async function reconciliationDue(db: Db, connectionId: string): Promise<boolean> {
  const [row] = await db.$queryRaw<{ at: Date | null }[]>`
    SELECT max(j."finishedAt") AS at FROM "CrmSync" s JOIN "Job" j ON j.id = s."jobId"
     WHERE s."connectionId" = ${connectionId} AND s.mode = 'full' AND j.status = 'succeeded'`;
  return !row?.at || new Date(row.at).getTime() < Date.now() - RECONCILE_EVERY_MS;
}

/**
 * Marks a connection whose CRM refused its saved credentials as needing reconnecting: its schedule
 * stops (nothing more is tried with credentials that cannot work) and the owner is told, on the CRM
 * page and in the audit log. Connecting again with working credentials clears it.
 */
export async function markNeedsReconnect(db: Db, p: { workspaceId: string; connectionId: string; reason: string }) {
  const changed = await db.crmConnection.updateMany({
    where: { id: p.connectionId, workspaceId: p.workspaceId, status: "connected" },
    data: { status: "needs_reconnect", attention: p.reason.slice(0, 500), nextSyncAt: null },
  });
  if (!changed.count) return false;
  const c = await db.crmConnection.findUniqueOrThrow({ where: { id: p.connectionId } });
  await recordAudit(
    db,
    p.workspaceId,
    { kind: "system", id: null, label: `${CRM_LABELS[c.kind]} sync` },
    "crm.needs_reconnect",
    { type: "crm_connection", id: c.id },
    { kind: c.kind, name: c.name, reason: p.reason.slice(0, 500) },
  );
  await notifyVendorConnectionFailed(db, {
    workspaceId: p.workspaceId,
    connectionId: c.id,
    vendor: CRM_LABELS[c.kind],
    reason: p.reason,
    settingsPath: "/settings/crm",
  });
  return true;
}

/** Chooses which deals count as outcomes (pipelines and stages); the next sync applies it to every deal. */
export async function setDealFilter(
  prisma: PrismaClient,
  p: { workspaceId: string; connectionId: string; filter: TDealFilter; actor: Actor },
) {
  return prisma.$transaction(async (tx) => {
    const c = await requireConnection(tx, p);
    if (c.status === "disconnected")
      throw new AppError("invalid_state", "Connect the CRM again before choosing which deals count.");
    await tx.crmConnection.update({
      where: { id: c.id },
      data: { dealFilter: p.filter, watermarks: { ...((c.watermarks ?? {}) as object), deals: undefined } },
    });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "crm.deal_filter_changed",
      { type: "crm_connection", id: c.id },
      { pipelines: p.filter.pipelines, stages: p.filter.stages },
    );
    const [view] = await connectionViews(tx, [await tx.crmConnection.findUniqueOrThrow({ where: { id: c.id } })]);
    return view;
  });
}

/**
 * Whether Salesforce Leads are synced (the owner's choice). Turning them on first checks with
 * Salesforce that the Run As user can read Leads (else a sentence saying what to grant, and nothing
 * changes); the next sync then reads every lead. Turning them off unlinks the leads synced before
 * (their contacts stay; they leave the campaign audiences they were in only as leads).
 */
export async function setLeads(
  prisma: PrismaClient,
  p: { workspaceId: string; connectionId: string; leads: boolean; actor: Actor },
) {
  const c = await requireConnection(prisma, p);
  const invalid = (message: string) =>
    new AppError("validation_failed", message, { errors: [{ pointer: "/leads", detail: message }] });
  if (c.kind !== "salesforce")
    throw invalid("Leads are a Salesforce choice; a HubSpot connection syncs contacts, companies, deals and lists.");
  if (c.status === "disconnected")
    throw new AppError("invalid_state", "Connect Salesforce again before choosing whether its Leads are synced.");
  if (await activeSync(prisma, c.id))
    throw new AppError("invalid_state", "A sync is running; choose whether Leads are synced when it has finished.");
  if (p.leads && !c.leads) {
    if (c.status !== "connected" || !c.credentials)
      throw new AppError(
        "invalid_state",
        "Salesforce needs reconnecting; tick Also sync Leads in the Reconnect dialog instead.",
      );
    try {
      await (await adapterFor(openCredentials(c).credentials, c.instanceUrl, { leads: true })).leads!.count(null);
    } catch (error) {
      if (error instanceof CrmAccessError) throw invalid(`${error.message} Leads stay off.`);
      if (error instanceof CrmRateLimited || error instanceof CrmQuotaExceeded)
        throw new AppError(
          "rate_limited",
          "Salesforce is limiting requests right now, so access to Leads could not be checked; try again in a minute.",
        );
      console.error("[crm] checking access to Salesforce Leads failed", error);
      throw new AppError(
        "unavailable",
        "Salesforce could not be reached to check access to Leads; try again in a moment. Nothing changed.",
      );
    }
  }
  return prisma.$transaction(async (tx) => {
    // The connection's row, as starting a sync locks it: a sync cannot start between the check and the change.
    await tx.$queryRaw`SELECT id FROM "CrmConnection" WHERE id = ${c.id} AND "workspaceId" = ${p.workspaceId} FOR UPDATE`;
    if (await activeSync(tx, c.id))
      throw new AppError("invalid_state", "A sync is running; choose whether Leads are synced when it has finished.");
    const locked = await tx.crmConnection.findUniqueOrThrow({ where: { id: c.id } });
    await tx.crmConnection.update({ where: { id: c.id }, data: await leadsChoice(tx, locked, p.leads) });
    if (locked.leads !== p.leads)
      await recordAudit(
        tx,
        p.workspaceId,
        p.actor,
        "crm.leads_changed",
        { type: "crm_connection", id: c.id },
        { leads: p.leads },
      );
    const [view] = await connectionViews(tx, [await tx.crmConnection.findUniqueOrThrow({ where: { id: c.id } })]);
    return view;
  });
}

/** The CRM's deal pipelines and their stages, read from it now (for choosing which count). */
export async function dealOptions(db: Db, p: { workspaceId: string; connectionId: string }) {
  const c = await requireConnection(db, p);
  if (c.status !== "connected" || !c.credentials)
    throw new AppError("invalid_state", `Connect ${CRM_LABELS[c.kind]} again to read its pipelines.`);
  try {
    return { pipelines: await (await adapterFor(openCredentials(c).credentials, c.instanceUrl)).pipelines() };
  } catch (error) {
    if (error instanceof CrmAccessError) throw new AppError("invalid_state", error.message);
    if (error instanceof CrmRateLimited || error instanceof CrmQuotaExceeded)
      throw new AppError(
        "rate_limited",
        `${CRM_LABELS[c.kind]} is limiting requests right now; try again in a minute.`,
      );
    console.error(`[crm] reading ${c.kind} pipelines failed`, error);
    throw new AppError(
      "unavailable",
      `${CRM_LABELS[c.kind]} could not be reached to read its pipelines; try again in a moment.`,
    );
  }
}

async function activeSync(db: Db, connectionId: string) {
  const [row] = await db.$queryRaw<{ id: string; jobId: string }[]>`
    SELECT s.id, s."jobId" FROM "CrmSync" s JOIN "Job" j ON j.id = s."jobId"
     WHERE s."connectionId" = ${connectionId} AND j.status IN ('queued', 'running') ORDER BY s."createdAt" DESC LIMIT 1`;
  return row ?? null;
}

/**
 * Queues a sync of a connected CRM, in the caller's transaction, with the connection's row locked
 * so two requests (or workers) never queue two. When one is already queued or running, that one is
 * returned (`alreadyRunning`). Incremental once every object type has a watermark, else full.
 */
export async function startSyncIn(
  tx: Db,
  p: { workspaceId: string; connectionId: string; trigger: CrmSyncTrigger; actor: Actor },
): Promise<{ view: TSyncView; alreadyRunning: boolean }> {
  const [locked] = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id FROM "CrmConnection" WHERE id = ${p.connectionId} AND "workspaceId" = ${p.workspaceId} FOR UPDATE`;
  if (!locked)
    throw new AppError("not_found", "No such CRM connection in this workspace.", {
      nextStep: "List the connections with crm_connections_list.",
    });
  const c = await tx.crmConnection.findUniqueOrThrow({ where: { id: p.connectionId } });
  if (c.status === "needs_reconnect") {
    throw new AppError(
      "invalid_state",
      `${CRM_LABELS[c.kind]} needs reconnecting: it refused the saved credentials (${c.attention ?? "no reason given"}).`,
      {
        nextStep:
          "Only the workspace owner can connect it again, in the browser (Settings → CRM → Reconnect); tell them.",
      },
    );
  }
  if (c.status !== "connected" || !c.credentials) {
    throw new AppError(
      "invalid_state",
      `${CRM_LABELS[c.kind]} is disconnected: its credentials were deleted, so nothing can be read from it.`,
      {
        nextStep: "Only the workspace owner can connect it again, in the browser (Settings → CRM); tell them.",
      },
    );
  }
  const active = await activeSync(tx, c.id);
  if (active) {
    const sync = await tx.crmSync.findUniqueOrThrow({ where: { id: active.id } });
    return {
      view: syncView(sync, await tx.job.findUniqueOrThrow({ where: { id: sync.jobId } }), c.kind),
      alreadyRunning: true,
    };
  }
  const marks = (c.watermarks ?? {}) as Record<string, string>;
  const mode =
    ["companies", "contacts", "deals"].every((t) => marks[t]) && !(await reconciliationDue(tx, c.id))
      ? "incremental"
      : "full";
  const syncId = `cs_${randomUUID().replace(/-/g, "")}`;
  const job = await enqueueJob(tx, {
    workspaceId: p.workspaceId,
    kind: "crm_sync",
    title: `${mode === "full" ? "Full sync" : "Sync"} from ${c.name}`,
    input: { syncId },
    unit: "objects",
    requestedBy: p.actor,
  });
  const sync = await tx.crmSync.create({
    data: {
      id: syncId,
      workspaceId: p.workspaceId,
      connectionId: c.id,
      jobId: job.id,
      mode,
      trigger: p.trigger,
      requestedByLabel: p.actor.label,
    },
  });
  await recordAudit(
    tx,
    p.workspaceId,
    p.actor,
    "crm.sync_started",
    { type: "crm_sync", id: sync.id },
    { connectionId: c.id, mode, trigger: p.trigger },
  );
  return { view: syncView(sync, job, c.kind), alreadyRunning: false };
}

export function startSync(
  prisma: PrismaClient,
  p: { workspaceId: string; connectionId: string; trigger: CrmSyncTrigger; actor: Actor },
) {
  return prisma.$transaction((tx) => startSyncIn(tx, p));
}

export async function getSync(db: Db, p: { workspaceId: string; syncId: string }) {
  const sync = await db.crmSync.findFirst({
    where: { id: p.syncId, workspaceId: p.workspaceId },
    include: { connection: { select: { kind: true } } },
  });
  if (!sync)
    throw new AppError("not_found", "No such CRM sync in this workspace.", {
      nextStep: "Start one with crm_sync_start, or find the latest in crm_connections_list (lastSync).",
    });
  const [view] = await syncViews(db, [sync], () => sync.connection.kind);
  return view;
}

/** A connection's syncs, newest first, a page at a time. */
export async function listSyncs(
  db: Db,
  p: { workspaceId: string; connectionId: string; cursor?: string | null; take: number },
) {
  const c = await requireConnection(db, p);
  const cursor = p.cursor ? await db.crmSync.findFirst({ where: { id: p.cursor, connectionId: c.id } }) : null;
  if (p.cursor && !cursor)
    throw new AppError("not_found", "The cursor names no sync of this connection; start again without it.");
  const rows = await db.crmSync.findMany({
    where: {
      connectionId: c.id,
      ...(cursor
        ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
  });
  const page = rows.slice(0, p.take);
  return {
    syncs: await syncViews(db, page, () => c.kind),
    nextCursor: rows.length > p.take ? page[page.length - 1].id : null,
  };
}

/** A sync's problems with single objects, errors first, a page at a time. */
export async function listIssues(
  db: Db,
  p: {
    workspaceId: string;
    syncId: string;
    severity?: "error" | "warning" | null;
    cursor?: string | null;
    take: number;
  },
) {
  const sync = await db.crmSync.findFirst({
    where: { id: p.syncId, workspaceId: p.workspaceId },
    select: { id: true },
  });
  if (!sync) throw new AppError("not_found", "No such CRM sync in this workspace.");
  const cursor = p.cursor ? await db.crmSyncIssue.findFirst({ where: { id: p.cursor, syncId: sync.id } }) : null;
  if (p.cursor && !cursor)
    throw new AppError("not_found", "The cursor names no issue of this sync; start again without it.");
  const rows = await db.crmSyncIssue.findMany({
    where: { syncId: sync.id, ...(p.severity ? { severity: p.severity } : {}) },
    orderBy: [{ severity: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    ...(cursor ? { cursor: { id: cursor.id }, skip: 1 } : {}),
    take: p.take + 1,
  });
  const page = rows.slice(0, p.take);
  return {
    issues: page.map((i) => ({
      objectType: i.objectType as "contact" | "company" | "deal" | "list",
      objectId: i.objectId,
      severity: i.severity,
      message: i.message,
    })),
    nextCursor: rows.length > p.take ? page[page.length - 1].id : null,
  };
}
