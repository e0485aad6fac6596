import type { PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { enqueueJob, jobView } from "@/server/records/jobs/service";
import { claimJob, runJob } from "@/server/records/jobs/runner";
import type { TJobView } from "@/server/records/jobs/schema";
import { jobDeps } from "@/server/records/jobs/worker";
import { auditRunJob } from "./job";
import { sharedFactsFor } from "./facts";
import {
  type AddressFields,
  normalisationNotes,
  normaliseAddress,
  type TAddressFix,
} from "@/server/records/addresses/normalise";
import { MAILABILITY_REASONS, type TMailabilityReason, type TMailabilityStatus } from "./reasons";
import type { TCountryRow, TFormatCost } from "./report";
import { cacheNameOf, cachedVerifications, VERIFICATION_MAX_AGE_DAYS, verificationKey } from "./verifiers/cache";
import { addressVerifier } from "./verifiers/registry";
import type { TVerificationMode } from "./verifiers/types";

/** Audiences up to this size without paid verification are audited within the request that asks. */
export const INLINE_AUDIT_MAX = 2000;

const auditNotFound = () =>
  new AppError("not_found", "No such audit in this workspace; audits_list shows this workspace's audits.", {
    nextStep: "Call audits_list for this workspace's audits.",
  });

/** Where an audit is measured and judged: an audience on its own, or a campaign (its audience, format and printer). */
async function target(db: Db, p: { workspaceId: string; audienceId?: string | null; campaignId?: string | null }) {
  const shared = await sharedFactsFor(db, p);
  if (p.campaignId && !shared.campaign)
    throw new AppError("not_found", "No such campaign in this workspace; campaigns_list shows them.");
  const audienceId = shared.campaign ? shared.campaign.audienceId : p.audienceId;
  if (shared.campaign && !audienceId)
    throw new AppError("invalid_state", "The campaign has no audience yet: choose one, then audit it.");
  if (p.campaignId && p.audienceId && p.audienceId !== audienceId)
    throw new AppError("validation_failed", "The audience given is not the campaign's audience; pass only campaignId.");
  const audience = audienceId
    ? await db.audience.findFirst({
        where: { id: audienceId, workspaceId: p.workspaceId },
        select: { id: true, name: true },
      })
    : null;
  if (!audience) throw new AppError("not_found", "No such audience in this workspace; audiences_list shows them.");
  return { shared, audience };
}

/**
 * What a run would cost before it starts: the verifier this service uses, its price per
 * verification (domestic and international), how many distinct addresses of the audience it has
 * not answered yet (cached answers are free), and the estimate for verifying them.
 */
export async function auditEstimate(
  db: Db,
  p: { workspaceId: string; audienceId?: string | null; campaignId?: string | null },
) {
  const { audience } = await target(db, p);
  const verifier = addressVerifier();
  const [contacts, rows] = await Promise.all([
    db.audienceMember.count({ where: { audienceId: audience.id, workspaceId: p.workspaceId } }),
    db.$queryRaw<AddressFields[]>`
      SELECT DISTINCT c."addressLine1", c."addressLine2", c.city, c.region, c."postalCode", c.country
        FROM "AudienceMember" m JOIN "Contact" c ON c.id = m."contactId"
       WHERE m."audienceId" = ${audience.id} AND m."workspaceId" = ${p.workspaceId} AND btrim(COALESCE(c."addressLine1", '')) <> ''`,
  ]);
  const keyed = new Map<string, string | null>();
  for (const r of rows) keyed.set(verificationKey(r), normaliseAddress(r).country);
  const cached = new Set<string>();
  const keys = [...keyed.keys()];
  for (let i = 0; i < keys.length; i += 10_000)
    for (const k of (
      await cachedVerifications(db, {
        workspaceId: p.workspaceId,
        verifier: cacheNameOf(verifier),
        keys: keys.slice(i, i + 10_000),
      })
    ).keys())
      cached.add(k);
  let estimateCents = 0;
  let toVerify = 0;
  for (const [key, country] of keyed) {
    if (cached.has(key)) continue;
    toVerify += 1;
    estimateCents += verifier.costCents(country);
  }
  return {
    audienceId: audience.id,
    audienceName: audience.name,
    contacts,
    addresses: keyed.size,
    cachedAddresses: cached.size,
    addressesToVerify: toVerify,
    verifier: {
      name: verifier.name,
      label: verifier.label,
      mode: verifier.mode,
      domesticCents: verifier.costCents("US"),
      internationalCents: verifier.costCents("DE"),
    },
    estimateCents,
    /** How long an answer is kept before an address is verified again. */
    cacheDays: VERIFICATION_MAX_AGE_DAYS,
  };
}

/**
 * Starts an audit: records it (queued) with what it judges (format, address block, printers'
 * countries, verification) and queues its audit_run job in one transaction. A small audience
 * without paid verification is then audited within this call; a larger one runs in the worker
 * (audits_get reports its progress).
 */
export async function startAudit(
  prisma: PrismaClient,
  p: { workspaceId: string; audienceId?: string | null; campaignId?: string | null; verify?: boolean; actor: Actor },
) {
  const { shared, audience } = await target(prisma, p);
  const verifier = p.verify ? addressVerifier() : null;
  const estimate = p.verify
    ? await auditEstimate(prisma, { workspaceId: p.workspaceId, audienceId: audience.id })
    : null;
  const created = await prisma.$transaction(async (tx) => {
    const total = await tx.audienceMember.count({ where: { audienceId: audience.id, workspaceId: p.workspaceId } });
    const audit = await tx.mailabilityAudit.create({
      data: {
        workspaceId: p.workspaceId,
        audienceId: audience.id,
        audienceName: audience.name,
        campaignId: shared.campaign?.id ?? null,
        campaignName: shared.campaign?.name ?? null,
        format: shared.format,
        blockFormat: shared.block.format,
        blockSize: shared.block.size,
        blockHandwriting: shared.block.handwriting ?? null,
        coveredCountries: shared.coveredCountries ? [...shared.coveredCountries].sort() : [],
        countriesJudged: shared.coveredCountries !== null,
        verify: !!verifier,
        verifier: verifier?.name ?? null,
        verificationMode: verifier?.mode ?? null,
        verificationUnitCents: verifier?.costCents("US") ?? 0,
        verificationEstimateCents: estimate?.estimateCents ?? 0,
        requestedByLabel: p.actor.label,
      },
    });
    const job = await enqueueJob(tx, {
      workspaceId: p.workspaceId,
      kind: "audit_run",
      title: `Mailability audit of ${audience.name}${shared.campaign ? ` for ${shared.campaign.name}` : ""}`,
      input: { auditId: audit.id },
      unit: "contacts",
      total,
      requestedBy: p.actor,
    });
    await tx.mailabilityAudit.update({ where: { id: audit.id }, data: { jobId: job.id } });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "audit.started",
      { type: "audience", id: audience.id },
      { auditId: audit.id, campaignId: shared.campaign?.id ?? null, verify: !!verifier, contacts: total },
    );
    return { auditId: audit.id, jobId: job.id, total };
  });
  if (created.total <= INLINE_AUDIT_MAX && !(verifier && verifier.name !== "sandbox")) {
    const job = await claimJob(prisma, { jobId: created.jobId, workspaceId: p.workspaceId, now: new Date() });
    if (job) await runJob(prisma, job, jobDeps({ audit_run: auditRunJob }));
  }
  const audit = await getAuditRow(prisma, { workspaceId: p.workspaceId, auditId: created.auditId });
  return { auditId: audit.id, status: audit.status };
}

