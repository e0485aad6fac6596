import { randomBytes } from "node:crypto";
import type http from "node:http";
import { controls, type FakeCrm, stageOf } from "./data";
import { type FakeServer, json, listen } from "./http";

/**
 * A local Salesforce for tests and the benchmark: the My Domain's OAuth 2.0 token endpoint
 * (client-credentials flow) and REST `query` / `queryAll` / `query/{locator}` with `nextRecordsUrl` paging, for
 * the SOQL the connector sends (SELECT fields or COUNT() FROM an object, WHERE on SystemModstamp
 * or CampaignId, ORDER BY, LIMIT). Objects: Organization, Account, Contact, Opportunity, Campaign,
 * CampaignMember (ContactId, or LeadId for a lead member; a converted lead's member has both) and
 * Lead (the documented standard fields; Convert sets IsConverted, ConvertedContactId, ConvertedDate
 * and moves SystemModstamp; `query` leaves deleted leads out, `queryAll` has them with IsDeleted).
 *
 * Errors are Salesforce's: the token endpoint's `{ error, error_description }` (invalid_client_id,
 * invalid_client, invalid_grant), REST's `[{ message, errorCode }]` with 401 INVALID_SESSION_ID,
 * 400 INVALID_TYPE for an object the Run As user cannot read, 400 INVALID_QUERY_LOCATOR,
 * 403 REQUEST_LIMIT_EXCEEDED, and 429 with Retry-After when a test asks for it.
 */
export interface SalesforceFakeOptions {
  clientId: string;
  clientSecret: string;
  /** Objects the Run As user cannot read (INVALID_TYPE). */
  hiddenObjects?: string[];
  /** No Run As user chosen for the client-credentials flow (invalid_grant). */
  noRunAsUser?: boolean;
  /** Records per query page (Salesforce's default batch is 2,000). */
  batchSize?: number;
  /** Multiple currencies on: Opportunity has CurrencyIsoCode (each deal's, else the org's). */
  multiCurrency?: boolean;
  /** The org's default currency (Organization.DefaultCurrencyIsoCode); USD by default. */
  currency?: string;
}

export const SF_VERSION = "v62.0";
const ORG = "00DFa000000Fake1AAA";

type Rec = Record<string, unknown>;
const sfDate = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString().replace("Z", "+0000"));

