import { Connection, type QueryResult as JsforceQueryResult } from "jsforce";
import {
  type CrmAdapter,
  CrmAccessError,
  CrmCredentialsRevoked,
  CrmCursorExpired,
  type CrmPage,
  CrmQuotaExceeded,
  CrmRateLimited,
  type CrmRecordOf,
  MAX_LISTS,
  type TCrmObjectType,
} from "./adapter";
import { LEAD_CHECK_SOQL, salesforceLeadReader } from "./salesforce-leads";
import { salesforceOrigin } from "./urls";

/**
 * Salesforce through jsforce: a connected app's OAuth 2.0 client-credentials flow on the org's
 * My Domain (POST /services/oauth2/token), then REST `query` with `nextRecordsUrl` paging
 * (SOQL on SystemModstamp, Salesforce's indexed last-modified time, for incremental reads).
 * Accounts → accounts, Contacts → contacts, Opportunities → outcomes, Campaigns (with their
 * contact members) → audiences; with `leads` on, unconverted Leads → contacts and lead members of
 * Campaigns join the audiences too (salesforce-leads.ts).
 */
export const API_VERSION = "62.0";
/** Salesforce has no deal pipelines: its opportunities are one, under this id. */
export const SALESFORCE_PIPELINE = "opportunities";

const SOBJECT: Record<TCrmObjectType, string> = { companies: "Account", contacts: "Contact", deals: "Opportunity" };
const FIELDS: Record<TCrmObjectType, string[]> = {
  companies: ["Id", "Name", "Website", "SystemModstamp"],
  contacts: [
    "Id",
    "FirstName",
    "LastName",
    "Email",
    "Title",
    "Phone",
    "MailingStreet",
    "MailingCity",
    "MailingState",
    "MailingPostalCode",
    "MailingCountry",
    "AccountId",
    "HasOptedOutOfEmail",
    "SystemModstamp",
  ],
  deals: ["Id", "Name", "AccountId", "Amount", "StageName", "CreatedDate", "CloseDate", "IsWon", "SystemModstamp"],
};