/**
 * Continues a failed or cancelled audit from its last checkpoint: a new audit_run job that starts
 * where the old one stopped (the results it committed are kept), in one transaction.
 */
export async function resumeAudit(prisma: PrismaClient, p: { workspaceId: string; auditId: string; actor: Actor }) {
  const audit = await getAuditRow(prisma, p);
  if (audit.status !== "failed" && audit.status !== "cancelled")
    throw new AppError(
      "invalid_state",
      "Only a failed or cancelled audit can be resumed; a running one goes on by itself.",
    );
  const old = audit.jobId
    ? await prisma.job.findFirst({ where: { id: audit.jobId, workspaceId: p.workspaceId } })
    : null;
  await prisma.$transaction(async (tx) => {
    const job = await enqueueJob(tx, {
      workspaceId: p.workspaceId,
      kind: "audit_run",
      title: `Mailability audit of ${audit.audienceName} (resumed)`,
      input: { auditId: audit.id },
      unit: "contacts",
      total: old?.progressTotal ?? null,
      requestedBy: p.actor,
    });
    await tx.job.updateMany({
      where: { id: job.id, workspaceId: p.workspaceId },
      data: { checkpoint: old?.checkpoint ?? undefined, progressDone: old?.checkpoint ? old.progressDone : 0 },
    });
    await tx.mailabilityAudit.updateMany({
      where: { id: audit.id, workspaceId: p.workspaceId },
      data: { jobId: job.id, status: "queued", error: null, finishedAt: null },
    });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "audit.resumed",
      { type: "audit", id: audit.id },
      { fromContact: old?.progressDone ?? 0 },
    );
  });
  const after = await getAuditRow(prisma, p);
  return { auditId: after.id, status: after.status };
}

