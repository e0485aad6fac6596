import { CUSTOM_FIELD_MAX } from "./limits";

/** The most columns one import keeps as custom fields (each contact holds at most CUSTOM_FIELD_MAX.count). */
export const MAX_CUSTOM_COLUMNS = CUSTOM_FIELD_MAX.count;

/**
 * Column mapping: which contact field each CSV column fills. Headers people and CRMs write
 * (`First Name`, `given_name`, `Email Address`, `Zip/Postal Code`, `Mailing Street`, ...) map to the
 * fields by themselves; the person sees the mapping and can change it.
 */

export const CONTACT_FIELDS = [
  "firstName",
  "lastName",
  "fullName",
  "email",
  "title",
  "phone",
  "company",
  "website",
  "addressLine1",
  "addressLine2",
  "city",
  "region",
  "postalCode",
  "country",
  "crmId",
] as const;
export type TContactField = (typeof CONTACT_FIELDS)[number];

/** A column's target: a field, a custom field (`custom:<name>`), or nothing. */
export type TColumnTarget = TContactField | `custom:${string}` | "ignore";

export const FIELD_LABELS: Record<TContactField, string> = {
  firstName: "First name",
  lastName: "Last name",
  fullName: "Full name (split into first and last)",
  email: "Email",
  title: "Job title",
  phone: "Phone",
  company: "Company (finds or makes the account)",
  website: "Company website or domain",
  addressLine1: "Address line 1",
  addressLine2: "Address line 2",
  city: "City",
  region: "State / province / region",
  postalCode: "Postal code",
  country: "Country",
  crmId: "CRM id",
};

/** Headers as people write them, after squashing (lower case, letters and digits, single spaces). */
const SYNONYMS: Record<TContactField, string[]> = {
  firstName: [
    "first name",
    "firstname",
    "first",
    "given name",
    "givenname",
    "forename",
    "fname",
    "prenom",
    "vorname",
    "nombre",
    "first names",
  ],
  lastName: [
    "last name",
    "lastname",
    "last",
    "surname",
    "family name",
    "familyname",
    "lname",
    "nachname",
    "apellido",
    "apellidos",
    "nom de famille",
  ],
  fullName: [
    "name",
    "full name",
    "fullname",
    "contact name",
    "contact",
    "person",
    "recipient",
    "recipient name",
    "nom",
    "display name",
  ],
  email: [
    "email",
    "e mail",
    "email address",
    "e mail address",
    "emailaddress",
    "mail",
    "work email",
    "business email",
    "primary email",
    "email 1",
    "correo",
    "courriel",
  ],
  title: [
    "title",
    "job title",
    "jobtitle",
    "position",
    "role",
    "job role",
    "designation",
    "job",
    "funktion",
    "titel",
    "poste",
  ],
  phone: [
    "phone",
    "phone number",
    "telephone",
    "telephone number",
    "tel",
    "mobile",
    "mobile phone",
    "mobile number",
    "mobile phone number",
    "cell",
    "work phone",
    "direct dial",
    "direct phone",
    "direct phone number",
    "first phone",
    "telefon",
  ],
  company: [
    "company",
    "company name",
    "companyname",
    "organization",
    "organisation",
    "organization name",
    "organisation name",
    "account",
    "account name",
    "employer",
    "business",
    "business name",
    "associated company",
    "firm",
    "firma",
    "unternehmen",
    "entreprise",
    "societe",
    "empresa",
  ],
  website: [
    "website",
    "web site",
    "url",
    "company website",
    "company url",
    "domain",
    "company domain",
    "web",
    "homepage",
    "website url",
    "domain name",
  ],
  addressLine1: [
    "address",
    "address 1",
    "address line 1",
    "addressline1",
    "address1",
    "street",
    "street address",
    "street 1",
    "street line 1",
    "addr1",
    "address street",
    "street address 1",
    "street address line 1",
    "address line 1 street",
    "strasse",
    "adresse",
    "direccion",
  ],
  addressLine2: [
    "address 2",
    "address line 2",
    "addressline2",
    "address2",
    "street 2",
    "street line 2",
    "street address 2",
    "street address line 2",
    "address line 2 street",
    "addr2",
    "suite",
    "apt",
    "apartment",
    "unit",
    "suite apt",
    "apt suite",
    "apartment suite",
    "apartment suite no",
    "apartment suite number",
    "suite unit",
    "floor",
  ],
  city: [
    "city",
    "town",
    "locality",
    "town city",
    "city town",
    "ort",
    "stadt",
    "ville",
    "ciudad",
    "suburb",
    "city town village locality",
    "city town village",
  ],
  region: [
    "state",
    "province",
    "state province",
    "province state",
    "region",
    "county",
    "state region",
    "state county",
    "prefecture",
    "st",
    "bundesland",
    "provincia",
    "state code",
  ],
  postalCode: [
    "zip",
    "zip code",
    "zipcode",
    "postal code",
    "postalcode",
    "postcode",
    "post code",
    "zip postal code",
    "postal zip code",
    "postal zip",
    "postal",
    "plz",
    "code postal",
    "codigo postal",
    "zip postcode",
  ],
  country: ["country", "country region", "country code", "nation", "land", "pays", "pais", "country name"],
  crmId: [
    "crm id",
    "crmid",
    "record id",
    "contact id",
    "hubspot id",
    "salesforce id",
    "id",
    "external id",
    "hs object id",
    "contact record id",
    "sfdc id",
    "lead id",
    "apollo contact id",
    "pipedrive id",
    "record id contact",
  ],
};

