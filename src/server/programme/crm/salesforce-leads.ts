import type { CrmContact, CrmLeadReader, CrmPage } from "./adapter";

/**
 * Salesforce Leads (the standard Lead object), read when the connection syncs them. Only leads not
 * yet converted are people to sync (`IsConverted = false`): a converted lead's person is a Contact,
 * which the contacts phase reads. Converted leads are read apart (their ConvertedContactId) so the
 * contact a lead became here stays the one contact; deleted leads through queryAll, as for every
 * object. Fields are those of Salesforce's documented Lead object (Street is a textarea of lines;
 * Company is free text, the lead's company name).
 */
export const LEAD_FIELDS = [
  "Id",
  "FirstName",
  "LastName",
  "Email",
  "Title",
  "Phone",
  "Company",
  "Street",
  "City",
  "State",
  "PostalCode",
  "Country",
  "HasOptedOutOfEmail",
  "IsConverted",
  "SystemModstamp",
];

/** The Lead fields named in messages, in the order of sync-writes' CONTACT_TARGETS. */
export const LEAD_FIELD_NAMES = [
  "FirstName",
  "LastName",
  "Email",
  "Title",
  "Phone",
  "Street",
  "Street",
  "City",
  "State",
  "PostalCode",
  "Country",
  "Company",
  "Id",
];

type Row = Record<string, unknown>;
export interface SoqlPage {
  records: Row[];
  done: boolean;
  nextRecordsUrl?: string;
}

interface Deps {
  query(soql: string, what: string): Promise<SoqlPage>;
  queryAll(soql: string, what: string): Promise<SoqlPage>;
  more(locator: string, what: string): Promise<SoqlPage>;
  count(soql: string, what: string): Promise<number>;
  locatorOf(res: SoqlPage): string | null;
  isoOf(v: unknown): string | null;
  str(v: unknown): string | null;
}

const WHAT = "Leads";
const stamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** A Lead as a contact: its address from Street/City/State/PostalCode/Country, its company by name (Company). */
export function leadToContact(r: Row, d: Pick<Deps, "isoOf" | "str">): CrmContact {
  const street = (d.str(r.Street) ?? "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return {
    id: String(r.Id),
    firstName: d.str(r.FirstName),
    lastName: d.str(r.LastName),
    email: d.str(r.Email),
    title: d.str(r.Title),
    phone: d.str(r.Phone),
    addressLine1: street[0] ?? null,
    addressLine2: street.slice(1).join(", ") || null,
    city: d.str(r.City),
    region: d.str(r.State),
    postalCode: d.str(r.PostalCode),
    country: d.str(r.Country),
    companyId: null,
    companyName: d.str(r.Company),
    optedOut: r.HasOptedOutOfEmail === true,
    modifiedAt: d.isoOf(r.SystemModstamp),
  };
}

export function salesforceLeadReader(d: Deps): CrmLeadReader {
  const since = (s: Date | null) => (s ? ` AND SystemModstamp >= ${stamp(s)}` : "");
  const pageOf = async <T>(res: Promise<SoqlPage>, map: (r: Row) => T): Promise<CrmPage<T>> => {
    const page = await res;
    return { records: page.records.map(map), next: d.locatorOf(page) };
  };
  return {
    count: (s) => d.count(`SELECT COUNT() FROM Lead WHERE IsConverted = false${since(s)}`, WHAT),
    page: (s, cursor) =>
      pageOf(
        cursor
          ? d.more(cursor, WHAT)
          : d.query(
              `SELECT ${LEAD_FIELDS.join(", ")} FROM Lead WHERE IsConverted = false${since(s)} ORDER BY SystemModstamp, Id`,
              WHAT,
            ),
        (r) => leadToContact(r, d),
      ),
    // Converting a lead sets IsConverted and ConvertedContactId and moves its SystemModstamp.
    converted: (s, cursor) =>
      pageOf(
        cursor
          ? d.more(cursor, WHAT)
          : d.query(
              `SELECT Id, ConvertedContactId, SystemModstamp FROM Lead WHERE IsConverted = true${since(s)} ORDER BY SystemModstamp, Id`,
              WHAT,
            ),
        (r) => ({
          id: String(r.Id),
          contactId: d.str(r.ConvertedContactId),
          modifiedAt: d.isoOf(r.SystemModstamp),
        }),
      ),
    deleted: (s, cursor) =>
      pageOf(
        cursor
          ? d.more(cursor, WHAT)
          : d.queryAll(
              `SELECT Id, SystemModstamp FROM Lead WHERE IsDeleted = true AND SystemModstamp >= ${stamp(s)} ORDER BY SystemModstamp, Id`,
              WHAT,
            ),
        (r) => ({
          id: String(r.Id),
          deletedAt: d.isoOf(r.SystemModstamp),
        }),
      ),
  };
}

/** The check at connect time: a SOQL read of one lead's fields; the sentence when the Run As user cannot. */
export const LEAD_CHECK_SOQL = `SELECT ${LEAD_FIELDS.join(", ")} FROM Lead LIMIT 1`;