function tables(data: FakeCrm, options: SalesforceFakeOptions): Record<string, Rec[]> {
  const gone = (o: { deletedAt?: number }) => ({ IsDeleted: o.deletedAt !== undefined });
  const stamp = (o: { modifiedAt: number; deletedAt?: number }) => sfDate(o.deletedAt ?? o.modifiedAt);
  return {
    Organization: [{ Id: ORG, Name: "Fake Org", DefaultCurrencyIsoCode: options.currency ?? "USD", IsDeleted: false }],
    Account: data.companies.map((c) => ({
      ...gone(c),
      Id: c.id,
      Name: c.name,
      Website: c.domain ? `www.${c.domain}` : null,
      CreatedDate: sfDate(c.createdAt),
      LastModifiedDate: sfDate(c.modifiedAt),
      SystemModstamp: stamp(c),
    })),
    Contact: data.contacts.map((c) => ({
      ...gone(c),
      Id: c.id,
      FirstName: c.firstName,
      LastName: c.lastName,
      Email: c.email,
      Title: c.title,
      Phone: c.phone,
      MailingStreet: c.street,
      MailingCity: c.city,
      MailingState: c.region,
      MailingPostalCode: c.postalCode,
      MailingCountry: c.country,
      AccountId: c.companyId,
      HasOptedOutOfEmail: c.optedOut,
      CreatedDate: sfDate(c.createdAt),
      LastModifiedDate: sfDate(c.modifiedAt),
      SystemModstamp: stamp(c),
    })),
    Opportunity: data.deals.map((d) => ({
      ...gone(d),
      ...(options.multiCurrency ? { CurrencyIsoCode: d.currency ?? options.currency ?? "USD" } : {}),
      Id: d.id,
      Name: d.name,
      AccountId: d.companyId,
      Amount: d.amount,
      CreatedDate: sfDate(d.createdAt),
      CloseDate: d.closedAt
        ? new Date(d.closedAt).toISOString().slice(0, 10)
        : new Date(d.createdAt + 30 * 86_400_000).toISOString().slice(0, 10),
      IsWon: d.won,
      IsClosed: d.won,
      StageName: stageOf(d, "salesforce"),
      SystemModstamp: stamp(d),
    })),
    Lead: (data.leads ?? []).map((l) => ({
      ...gone(l),
      Id: l.id,
      FirstName: l.firstName,
      LastName: l.lastName,
      Name: `${l.firstName} ${l.lastName}`,
      Email: l.email,
      Title: l.title,
      Phone: l.phone,
      Company: l.company,
      Street: l.street,
      City: l.city,
      State: l.region,
      PostalCode: l.postalCode,
      Country: l.country,
      Status: l.convertedContactId ? "Closed - Converted" : "Open - Not Contacted",
      LeadSource: null,
      HasOptedOutOfEmail: l.optedOut,
      IsConverted: Boolean(l.convertedContactId),
      ConvertedContactId: l.convertedContactId ?? null,
      ConvertedAccountId: l.convertedContactId
        ? (data.contacts.find((c) => c.id === l.convertedContactId)?.companyId ?? null)
        : null,
      ConvertedDate: l.convertedAt ? new Date(l.convertedAt).toISOString().slice(0, 10) : null,
      CreatedDate: sfDate(l.createdAt),
      LastModifiedDate: sfDate(Math.max(l.modifiedAt, l.convertedAt ?? 0)),
      SystemModstamp: sfDate(l.deletedAt ?? Math.max(l.modifiedAt, l.convertedAt ?? 0)),
    })),
    Campaign: data.lists.map((l) => ({
      IsDeleted: false,
      Id: l.id,
      Name: l.name,
      IsActive: true,
      LastModifiedDate: sfDate(l.modifiedAt),
      SystemModstamp: sfDate(l.modifiedAt),
    })),
    CampaignMember: data.lists.flatMap((l) =>
      l.members.map((m, i) => {
        // A lead member keeps its LeadId; converting the lead fills in the Contact it became.
        const lead = m.startsWith("00Q") ? data.leads?.find((x) => x.id === m) : undefined;
        const member = m.startsWith("00Q")
          ? { LeadId: m, ContactId: lead?.convertedContactId ?? null }
          : { LeadId: null, ContactId: m };
        return {
          IsDeleted: false,
          Id: `00vFa${l.id.slice(5, 9)}${String(i).padStart(6, "0")}AAA`,
          CampaignId: l.id,
          ...member,
          SystemModstamp: sfDate(l.modifiedAt),
        };
      }),
    ),
  };
}

interface Parsed {
  fields: string[] | "COUNT";
  object: string;
  where: ((r: Rec) => boolean)[];
  orderBy: string[];
  limit: number | null;
}

/** The SOQL the connector sends, read strictly: anything else is a MALFORMED_QUERY, as Salesforce would answer. */
function parseSoql(soql: string): Parsed | null {
  const m = /^SELECT\s+(.+?)\s+FROM\s+(\w+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDER BY\s+(.+?))?(?:\s+LIMIT\s+(\d+))?$/i.exec(
    soql.trim(),
  );
  if (!m) return null;
  const fields = /^COUNT\(\)$/i.test(m[1]) ? ("COUNT" as const) : m[1].split(",").map((f) => f.trim());
  const where: Parsed["where"] = [];
  for (const cond of m[3] ? m[3].split(/\s+AND\s+/i) : []) {
    let c = /^(\w+)\s*(>=|>|<=|<|=|!=)\s*(.+)$/.exec(cond.trim());
    if (!c) return null;
    const [, field, op, raw] = c;
    const value: unknown =
      raw === "null"
        ? null
        : raw === "true"
          ? true
          : raw === "false"
            ? false
            : /^'.*'$/.test(raw)
              ? raw.slice(1, -1)
              : /^\d{4}-\d{2}-\d{2}T/.test(raw)
                ? Date.parse(raw)
                : raw;
    c = null;
    where.push((r) => {
      let v = r[field] as unknown;
      if (typeof value === "number" && typeof v === "string") v = Date.parse(v.replace("+0000", "Z"));
      switch (op) {
        case "=":
          return v === value;
        case "!=":
          return v !== value;
        case ">=":
          return (v as number) >= (value as number);
        case ">":
          return (v as number) > (value as number);
        case "<=":
          return (v as number) <= (value as number);
        default:
          return (v as number) < (value as number);
      }
    });
  }
  const orderBy = m[4] ? m[4].split(",").map((f) => f.trim().split(/\s+/)[0]) : [];
  return { fields, object: m[2], where, orderBy, limit: m[5] ? Number(m[5]) : null };
}