/** Headers that name some id without saying whose: a CRM id only when nothing names one more surely. */
const GENERIC_IDS = new Set(["id", "contact id", "lead id", "external id"]);
const isGenericId = (header: string) => GENERIC_IDS.has(squash(header));

/** Words CRMs put before a field's name: "Mailing Street", "Contact Email", "Work Phone". */
const PREFIXES = [
  "contact",
  "mailing",
  "billing",
  "shipping",
  "primary",
  "work",
  "business",
  "company",
  "person",
  "customer",
  "lead",
  "home",
  "office",
];

/**
 * Words after a field's name that say which one of several it is: Pipedrive's "Person - Email - Work",
 * "Person - Phone - Mobile".
 */
const QUALIFIERS = ["work", "home", "other", "mobile", "main", "primary", "personal"];

/** Words before a field's name that say it is part of a postal address: Pipedrive's "Person - Postal address - City/town/village/locality". */
const ADDRESS_PARTS = ["postal address", "mailing address", "address"];

const squash = (header: string) =>
  header
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

const lookup = new Map<string, TContactField>();
for (const field of CONTACT_FIELDS) for (const s of SYNONYMS[field]) lookup.set(s, field);
// The same words written together ("Street2", "PostalCode"), where that names nothing else.
for (const field of CONTACT_FIELDS)
  for (const s of SYNONYMS[field]) if (!lookup.has(s.replace(/ /g, ""))) lookup.set(s.replace(/ /g, ""), field);

/** The field squashed words name: as written, without spaces, without a trailing qualifier, or after an address's own words. */
function hitFor(key: string, nested = false): TContactField | null {
  const direct = lookup.get(key) ?? lookup.get(key.replace(/ /g, ""));
  if (direct) return direct;
  for (const q of QUALIFIERS) {
    if (key.endsWith(` ${q}`)) {
      const hit = lookup.get(key.slice(0, -q.length - 1));
      // Only a field with several kinds: "Email - Work", "Phone - Mobile" (not "Address Home", which is no field's name).
      if (hit === "email" || hit === "phone") return hit;
    }
  }
  if (!nested) {
    for (const part of ADDRESS_PARTS) {
      if (key.startsWith(`${part} `)) {
        const hit = hitFor(key.slice(part.length + 1), true);
        if (hit && ["addressLine1", "addressLine2", "city", "region", "postalCode", "country"].includes(hit))
          return hit;
      }
    }
  }
  return null;
}

/** A header with its camel-cased words apart: Salesforce's API names ("MailingPostalCode", "FirstName"). */
const uncamel = (header: string) => header.replace(/([a-z])([A-Z])/g, "$1 $2");

/** The field a header names by itself, or null. */
export function fieldForHeader(header: string): TContactField | null {
  const plain = fieldForKey(squash(header));
  if (plain) return plain;
  const split = uncamel(header);
  return split === header ? null : fieldForKey(squash(split));
}

function fieldForKey(key: string): TContactField | null {
  if (!key) return null;
  const direct = hitFor(key);
  if (direct) return direct;
  for (const prefix of PREFIXES) {
    if (key.startsWith(`${prefix} `)) {
      const rest = key.slice(prefix.length + 1);
      const hit = hitFor(rest);
      // "Company" before "name" is the company's name, not the person's.
      if (hit === "fullName" && prefix === "company") return "company";
      if (hit) return hit;
    }
  }
  return null;
}

/** The header row of this service's contacts export (contacts/export.ts); custom fields follow, a column each. */
export const EXPORT_HEADER = [
  "Contact ID",
  "First Name",
  "Last Name",
  "Email",
  "Job Title",
  "Phone",
  "Company",
  "Website",
  "Address Line 1",
  "Address Line 2",
  "City",
  "State/Province",
  "Postal Code",
  "Country",
  "CRM ID",
];

