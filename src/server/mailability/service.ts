import type { PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/audit/service";
import { updateContact } from "@/server/contacts/service";
import type { Db } from "@/server/db";
import { addressKey, recipientKey } from "@/server/entry/lifecycle/gates/address";
import { isSuppressed, suppressionKeys } from "@/server/entry/lifecycle/gates/suppression";
import { AppError } from "@/server/errors";
import type { TMailabilityReason, TMailabilityStatus } from "./reasons";
import type { TAddressFix } from "./suggest";
import { type TVerdict, verdictOf } from "./verdict";

const auditNotFound = () => new AppError("not_found", "No such audit in this workspace; audits_list shows this workspace's audits.");

const CONTACT_FIELDS = {
  id: true,
  firstName: true,
  lastName: true,
  email: true,
  accountId: true,
  addressLine1: true,
  addressLine2: true,
  city: true,
  region: true,
  postalCode: true,
  country: true,
  addressStatus: true,
  undeliverableReason: true,
  account: { select: { domain: true } },
} as const;

/** What the workspace's approved printers cover: their countries, and the lowest price per format. */
async function printers(db: Db, workspaceId: string) {
  const contracts = await db.fulfilmentContract.findMany({ where: { workspaceId, status: "approved" }, select: { format: true, countries: true, unitCostCents: true } });
  if (!contracts.length) return { covered: null, unitByFormat: new Map<string, number>() };
  const unitByFormat = new Map<string, number>();
  for (const c of contracts) unitByFormat.set(c.format, Math.min(unitByFormat.get(c.format) ?? Infinity, c.unitCostCents));
  return { covered: new Set(contracts.flatMap((c) => c.countries)), unitByFormat };
}

/**
 * Audits an audience: every member's verdict (the lifecycle's own checks, plus duplicates within
 * the audience and the suppression list), counted per status, reason and country, with account
 * coverage and what mailing the mailable contacts would cost. Kept as a run of the audit history.
 */
export async function runAudit(prisma: PrismaClient, p: { workspaceId: string; audienceId: string; actor: Actor; now?: Date }) {
  const audience = await prisma.audience.findFirst({ where: { id: p.audienceId, workspaceId: p.workspaceId }, select: { id: true, name: true } });
  if (!audience) throw new AppError("not_found", "No such audience in this workspace; audiences_list shows them.");
  const [members, suppressions, { covered, unitByFormat }] = await Promise.all([
    prisma.contact.findMany({ where: { workspaceId: p.workspaceId, audienceMembers: { some: { audienceId: audience.id } } }, select: CONTACT_FIELDS, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    prisma.suppression.findMany({ where: { workspaceId: p.workspaceId }, select: { kind: true, value: true } }),
    printers(prisma, p.workspaceId),
  ]);
  const suppressed = new Set(suppressions.map((s) => `${s.kind}:${s.value}`));
  const people = new Set<string>();
  const addressCount = new Map<string, number>();
  for (const c of members) if (c.addressLine1) addressCount.set(addressKey(c), (addressCount.get(addressKey(c)) ?? 0) + 1);

  const counts: Record<TMailabilityStatus, number> = { mailable: 0, fixable: 0, unmailable: 0 };
  const reasons: Partial<Record<TMailabilityReason, number>> = {};
  const countries = new Map<string, { contacts: number; mailable: number }>();
  const accounts = new Map<string, boolean>();
  const results: { contactId: string; verdict: TVerdict }[] = [];
  for (const c of members) {
    const person = recipientKey(c);
    const verdict = verdictOf(c, {
      suppressed: suppressionKeys({ ...c, accountDomain: c.account?.domain ?? null }).some((k) => suppressed.has(`${k.kind}:${k.value}`)),
      coveredCountries: covered,
      duplicateContact: people.has(person),
      duplicateAddress: !!c.addressLine1 && (addressCount.get(addressKey(c)) ?? 0) > 1,
    });
    people.add(person);
    counts[verdict.status] += 1;
    for (const r of verdict.reasons) reasons[r] = (reasons[r] ?? 0) + 1;
    const country = countries.get(c.country ?? "") ?? { contacts: 0, mailable: 0 };
    country.contacts += 1;
    if (verdict.status === "mailable") country.mailable += 1;
    countries.set(c.country ?? "", country);
    const account = c.accountId ?? c.id;
    accounts.set(account, (accounts.get(account) ?? false) || verdict.status === "mailable");
    // Stored per contact: the ones to fix (a mailable contact's informational reasons are counted only).
    if (verdict.status !== "mailable") results.push({ contactId: c.id, verdict });
  }

  return prisma.$transaction(async (tx) => {
    const audit = await tx.mailabilityAudit.create({
      data: {
        workspaceId: p.workspaceId,
        audienceId: audience.id,
        audienceName: audience.name,
        contacts: members.length,
        ...counts,
        accounts: accounts.size,
        accountsWithMailableContact: [...accounts.values()].filter(Boolean).length,
        reasons,
        byCountry: [...countries.entries()].map(([country, n]) => ({ country: country || null, ...n })).sort((a, b) => b.contacts - a.contacts),
        coveredCountries: covered ? [...covered].sort() : [],
        costs: [...unitByFormat.entries()].map(([format, unitCostCents]) => ({ format, unitCostCents, totalCents: unitCostCents * counts.mailable })),
        requestedByLabel: p.actor.label,
        createdAt: p.now,
        finishedAt: p.now ?? new Date(),
      },
    });
    for (let i = 0; i < results.length; i += 5000) {
      await tx.mailabilityResult.createMany({
        data: results.slice(i, i + 5000).map((r) => ({ auditId: audit.id, contactId: r.contactId, workspaceId: p.workspaceId, status: r.verdict.status, reasons: r.verdict.reasons, suggestion: r.verdict.suggestion ?? undefined })),
      });
    }
    await recordAudit(tx, p.workspaceId, p.actor, "audit.ran", { type: "audience", id: audience.id }, { auditId: audit.id, ...counts });
    return audit;
  }, { timeout: 120_000, maxWait: 10_000 });
}

type AuditRow = NonNullable<Awaited<ReturnType<PrismaClient["mailabilityAudit"]["findFirst"]>>>;

/** An audit as people and agents read it (shares as fractions of the audience's contacts). */
export function auditView(a: AuditRow) {
  const share = (n: number) => (a.contacts ? n / a.contacts : 0);
  return {
    auditId: a.id,
    status: "succeeded" as const,
    audienceId: a.audienceId,
    audienceName: a.audienceName,
    contacts: a.contacts,
    mailable: a.mailable,
    fixable: a.fixable,
    unmailable: a.unmailable,
    mailableShare: share(a.mailable),
    unmailableShare: share(a.unmailable),
    reasons: a.reasons as Partial<Record<TMailabilityReason, number>>,
    accounts: a.accounts,
    accountsWithMailableContact: a.accountsWithMailableContact,
    byCountry: a.byCountry as { country: string | null; contacts: number; mailable: number }[],
    coveredCountries: a.coveredCountries.length ? a.coveredCountries : null,
    costs: a.costs as { format: string; unitCostCents: number; totalCents: number }[],
    requestedBy: a.requestedByLabel,
    createdAt: a.createdAt,
  };
}
export type TAuditView = ReturnType<typeof auditView>;

/** One audit with up to 10 sample contacts that have a problem (unmailable first, then fixable). */
export async function getAudit(db: Db, p: { workspaceId: string; auditId: string }) {
  const audit = await db.mailabilityAudit.findFirst({ where: { id: p.auditId, workspaceId: p.workspaceId } });
  if (!audit) throw auditNotFound();
  const samples = await db.mailabilityResult.findMany({ where: { auditId: audit.id, status: { not: "mailable" } }, orderBy: [{ status: "desc" }, { contactId: "asc" }], take: 10 });
  return { ...auditView(audit), samples: samples.map((s) => ({ contactId: s.contactId, status: s.status, reasons: s.reasons as TMailabilityReason[], suggestion: (s.suggestion as TAddressFix | null) ?? undefined })) };
}

/** The workspace's audits, newest first (of one audience when given). */
export async function listAudits(db: Db, p: { workspaceId: string; audienceId?: string | null; take?: number }) {
  const rows = await db.mailabilityAudit.findMany({ where: { workspaceId: p.workspaceId, ...(p.audienceId ? { audienceId: p.audienceId } : {}) }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: p.take ?? 50 });
  return rows.map(auditView);
}

/** The newest audit (of an audience, or of the workspace), or null: the first-run checklist and go-live readiness read it. */
export async function latestAudit(db: Db, p: { workspaceId: string; audienceId?: string | null }) {
  const row = await db.mailabilityAudit.findFirst({ where: { workspaceId: p.workspaceId, ...(p.audienceId ? { audienceId: p.audienceId } : {}) }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return row ? auditView(row) : null;
}

/** The contacts of an audit with a reason, filterable by reason and status, a page at a time. */
export async function auditProblems(db: Db, p: { workspaceId: string; auditId: string; reason?: TMailabilityReason | null; status?: TMailabilityStatus | null; cursor?: string | null; take: number }) {
  const audit = await db.mailabilityAudit.findFirst({ where: { id: p.auditId, workspaceId: p.workspaceId }, select: { id: true } });
  if (!audit) throw auditNotFound();
  const rows = await db.mailabilityResult.findMany({
    where: { auditId: audit.id, ...(p.reason ? { reasons: { has: p.reason } } : {}), ...(p.status ? { status: p.status } : {}), ...(p.cursor ? { contactId: { gt: p.cursor } } : {}) },
    orderBy: { contactId: "asc" },
    take: p.take + 1,
    include: { contact: { select: { firstName: true, lastName: true, email: true, addressLine1: true, addressLine2: true, city: true, region: true, postalCode: true, country: true, account: { select: { name: true } } } } },
  });
  const page = rows.slice(0, p.take);
  return {
    items: page.map((r) => ({ contactId: r.contactId, status: r.status, reasons: r.reasons as TMailabilityReason[], suggestion: (r.suggestion as TAddressFix | null) ?? null, contact: { ...r.contact, company: r.contact.account?.name ?? null, account: undefined } })),
    nextCursor: rows.length > p.take ? page[page.length - 1].contactId : null,
  };
}

/** A contact's mailability now: the same checks as an audit, without the audience's duplicates. */
export async function contactMailability(db: Db, p: { workspaceId: string; contactId: string }): Promise<TVerdict> {
  const c = await db.contact.findFirst({ where: { id: p.contactId, workspaceId: p.workspaceId }, select: CONTACT_FIELDS });
  if (!c) throw new AppError("not_found", "No such contact in this workspace; contacts_list finds contacts by name, email or company.");
  const [{ covered }, suppressed] = await Promise.all([printers(db, p.workspaceId), isSuppressed(db, p.workspaceId, { ...c, accountDomain: c.account?.domain ?? null })]);
  return verdictOf(c, { suppressed, coveredCountries: covered });
}

/**
 * Accepts the suggested correction of a contact's address (its postal code), as the actor's own
 * edit, audit-logged. Refused with a clear sentence when there is nothing to correct.
 */
export async function applyFix(prisma: PrismaClient, p: { workspaceId: string; contactId: string; actor: Actor }) {
  const verdict = await contactMailability(prisma, p);
  if (!verdict.suggestion) {
    throw new AppError("invalid_state", verdict.status === "mailable" ? "The contact is mailable already: there is nothing to fix." : `There is no correction to accept: ${verdict.reasons.join(", ")} need a person (edit the contact, or fix it in your CRM).`);
  }
  const c = await prisma.contact.findFirstOrThrow({ where: { id: p.contactId, workspaceId: p.workspaceId } });
  const before = c.postalCode;
  await updateContact(prisma, {
    workspaceId: p.workspaceId,
    contactId: c.id,
    actor: p.actor,
    fields: {
      firstName: c.firstName,
      lastName: c.lastName,
      title: c.title,
      email: c.email,
      phone: c.phone,
      addressLine1: c.addressLine1,
      addressLine2: c.addressLine2,
      city: c.city,
      region: c.region,
      postalCode: verdict.suggestion.postalCode,
      country: c.country,
      crmId: c.crmId,
      customFields: (c.customFields ?? {}) as Record<string, string>,
    },
  });
  return { contactId: c.id, changed: { postalCode: { from: before, to: verdict.suggestion.postalCode } }, mailability: await contactMailability(prisma, p) };
}
