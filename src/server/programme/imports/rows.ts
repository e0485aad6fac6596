import { normaliseEmail, toDomain } from "@/server/records/contacts/keys";
import { writesFamilyNameFirst } from "@/server/records/addresses/scripts";
import { toCountryCode } from "@/server/records/addresses/countries";
import { CUSTOM_FIELD_MAX, FIELD_MAX } from "@/server/records/contacts/limits";
import type { TContactInput } from "@/server/records/contacts/write-model";
import {
  CONTACT_FIELDS,
  customFieldName,
  type TColumnTarget,
  type TContactField,
} from "@/server/records/contacts/csv-headers";

export interface RowIssue {
  column: string | null;
  reason: string;
}

export type PreparedRow =
  | { kind: "refused"; issue: RowIssue }
  | { kind: "contact"; contact: TContactInput; warnings: RowIssue[] };

/** A contact id of this service (ctc_ and 32 hex digits), as its exports write it. */
const OWN_CONTACT_ID = /^ctc_[0-9a-f]{32}$/;

/** "Doe, Jane" -> Jane Doe; "Jane van der Berg" -> Jane / van der Berg; "Cher" -> Cher. */
export function splitFullName(full: string): { firstName: string; lastName: string } {
  const name = full.trim().replace(/\s+/g, " ");
  const comma = name.indexOf(",");
  if (comma > 0) return { firstName: name.slice(comma + 1).trim(), lastName: name.slice(0, comma).trim() };
  const space = name.indexOf(" ");
  if (space <= 0) return { firstName: name, lastName: "" };
  // 山田 太郎: a name in Japanese script is written family name first.
  if (writesFamilyNameFirst(name)) return { firstName: name.slice(space + 1), lastName: name.slice(0, space) };
  return { firstName: name.slice(0, space), lastName: name.slice(space + 1) };
}

// NUL cannot be stored in PostgreSQL text and means nothing in a CSV: it is dropped.
const clean = (v: string | undefined) =>
  unguard((v === undefined ? "" : v.includes("\u0000") ? v.replace(/\u0000/g, "") : v).trim());

/**
 * A value without the apostrophe that this service's exports (csvLine) and spreadsheets put before
 * a value a spreadsheet would run as a formula (`'+1 415 555 0102`, `'=SUM(A1)`, `'-5`, `'@home`):
 * the value itself is what was exported.
 */
export const unguard = (v: string) =>
  v.length > 1 && v.charCodeAt(0) === 39 && /^'[=+\-@\t\r]/.test(v) ? v.slice(1).trim() : v;

/** Whitespace that squashing changes: any but a single space between words. */
const LOOSE_SPACE = /[^\S ]| {2}|^ | $/;
/** A line with each run of whitespace one space, trimmed; the line itself when it is so already (most are: no new string). */
const squashSpaces = (l: string) => (LOOSE_SPACE.test(l) ? l.replace(/\s+/g, " ").trim() : l);

/** The lines of a value written over several lines (a quoted cell with line breaks), without empty ones. */
function linesOf(v: string | null): string[] {
  if (!v) return [];
  if (!v.includes("\n") && !v.includes("\r")) {
    const line = squashSpaces(v);
    return line ? [line] : [];
  }
  return v
    .split(/\r\n|\r|\n/)
    .map(squashSpaces)
    .filter(Boolean);
}

/**
 * A street written over several lines in one cell (as CRMs export "Street": "500 Boylston St" and
 * "Floor 12" on two lines) becomes the first address line and, before any second line of its own,
 * the second; the envelope prints each address line once, on one line.
 */
export function streetLines(
  line1: string | null,
  line2: string | null,
): { addressLine1: string | null; addressLine2: string | null } {
  const [first, ...rest] = linesOf(line1);
  const second = [...rest, ...linesOf(line2)].join(", ");
  return { addressLine1: first ?? null, addressLine2: second || null };
}

/** Each contact field's place in a row's values (readRow keeps them in an array, not an object keyed by name). */
const SLOT = Object.fromEntries(CONTACT_FIELDS.map((f, i) => [f, i])) as Record<TContactField, number>;

type ColumnPlan = { index: number; column: string; slot: number; max: number; custom: string | null };

/**
 * Reads the data rows of one file (or one CRM page) as contacts, by the column mapping: each row's
 * values cleaned and bounded, names split, the email checked, the country made an ISO code. A row
 * is refused only when it cannot be a contact at all (no name and no email, or a value longer than
 * a field holds); a value that is wrong but not needed (an email that is not one, an unknown
 * country) is left out with a warning. What each column becomes is worked out once, so reading a
 * row is one pass over its mapped values (an import reads 100,000 of them), into one array of the
 * fields' values kept for the next row: a row makes only the contact it gives.
 */