/** A header row that is this service's own export: its columns after the fixed ones are custom fields. */
const isOwnExport = (headers: string[]) =>
  headers.length >= EXPORT_HEADER.length && EXPORT_HEADER.every((h, i) => headers[i] === h);

/**
 * The mapping proposed for a header row: each column's field, each field used once (the first
 * column that names it wins), and every other column kept as a custom field under its own header
 * (made unique: "Notes", "Notes (2)"), so nothing of the file is lost unless someone chooses
 * "ignore". A full name is only used when there are no separate first and last names (otherwise it
 * is kept as a custom field too). This service's own export maps back whole: its extra columns are
 * the custom fields it wrote, and its first column, the contact's id here, is ignored.
 */
export function suggestMapping(headers: string[]): TColumnTarget[] {
  if (isOwnExport(headers)) {
    const fixed = fieldTargets(EXPORT_HEADER);
    return headers.map(
      (h, i): TColumnTarget => (i === 0 ? "ignore" : i < fixed.length ? (fixed[i] ?? "ignore") : `custom:${h}`),
    );
  }
  const fields = fieldTargets(headers);
  const names = new Set<string>();
  return fields.map((f, i) => f ?? customTarget(headers[i], names));
}

/** Each column's field by its header (each field used once), or null where it names none. */
function fieldTargets(headers: string[]): (TContactField | null)[] {
  const used = new Set<TContactField>();
  // A column that names a CRM ("CRM ID", "HubSpot ID") fills the CRM id before a generic "ID" or
  // "Contact ID" does, wherever it stands (this service's own exports start with "Contact ID").
  const order = headers
    .map((_h, i) => i)
    .sort((a, b) => Number(isGenericId(headers[a])) - Number(isGenericId(headers[b])) || a - b);
  const targets: (TContactField | null)[] = headers.map(() => null);
  for (const i of order) {
    const field = fieldForHeader(headers[i]);
    if (!field || used.has(field)) continue;
    used.add(field);
    targets[i] = field;
  }
  if (used.has("fullName") && (used.has("firstName") || used.has("lastName")))
    return targets.map((t) => (t === "fullName" ? null : t));
  return targets;
}

/**
 * A column's own custom field, for a column that another column took its field from: named after
 * its header, apart from the custom fields the other columns already fill.
 */
export function customTargetBeside(header: string, targets: TColumnTarget[]): TColumnTarget {
  return customTarget(header, new Set(targets.flatMap((t) => (t.startsWith("custom:") ? [customFieldName(t)] : []))));
}

/** A custom field target named after the header, unique among `taken` ("Notes", "Notes (2)", ...). */
function customTarget(header: string, taken: Set<string>): TColumnTarget {
  const base = customFieldName(`custom:${header}`) || "Column";
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, CUSTOM_NAME_MAX - ` (${n})`.length).trim()} (${n})`;
  taken.add(name);
  return `custom:${name}`;
}

/** The problems of a mapping, in sentences; none means it can import. */
export function mappingProblems(targets: TColumnTarget[], headers: string[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  let custom = 0;
  targets.forEach((target, i) => {
    if (target === "ignore") return;
    // Two custom names that are the same once trimmed and cut to their length are one field.
    const t = target.startsWith("custom:") ? `custom:${customFieldName(target)}` : target;
    if (t.startsWith("custom:")) custom++;
    if (seen.has(t))
      problems.push(
        `Columns “${headers[seen.get(t)!]}” and “${headers[i]}” both fill ${t.startsWith("custom:") ? `the custom field ${t.slice(7)}` : FIELD_LABELS[t as TContactField].toLowerCase()}; choose one.`,
      );
    else seen.set(t, i);
  });
  if (custom > MAX_CUSTOM_COLUMNS) {
    problems.push(
      `${custom} columns are kept as custom fields; an import keeps at most ${MAX_CUSTOM_COLUMNS}. Set the columns you do not need to "ignore".`,
    );
  }
  const has = (f: TContactField) => seen.has(f);
  if (!has("email") && !has("firstName") && !has("lastName") && !has("fullName")) {
    problems.push("Map at least one column to the email or to a name: a contact needs one of them.");
  }
  if (has("fullName") && (has("firstName") || has("lastName")))
    problems.push("Map either a full name or first and last names, not both.");
  return problems;
}

const CUSTOM_NAME_MAX = CUSTOM_FIELD_MAX.name;

/** A custom field's name as kept on the contact: trimmed, at most 64 characters. */
export function customFieldName(target: string): string {
  return target.slice("custom:".length).trim().slice(0, CUSTOM_NAME_MAX).trim();
}

export function isColumnTarget(value: string): value is TColumnTarget {
  return (
    value === "ignore" ||
    (CONTACT_FIELDS as readonly string[]).includes(value) ||
    (value.startsWith("custom:") && customFieldName(value).length > 0)
  );
}