type AuditRow = NonNullable<Awaited<ReturnType<PrismaClient["mailabilityAudit"]["findFirst"]>>>;

/** The audit row, its status brought in line with its job's when the job failed or was cancelled. */
async function getAuditRow(
  db: Db,
  p: { workspaceId: string; auditId: string },
): Promise<AuditRow & { job: TJobView | null }> {
  const audit = await db.mailabilityAudit.findFirst({ where: { id: p.auditId, workspaceId: p.workspaceId } });
  if (!audit) throw auditNotFound();
  const job = audit.jobId ? await db.job.findFirst({ where: { id: audit.jobId, workspaceId: p.workspaceId } }) : null;
  if (
    job &&
    (audit.status === "queued" || audit.status === "running") &&
    (job.status === "failed" || job.status === "cancelled" || job.status === "running")
  ) {
    const status = job.status;
    if (status !== audit.status) {
      await db.mailabilityAudit.updateMany({
        where: { id: audit.id, workspaceId: p.workspaceId, status: { in: ["queued", "running"] } },
        data: { status, error: job.error, ...(status === "running" ? {} : { finishedAt: job.finishedAt }) },
      });
      Object.assign(audit, { status, error: job.error });
    }
  }
  return { ...audit, job: job ? jobView(job) : null };
}

/** An audit as people and agents read it (shares as fractions of the audited contacts). */
export function auditView(a: AuditRow & { job?: TJobView | null }) {
  const share = (n: number) => (a.contacts ? n / a.contacts : 0);
  return {
    auditId: a.id,
    status: a.status,
    error: a.status === "failed" ? (a.error ?? "The audit failed.") : null,
    progress: a.job && (a.status === "queued" || a.status === "running") ? a.job.progress : null,
    jobId: a.jobId,
    audienceId: a.audienceId,
    audienceName: a.audienceName,
    campaignId: a.campaignId,
    campaignName: a.campaignName,
    format: a.format,
    addressBlock: { format: a.blockFormat, size: a.blockSize },
    contacts: a.contacts,
    mailable: a.mailable,
    fixable: a.fixable,
    unmailable: a.unmailable,
    mailableShare: share(a.mailable),
    fixableShare: share(a.fixable),
    unmailableShare: share(a.unmailable),
    reasons: a.reasons as Partial<Record<TMailabilityReason, number>>,
    accounts: a.accounts,
    accountsWithMailableContact: a.accountsWithMailableContact,
    // byCountry and costs: written by the audit job from these types (job.ts); JSON columns read back untyped.
    byCountry: a.byCountry as unknown as TCountryRow[],
    coveredCountries: a.countriesJudged ? a.coveredCountries : null,
    costs: a.costs as unknown as TFormatCost[],
    verification: a.verify
      ? {
          verifier: a.verifier,
          mode: (a.verificationMode as TVerificationMode | null) ?? null,
          estimateCents: a.verificationEstimateCents,
          made: a.verificationsMade,
          cached: a.verificationsCached,
          notVerified: a.verificationsNotVerified,
          costCents: a.verificationCostCents,
        }
      : null,
    requestedBy: a.requestedByLabel,
    createdAt: a.createdAt.toISOString(),
    finishedAt: a.finishedAt?.toISOString() ?? null,
  };
}

/** The columns that say whether a contact belongs in the problems table: a reason, or not mailable. */
const HAS_PROBLEM = { OR: [{ status: { not: "mailable" as const } }, { reasons: { isEmpty: false } }] };

/** The order of the problems table: the statuses that stop mail first (the enum's order, descending). */
const FLAGGED_FIRST: TMailabilityStatus[] = ["unmailable", "fixable", "mailable"];

/** One audit with up to 10 samples of contacts with a reason (unmailable first, then fixable, then informational). */
export async function getAudit(db: Db, p: { workspaceId: string; auditId: string }) {
  const audit = await getAuditRow(db, p);
  const samples = await db.mailabilityResult.findMany({
    where: { auditId: audit.id, workspaceId: p.workspaceId, ...HAS_PROBLEM },
    orderBy: [{ status: "desc" }, { contactId: "asc" }],
    take: 10,
  });
  return {
    ...auditView(audit),
    samples: samples.map((s) => ({
      contactId: s.contactId,
      status: s.status,
      reasons: s.reasons as TMailabilityReason[],
      ...(s.suggestion ? { suggestion: s.suggestion as TAddressFix } : {}),
    })),
  };
}

