/**
 * The records behind the local CRM fakes (HubSpot and Salesforce), in one neutral shape that each
 * fake renders as its vendor does. Deterministic for a given size, so tests and the benchmark can
 * say exactly what a sync must find.
 */

export interface FakeCompany {
  id: string;
  name: string;
  domain: string | null;
  createdAt: number;
  modifiedAt: number;
  deletedAt?: number;
}

export interface FakeContact {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  title: string | null;
  phone: string | null;
  street: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  /** The Primary company. */
  companyId: string | null;
  /** Other associated companies (unlabeled), which the vendor lists before the Primary one. */
  otherCompanyIds?: string[];
  companyName: string | null;
  optedOut: boolean;
  createdAt: number;
  modifiedAt: number;
  /** Deleted (HubSpot: archived; Salesforce: in the recycle bin) at this time. */
  deletedAt?: number;
}

export interface FakeDeal {
  id: string;
  name: string;
  /** The Primary company. */
  companyId: string | null;
  otherCompanyIds?: string[];
  amount: number | null;
  /** The deal's currency when it is not the account's (HubSpot deal_currency_code, Salesforce CurrencyIsoCode). */
  currency?: string;
  /** HubSpot pipeline id ("default" unless set) and stage id (Salesforce: StageName). */
  pipeline?: string;
  stage?: string;
  createdAt: number;
  closedAt: number | null;
  won: boolean;
  modifiedAt: number;
  deletedAt?: number;
}

/** A Salesforce Lead (HubSpot has none here): a person with a company name, not yet a Contact. */
export interface FakeLead {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  title: string | null;
  phone: string | null;
  /** Salesforce requires it: the lead's company, as free text. */
  company: string;
  street: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  optedOut: boolean;
  createdAt: number;
  modifiedAt: number;
  deletedAt?: number;
  /** Converted (Salesforce's Convert): the Contact it became; IsConverted, ConvertedDate follow. */
  convertedContactId?: string;
  convertedAt?: number;
}

export interface FakeList {
  id: string;
  name: string;
  members: string[];
  createdAt: number;
  modifiedAt: number;
}

export interface FakeCrm {
  companies: FakeCompany[];
  contacts: FakeContact[];
  deals: FakeDeal[];
  lists: FakeList[];
  /** Salesforce Leads (members of lists too, by their 00Q ids). */
  leads?: FakeLead[];
}