type Row = Record<string, unknown>;
type QueryResult = JsforceQueryResult<Row>;
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const isoOf = (v: unknown) => {
  const t = str(v);
  if (!t) return null;
  const n = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t}T00:00:00Z` : t.replace(/\+0000$/, "Z"));
  return Number.isNaN(n) ? null : new Date(n).toISOString();
};

function toRecord(type: TCrmObjectType, r: Row): CrmRecordOf[TCrmObjectType] {
  const id = String(r.Id);
  if (type === "companies")
    return { id, name: str(r.Name), domain: str(r.Website), modifiedAt: isoOf(r.SystemModstamp) };
  if (type === "deals") {
    const amount = typeof r.Amount === "number" && r.Amount >= 0 ? Math.round(r.Amount * 100) : null;
    return {
      id,
      name: str(r.Name),
      companyId: str(r.AccountId),
      amountCents: amount,
      createdAt: isoOf(r.CreatedDate),
      closedAt: isoOf(r.CloseDate),
      won: r.IsWon === true,
      pipeline: SALESFORCE_PIPELINE,
      stage: str(r.StageName),
      // Only a multi-currency org has CurrencyIsoCode; else every amount is in the org's currency.
      currency: str(r.CurrencyIsoCode)?.toUpperCase() ?? null,
      modifiedAt: isoOf(r.SystemModstamp),
    };
  }
  // MailingStreet holds every street line, one per line.
  const street = (str(r.MailingStreet) ?? "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return {
    id,
    firstName: str(r.FirstName),
    lastName: str(r.LastName),
    email: str(r.Email),
    title: str(r.Title),
    phone: str(r.Phone),
    addressLine1: street[0] ?? null,
    addressLine2: street.slice(1).join(", ") || null,
    city: str(r.MailingCity),
    region: str(r.MailingState),
    postalCode: str(r.MailingPostalCode),
    country: str(r.MailingCountry),
    companyId: str(r.AccountId),
    companyName: null,
    optedOut: r.HasOptedOutOfEmail === true,
    modifiedAt: isoOf(r.SystemModstamp),
  };
}

/** Salesforce's token errors (client-credentials flow), as sentences a person can act on. */
const TOKEN_ERRORS: Record<string, string> = {
  invalid_client_id:
    "Salesforce does not know this consumer key. Copy it again from Setup → App Manager → your connected app → View → Manage Consumer Details.",
  invalid_client:
    "Salesforce did not accept this consumer key and secret together. Copy both again from the connected app's Manage Consumer Details.",
  invalid_grant:
    "Salesforce refused the client-credentials flow for this app: in the connected app's policies (Setup → App Manager → Manage → Edit Policies), tick Enable Client Credentials Flow and choose a Run As user.",
  unsupported_grant_type:
    "The connected app does not allow the client-credentials flow: tick Enable Client Credentials Flow in its OAuth settings.",
  invalid_request: "Salesforce refused the token request; check that the My Domain URL is your org's.",
};

export function salesforceAdapter(p: {
  origin: string;
  clientId: string;
  clientSecret: string;
  leads?: boolean;
}): CrmAdapter {
  const conn = new Connection({
    oauth2: { loginUrl: p.origin, clientId: p.clientId, clientSecret: p.clientSecret },
    version: API_VERSION,
    // A session that expires mid-sync is renewed with the same client credentials.
    refreshFn: (c, callback) => {
      authorize().then(
        () => callback(undefined, c.accessToken ?? undefined),
        (error: Error) => callback(error),
      );
    },
  });

  let authorized: Promise<void> | null = null;
  const authorize = async () => {
    try {
      await conn.authorize({ grant_type: "client_credentials" });
    } catch (error) {
      const name = (error as Error).name;
      throw new CrmCredentialsRevoked(
        TOKEN_ERRORS[name] ??
          `Salesforce refused the connected app's credentials (${name}: ${(error as Error).message}).`,
      );
    }
    // Every later request goes to the instance Salesforce names: it must be a Salesforce address too.
    const instance = salesforceOrigin(conn.instanceUrl ?? "");
    if ("error" in instance)
      throw new CrmAccessError(
        "Salesforce answered with an instance address outside Salesforce's My Domain hosts; nothing was read.",
      );
  };
  const ready = () => (authorized ??= authorize().catch((e) => ((authorized = null), Promise.reject(e))));

  const translate = (error: unknown, what: string): Error => {
    const e = error as { name?: string; errorCode?: string; message?: string };
    const code = e.errorCode ?? e.name ?? "";
    if (error instanceof CrmAccessError) return error;
    if (code === "REQUEST_LIMIT_EXCEEDED" || code === "ERROR_HTTP_429" || code === "ERROR_HTTP_503") {
      // 403 REQUEST_LIMIT_EXCEEDED is both the daily allowance ("TotalRequests Limit exceeded.") and
      // the limit on concurrent long requests ("ConcurrentPerOrgLongTxn Limit exceeded", also
      // "ConcurrentRequests"): only the first waits for tomorrow; the others pass in seconds.
      if (/TotalRequests/i.test(e.message ?? ""))
        return new CrmQuotaExceeded(
          "Salesforce says this org has used its API requests for the last 24 hours; the next sync continues where this one stopped.",
        );
      return new CrmRateLimited(`Salesforce asked to slow down (${code}: ${(e.message ?? "").slice(0, 120)}).`, null);
    }
    if (code === "INVALID_QUERY_LOCATOR") return new CrmCursorExpired("Salesforce's query cursor expired.");
    if (code === "INVALID_TYPE" || code === "INSUFFICIENT_ACCESS" || code === "INSUFFICIENT_ACCESS_OR_READONLY")
      return new CrmAccessError(
        `The connected app's Run As user cannot read ${what}: give it the Read permission on ${what} (profile or permission set).`,
      );
    if (code === "INVALID_FIELD") {
      const field = /No such column '(\w+)'/.exec(e.message ?? "")?.[1];
      return new CrmAccessError(
        `The connected app's Run As user cannot see the ${field ? `${what}.${field}` : `fields of ${what}`} field: give it read access in field-level security.`,
      );
    }
    if (code === "API_DISABLED_FOR_ORG" || code === "API_CURRENTLY_DISABLED")
      return new CrmAccessError(
        "The Run As user's profile does not have the API Enabled permission; turn it on and try again.",
      );
    if (code === "INVALID_SESSION_ID")
      return new CrmCredentialsRevoked(
        "Salesforce ended the session and would not start another with the saved consumer key and secret; connect again.",
      );
    return new Error(`Salesforce answered: ${code} ${e.message ?? ""}`.trim());
  };

  /**
   * A REST GET through jsforce's public `request`, with its retries limited to 5xx: jsforce would
   * otherwise retry a 429 itself after half a second whatever Salesforce asks; the sync waits instead.
   */
  const get = async (path: string, what: string): Promise<QueryResult> => {
    await ready();
    try {
      return await conn.request<QueryResult>(
        { method: "GET", url: path },
        { retry: { statusCodes: [500, 502, 503, 504], maxRetries: 2 } },
      );
    } catch (error) {
      throw translate(error, what);
    }
  };
  const query = (soql: string, what: string) => get(`/query?q=${encodeURIComponent(soql)}`, what);
  /** queryAll: deleted (IsDeleted) records too, while they are in the recycle bin. */
  const queryAll = (soql: string, what: string) => get(`/queryAll?q=${encodeURIComponent(soql)}`, what);
  const more = (locator: string, what: string) => {
    if (!/^[\w-]+$/.test(locator)) throw new Error("Not a Salesforce query locator.");
    return get(`/query/${locator}`, what);
  };
  let multiCurrency: Promise<boolean> | null = null;
  /** Whether the org has multiple currencies on (Opportunity.CurrencyIsoCode exists), from the describe. */
  const hasCurrencyField = () =>
    (multiCurrency ??= (async () => {
      await ready();
      const d = await conn
        .sobject("Opportunity")
        .describe()
        .catch((error: unknown) => Promise.reject(translate(error, "Opportunities")));
      return d.fields.some((f) => f.name === "CurrencyIsoCode");
    })().catch((e) => ((multiCurrency = null), Promise.reject(e))));
  const where = (since: Date | null) =>
    since ? ` WHERE SystemModstamp >= ${since.toISOString().replace(/\.\d{3}Z$/, "Z")}` : "";

  return {
    kind: "salesforce",

    async verify() {
      await ready();
      const problems: string[] = [];
      for (const type of ["companies", "contacts", "deals"] as const) {
        try {
          await query(`SELECT ${FIELDS[type].join(", ")} FROM ${SOBJECT[type]} LIMIT 1`, plural(SOBJECT[type]));
        } catch (error) {
          if (error instanceof CrmAccessError) problems.push(error.message);
          else throw error;
        }
      }
      if (problems.length) throw new CrmAccessError(problems.join(" "));
      // Campaigns become audiences only when the Run As user can read them; without, the org still connects, lists off.
      let listsReadable = true;
      for (const [soql, what] of [
        ["SELECT Id, Name FROM Campaign LIMIT 1", "Campaigns"],
        ["SELECT Id, CampaignId, ContactId FROM CampaignMember LIMIT 1", "Campaign Members"],
      ] as const) {
        try {
          await query(soql, what);
        } catch (error) {
          if (error instanceof CrmAccessError) listsReadable = false;
          else throw error;
        }
      }
      let currency: string | null = null;
      try {
        currency =
          str(
            (await query("SELECT DefaultCurrencyIsoCode FROM Organization LIMIT 1", "the Organization")).records[0]
              ?.DefaultCurrencyIsoCode,
          )?.toUpperCase() ?? null;
      } catch (error) {
        if (!(error instanceof CrmAccessError)) throw error;
      }
      // Leads, when asked for, only if the Run As user can read them; without, the org still connects, leads off.
      let leadsUnreadable: string | null = null;
      if (p.leads) {
        try {
          await query(LEAD_CHECK_SOQL, "Leads");
        } catch (error) {
          if (error instanceof CrmAccessError) leadsUnreadable = `${error.message} Until then, Leads are not synced.`;
          else throw error;
        }
      }
      const org = conn.userInfo?.organizationId ?? "";
      return {
        externalAccountId: org,
        name: `Salesforce ${new URL(p.origin).host}`,
        listsReadable,
        currency,
        leadsUnreadable,
      };
    },

    async count(type, since) {
      const res = await query(`SELECT COUNT() FROM ${SOBJECT[type]}${where(since)}`, plural(SOBJECT[type]));
      return res.totalSize;
    },

    async page<T extends TCrmObjectType>(
      type: T,
      since: Date | null,
      cursor: string | null,
    ): Promise<CrmPage<CrmRecordOf[T]>> {
      const what = plural(SOBJECT[type]);
      const fields =
        type === "deals" && (await hasCurrencyField()) ? [...FIELDS.deals, "CurrencyIsoCode"] : FIELDS[type];
      const res = cursor
        ? await more(cursor, what)
        : await query(
            `SELECT ${fields.join(", ")} FROM ${SOBJECT[type]}${where(since)} ORDER BY SystemModstamp, Id`,
            what,
          );
      return { records: res.records.map((r) => toRecord(type, r) as CrmRecordOf[T]), next: locatorOf(res) };
    },

    async lists() {
      const res = await query(
        `SELECT Id, Name FROM Campaign ORDER BY LastModifiedDate DESC LIMIT ${MAX_LISTS}`,
        "Campaigns",
      );
      return res.records.map((r) => ({ id: String(r.Id), name: str(r.Name) ?? String(r.Id) }));
    },

    async listMembers(listId, cursor) {
      if (!/^[a-zA-Z0-9]{15,18}$/.test(listId)) throw new Error("Not a Salesforce id.");
      // A member is a contact or a lead (a converted lead's member has both: its Contact is the one).
      const soql = p.leads
        ? `SELECT ContactId, LeadId FROM CampaignMember WHERE CampaignId = '${listId}' ORDER BY Id`
        : `SELECT ContactId FROM CampaignMember WHERE CampaignId = '${listId}' AND ContactId != null ORDER BY Id`;
      const res = cursor ? await more(cursor, "Campaign Members") : await query(soql, "Campaign Members");
      const ids = res.records.map((r) => str(r.ContactId) ?? str(r.LeadId));
      return { records: ids.filter((id): id is string => id !== null), next: locatorOf(res) };
    },

    // Deleted records stay in the recycle bin 15 days, readable with queryAll and IsDeleted; the daily full sync catches the rest.
    async deleted(type, since, cursor) {
      const what = plural(SOBJECT[type]);
      const stamp = since.toISOString().replace(/\.\d{3}Z$/, "Z");
      const res = cursor
        ? await more(cursor, what)
        : await queryAll(
            `SELECT Id, SystemModstamp FROM ${SOBJECT[type]} WHERE IsDeleted = true AND SystemModstamp >= ${stamp} ORDER BY SystemModstamp, Id`,
            what,
          );
      return {
        records: res.records.map((r) => ({ id: String(r.Id), deletedAt: isoOf(r.SystemModstamp) })),
        next: locatorOf(res),
      };
    },

    // Opportunities have one list of stages (StageName's picklist): one pipeline, "Opportunities".
    async pipelines() {
      await ready();
      const d = await conn
        .sobject("Opportunity")
        .describe()
        .catch((error: unknown) => Promise.reject(translate(error, "Opportunities")));
      const stage = d.fields.find((f) => f.name === "StageName");
      const stages = (stage?.picklistValues ?? [])
        .filter((v) => v.active)
        .map((v) => ({ id: v.value, label: v.label ?? v.value }));
      return [{ id: SALESFORCE_PIPELINE, label: "Opportunities", stages }];
    },

    ...(p.leads
      ? {
          leads: salesforceLeadReader({
            query,
            queryAll,
            more,
            count: async (soql, what) => (await query(soql, what)).totalSize,
            locatorOf,
            isoOf,
            str,
          }),
        }
      : {}),
  };
}

/** The query locator of nextRecordsUrl (its last segment): the cursor kept between pages. */
const locatorOf = (res: { done: boolean; nextRecordsUrl?: string }) =>
  res.done || !res.nextRecordsUrl ? null : (res.nextRecordsUrl.split("/").pop() ?? null);

const plural = (sobject: string) =>
  ({ Account: "Accounts", Contact: "Contacts", Opportunity: "Opportunities" })[sobject] ?? sobject;
