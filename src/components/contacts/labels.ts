export const sourceLabels: Record<string, string> = {
  import: "CSV import",
  crm: "CRM",
  agent: "Agent",
  owner: "Added by hand",
};
export const reasonLabels: Record<string, string> = {
  "opt-out": "Opted out",
  customer: "Customer",
  competitor: "Competitor",
  "do-not-mail": "Do not mail",
  bounced: "Bounced / returned",
};
export const kindLabels: Record<string, string> = {
  email: "Email",
  domain: "Domain",
  address: "Address",
  account: "Account",
  contact: "Contact",
};
export const fullName = (c: { firstName: string; lastName: string; email?: string | null }) =>
  [c.firstName, c.lastName].filter(Boolean).join(" ") || c.email || "No name";

/** "Boston, MA, US" */
export const place = (c: { city?: string | null; region?: string | null; country?: string | null }) =>
  [c.city, c.region, c.country].filter(Boolean).join(", ");
