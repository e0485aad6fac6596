import type { Actor } from "@/server/ground/audit/service";
import { addSuppressions } from "@/server/records/contacts/suppressions-service";
import { toDomain } from "@/server/records/contacts/keys";
import type { TContactInput, AccountCache } from "@/server/records/contacts/write-model";
import { writeContacts } from "@/server/records/contacts/write";
import type { Db } from "@/server/ground/db";
import { syncCrmOutcomes } from "@/server/programme/holdouts/crm-outcomes";
import { rowReader } from "@/server/programme/imports/rows";
import type { TColumnTarget } from "@/server/records/contacts/csv-headers";
import { writeCrmAccounts } from "./accounts";
import type { CrmCompany, CrmContact, CrmDeal } from "./adapter";
import { linkedIds, writeLinks } from "./links";
import type { TSyncCounts } from "./schema";

/** One problem with one object, kept in the sync's history. */
export interface Issue {
  objectType: "contact" | "company" | "deal" | "list";
  objectId: string;
  severity: "error" | "warning";
  message: string;
}

export interface PageContext {
  workspaceId: string;
  connectionId: string;
  /** "HubSpot" or "Salesforce": the source people see on what the sync wrote. */
  label: string;
  actor: Actor;
  accountCache: AccountCache;
  counts: TSyncCounts;
  issues: Issue[];
  /** Salesforce Leads are synced in this run: list members may be leads. */
  leads?: boolean;
}

/** What the people of a page are: the CRM's contacts, or Salesforce Leads (see leads.ts). */
export interface PeopleKind {
  link: "contact" | "lead";
  counts: "contacts" | "leads";
  /** The word in messages: "contact 003…", "lead 00Q…". */
  noun: string;
  /** The vendor's field names in the order of CONTACT_TARGETS, for the messages. */
  fields?: string[];
  /** What a contact it creates says it came from (Contact.sourceDetail) and the writer of its fields. */
  sourceDetail?: string;
  /** Per record, an account to keep (the lead's person is also a Contact of this CRM, whose account stands). */
  accounts?: Map<string, string>;
}
const CONTACTS: PeopleKind = { link: "contact", counts: "contacts", noun: "contact" };

const issue = (c: PageContext, i: Issue) => {
  c.issues.push(i);
  c.counts.issues[i.severity === "error" ? "errors" : "warnings"]++;
};

/** Companies → accounts (matched by the connection's link, else domain, else name; see writeCrmAccounts). */
export async function writeCompanies(tx: Db, c: PageContext, records: CrmCompany[]) {
  const rows = records.map((r) => {
    const domain = toDomain(r.domain);
    if (r.domain && !domain)
      issue(c, {
        objectType: "company",
        objectId: r.id,
        severity: "warning",
        message: `company ${r.id}: “${r.domain.slice(0, 100)}” is not a web domain; kept without one`,
      });
    return { crmId: r.id, name: (r.name ?? domain ?? `Company ${r.id}`).slice(0, 200), domain };
  });
  const { outcomes, warnings } = await writeCrmAccounts(tx, rows, {
    workspaceId: c.workspaceId,
    connectionId: c.connectionId,
    sourceDetail: c.label,
  });
  for (const w of warnings)
    issue(c, {
      objectType: "company",
      objectId: w.crmId,
      severity: "warning",
      message: `company ${w.crmId}: ${w.message}`,
    });
  for (const o of outcomes) c.counts.companies[o]++;
}

/** The CRM's contact fields in the order of CONTACT_TARGETS, named as the vendor names them (for the messages). */
const CONTACT_TARGETS: TColumnTarget[] = [
  "firstName",
  "lastName",
  "email",
  "title",
  "phone",
  "addressLine1",
  "addressLine2",
  "city",
  "region",
  "postalCode",
  "country",
  "company",
  "crmId",
];
const FIELD_NAMES: Record<string, string[]> = {
  HubSpot: [
    "firstname",
    "lastname",
    "email",
    "jobtitle",
    "phone",
    "address",
    "address",
    "city",
    "state",
    "zip",
    "country",
    "company",
    "id",
  ],
  Salesforce: [
    "FirstName",
    "LastName",
    "Email",
    "Title",
    "Phone",
    "MailingStreet",
    "MailingStreet",
    "MailingCity",
    "MailingState",
    "MailingPostalCode",
    "MailingCountry",
    "Account",
    "Id",
  ],
};

