/** Merge fields a campaign's copy may use, filled per recipient. */
export const MERGE_FIELDS = ["firstName", "lastName", "fullName", "title", "company"] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];

export interface Recipient {
  firstName: string;
  lastName: string;
  title: string | null;
  company: string | null;
  addressLines: string[];
}

const FIELD = /\{\{\s*([a-zA-Z]+)\s*\}\}/g;

/** Merge fields used in a template that this service does not know (for validating copy). */
export function unknownMergeFields(template: string): string[] {
  return [...template.matchAll(FIELD)].map((m) => m[1]).filter((f) => !(MERGE_FIELDS as readonly string[]).includes(f));
}

/** Fills {{firstName}} and friends; a field without a value becomes a sensible fallback. */
export function fillTemplate(template: string, r: Recipient): string {
  const values: Record<MergeField, string> = {
    firstName: r.firstName || "there",
    lastName: r.lastName,
    fullName: `${r.firstName} ${r.lastName}`.trim(),
    title: r.title ?? "",
    company: r.company || "your team",
  };
  return template.replace(FIELD, (_, name: string) => values[name as MergeField] ?? "").replace(/[ \t]+\n/g, "\n");
}

export interface PieceCopy {
  headline: string;
  body: string;
  signOff: string;
}

export function personalise(campaign: { headline: string; bodyTemplate: string; signOff: string }, r: Recipient): PieceCopy {
  return { headline: fillTemplate(campaign.headline, r), body: fillTemplate(campaign.bodyTemplate, r), signOff: fillTemplate(campaign.signOff, r) };
}

/** The address block as printed: name, title and company, street lines, city line, country. */
export function addressBlock(c: {
  firstName: string;
  lastName: string;
  title: string | null;
  company: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
}): string[] {
  const cityLine =
    c.country === "GB" || c.country === "DE"
      ? [c.country === "DE" ? `${c.postalCode ?? ""} ${c.city ?? ""}`.trim() : c.city, c.country === "GB" ? c.postalCode : null]
      : [`${c.city ?? ""}${c.region ? `, ${c.region}` : ""} ${c.postalCode ?? ""}`.trim()];
  return [
    `${c.firstName} ${c.lastName}`.trim(),
    c.title && c.company ? `${c.title}, ${c.company}` : (c.company ?? c.title ?? ""),
    c.addressLine1 ?? "",
    c.addressLine2 ?? "",
    ...cityLine.map((l) => l ?? ""),
    c.country && c.country !== "US" ? c.country : "",
  ].filter((line) => line.trim() !== "");
}
