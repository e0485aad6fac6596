import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import type { CrmContact, CrmConvertedLead } from "./adapter";
import { applyDeleted } from "./deletions";
import type { LinkScope } from "./links";
import { LEAD_FIELD_NAMES } from "./salesforce-leads";
import { type PageContext, writeContactsPage } from "./sync-writes";

/**
 * Salesforce Leads, when the owner chose to sync them (CrmConnection.leads). An unconverted lead is
 * a person to mail: it becomes a contact like a Contact does (matched by the import's rules: email,
 * else CRM id, else name and address), linked as a `lead` record (CrmRecordLink objectType "lead",
 * the 00Q… id) so it is never taken for a Contact, written as "Salesforce lead". Its address is
 * the lead's (Street, City, State, PostalCode, Country). A lead has no Account, only a company name
 * (Company), so its account is found as a CSV row's company column finds one (contacts/write.ts):
 * the account of that name (the nameKey that accounts.ts keys domain-less companies on), else the
 * one of the email's company domain (not free mail), else a new account named after Company, with
 * that domain. No CrmRecordLink is made for the company: Salesforce has no record of it. When the
 * lead's person is already a Contact of this CRM, the Contact's account stands. Opt-outs are
 * suppressions as for contacts.
 *
 * A converted lead's person is a Contact now: the contact the lead was becomes that Contact's (its
 * link moves), so the Contact never makes a second one. Deleted leads, and leads when the owner
 * turns them off, are unlinked as deletions.ts says.
 */
export const LEAD_SOURCE = "Salesforce lead";

/** Unconverted leads → contacts (see above). */
export async function writeLeadsPage(tx: Db, c: PageContext, records: CrmContact[]) {
  const ids = JSON.stringify(records.map((r) => r.id));
  // The lead's person is also a Salesforce Contact here: the Contact's account stands, not one found by the lead's Company.
  const kept = await tx.$queryRaw<{ externalId: string; accountId: string }[]>`
    SELECT l."externalId", ct."accountId" FROM "CrmRecordLink" l
      JOIN "Contact" ct ON ct.id = l."localId" AND ct."workspaceId" = ${c.workspaceId} AND ct."accountId" IS NOT NULL
     WHERE l."connectionId" = ${c.connectionId} AND l."objectType" = 'lead'
       AND l."externalId" = ANY(ARRAY(SELECT jsonb_array_elements_text(${ids}::jsonb)))
       AND EXISTS (SELECT 1 FROM "CrmRecordLink" k WHERE k."connectionId" = ${c.connectionId} AND k."objectType" = 'contact' AND k."localId" = l."localId")`;
  await writeContactsPage(tx, c, records, {
    link: "lead",
    counts: "leads",
    noun: "lead",
    fields: LEAD_FIELD_NAMES,
    sourceDetail: LEAD_SOURCE,
    accounts: new Map(kept.map((k) => [k.externalId, k.accountId])),
  });
}

/**
 * Converted leads: the contact each was here becomes its Contact's (a link from the Contact, unless
 * that Contact is already linked to a contact, which then stands), and the lead is unlinked.
 * Returns how many of them were leads synced here.
 */
export async function moveConverted(tx: Db, s: LinkScope, converted: CrmConvertedLead[]): Promise<number> {
  if (!converted.length) return 0;
  const moves = JSON.stringify(converted.filter((l) => l.contactId).map((l) => ({ lead: l.id, contact: l.contactId })));
  await tx.$executeRaw`
    INSERT INTO "CrmRecordLink" ("connectionId", "objectType", "externalId", "workspaceId", "localId", "updatedAt")
    SELECT ${s.connectionId}, 'contact', v.contact, ${s.workspaceId}, l."localId", now()
      FROM jsonb_to_recordset(${moves}::jsonb) AS v(lead text, contact text)
      JOIN "CrmRecordLink" l ON l."connectionId" = ${s.connectionId} AND l."objectType" = 'lead' AND l."externalId" = v.lead
    ON CONFLICT ("connectionId", "objectType", "externalId") DO NOTHING`;
  return applyDeleted(
    tx,
    s,
    "leads",
    converted.map((l) => l.id),
  );
}

/** Every lead this connection linked: unlinked (leads turned off). Returns how many. */
export async function unlinkAllLeads(tx: Db, s: LinkScope): Promise<number> {
  const rows = await tx.crmRecordLink.findMany({
    where: { connectionId: s.connectionId, workspaceId: s.workspaceId, objectType: "lead" },
    select: { externalId: true },
  });
  return applyDeleted(
    tx,
    s,
    "leads",
    rows.map((r) => r.externalId),
  );
}

/**
 * The connection's choice about Leads, as data to write with its other changes: turned on, the next
 * sync reads every lead (its leads and conversions watermarks forgotten); turned off, the leads synced before are
 * unlinked (their contacts stay). `note` says why leads are off when the owner did not ask.
 */
export async function leadsChoice(
  tx: Db,
  c: { id: string; workspaceId: string; leads: boolean; watermarks: Prisma.JsonValue },
  leads: boolean,
  note: string | null = null,
): Promise<{ leads: boolean; leadsNote: string | null; watermarks?: Prisma.InputJsonValue }> {
  const marks = { ...((c.watermarks ?? {}) as Record<string, string>) };
  if (!leads) await unlinkAllLeads(tx, { workspaceId: c.workspaceId, connectionId: c.id });
  if (leads === c.leads) return { leads, leadsNote: note };
  delete marks.leads;
  delete marks.leadsConverted;
  return { leads, leadsNote: note, watermarks: marks };
}
