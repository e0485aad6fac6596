import { Client } from "@hubspot/api-client";
import {
  type CrmAdapter,
  CrmAccessError,
  CrmCredentialsRevoked,
  type CrmCompany,
  type CrmContact,
  type CrmDeal,
  type CrmList,
  type CrmPage,
  CrmQuotaExceeded,
  CrmRateLimited,
  type CrmRecordOf,
  MAX_LISTS,
  retryAfterMs,
  type TCrmObjectType,
} from "./adapter";
import { hubspotBaseUrl } from "./urls";

/**
 * HubSpot through @hubspot/api-client with a private app's access token: CRM v3 objects
 * (GET /crm/v3/objects/{type} with `after` paging and the companies association for a full read,
 * POST /crm/v3/objects/{type}/search on the last-modified property for an incremental one),
 * v4 batch associations for searched objects, and v3 lists with their memberships.
 */

/** The scopes a private app needs, and what each is for. */
export const HUBSPOT_SCOPES = {
  contacts: "crm.objects.contacts.read",
  companies: "crm.objects.companies.read",
  deals: "crm.objects.deals.read",
  lists: "crm.lists.read",
} as const;

const PROPS: Record<TCrmObjectType, string[]> = {
  contacts: [
    "firstname",
    "lastname",
    "email",
    "jobtitle",
    "phone",
    "address",
    "city",
    "state",
    "zip",
    "country",
    "company",
    "hs_email_optout",
    "lastmodifieddate",
  ],
  companies: ["name", "domain", "website", "hs_lastmodifieddate"],
  deals: [
    "dealname",
    "amount",
    "deal_currency_code",
    "pipeline",
    "dealstage",
    "createdate",
    "closedate",
    "hs_is_closed_won",
    "hs_lastmodifieddate",
  ],
};
/** HubSpot names the last-modified property of contacts differently from the others. */
const MODIFIED: Record<TCrmObjectType, string> = {
  contacts: "lastmodifieddate",
  companies: "hs_lastmodifieddate",
  deals: "hs_lastmodifieddate",
};
const PAGE = 100;
/** Search answers at most 10,000 results per query: past that, the query restarts from the last modified time read. */
const SEARCH_WINDOW = 10_000;
const CONTACT_LISTS = "0-1";

type Props = Record<string, string | null | undefined>;
type Assoc = { companies?: { results?: { id: string; type: string }[] } } | undefined;
interface RawObject {
  id: string;
  properties: Props;
  updatedAt?: Date;
  associations?: Assoc;
}

const s = (v: string | null | undefined) => (v == null || v.trim() === "" ? null : v.trim());
const iso = (v: string | null | undefined): string | null => {
  if (!s(v)) return null;
  const n = /^\d+$/.test(v!) ? Number(v) : Date.parse(v!);
  return Number.isNaN(n) ? null : new Date(n).toISOString();
};
const cents = (v: string | null | undefined): number | null => {
  const n = s(v) === null ? NaN : Number(v);
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 100) : null;
};
/**
 * The company HubSpot labels Primary: in a v3 read, the association typed contact_to_company or
 * deal_to_company (the others are *_unlabeled or custom labels); in a v4 read (`primary`), the one
 * whose types include the Primary label. A contact or deal with companies but none Primary (an
 * older record) takes its first, as HubSpot's UI shows it.
 */
const companyOf = (a: Assoc, primary?: string | null) => {
  if (primary !== undefined) return primary;
  const results = a?.companies?.results ?? [];
  return results.find((r) => /^(contact|deal)_to_company$/.test(r.type))?.id ?? results[0]?.id ?? null;
};