/**
 * Contacts → contacts, each checked as an imported row is (names, email, country, lengths): a
 * contact that cannot be one (no name and no email) is an error and is not written; a missing
 * address or a value left out is a warning. A contact this connection synced before is found by its
 * link, whatever its email now is; the contact's company is the account linked to that company.
 * Each record is then linked to its contact. Contacts who opted out in the CRM are suppressed (opt-out).
 */
export async function writeContactsPage(tx: Db, c: PageContext, records: CrmContact[], kind: PeopleKind = CONTACTS) {
  const rows: TContactInput[] = [];
  const ids: string[] = [];
  const optedOut: number[] = [];
  const counts = c.counts[kind.counts];
  const noun = kind.noun;
  const contactOf = await linkedIds(
    tx,
    c,
    kind.link,
    records.map((r) => r.id),
  );
  const accountOf = await linkedIds(
    tx,
    c,
    "account",
    records.flatMap((r) => (r.companyId ? [r.companyId] : [])),
  );
  const readRow = rowReader(CONTACT_TARGETS, kind.fields ?? FIELD_NAMES[c.label] ?? FIELD_NAMES.HubSpot);
  for (const r of records) {
    const values = [
      r.firstName,
      r.lastName,
      r.email,
      r.title,
      r.phone,
      r.addressLine1,
      r.addressLine2,
      r.city,
      r.region,
      r.postalCode,
      r.country,
      r.companyName,
      r.id,
    ].map((v) => v ?? "");
    const prepared = readRow(values);
    if (prepared.kind === "refused") {
      counts.errors++;
      issue(c, {
        objectType: "contact",
        objectId: r.id,
        severity: "error",
        message: `${noun} ${r.id}: ${prepared.issue.reason}${prepared.issue.column ? ` (${prepared.issue.column})` : ""}; not synced`,
      });
      continue;
    }
    for (const w of prepared.warnings)
      issue(c, { objectType: "contact", objectId: r.id, severity: "warning", message: `${noun} ${r.id}: ${w.reason}` });
    if (!prepared.contact.addressLine1)
      issue(c, {
        objectType: "contact",
        objectId: r.id,
        severity: "warning",
        message: `${noun} ${r.id}: no address; synced, but it cannot be mailed until it has one`,
      });
    if (r.optedOut) optedOut.push(rows.length);
    const accountId = r.companyId ? (accountOf.get(r.companyId) ?? null) : (kind.accounts?.get(r.id) ?? null);
    rows.push({ ...prepared.contact, contactId: contactOf.get(r.id) ?? null, accountId });
    ids.push(r.id);
  }
  if (!rows.length) return;
  const sourceDetail = kind.sourceDetail ?? c.label;
  const results = await writeContacts(tx, rows, {
    workspaceId: c.workspaceId,
    onExisting: "update",
    audienceId: null,
    source: "crm",
    sourceDetail,
    sourceImportId: null,
    connectionId: c.connectionId,
    accountCache: c.accountCache,
  });
  await writeLinks(
    tx,
    c,
    kind.link,
    results.map((r, i) => ({ externalId: ids[i], localId: r.contactId })),
  );
  for (const r of results) {
    if (r.outcome === "created") counts.created++;
    else if (r.outcome === "updated") counts.updated++;
    else counts.unchanged++;
  }
  if (optedOut.length) {
    const entries = optedOut.map((i) =>
      rows[i].email
        ? { email: rows[i].email!, reason: "opt-out" as const }
        : { contactId: results[i].contactId, reason: "opt-out" as const },
    );
    const added = await addSuppressions(tx, { workspaceId: c.workspaceId, entries, source: "crm", actor: c.actor });
    c.counts.suppressions.added += added.added;
  }
}

