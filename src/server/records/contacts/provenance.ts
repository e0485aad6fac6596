import { type FieldWriterKind, Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { hotSql } from "@/server/ground/platform/hot-transaction";

/**
 * Field provenance: for each field of a contact, which writer last wrote it, and for a source (a
 * CSV import, a CRM connection) whose value is no longer the field's value, the source's value
 * then. An import or a sync changes a field only when its own value changed since it last came
 * in: a person's (an agent's, an accepted fix's) later edit stands until the source really changes.
 *
 * Kept on the contact as compact JSON (`Contact.fieldSources`):
 *  - `o`: the writer that made the contact; a field without an entry in `f` was last written by it.
 *  - `f`: field -> the writer that last wrote it (`k`) and when (`at`).
 *  - `s`: source -> field -> the source's last value of a field it did not write last.
 *
 * Writers are keyed: "csv" (every CSV import: a re-import of the same file is the same source),
 * "crm:<connection id>", and "owner", "agent", "fix" for edits.
 */
export interface TProvenance {
  o?: string;
  f?: Record<string, { k: string; at: string }>;
  s?: Record<string, Record<string, string | null>>;
}

/** The fields whose provenance is kept; custom fields are "custom:<name>". */
export const TRACKED_FIELDS = [
  "firstName",
  "lastName",
  "title",
  "email",
  "phone",
  "addressLine1",
  "addressLine2",
  "city",
  "region",
  "postalCode",
  "country",
] as const;
export type TTrackedField = (typeof TRACKED_FIELDS)[number];

export interface TWriter {
  /** "csv", "crm:<connection id>", "owner", "agent" or "fix". */
  key: string;
  kind: FieldWriterKind;
  /** The import's file name, the CRM's name, the person's email or the agent's name. */
  label: string | null;
  /** The import's id or the CRM connection's id. */
  ref: string | null;
}

export const isSourceKey = (key: string) => key === "csv" || key.startsWith("crm:");
const isEditKey = (key: string | null) => key === "owner" || key === "agent" || key === "fix";

/** A flat map of a contact's tracked values: the fields, and each custom field as "custom:<name>". */
export type TValues = Record<string, string | null>;

export function valuesOf(
  c: Partial<Record<TTrackedField, string | null>> & { customFields?: Record<string, string> | null },
): TValues {
  const out: TValues = {};
  for (const f of TRACKED_FIELDS) out[f] = (c[f] ?? null) || null;
  for (const [k, v] of Object.entries(c.customFields ?? {})) out[`custom:${k}`] = v || null;
  return out;
}

export function parseProvenance(json: unknown): TProvenance {
  return json && typeof json === "object" && !Array.isArray(json) ? (json as TProvenance) : {};
}

/** The writer of a field's current value (null: not known, a contact from before provenance was kept). */
export function writerOf(p: TProvenance, field: string): string | null {
  return p.f?.[field]?.k ?? p.o ?? null;
}

/** The source's value of a field when it last came in; undefined when the source never gave one. */
function remembered(p: TProvenance, source: string, field: string, current: string | null): string | null | undefined {
  if (writerOf(p, field) === source) return current;
  const s = p.s?.[source];
  return s && Object.hasOwn(s, field) ? s[field] : undefined;
}

function copy(p: TProvenance): TProvenance {
  return {
    ...(p.o ? { o: p.o } : {}),
    f: { ...(p.f ?? {}) },
    s: Object.fromEntries(Object.entries(p.s ?? {}).map(([k, v]) => [k, { ...v }])),
  };
}

function compact(p: TProvenance): TProvenance {
  const out: TProvenance = {};
  if (p.o) out.o = p.o;
  if (p.f && Object.keys(p.f).length) out.f = p.f;
  const s = Object.fromEntries(Object.entries(p.s ?? {}).filter(([, v]) => Object.keys(v).length));
  if (Object.keys(s).length) out.s = s;
  return out;
}

/** Moves a field to a new writer; a source it takes the field from keeps its value then. */
function take(p: TProvenance, field: string, writer: string, current: string | null, at: string) {
  const before = writerOf(p, field);
  if (before && before !== writer && isSourceKey(before)) (p.s![before] ??= {})[field] = current;
  if (p.s![writer]) delete p.s![writer][field];
  p.f![field] = { k: writer, at };
}

export interface TFieldChange {
  field: string;
  oldValue: string | null;
  newValue: string | null;
}

/** The postal address's fields after its street: a new street from a source brings its whole address. */
const ADDRESS_REST = ["addressLine2", "city", "region", "postalCode", "country"];

/**
 * A source's values for an existing contact: which of them to write. An empty value never
 * erases. A field is written when the source's value differs from the field's and the source's own
 * value changed since it last came in (or it never gave one); a field someone else changed since
 * is otherwise kept, and counted when a person, an agent or a fix changed it. One exception, as
 * promised since the first import: a new street (the source's street changed and is written)
 * replaces the whole address, so an old suite, city or postcode never stays on a new street.
 */
export function applySource(current: TValues, prov: TProvenance, source: string, incoming: TValues, at: string) {
  const p = copy(prov);
  const next: TValues = { ...current };
  const changes: TFieldChange[] = [];
  let kept = 0;
  for (const [field, value] of Object.entries(incoming)) {
    if (value === null || value === "") continue;
    const cur = current[field] ?? null;
    const writer = writerOf(p, field);
    if (value === cur) {
      if (writer !== source) (p.s![source] ??= {})[field] = value;
      continue;
    }
    const before = remembered(p, source, field, cur);
    if (before !== undefined && before === value) {
      // The source says what it said before: whoever changed the field since keeps it.
      if (isEditKey(writer)) kept++;
      continue;
    }
    take(p, field, source, cur, at);
    next[field] = value;
    changes.push({ field, oldValue: cur, newValue: value });
  }
  if (changes.some((c) => c.field === "addressLine1")) {
    for (const field of ADDRESS_REST) {
      const cur = current[field] ?? null;
      if ((incoming[field] ?? null) !== null || cur === null) continue;
      take(p, field, source, cur, at);
      next[field] = null;
      changes.push({ field, oldValue: cur, newValue: null });
    }
  }
  return { values: next, provenance: compact(p), changes, kept };
}

/** A person's, an agent's or a fix's edit of some fields (null clears: an explicit act). */
export function applyEdit(
  current: TValues,
  prov: TProvenance,
  writer: "owner" | "agent" | "fix",
  edited: TValues,
  at: string,
) {
  const p = copy(prov);
  const changes: TFieldChange[] = [];
  for (const [field, value] of Object.entries(edited)) {
    const cur = current[field] ?? null;
    const v = value || null;
    if (v === cur) continue;
    take(p, field, writer, cur, at);
    changes.push({ field, oldValue: cur, newValue: v });
  }
  return { provenance: compact(p), changes };
}

/** The provenance of a contact just made by a writer: every field it gave is its own. */
export const createdBy = (writer: string): TProvenance => ({ o: writer });

export interface THistoryRow extends TFieldChange {
  contactId: string;
}

/** Appends field changes to the contacts' history, in one statement. */
export async function recordFieldChanges(
  tx: Db,
  workspaceId: string,
  writer: TWriter,
  rows: THistoryRow[],
  revertOf: string | null = null,
) {
  if (!rows.length) return;
  await hotSql(
    tx,
    Prisma.sql`
    INSERT INTO "ContactFieldChange" ("workspaceId", "contactId", field, "oldValue", "newValue", "byKind", "byLabel", "sourceRef", "revertOf", at)
    SELECT ${workspaceId}, r."contactId", r.field, r."oldValue", r."newValue", ${writer.kind}::"FieldWriterKind", ${writer.label}, ${writer.ref}, ${revertOf}, now()
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r("contactId" text, field text, "oldValue" text, "newValue" text)`,
  );
}

/** The writer of a contact's new fields as people read it. */
export function writerForSource(
  source: "import" | "crm" | "agent" | "owner",
  o: { importId?: string | null; connectionId?: string | null; label: string | null },
): TWriter {
  if (source === "import") return { key: "csv", kind: "import", label: o.label, ref: o.importId ?? null };
  if (source === "crm")
    return {
      key: o.connectionId ? `crm:${o.connectionId}` : "crm",
      kind: "crm",
      label: o.label,
      ref: o.connectionId ?? null,
    };
  return { key: source, kind: source, label: o.label, ref: null };
}
