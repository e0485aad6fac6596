import type http from "node:http";
import { controls, type FakeCompany, type FakeContact, type FakeCrm, type FakeDeal, stageOf } from "./data";
import { correlationId, type FakeServer, json, listen } from "./http";

/**
 * A local HubSpot for tests and the benchmark: the endpoints the connector uses, with HubSpot's
 * documented payloads, paging, errors and rate limiting.
 *
 * - GET  /account-info/v3/details
 * - GET  /crm/v3/objects/{contacts|companies|deals}?limit (≤100)&after&properties&associations&archived
 * - POST /crm/v3/objects/{type}/search: filterGroups (GT/GTE/LT/LTE/EQ on a property), sorts, properties, limit (≤200), after (< 10,000)
 * - POST /crm/v4/associations/{from}/companies/batch/read
 * - POST /crm/v3/lists/search, GET /crm/v3/lists/{listId}/memberships?after&limit (≤250)
 *
 * Errors are HubSpot's `{ status: "error", message, correlationId, category, errors? }`: 401
 * INVALID_AUTHENTICATION for an unknown token, 403 MISSING_SCOPES naming the required granular
 * scope, 400 VALIDATION_ERROR, 404 OBJECT_NOT_FOUND, and 429 (`policyName`, Retry-After) when a
 * test asks for it.
 */
export interface HubSpotFakeOptions {
  token: string;
  portalId?: number;
  /** Granted scopes; by default every one the connector needs. */
  scopes?: string[];
  /** Tokens HubSpot once issued that have expired: answered 401 EXPIRED_AUTHENTICATION. */
  expiredTokens?: string[];
  /** The portal's company currency (account-info companyCurrency); USD by default. */
  companyCurrency?: string;
}

const TYPES = ["contacts", "companies", "deals"] as const;
type ObjectType = (typeof TYPES)[number];
const SCOPE: Record<ObjectType | "lists", string> = {
  contacts: "crm.objects.contacts.read",
  companies: "crm.objects.companies.read",
  deals: "crm.objects.deals.read",
  lists: "crm.lists.read",
};
export const ALL_HUBSPOT_SCOPES = Object.values(SCOPE);

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

function propertiesOf(type: ObjectType, o: FakeContact | FakeCompany | FakeDeal): Record<string, string | null> {
  if (type === "contacts") {
    const c = o as FakeContact;
    return {
      hs_object_id: c.id,
      firstname: c.firstName,
      lastname: c.lastName,
      email: c.email,
      jobtitle: c.title,
      phone: c.phone,
      address: c.street,
      city: c.city,
      state: c.region,
      zip: c.postalCode,
      country: c.country,
      company: c.companyName,
      hs_email_optout: c.optedOut ? "true" : "false",
      createdate: iso(c.createdAt),
      lastmodifieddate: iso(c.modifiedAt),
    };
  }
  if (type === "companies") {
    const c = o as FakeCompany;
    return {
      hs_object_id: c.id,
      name: c.name,
      domain: c.domain,
      website: c.domain ? `https://www.${c.domain}` : null,
      createdate: iso(c.createdAt),
      hs_lastmodifieddate: iso(c.modifiedAt),
    };
  }
  const d = o as FakeDeal;
  return {
    hs_object_id: d.id,
    dealname: d.name,
    amount: d.amount == null ? null : String(d.amount),
    deal_currency_code: d.currency ?? null,
    createdate: iso(d.createdAt),
    closedate: iso(d.closedAt),
    hs_is_closed_won: d.won ? "true" : "false",
    pipeline: d.pipeline ?? "default",
    dealstage: stageOf(d, "hubspot"),
    hs_lastmodifieddate: iso(d.modifiedAt),
  };
}

const DEFAULT_PROPS: Record<ObjectType, string[]> = {
  contacts: ["createdate", "email", "firstname", "hs_object_id", "lastmodifieddate", "lastname"],
  companies: ["createdate", "domain", "hs_lastmodifieddate", "hs_object_id", "name"],
  deals: [
    "amount",
    "closedate",
    "createdate",
    "dealname",
    "dealstage",
    "hs_lastmodifieddate",
    "hs_object_id",
    "pipeline",
  ],
};

