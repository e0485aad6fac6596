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
  firstName: ["first name", "firstname", "first", "given name", "givenname", "forename", "fname", "prenom", "vorname", "nombre", "first names"],
  lastName: ["last name", "lastname", "last", "surname", "family name", "familyname", "lname", "nachname", "apellido", "apellidos", "nom de famille"],
  fullName: ["name", "full name", "fullname", "contact name", "contact", "person", "recipient", "recipient name", "nom", "display name"],
  email: ["email", "e mail", "email address", "e mail address", "emailaddress", "mail", "work email", "business email", "primary email", "email 1", "correo", "courriel"],
  title: ["title", "job title", "jobtitle", "position", "role", "job role", "designation", "job", "funktion", "titel", "poste"],
  phone: ["phone", "phone number", "telephone", "telephone number", "tel", "mobile", "mobile phone", "mobile number", "cell", "work phone", "direct dial", "direct phone", "telefon"],
  company: ["company", "company name", "companyname", "organization", "organisation", "organization name", "organisation name", "account", "account name", "employer", "business", "business name", "firm", "firma", "unternehmen", "entreprise", "societe", "empresa"],
  website: ["website", "web site", "url", "company website", "company url", "domain", "company domain", "web", "homepage", "website url", "domain name"],
  addressLine1: ["address", "address 1", "address line 1", "addressline1", "address1", "street", "street address", "street 1", "street line 1", "addr1", "address street", "strasse", "adresse", "direccion"],
  addressLine2: ["address 2", "address line 2", "addressline2", "address2", "street 2", "street line 2", "addr2", "suite", "apt", "apartment", "unit", "suite apt", "floor"],
  city: ["city", "town", "locality", "town city", "city town", "ort", "stadt", "ville", "ciudad", "suburb"],
  region: ["state", "province", "state province", "province state", "region", "county", "state region", "state county", "prefecture", "st", "bundesland", "provincia", "state code"],
  postalCode: ["zip", "zip code", "zipcode", "postal code", "postalcode", "postcode", "post code", "zip postal code", "postal zip code", "postal", "plz", "code postal", "codigo postal", "zip postcode"],
  country: ["country", "country region", "country code", "nation", "land", "pays", "pais", "country name"],
  crmId: ["crm id", "crmid", "record id", "contact id", "hubspot id", "salesforce id", "id", "external id", "hs object id", "contact record id", "sfdc id", "lead id"],
};

/** Headers that name some id without saying whose: a CRM id only when nothing names one more surely. */
const GENERIC_IDS = new Set(["id", "contact id", "lead id", "external id"]);
const isGenericId = (header: string) => GENERIC_IDS.has(squash(header));

/** Words CRMs put before a field's name: "Mailing Street", "Contact Email", "Work Phone". */
const PREFIXES = ["contact", "mailing", "billing", "shipping", "primary", "work", "business", "company", "person", "customer", "lead", "home", "office"];

const squash = (header: string) =>
  header
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

const lookup = new Map<string, TContactField>();
for (const field of CONTACT_FIELDS) for (const s of SYNONYMS[field]) lookup.set(s, field);

/** The field a header names by itself, or null. */
export function fieldForHeader(header: string): TContactField | null {
  const key = squash(header);
  if (!key) return null;
  const direct = lookup.get(key) ?? lookup.get(key.replace(/ /g, ""));
  if (direct) return direct;
  for (const prefix of PREFIXES) {
    if (key.startsWith(`${prefix} `)) {
      const rest = key.slice(prefix.length + 1);
      const hit = lookup.get(rest) ?? lookup.get(rest.replace(/ /g, ""));
      // "Company" before "name" is the company's name, not the person's.
      if (hit === "fullName" && prefix === "company") return "company";
      if (hit) return hit;
    }
  }
  return null;
}

/** The header row of this service's contacts export (contacts/export.ts); custom fields follow, a column each. */
export const EXPORT_HEADER = ["Contact ID", "First Name", "Last Name", "Email", "Job Title", "Phone", "Company", "Website", "Address Line 1", "Address Line 2", "City", "State/Province", "Postal Code", "Country", "CRM ID"];

/** A header row that is this service's own export: its columns after the fixed ones are custom fields. */
const isOwnExport = (headers: string[]) => headers.length >= EXPORT_HEADER.length && EXPORT_HEADER.every((h, i) => headers[i] === h);

/**
 * The mapping proposed for a header row: each column's field, each field used once (the first
 * column that names it wins), and the rest left unmapped for the person to decide. A full name is
 * only used when there are no separate first and last names. This service's own export maps back
 * whole: its extra columns are the custom fields it wrote.
 */
export function suggestMapping(headers: string[]): TColumnTarget[] {
  if (isOwnExport(headers) && headers.length > EXPORT_HEADER.length) {
    const fixed = suggestMapping(EXPORT_HEADER);
    return headers.map((h, i): TColumnTarget => (i < fixed.length ? fixed[i] : h.trim() ? `custom:${h}` : "ignore"));
  }
  const used = new Set<TContactField>();
  // A column that names a CRM ("CRM ID", "HubSpot ID") fills the CRM id before a generic "ID" or
  // "Contact ID" does, wherever it stands (this service's own exports start with "Contact ID").
  const order = headers.map((h, i) => i).sort((a, b) => Number(isGenericId(headers[a])) - Number(isGenericId(headers[b])) || a - b);
  const targets: TColumnTarget[] = headers.map(() => "ignore");
  for (const i of order) {
    const field = fieldForHeader(headers[i]);
    if (!field || used.has(field)) continue;
    used.add(field);
    targets[i] = field;
  }
  if (used.has("fullName") && (used.has("firstName") || used.has("lastName"))) {
    return targets.map((t) => (t === "fullName" ? "ignore" : t));
  }
  return targets;
}

/** The problems of a mapping, in sentences; none means it can import. */
export function mappingProblems(targets: TColumnTarget[], headers: string[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  targets.forEach((t, i) => {
    if (t === "ignore") return;
    if (seen.has(t)) problems.push(`Columns “${headers[seen.get(t)!]}” and “${headers[i]}” both fill ${t.startsWith("custom:") ? `the custom field ${t.slice(7)}` : FIELD_LABELS[t as TContactField].toLowerCase()}; choose one.`);
    else seen.set(t, i);
  });
  const has = (f: TContactField) => seen.has(f);
  if (!has("email") && !has("firstName") && !has("lastName") && !has("fullName")) {
    problems.push("Map at least one column to the email or to a name: a contact needs one of them.");
  }
  if (has("fullName") && (has("firstName") || has("lastName"))) problems.push("Map either a full name or first and last names, not both.");
  return problems;
}

/** A custom field's name as kept on the contact: trimmed, at most 64 characters. */
export function customFieldName(target: string): string {
  return target.slice("custom:".length).trim().slice(0, 64);
}

export function isColumnTarget(value: string): value is TColumnTarget {
  return value === "ignore" || (CONTACT_FIELDS as readonly string[]).includes(value) || (value.startsWith("custom:") && customFieldName(value).length > 0);
}