/** The workspace's audits, newest first (of one audience or campaign when given), a page at a time. */
export async function listAudits(
  db: Db,
  p: {
    workspaceId: string;
    audienceId?: string | null;
    campaignId?: string | null;
    take?: number;
    cursor?: string | null;
  },
) {
  if (
    p.cursor &&
    !(await db.mailabilityAudit.findFirst({
      where: { id: p.cursor, workspaceId: p.workspaceId },
      select: { id: true },
    }))
  ) {
    throw new AppError("not_found", "The cursor does not name an audit of this workspace; start again without it.");
  }
  const take = p.take ?? 50;
  const rows = await db.mailabilityAudit.findMany({
    where: {
      workspaceId: p.workspaceId,
      ...(p.audienceId ? { audienceId: p.audienceId } : {}),
      ...(p.campaignId ? { campaignId: p.campaignId } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, take);
  return { audits: page.map((a) => auditView(a)), nextCursor: rows.length > take ? page[page.length - 1].id : null };
}

/** The newest finished audit (of an audience or a campaign, or of the workspace), or null: the checklist and readiness read it. */
export async function latestAudit(
  db: Db,
  p: { workspaceId: string; audienceId?: string | null; campaignId?: string | null },
) {
  const row = await db.mailabilityAudit.findFirst({
    where: {
      workspaceId: p.workspaceId,
      status: "succeeded",
      ...(p.audienceId ? { audienceId: p.audienceId } : {}),
      ...(p.campaignId ? { campaignId: p.campaignId } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return row ? auditView(row) : null;
}

const CONTACT_VIEW = {
  firstName: true,
  lastName: true,
  email: true,
  addressLine1: true,
  addressLine2: true,
  city: true,
  region: true,
  postalCode: true,
  country: true,
  account: { select: { name: true } },
} as const;

/**
 * The contacts of an audit with a reason (informational ones included) or not mailable, flagged
 * ones first (unmailable, fixable, then informational), filterable by reason and status, a page at a time, with the address as it is now and its
 * normalised form beside it.
 */
export async function auditProblems(
  db: Db,
  p: {
    workspaceId: string;
    auditId: string;
    reason?: TMailabilityReason | null;
    status?: TMailabilityStatus | null;
    cursor?: string | null;
    take: number;
  },
) {
  const audit = await db.mailabilityAudit.findFirst({
    where: { id: p.auditId, workspaceId: p.workspaceId },
    select: { id: true },
  });
  if (!audit) throw auditNotFound();
  const at = p.cursor
    ? await db.mailabilityResult.findFirst({
        where: { auditId: audit.id, workspaceId: p.workspaceId, contactId: p.cursor },
        select: { contactId: true, status: true },
      })
    : null;
  if (p.cursor && !at)
    throw new AppError("not_found", "The cursor does not name a contact of this audit; start again without it.");
  // Flagged first: unmailable, then fixable, then mailable contacts with an informational reason; by contact within each.
  const after = at ? FLAGGED_FIRST.slice(FLAGGED_FIRST.indexOf(at.status) + 1) : [];
  const rows = await db.mailabilityResult.findMany({
    where: {
      auditId: audit.id,
      workspaceId: p.workspaceId,
      AND: [
        HAS_PROBLEM,
        ...(at ? [{ OR: [{ status: at.status, contactId: { gt: at.contactId } }, { status: { in: after } }] }] : []),
      ],
      ...(p.reason ? { reasons: { has: p.reason } } : {}),
      ...(p.status ? { status: p.status } : {}),
    },
    orderBy: [{ status: "desc" }, { contactId: "asc" }],
    take: p.take + 1,
    include: { contact: { select: CONTACT_VIEW } },
  });
  const page = rows.slice(0, p.take);
  return {
    items: page.map((r) => {
      const { account, ...contact } = r.contact;
      return {
        contactId: r.contactId,
        status: r.status,
        reasons: (r.reasons as TMailabilityReason[]).filter((x) =>
          (MAILABILITY_REASONS as readonly string[]).includes(x),
        ),
        suggestion: (r.suggestion as TAddressFix | null) ?? null,
        contact: { ...contact, company: account?.name ?? null },
        normalised: normaliseAddress(contact),
        normalisationNotes: normalisationNotes(contact),
      };
    }),
    nextCursor: rows.length > p.take ? page[page.length - 1].contactId : null,
  };
}