/** Deals → account outcomes (see syncCrmOutcomes); a deal without a synced company is not counted. */
export async function writeDeals(tx: Db, c: PageContext, records: CrmDeal[]) {
  const companyIds = [...new Set(records.flatMap((r) => (r.companyId ? [r.companyId] : [])))];
  const byCrmId = await linkedIds(tx, c, "account", companyIds);
  const deals = [];
  for (const r of records) {
    const fail = (message: string) => {
      c.counts.deals.errors++;
      issue(c, {
        objectType: "deal",
        objectId: r.id,
        severity: "error",
        message: `deal ${r.id}: ${message}; not counted`,
      });
    };
    if (!r.companyId) fail("no associated company");
    else if (!byCrmId.has(r.companyId)) fail(`its company ${r.companyId} is not among the synced accounts`);
    else if (!r.createdAt) fail("no creation date");
    else {
      if (r.won && r.amountCents === null)
        issue(c, {
          objectType: "deal",
          objectId: r.id,
          severity: "warning",
          message: `deal ${r.id}: won without an amount; counted as closed-won with $0`,
        });
      deals.push({
        dealId: r.id,
        accountId: byCrmId.get(r.companyId)!,
        amountCents: r.amountCents,
        createdAt: r.createdAt,
        closedAt: r.closedAt,
        won: r.won,
      });
    }
  }
  if (!deals.length) return;
  const kind = c.label === "Salesforce" ? "opportunity" : "deal";
  const done = await syncCrmOutcomes(tx, deals, {
    workspaceId: c.workspaceId,
    connectionId: c.connectionId,
    sourceDetail: (id) => `${c.label} ${kind} ${id}`,
  });
  c.counts.outcomes.created += done.created;
  c.counts.outcomes.updated += done.updated;
  c.counts.outcomes.removed += done.removed;
}

/**
 * A CRM list → its audience (made on the first sync, named after the list), with exactly the list's
 * members that are synced contacts (found by this connection's links): new members added, those no
 * longer in the list taken out.
 */
export async function writeList(tx: Db, c: PageContext, list: { id: string; name: string }, memberCrmIds: string[]) {
  const link = await tx.crmListLink.findUnique({
    where: { connectionId_listId: { connectionId: c.connectionId, listId: list.id } },
  });
  let audience = link
    ? await tx.audience.findFirst({ where: { id: link.audienceId, workspaceId: c.workspaceId } })
    : null;
  const name = list.name.trim().slice(0, 110) || `${c.label} list ${list.id}`;
  const free = async (n: string) =>
    !(await tx.audience.findFirst({
      where: { workspaceId: c.workspaceId, name: n, ...(audience ? { id: { not: audience.id } } : {}) },
      select: { id: true },
    }));
  let wanted = name;
  for (let i = 1; !(await free(wanted)); i++) wanted = i === 1 ? `${name} (${c.label})` : `${name} (${c.label} ${i})`;
  if (!audience)
    audience = await tx.audience.create({ data: { workspaceId: c.workspaceId, name: wanted, source: "crm" } });
  else if (audience.name !== wanted && audience.name !== name)
    await tx.audience.update({ where: { id: audience.id }, data: { name: wanted } });
  await tx.crmListLink.upsert({
    where: { connectionId_listId: { connectionId: c.connectionId, listId: list.id } },
    create: { connectionId: c.connectionId, listId: list.id, audienceId: audience.id },
    update: { audienceId: audience.id },
  });
  const members = await linkedIds(tx, c, "contact", memberCrmIds);
  // Lead members (Salesforce, leads synced): the contacts those leads are.
  if (c.leads)
    for (const [id, local] of await linkedIds(
      tx,
      c,
      "lead",
      memberCrmIds.filter((m) => !members.has(m)),
    ))
      members.set(id, local);
  const contactIds = JSON.stringify([...new Set(members.values())]);
  const added = await tx.$executeRaw`
    INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId", "addedAt")
    SELECT ${audience.id}, x, ${c.workspaceId}, now() FROM jsonb_array_elements_text(${contactIds}::jsonb) AS x
    ON CONFLICT DO NOTHING`;
  const removed = await tx.$executeRaw`
    DELETE FROM "AudienceMember" m
     WHERE m."audienceId" = ${audience.id} AND NOT (m."contactId" = ANY(ARRAY(SELECT jsonb_array_elements_text(${contactIds}::jsonb))))`;
  c.counts.audienceMembers.added += added;
  c.counts.audienceMembers.removed += removed;
  const missing = new Set(memberCrmIds).size - members.size;
  if (missing > 0)
    issue(c, {
      objectType: "list",
      objectId: list.id,
      severity: "warning",
      message: `list ${list.id} (${name}): ${missing} of its members are not synced contacts (see their errors); left out of the audience`,
    });
}