export async function startHubSpotFake(
  data: FakeCrm,
  options: HubSpotFakeOptions,
  port = 0,
): Promise<FakeServer & ReturnType<typeof controls> & { data: FakeCrm; revokeToken(replacement?: string): string }> {
  const ctl = controls();
  const scopes = new Set(options.scopes ?? ALL_HUBSPOT_SCOPES);
  const error = (
    res: http.ServerResponse,
    status: number,
    category: string,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => json(res, status, { status: "error", message, correlationId: correlationId(), category, ...extra }, headers);
  const missingScope = (res: http.ServerResponse, scope: string) =>
    error(
      res,
      403,
      "MISSING_SCOPES",
      "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
      {
        errors: [
          {
            message: "One or more of the following scopes are required.",
            context: { requiredGranularScopes: [scope] },
          },
        ],
        links: { scopes: "https://developers.hubspot.com/scopes" },
      },
    );
  const live = (type: ObjectType): (FakeContact | FakeCompany | FakeDeal)[] =>
    (data[type] as (FakeContact | FakeCompany | FakeDeal)[]).filter((o) => o.deletedAt === undefined);
  const objects = live;
  let token = options.token;
  const render = (
    type: ObjectType,
    o: FakeContact | FakeCompany | FakeDeal,
    props: string[],
    withAssociations: boolean,
  ) => {
    const all = propertiesOf(type, o);
    const properties: Record<string, string | null> = {};
    for (const p of props.length ? props : DEFAULT_PROPS[type]) if (p in all) properties[p] = all[p];
    properties.hs_object_id = o.id;
    const out: Record<string, unknown> = {
      id: o.id,
      properties,
      createdAt: iso(o.createdAt),
      updatedAt: iso(o.modifiedAt),
      archived: o.deletedAt !== undefined,
      ...(o.deletedAt !== undefined ? { archivedAt: iso(o.deletedAt) } : {}),
    };
    const companyId = "companyId" in o ? o.companyId : null;
    if (withAssociations && companyId) {
      // As HubSpot lists them: every associated company unlabeled, the Primary one also typed *_to_company; others first here.
      const kind = type === "contacts" ? "contact_to_company" : "deal_to_company";
      const others = ("otherCompanyIds" in o ? (o.otherCompanyIds ?? []) : []).map((id) => ({
        id,
        type: `${kind}_unlabeled`,
      }));
      out.associations = {
        companies: {
          results: [...others, { id: companyId, type: kind }, { id: companyId, type: `${kind}_unlabeled` }],
        },
      };
    }
    return out;
  };

  const server = await listen(async (req, body, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    ctl.requests.push({ method: req.method ?? "GET", url: url.pathname + url.search, at: Date.now() });
    if (ctl.state.dropIn >= 0 && ctl.state.dropIn-- === 0) return void req.socket.destroy();
    if (options.expiredTokens?.some((t) => req.headers.authorization === `Bearer ${t}`)) {
      return error(res, 401, "EXPIRED_AUTHENTICATION", "The OAuth token used to make this call expired 3 hour(s) ago.");
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      return error(
        res,
        401,
        "INVALID_AUTHENTICATION",
        "Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview",
      );
    }
    if (ctl.limited()) {
      ctl.requests[ctl.requests.length - 1].status = 429;
      return json(
        res,
        429,
        {
          status: "error",
          message: "You have reached your ten_secondly_rolling limit.",
          errorType: "RATE_LIMIT",
          correlationId: correlationId(),
          policyName: "TEN_SECONDLY_ROLLING",
          groupName: "api",
        },
        { "retry-after": String(ctl.state.retryAfter) },
      );
    }
    const path = url.pathname.replace(/\/$/, "");
    if (req.method === "GET" && path === "/account-info/v3/details") {
      return json(res, 200, {
        portalId: options.portalId ?? 4711,
        accountType: "STANDARD",
        timeZone: "US/Eastern",
        companyCurrency: options.companyCurrency ?? "USD",
        additionalCurrencies: [],
        utcOffset: "-05:00",
        utcOffsetMilliseconds: -18_000_000,
        uiDomain: "app.hubspot.com",
        dataHostingLocation: "na1",
      });
    }

    let m = /^\/crm\/v3\/objects\/(contacts|companies|deals)$/.exec(path);
    if (m && req.method === "GET") {
      const type = m[1] as ObjectType;
      if (!scopes.has(SCOPE[type])) return missingScope(res, SCOPE[type]);
      const limit = Number(url.searchParams.get("limit") ?? 10);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100)
        return error(
          res,
          400,
          "VALIDATION_ERROR",
          `limit must be between 1 and 100, got ${url.searchParams.get("limit")}`,
        );
      const start = Number(url.searchParams.get("after") ?? 0);
      if (!Number.isInteger(start) || start < 0) return error(res, 400, "VALIDATION_ERROR", "Invalid after cursor.");
      const props = url.searchParams
        .getAll("properties")
        .flatMap((p) => p.split(","))
        .filter(Boolean);
      const assoc = url.searchParams.getAll("associations").flatMap((p) => p.split(","));
      // archived=true lists only archived objects (HubSpot keeps them 90 days).
      const all =
        url.searchParams.get("archived") === "true"
          ? (data[type] as (FakeContact | FakeCompany | FakeDeal)[]).filter((o) => o.deletedAt !== undefined)
          : objects(type);
      const page = all.slice(start, start + limit).map((o) => render(type, o, props, assoc.includes("companies")));
      const next = start + limit < all.length ? String(start + limit) : null;
      return json(res, 200, {
        results: page,
        ...(next ? { paging: { next: { after: next, link: `${server.url}${path}?after=${next}` } } } : {}),
      });
    }

    m = /^\/crm\/v3\/objects\/(contacts|companies|deals)\/search$/.exec(path);
    if (m && req.method === "POST") {
      const type = m[1] as ObjectType;
      if (!scopes.has(SCOPE[type])) return missingScope(res, SCOPE[type]);
      const q = JSON.parse(body || "{}") as {
        filterGroups?: { filters: { propertyName: string; operator: string; value?: string }[] }[];
        sorts?: ({ propertyName: string; direction?: string } | string)[];
        properties?: string[];
        limit?: number;
        after?: string;
      };
      const limit = q.limit ?? 10;
      if (limit > 200) return error(res, 400, "VALIDATION_ERROR", "limit must be at most 200.");
      const after = Number(q.after ?? 0);
      if (after + limit > 10_000)
        return error(res, 400, "VALIDATION_ERROR", "Search results are limited to 10,000: narrow the filters.");
      const value = (o: FakeContact | FakeCompany | FakeDeal, prop: string) => {
        const v = propertiesOf(type, o)[prop];
        return v != null && /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : v;
      };
      const target = (v: string | undefined) =>
        v && /^\d+$/.test(v) ? Number(v) : v && !Number.isNaN(Date.parse(v)) ? Date.parse(v) : v;
      const test = (
        o: FakeContact | FakeCompany | FakeDeal,
        f: { propertyName: string; operator: string; value?: string },
      ) => {
        const a = value(o, f.propertyName);
        const b = target(f.value);
        if (a == null || b == null) return false;
        switch (f.operator) {
          case "GTE":
            return a >= b;
          case "GT":
            return a > b;
          case "LTE":
            return a <= b;
          case "LT":
            return a < b;
          case "EQ":
            return String(a) === String(b);
          default:
            return false;
        }
      };
      let found = objects(type).filter(
        (o) => !q.filterGroups?.length || q.filterGroups.some((g) => g.filters.every((f) => test(o, f))),
      );
      const sort = q.sorts?.[0];
      if (sort) {
        const prop = typeof sort === "string" ? sort.replace(/^-/, "") : sort.propertyName;
        const desc = typeof sort === "string" ? sort.startsWith("-") : sort.direction === "DESCENDING";
        found = [...found].sort((x, y) => {
          const a = value(x, prop) ?? "";
          const b = value(y, prop) ?? "";
          return (a < b ? -1 : a > b ? 1 : Number(x.id) - Number(y.id)) * (desc ? -1 : 1);
        });
      }
      const page = found.slice(after, after + limit).map((o) => render(type, o, q.properties ?? [], false));
      const next = after + limit < found.length ? String(after + limit) : null;
      return json(res, 200, {
        total: found.length,
        results: page,
        ...(next ? { paging: { next: { after: next } } } : {}),
      });
    }

    m = /^\/crm\/v4\/associations\/(contacts|deals)\/companies\/batch\/read$/.exec(path);
    if (m && req.method === "POST") {
      const type = m[1] as ObjectType;
      if (!scopes.has(SCOPE[type])) return missingScope(res, SCOPE[type]);
      const { inputs } = JSON.parse(body || "{}") as { inputs: { id: string }[] };
      const byId = new Map(objects(type).map((o) => [o.id, o]));
      const started = new Date().toISOString();
      const unlabeled = { category: "HUBSPOT_DEFINED", typeId: type === "contacts" ? 279 : 341, label: null };
      const results = inputs.flatMap(({ id }) => {
        const o = byId.get(id) as FakeContact | FakeDeal | undefined;
        if (!o?.companyId) return [];
        // Other companies first (unlabeled), then the Primary one (Primary and unlabeled types).
        const others = (o.otherCompanyIds ?? []).map((c) => ({ toObjectId: Number(c), associationTypes: [unlabeled] }));
        return [
          {
            from: { id },
            to: [
              ...others,
              {
                toObjectId: Number(o.companyId),
                associationTypes: [
                  { category: "HUBSPOT_DEFINED", typeId: type === "contacts" ? 1 : 5, label: "Primary" },
                  unlabeled,
                ],
              },
            ],
          },
        ];
      });
      return json(res, 200, { status: "COMPLETE", results, startedAt: started, completedAt: new Date().toISOString() });
    }

    if (path === "/crm/v3/pipelines/deals" && req.method === "GET") {
      if (!scopes.has(SCOPE.deals)) return missingScope(res, SCOPE.deals);
      const stage = (id: string, label: string, displayOrder: number, probability: string) => ({
        id,
        label,
        displayOrder,
        metadata: { isClosed: String(probability === "1.0" || probability === "0.0"), probability },
        archived: false,
        createdAt: iso(0),
        updatedAt: iso(0),
      });
      return json(res, 200, {
        results: [
          {
            id: "default",
            label: "Sales Pipeline",
            displayOrder: 0,
            archived: false,
            createdAt: iso(0),
            updatedAt: iso(0),
            stages: [
              stage("appointmentscheduled", "Appointment Scheduled", 0, "0.2"),
              stage("closedwon", "Closed Won", 1, "1.0"),
              stage("closedlost", "Closed Lost", 2, "0.0"),
            ],
          },
          {
            id: "renewals",
            label: "Renewals",
            displayOrder: 1,
            archived: false,
            createdAt: iso(0),
            updatedAt: iso(0),
            stages: [stage("renewal-open", "Renewal open", 0, "0.5"), stage("renewal-won", "Renewed", 1, "1.0")],
          },
        ],
      });
    }

    if (path === "/crm/v3/lists/search" && req.method === "POST") {
      if (!scopes.has(SCOPE.lists)) return missingScope(res, SCOPE.lists);
      const q = JSON.parse(body || "{}") as { offset?: number; count?: number; query?: string };
      const offset = q.offset ?? 0;
      const count = Math.min(q.count ?? 20, 500);
      const matching = data.lists.filter((l) => !q.query || l.name.toLowerCase().includes(q.query.toLowerCase()));
      const lists = matching.slice(offset, offset + count).map((l) => ({
        listId: l.id,
        listVersion: 1,
        name: l.name,
        objectTypeId: "0-1",
        processingStatus: "COMPLETE",
        processingType: "MANUAL",
        createdAt: iso(l.createdAt),
        updatedAt: iso(l.modifiedAt),
        additionalProperties: { hs_list_size: String(l.members.length) },
      }));
      return json(res, 200, {
        offset: offset + lists.length,
        hasMore: offset + count < matching.length,
        lists,
        total: matching.length,
      });
    }

    m = /^\/crm\/v3\/lists\/([^/]+)\/memberships$/.exec(path);
    if (m && req.method === "GET") {
      if (!scopes.has(SCOPE.lists)) return missingScope(res, SCOPE.lists);
      const list = data.lists.find((l) => l.id === m![1]);
      if (!list) return error(res, 404, "OBJECT_NOT_FOUND", `List ${m[1]} does not exist.`);
      const limit = Math.min(Number(url.searchParams.get("limit") ?? 100), 250);
      const start = Number(url.searchParams.get("after") ?? 0);
      const page = list.members
        .slice(start, start + limit)
        .map((recordId) => ({ recordId, membershipTimestamp: iso(list.modifiedAt) }));
      const next = start + limit < list.members.length ? String(start + limit) : null;
      return json(res, 200, {
        results: page,
        total: list.members.length,
        ...(next ? { paging: { next: { after: next } } } : {}),
      });
    }

    return error(res, 404, "OBJECT_NOT_FOUND", `No route for ${req.method} ${path}.`);
  }, port);
  /** The private app's token is rotated or the app deleted: the saved token is refused from now on (401). */
  const revokeToken = (replacement = `pat-na1-rotated-${Date.now()}`) => {
    token = replacement;
    return replacement;
  };
  return Object.assign(server, ctl, { data, revokeToken });
}