const DAY = 86_400_000;
const FIRST = ["Ada", "Ben", "Chloe", "Diego", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas"];
const LAST = [
  "Okafor",
  "Hartley",
  "Nakamura",
  "Alvarez",
  "Petrova",
  "Haddad",
  "Lindqvist",
  "Tanaka",
  "Moreau",
  "Schmidt",
];
const CITIES: [string, string, string][] = [
  ["Boston", "MA", "02116"],
  ["Austin", "TX", "78701"],
  ["Denver", "CO", "80202"],
  ["Seattle", "WA", "98101"],
  ["Chicago", "IL", "60601"],
];

export type IdStyle = "hubspot" | "salesforce";

/** An id as the vendor writes it: HubSpot numbers, Salesforce 18-character ids with a prefix per object. */
export function fakeId(style: IdStyle, prefix: "001" | "003" | "006" | "701" | "00Q", n: number): string {
  if (style === "hubspot")
    return String(
      (prefix === "001" ? 9_000_000 : prefix === "003" ? 1_000_000 : prefix === "006" ? 5_000_000 : 100) + n,
    );
  return `${prefix}Fa${String(n).padStart(10, "0")}AAA`;
}

/**
 * `contacts` contacts spread over `companies` companies (every tenth contact has no address and
 * every fiftieth opted out of email), `deals` deals (a third won), and two lists.
 */
export function generateCrm(
  style: IdStyle,
  size: { contacts: number; companies?: number; deals?: number; now?: number },
): FakeCrm {
  const now = size.now ?? Date.now();
  const nCompanies = size.companies ?? Math.max(1, Math.ceil(size.contacts / 5));
  const base = now - 400 * DAY;
  const companies: FakeCompany[] = Array.from({ length: nCompanies }, (_, i) => ({
    id: fakeId(style, "001", i + 1),
    name: `Company ${i + 1} Inc`,
    domain: `company${i + 1}.example`,
    createdAt: base + i,
    // A minute apart: a sync's re-read overlap (two minutes) takes in only the newest few.
    modifiedAt: base + DAY + i * 60_000,
  }));
  const contacts: FakeContact[] = Array.from({ length: size.contacts }, (_, i) => {
    const company = companies[i % nCompanies];
    const [city, region, postalCode] = CITIES[i % CITIES.length];
    const noAddress = i % 10 === 9;
    return {
      id: fakeId(style, "003", i + 1),
      firstName: FIRST[i % FIRST.length],
      lastName: `${LAST[Math.floor(i / FIRST.length) % LAST.length]}${i}`,
      email: `person${i + 1}@${company.domain}`,
      title: "Head of Operations",
      phone: null,
      street: noAddress ? null : `${100 + (i % 900)} Main St`,
      city: noAddress ? null : city,
      region: noAddress ? null : region,
      postalCode: noAddress ? null : postalCode,
      country: noAddress ? null : "United States",
      companyId: company.id,
      // Every seventh person also works with the next company: associated, but not their Primary.
      ...(i % 7 === 3 && nCompanies > 1 ? { otherCompanyIds: [companies[(i + 1) % nCompanies].id] } : {}),
      companyName: company.name,
      optedOut: i % 50 === 49,
      createdAt: base + i,
      // Spread over a year, oldest first, so incremental reads find only what a test touches.
      modifiedAt: base + 30 * DAY + i * 60_000,
    };
  });
  const nDeals = size.deals ?? Math.ceil(nCompanies / 2);
  const deals: FakeDeal[] = Array.from({ length: nDeals }, (_, i) => {
    const won = i % 3 === 0;
    const created = base + 100 * DAY + i * 60_000;
    return {
      id: fakeId(style, "006", i + 1),
      name: `Deal ${i + 1}`,
      companyId: companies[(i * 7) % nCompanies].id,
      amount: 1000 + (i % 20) * 250,
      createdAt: created,
      closedAt: won ? created + 20 * DAY : null,
      won,
      modifiedAt: created + (won ? 20 * DAY : DAY),
    };
  });
  const lists: FakeList[] = [
    {
      id: style === "hubspot" ? "101" : fakeId(style, "701", 1),
      name: "Q4 target accounts",
      members: contacts.filter((_, i) => i % 4 === 0).map((c) => c.id),
      createdAt: base,
      modifiedAt: base + DAY,
    },
    {
      id: style === "hubspot" ? "102" : fakeId(style, "701", 2),
      name: "Event attendees",
      members: contacts.slice(0, Math.min(25, contacts.length)).map((c) => c.id),
      createdAt: base,
      modifiedAt: base + DAY,
    },
  ];
  return { companies, contacts, deals, lists };
}

/**
 * `n` Salesforce Leads: a third of them at the fake's companies' names (one of them in another
 * case and punctuation), the rest at companies of their own; every tenth without an address,
 * every twenty-fifth opted out of email. Modified after every contact, a minute apart.
 */
export function generateLeads(crm: FakeCrm, n: number, now = Date.now()): FakeLead[] {
  const base = now - 200 * DAY;
  return Array.from({ length: n }, (_, i) => {
    const [city, region, postalCode] = CITIES[(i + 2) % CITIES.length];
    const noAddress = i % 10 === 9;
    const known = i % 3 === 0 && crm.companies.length ? crm.companies[i % crm.companies.length].name : null;
    return {
      id: fakeId("salesforce", "00Q", i + 1),
      firstName: FIRST[(i + 3) % FIRST.length],
      lastName: `Lead${i}`,
      email: `lead${i + 1}@prospect${i + 1}.example`,
      title: "Operations Manager",
      phone: null,
      company: known ? (i === 0 ? `${known.toUpperCase()}.` : known) : `Prospect ${i + 1} LLC`,
      street: noAddress ? null : `${200 + i} Market St\nSuite ${i + 1}`,
      city: noAddress ? null : city,
      region: noAddress ? null : region,
      postalCode: noAddress ? null : postalCode,
      country: noAddress ? null : "United States",
      optedOut: i % 25 === 24,
      createdAt: base + i,
      modifiedAt: base + i * 60_000,
    };
  });
}

/** What a fake counts and how tests make it misbehave. */
/** The deal's stage as the fake reports it. */
export const stageOf = (d: FakeDeal, style: IdStyle) =>
  d.stage ??
  (style === "hubspot" ? (d.won ? "closedwon" : "appointmentscheduled") : d.won ? "Closed Won" : "Prospecting");

export interface FakeControls {
  /** Every request, in order: method and path (with query). */
  requests: { method: string; url: string; at: number; status?: number }[];
  /** After `afterRequests` more API requests (the token endpoint aside), the next `count` answer 429 with Retry-After: seconds. */
  rateLimitNext(count: number, retryAfterSeconds: number, afterRequests?: number): void;
  /** After `after` more API requests, the next one fails like a dropped connection (the socket is destroyed). */
  dropAfter(after: number): void;
}

export function controls() {
  const state = { pending429: 0, retryAfter: 1, dropIn: -1, rateIn: 0 };
  const requests: FakeControls["requests"] = [];
  return {
    state,
    requests,
    /** After `afterRequests` more API requests, the next `count` answer 429 with Retry-After. */
    rateLimitNext(count: number, retryAfterSeconds: number, afterRequests = 0) {
      state.pending429 = count;
      state.retryAfter = retryAfterSeconds;
      state.rateIn = afterRequests;
    },
    /** Whether this request is one to answer 429. */
    limited(): boolean {
      if (state.pending429 <= 0) return false;
      if (state.rateIn > 0) {
        state.rateIn--;
        return false;
      }
      state.pending429--;
      return true;
    },
    dropAfter(after: number) {
      state.dropIn = after;
    },
  };
}