export function rowReader(targets: TColumnTarget[], headers: string[]): (values: string[]) => PreparedRow {
  const columns: ColumnPlan[] = [];
  const columnOf: Partial<Record<TContactField, string>> = {};
  targets.forEach((target, index) => {
    if (target === "ignore") return;
    const column = headers[index] ?? `Column ${index + 1}`;
    if (target.startsWith("custom:")) {
      const custom = customFieldName(target);
      // An object's prototype slot, not a field: a value written there would be lost.
      if (custom !== "__proto__") columns.push({ index, column, slot: -1, max: CUSTOM_FIELD_MAX.value, custom });
      return;
    }
    const field = target as TContactField;
    columnOf[field] = column;
    columns.push({ index, column, slot: SLOT[field], max: FIELD_MAX[field], custom: null });
  });
  const fields: (string | null)[] = CONTACT_FIELDS.map(() => null);
  return (values) => {
    fields.fill(null);
    return readRow(values, columns, columnOf, fields);
  };
}

function readRow(
  values: string[],
  columns: ColumnPlan[],
  columnOf: Partial<Record<TContactField, string>>,
  fields: (string | null)[],
): PreparedRow {
  const customFields: Record<string, string> = {};
  let customCount = 0;
  const warnings: RowIssue[] = [];
  for (let k = 0; k < columns.length; k++) {
    const c = columns[k];
    const value = clean(values[c.index]);
    if (!value) continue;
    if (c.custom !== null) {
      if (value.length > c.max)
        return { kind: "refused", issue: { column: c.column, reason: `longer than ${c.max} characters` } };
      if (customCount < CUSTOM_FIELD_MAX.count) {
        if (!Object.hasOwn(customFields, c.custom)) customCount++;
        customFields[c.custom] = value;
      }
      continue;
    }
    if (value.length > c.max)
      return { kind: "refused", issue: { column: c.column, reason: `longer than ${c.max} characters` } };
    fields[c.slot] = value;
  }
  const v = (f: TContactField) => fields[SLOT[f]];

  let firstName = v("firstName") ?? "";
  let lastName = v("lastName") ?? "";
  if (!firstName && !lastName && v("fullName")) ({ firstName, lastName } = splitFullName(v("fullName")!));
  if (firstName.length > FIELD_MAX.firstName)
    return {
      kind: "refused",
      issue: { column: columnOf.fullName!, reason: `the first name is longer than ${FIELD_MAX.firstName} characters` },
    };
  if (lastName.length > FIELD_MAX.lastName)
    return {
      kind: "refused",
      issue: { column: columnOf.fullName!, reason: `the last name is longer than ${FIELD_MAX.lastName} characters` },
    };

  let email: string | null = null;
  if (v("email")) {
    email = normaliseEmail(v("email"));
    if (!email)
      warnings.push({
        column: columnOf.email!,
        reason: `“${v("email")}” is not an email address; the contact was kept without an email`,
      });
  }
  if (!firstName && !lastName && !email) {
    return {
      kind: "refused",
      issue: v("email")
        ? { column: columnOf.email!, reason: `no name, and “${v("email")}” is not an email address` }
        : { column: null, reason: "no name and no email: a contact needs at least one of them" },
    };
  }

  let country: string | null = null;
  if (v("country")) {
    country = toCountryCode(v("country"));
    if (!country)
      warnings.push({
        column: columnOf.country!,
        reason: `“${v("country")}” is not a country we know; the contact was kept without a country`,
      });
  }
  let website: string | null = null;
  if (v("website")) {
    website = toDomain(v("website"));
    if (!website)
      warnings.push({
        column: columnOf.website!,
        reason: `“${v("website")}” is not a web address or domain; it was not used for the account`,
      });
  }
  let crmId = v("crmId");
  if (crmId && OWN_CONTACT_ID.test(crmId)) {
    // This service's own id (an export brought back), not the CRM's: the contact is matched by its email, name and address instead.
    warnings.push({
      column: columnOf.crmId!,
      reason: `“${crmId}” is this workspace's own contact id, not a CRM id; it was not kept as one`,
    });
    crmId = null;
  }
  const street = streetLines(v("addressLine1"), v("addressLine2"));
  return {
    kind: "contact",
    warnings,
    contact: {
      firstName,
      lastName,
      addressLine1: street.addressLine1,
      addressLine2: street.addressLine2,
      city: v("city"),
      region: v("region"),
      postalCode: v("postalCode"),
      country,
      title: v("title"),
      email,
      phone: v("phone"),
      crmId,
      customFields,
      company: v("company"),
      website,
    },
  };
}
