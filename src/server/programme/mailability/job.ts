import { z } from "zod";
import { Prisma } from "@/generated/prisma/client";
import { toCountryCode } from "@/server/records/addresses/countries";
import { hotQuery } from "@/server/ground/platform/hot-sql";
import { defineJobHandler, JobError } from "@/server/records/jobs/handler";
import type { TFormat } from "@/server/ground/render/page-specs";
import type { TFontFamily } from "@/server/ground/render/fonts";
import { normaliseAddress } from "@/server/records/addresses/normalise";
import { asAuditContact, audienceDuplicates, isSuppressedBy, suppressionSet, type TAuditContactRow } from "./facts";
import { auditFigures } from "./report";
import { type TSharedFacts, verdictOf } from "./verdict";
import { cacheNameOf, cachedVerifications, storeVerifications, verificationKey } from "./verifiers/cache";
import { addressVerifier } from "./verifiers/registry";
import { verifyAddresses } from "./verifiers/run";
import { type TVerification, VerifierError } from "./verifiers/types";

/** Contacts audited per batch: each batch's results and the checkpoint commit together. */
export const AUDIT_BATCH = 5000;
let batchSize = AUDIT_BATCH;
/** Tests: smaller batches, to see checkpoints and resumption on a small audience (null restores). */
export function setAuditBatchForTests(n: number | null) {
  batchSize = n ?? AUDIT_BATCH;
}

const ZCheckpoint = z.object({ afterId: z.string(), done: z.number().int() });

type BatchRow = Omit<TAuditContactRow, "account"> & { accountName: string | null; accountDomain: string | null };

/**
 * The audit_run job: reads the audience a batch at a time (by contact id), verifies the batch's
 * addresses when the run asked for it (cached answers first; what the vendor answers is stored at
 * once, so an address is never paid for twice), evaluates every verdict with the batch's shared
 * facts, and writes the results with the checkpoint in one transaction. A crash or a lost lease
 * resumes after the last committed batch; at the end the report's figures are counted from the
 * results and the audit is marked succeeded.
 */
