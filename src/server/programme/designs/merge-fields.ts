/**
 * Merge fields: `{{firstName}}` in a design's text or a campaign's copy is filled per recipient
 * from the contact, its account and its custom fields; `{{firstName|there}}` prints "there" when the
 * contact has no first name. An unknown field is an error that names the known ones, so a typo such
 * as `{{first_name}}` never prints literally.
 */
import { CUSTOM_FIELD_MAX } from "@/server/records/contacts/limits";

export const MERGE_FIELDS = {
  firstName: "The contact's first name.",
  lastName: "The contact's last name.",
  fullName: "First and last name.",
  title: "The contact's job title.",
  email: "The contact's email address.",
  company: "The name of the contact's account (company).",
  companyDomain: "The account's domain, e.g. brightline.com.",
  city: "The contact's city.",
  region: "The contact's state, province or county.",
  country: "The contact's country (ISO code).",
} as const;
export type TMergeField = keyof typeof MERGE_FIELDS;

/**
 * Custom fields are written `{{custom.industry}}`, with the field's name as the contact has it: an
 * imported column keeps its header, spaces and accents included (`{{custom.Lead Source}}`). Only the
 * braces and the bar, which end a merge field, cannot be part of a name here.
 */
const CUSTOM = new RegExp(`^custom\\.[^{}|]{1,${CUSTOM_FIELD_MAX.name}}$`);
const FIELD = /\{\{\s*([^{}|]*?)\s*(?:\|([^{}]*))?\}\}/g;

export const KNOWN_FIELDS_SENTENCE = `Known fields: ${Object.keys(MERGE_FIELDS).join(", ")}, and custom.<name> for a contact's custom fields; add a fallback after a bar, as in {{firstName|there}}.`;

/** Names every object inherits (`constructor`, `__proto__`, `toString`, ...): never a custom field's name. */
const INHERITED = new Set([...Object.getOwnPropertyNames(Object.prototype), "prototype"]);

function isKnown(name: string): boolean {
  return Object.hasOwn(MERGE_FIELDS, name) || (CUSTOM.test(name) && !INHERITED.has(name.slice(7)));
}

/** A field's value for one recipient: only the contact's own fields are looked up, never what objects inherit. */
export function lookUp(values: TMergeValues, name: string): string | null | undefined {
  if (name.startsWith("custom.")) {
    const key = name.slice(7);
    const custom = values.custom;
    const value = custom && !INHERITED.has(key) && Object.hasOwn(custom, key) ? custom[key] : undefined;
    return typeof value === "string" ? value : value == null ? undefined : String(value);
  }
  if (!Object.hasOwn(MERGE_FIELDS, name) || !Object.hasOwn(values, name)) return undefined;
  const value = values[name as TMergeField];
  return typeof value === "string" ? value : undefined;
}

/** What is wrong with a template's merge fields, in one sentence per problem (empty when it is fine). */
export function mergeFieldProblems(template: string): string[] {
  const problems: string[] = [];
  const unknown = [...new Set([...template.matchAll(FIELD)].map((m) => m[1]).filter((f) => !isKnown(f)))];
  if (unknown.length)
    problems.push(`uses unknown merge fields: ${unknown.map((f) => `{{${f}}}`).join(", ")}. ${KNOWN_FIELDS_SENTENCE}`);
  const stripped = template.replace(FIELD, "");
  if (stripped.includes("{{") || stripped.includes("}}"))
    problems.push("has a {{ without its }} (or the other way round); write merge fields as {{firstName}}.");
  return problems;
}

/** The merge fields a template uses. */
export function fieldsUsed(template: string): string[] {
  return [...new Set([...template.matchAll(FIELD)].map((m) => m[1]))];
}

export type TMergeValues = Partial<Record<TMergeField, string | null>> & { custom?: Record<string, string> };

export interface Filled {
  text: string;
  /** Fields that were empty for this recipient and had no fallback: the text has a hole there. */
  missing: string[];
  /** Fields that were empty and printed their fallback instead. */
  fallbacks: string[];
}

/** Fills a template for one recipient. */
export function fillTemplate(template: string, values: TMergeValues): Filled {
  const missing = new Set<string>();
  const fallbacks = new Set<string>();
  const text = template
    .replace(FIELD, (_, name: string, fallback: string | undefined) => {
      const value = lookUp(values, name)?.trim();
      if (value) return value;
      if (fallback !== undefined && fallback.trim() !== "") {
        fallbacks.add(name);
        return fallback.trim();
      }
      missing.add(name);
      return "";
    })
    .replace(/[ \t]+\n/g, "\n");
  return { text, missing: [...missing], fallbacks: [...fallbacks] };
}