export async function startSalesforceFake(
  data: FakeCrm,
  options: SalesforceFakeOptions,
  port = 0,
): Promise<
  FakeServer &
    ReturnType<typeof controls> & {
      data: FakeCrm;
      tokens: Set<string>;
      limitNext(count: number, kind: "concurrent" | "daily"): void;
      rotateSecret(secret: string): void;
    }
> {
  const ctl = controls();
  const tokens = new Set<string>();
  const limits = { count: 0, kind: "concurrent" as "concurrent" | "daily" };
  const cursors = new Map<string, { rows: Rec[]; object: string; offset: number; total: number }>();
  const batch = options.batchSize ?? 2000;
  const errors = (
    res: http.ServerResponse,
    status: number,
    errorCode: string,
    message: string,
    headers: Record<string, string> = {},
  ) => json(res, status, [{ message, errorCode }], headers);

  const server = await listen(async (req, body, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    ctl.requests.push({ method: req.method ?? "GET", url: url.pathname + url.search, at: Date.now() });
    if (url.pathname === "/services/oauth2/token" && req.method === "POST") {
      const form = new URLSearchParams(body);
      if (form.get("grant_type") !== "client_credentials")
        return json(res, 400, { error: "unsupported_grant_type", error_description: "grant type not supported" });
      if (form.get("client_id") !== options.clientId)
        return json(res, 400, { error: "invalid_client_id", error_description: "client identifier invalid" });
      if (form.get("client_secret") !== options.clientSecret)
        return json(res, 400, { error: "invalid_client", error_description: "invalid client credentials" });
      if (options.noRunAsUser)
        return json(res, 400, { error: "invalid_grant", error_description: "no client credentials user enabled" });
      const token = `00DFa!${randomBytes(24).toString("base64url")}`;
      tokens.add(token);
      return json(res, 200, {
        access_token: token,
        signature: randomBytes(32).toString("base64"),
        scope: "api",
        instance_url: server.url,
        id: `${server.url}/id/${ORG}/005Fa000001RunAsAAA`,
        token_type: "Bearer",
        issued_at: String(Date.now()),
      });
    }
    if (ctl.state.dropIn >= 0 && ctl.state.dropIn-- === 0) return void req.socket.destroy();
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!token || !tokens.has(token)) return errors(res, 401, "INVALID_SESSION_ID", "Session expired or invalid");
    if (ctl.limited()) {
      ctl.requests[ctl.requests.length - 1].status = 429;
      return errors(res, 429, "REQUEST_LIMIT_EXCEEDED", "Too many requests. Try again later.", {
        "retry-after": String(ctl.state.retryAfter),
      });
    }
    if (limits.count > 0) {
      // Salesforce answers both of its request limits 403 REQUEST_LIMIT_EXCEEDED, told apart by the message only.
      limits.count--;
      ctl.requests[ctl.requests.length - 1].status = 403;
      return errors(
        res,
        403,
        "REQUEST_LIMIT_EXCEEDED",
        limits.kind === "daily" ? "TotalRequests Limit exceeded." : "ConcurrentPerOrgLongTxn Limit exceeded.",
      );
    }
    const base = `/services/data/${SF_VERSION}`;
    const respond = (id: string) => {
      const c = cursors.get(id)!;
      const records = c.rows.slice(c.offset, c.offset + batch);
      const nextOffset = c.offset + records.length;
      const done = nextOffset >= c.rows.length;
      let nextRecordsUrl: string | undefined;
      if (!done) {
        const next = `${id.split("-")[0]}-${nextOffset}`;
        cursors.set(next, { ...c, offset: nextOffset });
        nextRecordsUrl = `${base}/query/${next}`;
      }
      cursors.delete(id);
      return json(res, 200, { totalSize: c.total, done, ...(nextRecordsUrl ? { nextRecordsUrl } : {}), records });
    };
    if (req.method === "GET" && url.pathname === `${base}/sobjects/Opportunity/describe`) {
      if (options.hiddenObjects?.includes("Opportunity"))
        return errors(res, 404, "NOT_FOUND", "The requested resource does not exist");
      const field = (name: string, type: string, extra: Rec = {}) => ({ name, type, label: name, ...extra });
      const stages = ["Prospecting", "Qualification", "Negotiation/Review", "Closed Won", "Closed Lost"].map((v) => ({
        value: v,
        label: v,
        active: true,
        defaultValue: false,
        validFor: null,
      }));
      return json(res, 200, {
        name: "Opportunity",
        label: "Opportunity",
        fields: [
          field("Id", "id"),
          field("Name", "string"),
          field("Amount", "currency"),
          field("StageName", "picklist", { picklistValues: stages }),
          ...(options.multiCurrency ? [field("CurrencyIsoCode", "picklist")] : []),
        ],
      });
    }
    if (req.method === "GET" && (url.pathname === `${base}/query` || url.pathname === `${base}/queryAll`)) {
      const soql = url.searchParams.get("q") ?? "";
      const q = parseSoql(soql);
      if (!q) return errors(res, 400, "MALFORMED_QUERY", `unexpected token in: ${soql.slice(0, 80)}`);
      const every = tables(data, options);
      // query leaves deleted records out; queryAll includes those in the recycle bin.
      const all = url.pathname.endsWith("/queryAll")
        ? every
        : Object.fromEntries(Object.entries(every).map(([k, rows]) => [k, rows.filter((r) => r.IsDeleted !== true)]));
      if (options.hiddenObjects?.includes(q.object) || !(q.object in all)) {
        return errors(
          res,
          400,
          "INVALID_TYPE",
          `\n${soql.slice(0, 60)}\n^\nERROR at Row:1:Column:1\nsObject type '${q.object}' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name. Please reference your WSDL or the describe call for the appropriate names.`,
        );
      }
      let rows = all[q.object].filter((r) => q.where.every((w) => w(r)));
      if (q.fields === "COUNT") return json(res, 200, { totalSize: rows.length, done: true, records: [] });
      const unknown = q.fields.find((f) => !(f in (all[q.object][0] ?? { [f]: 1 })));
      if (unknown)
        return errors(
          res,
          400,
          "INVALID_FIELD",
          `\nSELECT ${unknown}\n^\nERROR at Row:1:Column:8\nNo such column '${unknown}' on entity '${q.object}'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name.`,
        );
      if (q.orderBy.length) {
        rows = [...rows].sort((a, b) => {
          for (const f of q.orderBy) {
            const x = String(a[f] ?? "");
            const y = String(b[f] ?? "");
            if (x !== y) return x < y ? -1 : 1;
          }
          return 0;
        });
      }
      if (q.limit !== null) rows = rows.slice(0, q.limit);
      const fields = q.fields;
      const shaped = rows.map((r) => ({
        attributes: { type: q.object, url: `${base}/sobjects/${q.object}/${r.Id}` },
        ...Object.fromEntries(fields.map((f) => [f, r[f] ?? null])),
      }));
      const id = `01gFa${randomBytes(6).toString("hex")}`;
      cursors.set(`${id}-0`, { rows: shaped, object: q.object, offset: 0, total: shaped.length });
      return respond(`${id}-0`);
    }
    const more = new RegExp(`^${base}/query/(01g[\\w]+-\\d+)$`).exec(url.pathname);
    if (req.method === "GET" && more) {
      if (!cursors.has(more[1])) return errors(res, 400, "INVALID_QUERY_LOCATOR", "invalid query locator");
      return respond(more[1]);
    }
    return errors(res, 404, "NOT_FOUND", "The requested resource does not exist");
  }, port);
  return Object.assign(server, ctl, {
    data,
    tokens,
    /** The next `count` API requests answer 403 REQUEST_LIMIT_EXCEEDED: the concurrent-request limit, or the daily allowance. */
    limitNext(count: number, kind: "concurrent" | "daily") {
      limits.count = count;
      limits.kind = kind;
    },
    /** The connected app's secret is changed (or the app deleted): sessions end and the saved secret is refused. */
    rotateSecret(secret: string) {
      options.clientSecret = secret;
      tokens.clear();
    },
  });
}