function toRecord(type: TCrmObjectType, o: RawObject, companies?: string | null): CrmRecordOf[TCrmObjectType] {
  const p = o.properties;
  if (type === "companies")
    return {
      id: o.id,
      name: s(p.name),
      domain: s(p.domain) ?? s(p.website),
      modifiedAt: iso(p.hs_lastmodifieddate),
    } satisfies CrmCompany;
  if (type === "deals") {
    return {
      id: o.id,
      name: s(p.dealname),
      companyId: companyOf(o.associations, companies),
      amountCents: cents(p.amount),
      createdAt: iso(p.createdate),
      closedAt: iso(p.closedate),
      won: p.hs_is_closed_won === "true",
      pipeline: s(p.pipeline),
      stage: s(p.dealstage),
      currency: s(p.deal_currency_code)?.toUpperCase() ?? null,
      modifiedAt: iso(p.hs_lastmodifieddate),
    } satisfies CrmDeal;
  }
  return {
    id: o.id,
    firstName: s(p.firstname),
    lastName: s(p.lastname),
    email: s(p.email),
    title: s(p.jobtitle),
    phone: s(p.phone),
    addressLine1: s(p.address),
    addressLine2: null,
    city: s(p.city),
    region: s(p.state),
    postalCode: s(p.zip),
    country: s(p.country),
    companyId: companyOf(o.associations, companies),
    companyName: s(p.company),
    optedOut: p.hs_email_optout === "true",
    modifiedAt: iso(p.lastmodifieddate),
  } satisfies CrmContact;
}

interface HubSpotErrorBody {
  message?: string;
  category?: string;
  errors?: { message?: string; context?: Record<string, string[] | undefined> }[];
}

/** A HubSpot API failure as one of the adapter's errors, or as is. */
export function hubspotError(error: unknown): Error {
  const e = error as { code?: number; body?: HubSpotErrorBody; headers?: Record<string, string> };
  if (typeof e?.code !== "number") return error instanceof Error ? error : new Error(String(error));
  const body = e.body ?? {};
  if (e.code === 429) {
    if (/daily/i.test(body.message ?? ""))
      return new CrmQuotaExceeded(
        "HubSpot says this portal has used its daily API allowance; the next sync continues where this one stopped.",
      );
    return new CrmRateLimited(
      `HubSpot asked to slow down (${body.message ?? "429 Too Many Requests"}).`,
      retryAfterMs(e.headers?.["retry-after"]),
    );
  }
  if (e.code === 401) {
    return new CrmCredentialsRevoked(
      body.category === "EXPIRED_AUTHENTICATION"
        ? "HubSpot says this access token has expired. Copy the private app's current token (HubSpot → Settings → Integrations → Private apps) and connect again."
        : "HubSpot did not accept this access token (it was rotated or the private app was deleted). Copy the private app's access token again (HubSpot → Settings → Integrations → Private apps → your app → Auth) and paste it whole.",
    );
  }
  if (e.code === 403) {
    const scopes = [
      ...new Set(
        (body.errors ?? []).flatMap((x) => [
          ...(x.context?.requiredGranularScopes ?? []),
          ...(x.context?.requiredScopes ?? []),
        ]),
      ),
    ];
    if (body.category === "MISSING_SCOPES" || scopes.length) return new MissingScopes(scopes);
    return new CrmAccessError(`HubSpot refused the request: ${body.message ?? "403 Forbidden"}`);
  }
  return new Error(`HubSpot answered ${e.code}: ${body.message ?? "no message"}`);
}

class MissingScopes extends CrmAccessError {
  constructor(readonly scopes: string[]) {
    super(missingScopesSentence(scopes));
  }
}

const missingScopesSentence = (scopes: string[]) =>
  scopes.length
    ? `The private app lacks the ${scopes.join(", ")} scope${scopes.length > 1 ? "s" : ""}. Add ${scopes.length > 1 ? "them" : "it"} in HubSpot (Settings → Integrations → Private apps → your app → Scopes), then paste the token again.`
    : "The private app lacks a scope this service needs. Give it read access to contacts, companies, deals and lists, then paste the token again.";

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw hubspotError(error);
  }
}

