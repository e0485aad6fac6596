/**
 * One shape for every CRM: the sync reads companies, contacts, deals and lists through it, a page
 * at a time, and never writes to the CRM. One adapter per vendor (hubspot.ts, salesforce.ts), each
 * on the vendor's official client; tests point those clients at local fakes (src/test/crm-fakes).
 */

export const CRM_OBJECT_TYPES = ["companies", "contacts", "deals"] as const;
export type TCrmObjectType = (typeof CRM_OBJECT_TYPES)[number];

export interface CrmCompany {
  id: string;
  name: string | null;
  /** The website or domain as the CRM holds it (normalised by the sync). */
  domain: string | null;
  modifiedAt: string | null;
}

export interface CrmContact {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  title: string | null;
  phone: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  /** The company (account) the CRM associates the contact with. */
  companyId: string | null;
  /** The company as free text on the contact (HubSpot's "company" property). */
  companyName: string | null;
  /** Opted out of email in the CRM (HubSpot hs_email_optout, Salesforce HasOptedOutOfEmail). */
  optedOut: boolean;
  modifiedAt: string | null;
}

export interface CrmDeal {
  id: string;
  name: string | null;
  companyId: string | null;
  /** The amount in cents, or null when the CRM has none. */
  amountCents: number | null;
  createdAt: string | null;
  closedAt: string | null;
  won: boolean;
  /** The pipeline (HubSpot pipeline id; Salesforce's one, "opportunities") and stage (HubSpot stage id, Salesforce StageName). */
  pipeline: string | null;
  stage: string | null;
  /** ISO 4217 code of the amount (the deal's own, else the CRM account's), or null when the CRM does not say. */
  currency: string | null;
  modifiedAt: string | null;
}

export interface CrmRecordOf {
  companies: CrmCompany;
  contacts: CrmContact;
  deals: CrmDeal;
}

export interface CrmPage<T> {
  records: T[];
  /** Where the next page starts (the vendor's cursor), or null after the last page. */
  next: string | null;
}

export interface CrmList {
  id: string;
  name: string;
}

/** Who the credentials belong to, as the CRM says. */
export interface CrmIdentity {
  externalAccountId: string;
  name: string;
  /** Whether the credentials can read the CRM's lists (else the connection syncs without them). */
  listsReadable: boolean;
  /** The CRM account's currency (ISO 4217), or null when it does not say. */
  currency: string | null;
  /** Leads were asked for and cannot be read: why, as a sentence (the connection syncs without them). */
  leadsUnreadable?: string | null;
}

/** A deal pipeline and its stages, as the CRM names them (Salesforce: one, its opportunity stages). */
export interface CrmPipeline {
  id: string;
  label: string;
  stages: { id: string; label: string }[];
}

/** A record deleted (HubSpot: archived) in the CRM. */
export interface CrmDeleted {
  id: string;
  deletedAt: string | null;
}

/** A Salesforce Lead that was converted: its person is now the Contact `contactId`. */
export interface CrmConvertedLead {
  id: string;
  contactId: string | null;
  modifiedAt: string | null;
}

/**
 * Salesforce Leads (only an adapter built with leads on has it): unconverted leads read as contacts
 * (their Company as companyName, no companyId), the converted ones and those deleted since a time.
 */
export interface CrmLeadReader {
  count(since: Date | null): Promise<number | null>;
  page(since: Date | null, cursor: string | null): Promise<CrmPage<CrmContact>>;
  converted(since: Date, cursor: string | null): Promise<CrmPage<CrmConvertedLead>>;
  deleted(since: Date, cursor: string | null): Promise<CrmPage<CrmDeleted>>;
}

export interface CrmAdapter {
  readonly kind: "hubspot" | "salesforce";
  /** Checks the credentials and every permission the sync needs; throws CrmAccessError naming what is missing. */
  verify(): Promise<CrmIdentity>;
  /** How many objects of the type changed since `since` (all when null), when the CRM says cheaply. */
  count(type: TCrmObjectType, since: Date | null): Promise<number | null>;
  /** One page of the type's objects changed since `since` (all when null), from `cursor`. */
  page<T extends TCrmObjectType>(type: T, since: Date | null, cursor: string | null): Promise<CrmPage<CrmRecordOf[T]>>;
  /** The contact lists that become audiences (at most MAX_LISTS). */
  lists(): Promise<CrmList[]>;
  /** One page of a list's members, as contact ids. */
  listMembers(listId: string, cursor: string | null): Promise<CrmPage<string>>;
  /** One page of the type's records deleted (archived) since `since`, from `cursor`. */
  deleted(type: TCrmObjectType, since: Date, cursor: string | null): Promise<CrmPage<CrmDeleted>>;
  /** The deal pipelines and their stages. */
  pipelines(): Promise<CrmPipeline[]>;
  /** Salesforce Leads, when the connection syncs them (list members then include leads too). */
  readonly leads?: CrmLeadReader;
}

/** The credentials or permissions are not enough: the message says what is wrong and how to fix it. */
export class CrmAccessError extends Error {
  override name = "CrmAccessError";
}

/** The CRM refused the saved credentials themselves (revoked, expired, deleted app): only connecting again helps. */
export class CrmCredentialsRevoked extends CrmAccessError {
  override name = "CrmCredentialsRevoked";
}

/** The CRM asked us to slow down; `retryAfterMs` from its Retry-After header when it gave one. */
export class CrmRateLimited extends Error {
  override name = "CrmRateLimited";
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/** The CRM's daily allowance of API calls is used up: the sync stops and the next one continues. */
export class CrmQuotaExceeded extends Error {
  override name = "CrmQuotaExceeded";
}

/** Lists synced per connection (the most recently changed first). */
export const MAX_LISTS = 100;
/** Members read per list; a larger list is reported as an error and left as it was. */
export const MAX_LIST_MEMBERS = 200_000;

/** Retry-After as milliseconds (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The CRM no longer knows the saved cursor (a Salesforce query locator expires): read the type again from its watermark. */
export class CrmCursorExpired extends Error {
  override name = "CrmCursorExpired";
}
