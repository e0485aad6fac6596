import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { hotQuery } from "@/server/ground/platform/hot-sql";

/**
 * How a caller names a contact wherever it passes a `contactId`: our id (ctc_…), the contact's
 * email address, or the id of the CRM record it came from written `hubspot:<id>` or
 * `salesforce:<id>`. The workspace's CRM connection links each record it synced to its contact
 * (CrmRecordLink, a Salesforce Lead included), and a contact imported from a CSV keeps the CRM id
 * its file named (Contact.crmId); either names the contact.
 */

export const CRM_REF_KINDS = ["hubspot", "salesforce"] as const;
export type TCrmRefKind = (typeof CRM_REF_KINDS)[number];

export const CONTACT_REF_DESCRIPTION = "ctc_… id, email, or hubspot:<id> / salesforce:<id>.";

export type TContactRef =
  | { form: "id"; id: string }
  | { form: "email"; email: string }
  | { form: "crm"; crm: TCrmRefKind; id: string };

export function parseContactRef(ref: string): TContactRef {
  const colon = ref.indexOf(":");
  if (colon > 0) {
    const prefix = ref.slice(0, colon).toLowerCase();
    if (prefix === "hubspot" || prefix === "salesforce")
      return { form: "crm", crm: prefix, id: ref.slice(colon + 1).trim() };
  }
  if (ref.includes("@")) return { form: "email", email: ref.trim().toLowerCase() };
  return { form: "id", id: ref };
}

const CRM_NAMES: Record<TCrmRefKind, string> = { hubspot: "HubSpot", salesforce: "Salesforce" };

/** What a ref is, in words, for a refusal that says which form did not match. */
function described(ref: TContactRef): string {
  if (ref.form === "email") return `the email address ${ref.email}`;
  if (ref.form === "crm") return `the ${CRM_NAMES[ref.crm]} record id ${ref.id}`;
  return `the contact id ${ref.id}`;
}

/** The contacts (at most two: enough to tell one from many) an email or CRM record id names. */
function matchesSql(workspaceId: string, ref: Exclude<TContactRef, { form: "id" }>): Prisma.Sql {
  if (ref.form === "email")
    return Prisma.sql`SELECT id FROM "Contact" WHERE "workspaceId" = ${workspaceId} AND email = ${ref.email}`;
  // The workspace has one connection of each kind; its links are found by their primary key.
  return Prisma.sql`
    SELECT ct.id FROM "Contact" ct
     WHERE ct."workspaceId" = ${workspaceId}
       AND (ct."crmId" = ${ref.id}
            OR ct.id IN (SELECT l."localId" FROM "CrmConnection" k
                           JOIN "CrmRecordLink" l ON l."connectionId" = k.id AND l."objectType" IN ('contact', 'lead') AND l."externalId" = ${ref.id}
                          WHERE k."workspaceId" = ${workspaceId} AND k.kind = ${ref.crm}::"CrmKind"))
     LIMIT 2`;
}

/**
 * The contact id a caller's ref names in the workspace. Our own id is returned as given without a
 * query (the caller's own statement finds whether it exists, as it always has); an email or CRM
 * record id costs one indexed query and is refused, with nothing written, when it names no contact
 * or more than one.
 */
export async function resolveContactRef(
  db: Db,
  params: { workspaceId: string; ref: string; pointer?: string },
): Promise<string> {
  const ref = parseContactRef(params.ref);
  if (ref.form === "id") return ref.id;
  const pointer = params.pointer ?? "/contactId";
  if (ref.form === "crm" && !ref.id) throw refusal(pointer, `${params.ref} names no CRM record id after the colon.`);
  const rows = await hotQuery<{ id: string }>(db, matchesSql(params.workspaceId, ref));
  if (rows.length === 1) return rows[0].id;
  if (rows.length === 0) throw refusal(pointer, `No contact in this workspace has ${described(ref)}.`);
  throw refusal(
    pointer,
    `More than one contact in this workspace has ${described(ref)}; name the contact by its id (ctc_…) instead.`,
  );
}

/** Resolves several refs, keeping their order; the first that names no contact, or many, is refused. */
export async function resolveContactRefs(
  db: Db,
  params: { workspaceId: string; refs: string[]; pointer: string },
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, ref] of params.refs.entries())
    ids.push(await resolveContactRef(db, { workspaceId: params.workspaceId, ref, pointer: `${params.pointer}/${i}` }));
  return ids;
}

function refusal(pointer: string, detail: string): AppError {
  return new AppError("contact_not_found", `${detail} Nothing was written.`, { errors: [{ pointer, detail }] });
}

/** A contact's email and CRM record ids beside our id, for results and reads. */
export interface TContactIdentity {
  contactId: string;
  email: string | null;
  /** Each CRM record the contact came from, written as a caller names it: hubspot:<id>, salesforce:<id>. */
  crmIds: string[];
}

/** The identities of the given contacts of the workspace (those that exist), in one query. */
export async function contactIdentities(
  db: Db,
  params: { workspaceId: string; contactIds: string[] },
): Promise<Map<string, TContactIdentity>> {
  const ids = [...new Set(params.contactIds)];
  const found = new Map<string, TContactIdentity>();
  if (ids.length === 0) return found;
  const rows = await hotQuery<{ id: string; email: string | null; crmIds: string[] | null }>(
    db,
    Prisma.sql`
      SELECT ct.id, ct.email,
             (SELECT array_agg(k.kind::text || ':' || l."externalId" ORDER BY k.kind, l."objectType", l."externalId")
                FROM "CrmConnection" k
                JOIN "CrmRecordLink" l ON l."connectionId" = k.id AND l."objectType" IN ('contact', 'lead') AND l."localId" = ct.id
               WHERE k."workspaceId" = ${params.workspaceId}) AS "crmIds"
        FROM "Contact" ct
       WHERE ct."workspaceId" = ${params.workspaceId} AND ct.id IN (${Prisma.join(ids)})`,
  );
  for (const r of rows) found.set(r.id, { contactId: r.id, email: r.email, crmIds: r.crmIds ?? [] });
  return found;
}

/** One contact's identity; null when it is not in the workspace. */
export async function contactIdentity(
  db: Db,
  params: { workspaceId: string; contactId: string },
): Promise<TContactIdentity | null> {
  const found = await contactIdentities(db, { workspaceId: params.workspaceId, contactIds: [params.contactId] });
  return found.get(params.contactId) ?? null;
}
