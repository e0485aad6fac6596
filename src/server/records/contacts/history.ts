import type { PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { parseProvenance, TRACKED_FIELDS, writerOf } from "./provenance";
import { updateContact } from "./service";

/** How many changes the contact page shows (newest first). */
export const HISTORY_TAKE = 100;

const WRITER_KINDS: Record<string, "import" | "crm" | "owner" | "agent" | "fix"> = {
  csv: "import",
  owner: "owner",
  agent: "agent",
  fix: "fix",
};
const kindOfKey = (key: string | null) =>
  key === null ? null : key.startsWith("crm:") ? "crm" : (WRITER_KINDS[key] ?? null);

/**
 * A contact's field history: every change after it was made (who, when, old -> new), newest first,
 * and per field which kind of writer wrote its value now (import, crm, owner, agent, fix; null when
 * not known: a contact from before provenance was kept).
 */
export async function contactHistory(db: Db, p: { workspaceId: string; contactId: string }) {
  const c = await db.contact.findFirst({
    where: { id: p.contactId, workspaceId: p.workspaceId },
    select: { id: true, fieldSources: true, customFields: true },
  });
  if (!c)
    throw new AppError(
      "not_found",
      "No such contact in this workspace; contacts_list finds contacts by name, email or company.",
    );
  const rows = await db.contactFieldChange.findMany({
    where: { contactId: c.id, workspaceId: p.workspaceId },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: HISTORY_TAKE,
    select: {
      id: true,
      field: true,
      oldValue: true,
      newValue: true,
      byKind: true,
      byLabel: true,
      at: true,
      revertOf: true,
    },
  });
  const prov = parseProvenance(c.fieldSources);
  const fields = [
    ...TRACKED_FIELDS,
    ...Object.keys((c.customFields ?? {}) as Record<string, string>).map((k) => `custom:${k}`),
  ];
  const writers = Object.fromEntries(
    fields.map((f) => [f, { kind: kindOfKey(writerOf(prov, f)), at: prov.f?.[f]?.at ?? null }]),
  );
  return { changes: rows.map((r) => ({ ...r, at: r.at.toISOString() })), writers };
}

/**
 * The way back: sets a field to its value before one change of its history, as the actor's own edit
 * (recorded in the history as undoing that change). Refused when the field has changed again since:
 * the history's newer change is the one to undo.
 */
export async function revertFieldChange(
  prisma: PrismaClient,
  p: { workspaceId: string; contactId: string; changeId: string; actor: Actor },
) {
  const change = await prisma.contactFieldChange.findFirst({
    where: { id: p.changeId, contactId: p.contactId, workspaceId: p.workspaceId },
  });
  if (!change) throw new AppError("not_found", "No such change in this contact's history.");
  const c = await prisma.contact.findFirst({ where: { id: p.contactId, workspaceId: p.workspaceId } });
  if (!c) throw new AppError("not_found", "No such contact in this workspace.");
  const custom = { ...((c.customFields ?? {}) as Record<string, string>) };
  const isCustom = change.field.startsWith("custom:");
  const columns: Record<string, unknown> = c;
  const own = columns[change.field];
  const now = isCustom ? (custom[change.field.slice(7)] ?? null) : typeof own === "string" ? own : null;
  if ((now || null) !== (change.newValue || null)) {
    throw new AppError(
      "invalid_state",
      `The field has changed since (it is now ${now === null ? "empty" : `“${now}”`}); undo its newest change instead.`,
    );
  }
  if (isCustom) {
    if (change.oldValue === null) delete custom[change.field.slice(7)];
    else custom[change.field.slice(7)] = change.oldValue;
  }
  const fields = {
    firstName: c.firstName,
    lastName: c.lastName,
    title: c.title,
    email: c.email,
    phone: c.phone,
    addressLine1: c.addressLine1,
    addressLine2: c.addressLine2,
    city: c.city,
    region: c.region,
    postalCode: c.postalCode,
    country: c.country,
    crmId: c.crmId,
    customFields: custom,
    ...(isCustom
      ? {}
      : {
          [change.field]:
            change.field === "firstName" || change.field === "lastName" ? (change.oldValue ?? "") : change.oldValue,
        }),
  };
  await updateContact(prisma, {
    workspaceId: p.workspaceId,
    contactId: p.contactId,
    fields,
    actor: p.actor,
    revertOf: change.id,
  });
  return contactHistory(prisma, { workspaceId: p.workspaceId, contactId: p.contactId });
}