export const auditRunJob = defineJobHandler({
  kind: "audit_run",
  input: z.object({ auditId: z.string() }),
  async run(run) {
    const prisma = run.db;
    const workspaceId = run.job.workspaceId;
    const audit = await prisma.mailabilityAudit.findFirst({ where: { id: run.input.auditId, workspaceId } });
    if (!audit) throw new JobError("The audit is no longer here; run it again.");
    if (!audit.audienceId) throw new JobError("The audience was deleted; nothing to audit.");
    const audienceId = audit.audienceId;
    await prisma.mailabilityAudit.updateMany({
      where: { id: audit.id, workspaceId },
      data: { status: "running", startedAt: audit.startedAt ?? run.now(), error: null },
    });

    const shared: TSharedFacts = {
      format: (audit.format as TFormat | null) ?? null,
      block: {
        format: audit.blockFormat as TFormat,
        size: audit.blockSize,
        handwriting: (audit.blockHandwriting as TFontFamily | null) ?? undefined,
      },
      coveredCountries: audit.countriesJudged ? new Set(audit.coveredCountries) : null,
    };
    const [suppressed, duplicates, total] = await Promise.all([
      suppressionSet(prisma, workspaceId),
      audienceDuplicates(prisma, { workspaceId, audienceId }),
      prisma.audienceMember.count({ where: { audienceId, workspaceId } }),
    ]);
    // Answers already had are always used (the lifecycle's address gate and the contact page use
    // them too: one verdict); only an audit that verifies asks, and pays, for new ones.
    const verifier = addressVerifier();
    const asksVendor = audit.verify;
    const resume = ZCheckpoint.safeParse(run.resumeFrom);
    const afterId = resume.success ? resume.data.afterId : "";
    let done = resume.success ? resume.data.done : 0;
    await run.progress(done, total);

    // Straight on the driver, keyset by contact id along the audience's primary key; the next batch
    // is read while the current one is judged and written.
    const readBatch = async (after: string): Promise<TAuditContactRow[]> => {
      const rows = await hotQuery<BatchRow>(
        prisma,
        Prisma.sql`
          SELECT c.id, c."firstName", c."lastName", c.title, c.email, c."accountId", c."addressLine1", c."addressLine2", c.city, c.region,
                 c."postalCode", c.country, c."addressStatus"::text AS "addressStatus", c."undeliverableReason", a.name AS "accountName", a.domain AS "accountDomain"
            FROM "AudienceMember" m
            JOIN "Contact" c ON c.id = m."contactId" AND c."workspaceId" = ${workspaceId}
            LEFT JOIN "Account" a ON a.id = c."accountId"
           WHERE m."audienceId" = ${audienceId} AND m."workspaceId" = ${workspaceId} AND m."contactId" > ${after}
           ORDER BY m."contactId"
           LIMIT ${batchSize}`,
      );
      return rows.map(({ accountName, accountDomain, ...c }) => ({
        ...c,
        account: c.accountId && accountName != null ? { name: accountName, domain: accountDomain } : null,
      }));
    };
    let next = readBatch(afterId);
    next.catch(() => undefined); // a failed read is seen where it is awaited
    for (;;) {
      const members = await next;
      if (!members.length) break;
      if (members.length === batchSize) {
        next = readBatch(members[members.length - 1].id);
        next.catch(() => undefined);
      }
      const contacts = members.map(asAuditContact);

      // Verification: the cache first, then the vendor for the addresses it has not answered.
      const keys = new Map<string, string>();
      let verifications = new Map<string, TVerification>();
      let cachedHere = 0;
      {
        for (const c of contacts) if (c.addressLine1?.trim()) keys.set(c.id, verificationKey(c));
        verifications = await cachedVerifications(prisma, {
          workspaceId,
          verifier: cacheNameOf(verifier),
          keys: [...keys.values()],
          now: run.now(),
        });
        const wanted = new Map<string, ReturnType<typeof normaliseAddress>>();
        for (const c of contacts) {
          const key = keys.get(c.id);
          if (key && !verifications.has(key) && !wanted.has(key)) wanted.set(key, normaliseAddress(c));
        }
        cachedHere = [...keys.values()].filter((k) => verifications.has(k)).length;
        if (asksVendor && wanted.size) {
          await run.progress(done, total);
          let outcome: Awaited<ReturnType<typeof verifyAddresses>>;
          try {
            outcome = await verifyAddresses(
              verifier,
              [...wanted].map(([key, address]) => ({ key, address })),
            );
          } catch (error) {
            if (error instanceof VerifierError && error.detail.fatal) throw new JobError(error.message);
            throw error;
          }
          const entries = [...outcome.results].map(([key, verification]) => ({
            key,
            verification,
            costCents: verifier.costCents(wanted.get(key)?.country ?? null),
          }));
          // What was paid for is kept (and counted) at once, whatever happens to the batch.
          await prisma.$transaction(async (tx) => {
            await storeVerifications(tx, { workspaceId, verifier: cacheNameOf(verifier), entries, now: run.now() });
            await tx.mailabilityAudit.updateMany({
              where: { id: audit.id, workspaceId },
              data: {
                verificationsMade: { increment: entries.length },
                verificationCostCents: { increment: entries.reduce((n, e) => n + e.costCents, 0) },
              },
            });
          });
          for (const e of entries) verifications.set(e.key, e.verification);
        }
      }

      const rows = contacts.map((c) => {
        const dup = duplicates.get(c.id);
        const key = keys.get(c.id);
        const v = verdictOf(c, shared, {
          suppressed: isSuppressedBy(suppressed, c),
          duplicateAddress: !!dup,
          duplicateContact: dup?.duplicateContact ?? false,
          verification: key ? verifications.get(key) : null,
        });
        // Per country by its ISO code ("Deutschland", "de" and "DE" are one country); what names no country stays as written.
        const country = c.country?.trim() ? (toCountryCode(c.country) ?? c.country.trim().toUpperCase()) : null;
        return {
          contactId: c.id,
          status: v.status,
          reasons: v.reasons,
          suggestion: v.suggestion ?? null,
          country,
          accountId: c.accountId,
        };
      });
      // Contacts whose answer verified nothing (a test key, the sandbox): the report says so.
      const notVerified = contacts.filter(
        (c) => keys.has(c.id) && verifications.get(keys.get(c.id)!)?.verdict === "not_verified",
      ).length;
      const last = contacts[contacts.length - 1].id;
      await prisma.$transaction(
        async (tx) => {
          await tx.$executeRaw`SET LOCAL synchronous_commit = off`;
          // Column arrays (unnest) rather than one JSON document: PostgreSQL reads them without parsing JSON.
          await tx.$executeRaw`
            INSERT INTO "MailabilityResult" ("auditId", "contactId", "workspaceId", status, reasons, suggestion, country, "accountId")
            SELECT ${audit.id}, u.c, ${workspaceId}, u.s::"Mailability", CASE WHEN u.r = '' THEN '{}'::text[] ELSE string_to_array(u.r, ' ') END, u.g::jsonb, u.k, u.a
              FROM unnest(${rows.map((r) => r.contactId)}::text[], ${rows.map((r) => r.status)}::text[], ${rows.map((r) => r.reasons.join(" "))}::text[],
                          ${rows.map((r) => (r.suggestion ? JSON.stringify(r.suggestion) : null))}::text[], ${rows.map((r) => r.country)}::text[], ${rows.map((r) => r.accountId)}::text[]) AS u(c, s, r, g, k, a)
            ON CONFLICT ("auditId", "contactId") DO NOTHING`;
          if (cachedHere || notVerified)
            await tx.mailabilityAudit.updateMany({
              where: { id: audit.id, workspaceId },
              data: {
                verificationsCached: { increment: cachedHere },
                verificationsNotVerified: { increment: notVerified },
              },
            });
          await run.checkpoint(
            tx,
            { afterId: last, done: done + contacts.length } satisfies Prisma.InputJsonValue,
            done + contacts.length,
            Math.max(total, done + contacts.length),
          );
        },
        { timeout: 120_000, maxWait: 30_000 },
      );
      done += contacts.length;
      if (contacts.length < batchSize) break;
    }

    const figures = await auditFigures(prisma, { workspaceId, auditId: audit.id });
    await prisma.mailabilityAudit.updateMany({
      where: { id: audit.id, workspaceId },
      data: {
        ...figures,
        reasons: figures.reasons,
        byCountry: figures.byCountry,
        costs: figures.costs,
        status: "succeeded",
        finishedAt: run.now(),
      },
    });
    return {
      auditId: audit.id,
      contacts: figures.contacts,
      mailable: figures.mailable,
      fixable: figures.fixable,
      unmailable: figures.unmailable,
    };
  },
});
