import type { PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import { updateContact } from "@/server/records/contacts/service";
import type { Db } from "@/server/ground/db";
import { isSuppressed } from "@/server/records/contacts/suppression-check";
import { AppError } from "@/server/ground/errors";
import { asAuditContact, AUDIT_CONTACT_FIELDS, sharedFactsFor, type TAuditContactRow } from "./facts";
import { type AddressFields, normaliseAddress, type TAddressFix } from "@/server/records/addresses/normalise";
import type { TMailabilityReason } from "./reasons";
import { reasonPhrases } from "./reason-words";
import { type TVerdict, verdictOf } from "./verdict";
import { cacheNameOf, cachedVerifications, verificationKey } from "./verifiers/cache";
import { addressVerifier } from "./verifiers/registry";

/** Contacts one bulk call accepts at most (by selection); a reason filter works through the audit this many at a time. */
export const BULK_FIX_MAX = 500;

const contactNotFound = () =>
  new AppError(
    "not_found",
    "No such contact in this workspace; contacts_list finds contacts by name, email or company.",
  );

/**
 * A contact's mailability now: the audit's verdict for an audience (every approved printer's
 * countries, the smallest address block, its cached verification, the suppression list), without
 * the audience's duplicates; with the newest audit that judged it. The contact page and
 * contacts_get show it.
 */
export async function contactMailability(db: Db, p: { workspaceId: string; contactId: string }) {
  const row = await db.contact.findFirst({
    where: { id: p.contactId, workspaceId: p.workspaceId },
    select: AUDIT_CONTACT_FIELDS,
  });
  if (!row) throw contactNotFound();
  const c = asAuditContact(row as TAuditContactRow);
  const verifier = addressVerifier();
  const key = c.addressLine1?.trim() ? verificationKey(c) : null;
  const [shared, suppressed, verification, latest] = await Promise.all([
    sharedFactsFor(db, { workspaceId: p.workspaceId }),
    isSuppressed(db, p.workspaceId, { ...c, accountDomain: c.account?.domain ?? null }),
    key
      ? cachedVerifications(db, { workspaceId: p.workspaceId, verifier: cacheNameOf(verifier), keys: [key] }).then(
          (m) => m.get(key) ?? null,
        )
      : null,
    db.mailabilityResult.findFirst({
      where: { contactId: c.id, workspaceId: p.workspaceId, audit: { status: "succeeded" } },
      orderBy: { audit: { createdAt: "desc" } },
      select: {
        auditId: true,
        status: true,
        reasons: true,
        audit: { select: { createdAt: true, campaignName: true, audienceName: true } },
      },
    }),
  ]);
  const verdict: TVerdict = verdictOf(c, shared, { suppressed, verification });
  return {
    ...verdict,
    why: reasonPhrases(c, verdict.reasons),
    normalised: normaliseAddress(c),
    verification: verification
      ? {
          verdict: verification.verdict,
          vendorVerdict: verification.vendorVerdict,
          verifier: verifier.name,
          mode: verifier.mode,
        }
      : null,
    latestAudit: latest
      ? {
          auditId: latest.auditId,
          auditedAt: latest.audit.createdAt.toISOString(),
          of: latest.audit.campaignName ?? latest.audit.audienceName,
          status: latest.status,
          reasons: latest.reasons as TMailabilityReason[],
          why: reasonPhrases(c, latest.reasons as TMailabilityReason[]),
        }
      : null,
  };
}

const FIELD_NAMES: Record<keyof AddressFields, string> = {
  addressLine1: "address line 1",
  addressLine2: "address line 2",
  city: "city",
  region: "region",
  postalCode: "postal code",
  country: "country",
};
export const describeFix = (fix: TAddressFix) =>
  Object.entries(fix)
    .map(([f, v]) => `${FIELD_NAMES[f as keyof AddressFields]} → ${v}`)
    .join(", ");

/** Writes a suggestion as the actor's own edit of the contact (audit-logged by updateContact). */
async function writeFix(
  prisma: PrismaClient,
  p: { workspaceId: string; contactId: string; fix: TAddressFix; actor: Actor },
) {
  const c = await prisma.contact.findFirst({ where: { id: p.contactId, workspaceId: p.workspaceId } });
  if (!c) throw contactNotFound();
  const fields: Record<string, unknown> = c;
  const textOf = (f: string) => {
    const value = fields[f];
    return typeof value === "string" ? value : null;
  };
  const changed = Object.fromEntries(Object.entries(p.fix).map(([f, to]) => [f, { from: textOf(f), to }])) as Record<
    string,
    { from: string | null; to: string }
  >;
  await updateContact(prisma, {
    workspaceId: p.workspaceId,
    contactId: c.id,
    actor: p.actor,
    as: "fix",
    fields: {
      firstName: c.firstName,
      lastName: c.lastName,
      title: c.title,
      email: c.email,
      phone: c.phone,
      addressLine1: p.fix.addressLine1 ?? c.addressLine1,
      addressLine2: p.fix.addressLine2 ?? c.addressLine2,
      city: p.fix.city ?? c.city,
      region: p.fix.region ?? c.region,
      postalCode: p.fix.postalCode ?? c.postalCode,
      country: p.fix.country ?? c.country,
      crmId: c.crmId,
      customFields: (c.customFields ?? {}) as Record<string, string>,
    },
  });
  return changed;
}

/**
 * Accepts the suggested correction of a contact's address (as judged now), as the actor's own
 * edit, audit-logged. Refused with a clear sentence when there is nothing to correct.
 */
export async function applyFix(prisma: PrismaClient, p: { workspaceId: string; contactId: string; actor: Actor }) {
  const now = await contactMailability(prisma, p);
  if (!now.suggestion) {
    throw new AppError(
      "invalid_state",
      now.status === "mailable"
        ? "The contact is mailable already: there is nothing to fix."
        : `There is no correction to accept: ${now.reasons.join(", ")} need a person (edit the contact, or fix it in your CRM).`,
    );
  }
  const changed = await writeFix(prisma, { ...p, fix: now.suggestion });
  const after = await contactMailability(prisma, p);
  return {
    contactId: p.contactId,
    changed,
    mailability: {
      status: after.status,
      reasons: after.reasons,
      ...(after.suggestion ? { suggestion: after.suggestion } : {}),
    },
  };
}

/**
 * Accepts the suggested fixes of an audit's fixable contacts: the ones selected (at most
 * BULK_FIX_MAX), or those with a reason (BULK_FIX_MAX per call; `remaining` says how many are left).
 * Each contact is judged again first: one whose suggestion no longer holds is skipped, not
 * changed; one changed since the audit (its fix accepted already, or edited) is left to the next audit. Every change is the actor's edit in the audit log, and the call one entry more.
 */
export async function applyFixes(
  prisma: PrismaClient,
  p: {
    workspaceId: string;
    auditId: string;
    contactIds?: string[] | null;
    reason?: TMailabilityReason | null;
    actor: Actor;
  },
) {
  const audit = await prisma.mailabilityAudit.findFirst({
    where: { id: p.auditId, workspaceId: p.workspaceId },
    select: { id: true, status: true, finishedAt: true },
  });
  if (!audit)
    throw new AppError("not_found", "No such audit in this workspace; audits_list shows this workspace's audits.");
  if (audit.status !== "succeeded")
    throw new AppError("invalid_state", "The audit has not finished; accept its fixes once audits_get says succeeded.");
  if (p.contactIds && p.contactIds.length > BULK_FIX_MAX)
    throw new AppError("validation_failed", `At most ${BULK_FIX_MAX} contacts at a time.`);
  // Neither contactIds nor a reason: every fixable contact of the audit, BULK_FIX_MAX per call.
  // A contact changed since the audit (a fix accepted, an edit) is left to the next audit.
  const where = {
    auditId: audit.id,
    workspaceId: p.workspaceId,
    status: "fixable" as const,
    contact: { updatedAt: { lte: audit.finishedAt ?? new Date(0) } },
    ...(p.contactIds?.length ? { contactId: { in: p.contactIds } } : {}),
    ...(p.reason ? { reasons: { has: p.reason } } : {}),
  };
  const candidates = await prisma.mailabilityResult.findMany({
    where,
    orderBy: { contactId: "asc" },
    select: { contactId: true },
  });
  const fixed: { contactId: string; changed: Record<string, { from: string | null; to: string }> }[] = [];
  const skipped: { contactId: string; why: string }[] = [];
  let looked = 0;
  for (const { contactId } of candidates) {
    if (fixed.length >= BULK_FIX_MAX) break;
    looked += 1;
    const now = await contactMailability(prisma, { workspaceId: p.workspaceId, contactId }).catch(() => null);
    if (!now) {
      skipped.push({ contactId, why: "deleted" });
      continue;
    }
    if (!now.suggestion) {
      skipped.push({ contactId, why: now.status === "mailable" ? "already mailable" : "no suggestion any more" });
      continue;
    }
    fixed.push({
      contactId,
      changed: await writeFix(prisma, { workspaceId: p.workspaceId, contactId, fix: now.suggestion, actor: p.actor }),
    });
  }
  await recordAudit(
    prisma,
    p.workspaceId,
    p.actor,
    "mailability.fixes_accepted",
    { type: "audit", id: audit.id },
    { fixed: fixed.length, skipped: skipped.length, reason: p.reason ?? null, selected: p.contactIds?.length ?? null },
  );
  return {
    fixed: fixed.length,
    skipped: skipped.length,
    remaining: candidates.length - looked,
    changes: fixed.slice(0, 100),
  };
}
