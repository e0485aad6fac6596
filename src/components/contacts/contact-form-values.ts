import { ZContactCreate, ZCustomFields } from "@/server/records/contacts/schema";

/** The contact dialog's values: every field as typed, custom fields as "Name: value" lines. */
export interface ContactFormValues {
  firstName: string;
  lastName: string;
  title: string;
  email: string;
  phone: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  crmId: string;
  company: string;
  customFields: string;
}

/** The one rule of a whole contact (the service says the same). */
export const NEEDS_NAME_OR_EMAIL = "A contact needs a name or an email.";

export const blankContact: ContactFormValues = {
  firstName: "",
  lastName: "",
  title: "",
  email: "",
  phone: "",
  addressLine1: "",
  addressLine2: "",
  city: "",
  region: "",
  postalCode: "",
  country: "",
  crmId: "",
  company: "",
  customFields: "",
};

const quote = (line: string) => `“${line.length > 40 ? `${line.slice(0, 40)}…` : line}”`;

/**
 * "Shoe size: 9" lines to { "Shoe size": "9" } (the name is what comes before the first colon, so a
 * value may hold colons); blank lines are skipped. A line that is not "Name: value" is not dropped:
 * it is an error that names the line.
 */
export function parseCustomFields(text: string): { fields: Record<string, string>; error: string | null } {
  const fields: Record<string, string> = {};
  const problems: string[] = [];
  const lineOf = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const n = i + 1;
    const colon = line.indexOf(":");
    const name = colon < 0 ? "" : line.slice(0, colon).trim();
    const value = colon < 0 ? "" : line.slice(colon + 1).trim();
    if (colon < 0) problems.push(`Line ${n}, ${quote(line)}, has no colon: write it as “Name: value”.`);
    else if (!name)
      problems.push(`Line ${n}, ${quote(line)}, has no name before its colon: write it as “Name: value”.`);
    else if (!value)
      problems.push(`Line ${n}, ${quote(line)}, has no value after its colon: give one, or delete the line.`);
    else if (lineOf.has(name))
      problems.push(`Line ${n} names “${name}” again (line ${lineOf.get(name)} already does): keep one of them.`);
    else {
      lineOf.set(name, n);
      fields[name] = value;
    }
  });
  if (problems.length) return { fields, error: problems.join(" ") };
  // The schema's own limits (a name's and a value's length, how many), said about the field they concern.
  const checked = ZCustomFields.safeParse(fields);
  if (checked.success) return { fields, error: null };
  const issue = checked.error.issues[0]!;
  // A name the record refuses comes as "Invalid key in record", with the name's own issue inside.
  const message = (issue.code === "invalid_key" ? issue.issues[0]?.message : undefined) ?? issue.message;
  const field = typeof issue.path[0] === "string" ? issue.path[0] : null;
  return {
    fields,
    error:
      field && lineOf.has(field)
        ? `Line ${lineOf.get(field)} (“${field.length > 40 ? `${field.slice(0, 40)}…` : field}”): ${message}`
        : message,
  };
}

export const formatCustomFields = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");

/** The contact's fields as the service takes them (empty text is no value). */
export function contactPayload(v: ContactFormValues, customFields: Record<string, string>) {
  return {
    firstName: v.firstName.trim(),
    lastName: v.lastName.trim(),
    title: v.title.trim() || null,
    email: v.email.trim() || null,
    phone: v.phone.trim() || null,
    addressLine1: v.addressLine1.trim() || null,
    addressLine2: v.addressLine2.trim() || null,
    city: v.city.trim() || null,
    region: v.region.trim() || null,
    postalCode: v.postalCode.trim() || null,
    country: v.country.trim() || null,
    crmId: v.crmId.trim() || null,
    customFields,
  };
}

/**
 * What is wrong with the values before they are sent, field by field, in the schema's own words (a
 * value too long says so; it is never cut to fit); the custom fields line by line; and the one rule
 * of the whole contact: a name or an email. The service checks the rest (an email's form, a
 * country) and its refusals land on their fields too.
 */
export function validateContact(
  v: ContactFormValues,
  creating: boolean,
): Partial<Record<keyof ContactFormValues, string>> {
  const errors: Partial<Record<keyof ContactFormValues, string>> = {};
  const custom = parseCustomFields(v.customFields);
  if (custom.error) errors.customFields = custom.error;
  const payload = { ...contactPayload(v, {}), ...(creating ? { company: v.company.trim() || null } : {}) };
  const parsed = ZContactCreate.safeParse(payload);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof ContactFormValues | undefined;
      if (field && field in blankContact && !errors[field]) errors[field] = issue.message;
    }
  }
  if (!v.firstName.trim() && !v.lastName.trim() && !v.email.trim() && !errors.firstName)
    errors.firstName = NEEDS_NAME_OR_EMAIL;
  return errors;
}

/** The form field a service refusal is about: "/fields/customFields/Shoe size" and "/email" name customFields and email. */
export function fieldOfPointer(pointer: string | undefined): keyof ContactFormValues | null {
  const parts = (pointer ?? "").split("/").filter(Boolean);
  return (parts.find((p) => p in blankContact) as keyof ContactFormValues | undefined) ?? null;
}