export function hubspotAdapter(credentials: { accessToken: string }): CrmAdapter {
  // No client-side limiter or retries: the sync backs off on 429 by HubSpot's Retry-After itself.
  const client = new Client({
    accessToken: credentials.accessToken,
    basePath: hubspotBaseUrl(),
    numberOfApiCallRetries: 0,
  });
  const api = (type: TCrmObjectType) => client.crm[type];
  const search = (type: TCrmObjectType, since: Date, after: string | undefined, limit = PAGE) =>
    call(() =>
      api(type).searchApi.doSearch({
        filterGroups: [
          { filters: [{ propertyName: MODIFIED[type], operator: "GTE" as never, value: String(since.getTime()) }] },
        ],
        // HubSpot documents sorts as objects; the client's type says strings.
        sorts: [{ propertyName: MODIFIED[type], direction: "ASCENDING" }] as unknown as string[],
        properties: PROPS[type],
        limit,
        after,
      }),
    );

  return {
    kind: "hubspot",

    async verify() {
      const res = await call(() => client.apiRequest({ method: "GET", path: "/account-info/v3/details" }));
      const details = (await res.json().catch(() => ({}))) as {
        portalId?: number;
        companyCurrency?: string;
        message?: string;
        category?: string;
      };
      if (!res.ok)
        throw hubspotError({ code: res.status, body: details, headers: Object.fromEntries(res.headers.entries()) });
      // One small read of each kind of object the sync needs: every missing scope is named at once.
      const missing: string[] = [];
      const probes: [keyof typeof HUBSPOT_SCOPES, () => Promise<unknown>][] = [
        ["contacts", () => api("contacts").basicApi.getPage(1)],
        ["companies", () => api("companies").basicApi.getPage(1)],
        ["deals", () => api("deals").basicApi.getPage(1)],
        [
          "lists",
          () =>
            client.crm.lists.listsApi.doSearch({
              count: 1,
              offset: 0,
              processingTypes: ["MANUAL", "DYNAMIC", "SNAPSHOT"],
            }),
        ],
      ];
      for (const [what, probe] of probes) {
        try {
          await call(probe);
        } catch (error) {
          if (error instanceof MissingScopes)
            missing.push(...(error.scopes.length ? error.scopes : [HUBSPOT_SCOPES[what]]));
          else throw error;
        }
      }
      if (missing.length) throw new CrmAccessError(missingScopesSentence([...new Set(missing)]));
      const portal = String(details.portalId ?? "");
      return {
        externalAccountId: portal,
        name: `HubSpot portal ${portal}`,
        listsReadable: true,
        currency: details.companyCurrency?.toUpperCase() ?? null,
      };
    },

    async count(type, since) {
      const res = await call(() =>
        api(type).searchApi.doSearch({
          filterGroups: since
            ? [
                {
                  filters: [{ propertyName: MODIFIED[type], operator: "GTE" as never, value: String(since.getTime()) }],
                },
              ]
            : [],
          properties: ["hs_object_id"],
          limit: 1,
        }),
      );
      return res.total;
    },

    async page<T extends TCrmObjectType>(
      type: T,
      since: Date | null,
      cursor: string | null,
    ): Promise<CrmPage<CrmRecordOf[T]>> {
      if (!since) {
        const res = await call(() =>
          api(type).basicApi.getPage(
            PAGE,
            cursor ?? undefined,
            PROPS[type],
            undefined,
            type === "companies" ? undefined : ["companies"],
            false,
          ),
        );
        return {
          records: res.results.map((o) => toRecord(type, o as RawObject) as CrmRecordOf[T]),
          next: res.paging?.next?.after ?? null,
        };
      }
      // Incremental: "<from ms>:<after>", from being where the current 10,000-result window starts.
      const [fromText, afterText] = (cursor ?? `${since.getTime()}:`).split(":");
      const from = new Date(Number(fromText));
      const res = await search(type, from, afterText || undefined);
      const objects = res.results as RawObject[];
      const companies =
        type === "companies"
          ? new Map<string, string>()
          : await primaryCompanies(
              client,
              type,
              objects.map((o) => o.id),
            );
      const records = objects.map(
        (o) => toRecord(type, o, type === "companies" ? undefined : (companies.get(o.id) ?? null)) as CrmRecordOf[T],
      );
      const after = res.paging?.next?.after;
      let next: string | null = null;
      if (after && Number(after) + PAGE <= SEARCH_WINDOW) next = `${from.getTime()}:${after}`;
      else if (after) {
        // The window is full: start again from the last modified time read (those read again are unchanged).
        const last = records.at(-1)?.modifiedAt;
        next = last && Date.parse(last) > from.getTime() ? `${Date.parse(last)}:` : null;
        if (!next)
          throw new Error(
            `More than ${SEARCH_WINDOW} HubSpot ${type} share one last-modified time; run a full sync instead.`,
          );
      }
      return { records, next };
    },

    async lists(): Promise<CrmList[]> {
      const found: CrmList[] = [];
      for (let offset = 0; found.length < MAX_LISTS; ) {
        const res = await call(() =>
          client.crm.lists.listsApi.doSearch({
            count: 100,
            offset,
            processingTypes: ["MANUAL", "DYNAMIC", "SNAPSHOT"],
          }),
        );
        for (const l of res.lists)
          if (l.objectTypeId === CONTACT_LISTS && found.length < MAX_LISTS) found.push({ id: l.listId, name: l.name });
        if (!res.hasMore || res.lists.length === 0) break;
        offset = res.offset;
      }
      return found;
    },

    async listMembers(listId, cursor) {
      const res = await call(() =>
        client.crm.lists.membershipsApi.getPage(listId, cursor ?? undefined, undefined, 250),
      );
      return { records: res.results.map((r) => r.recordId), next: res.paging?.next?.after ?? null };
    },

    // Archived objects (GET /crm/v3/objects/{type}?archived=true, newest archive first is not
    // promised, so every page is read); HubSpot keeps them 90 days, the daily full sync catches the rest.
    async deleted(type, since, cursor) {
      const res = await call(() =>
        api(type).basicApi.getPage(PAGE, cursor ?? undefined, ["hs_object_id"], undefined, undefined, true),
      );
      const records = res.results
        .map((o) => ({
          id: o.id,
          deletedAt: (o as { archivedAt?: Date }).archivedAt
            ? new Date((o as { archivedAt: Date }).archivedAt).toISOString()
            : null,
        }))
        .filter((o) => !o.deletedAt || Date.parse(o.deletedAt) >= since.getTime());
      return { records, next: res.paging?.next?.after ?? null };
    },

    async pipelines() {
      const res = await call(() => client.crm.pipelines.pipelinesApi.getAll("deals"));
      return res.results
        .filter((p) => !p.archived)
        .sort((a, b) => a.displayOrder - b.displayOrder)
        .map((p) => ({
          id: p.id,
          label: p.label,
          stages: p.stages
            .filter((st) => !st.archived)
            .sort((a, b) => a.displayOrder - b.displayOrder)
            .map((st) => ({ id: st.id, label: st.label })),
        }));
    },
  };
}

/** HubSpot's Primary association types to companies (v4 typeId, HUBSPOT_DEFINED): contact → company 1, deal → company 5. */
const PRIMARY_TYPE_ID: Partial<Record<TCrmObjectType, number>> = { contacts: 1, deals: 5 };

/**
 * The Primary company of searched contacts or deals (search results carry no associations), from
 * the v4 batch read: the associated company whose types include the Primary label, else the first.
 */
async function primaryCompanies(client: Client, type: TCrmObjectType, ids: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!ids.length) return out;
  const res = await call(() =>
    client.crm.associations.v4.batchApi.getPage(type, "companies", { inputs: ids.map((id) => ({ id })) }),
  );
  const primaryId = PRIMARY_TYPE_ID[type];
  for (const r of res.results) {
    const primary =
      r.to.find((t) =>
        t.associationTypes.some(
          (a) => a.label === "Primary" || (a.category === "HUBSPOT_DEFINED" && a.typeId === primaryId),
        ),
      ) ?? r.to[0];
    if (primary) out.set(String(r._from.id), String(primary.toObjectId));
  }
  return out;
}
