/**
 * npm run bench:audit: the mailability audit of a 100,000-contact audience on PostgreSQL, without
 * the paid verifier (every verdict with its address block measured and its normalised form,
 * duplicates within the audience, suppressions, the stored run with one result row per contact,
 * and the report's figures), run twice, each as the audit_run job a worker runs. In the same run,
 * the references that show the limit: the bare verdict function over the same rows already in
 * memory, a plain SQL read of the same rows through the driver, and PostgreSQL's COPY of them.
 *
 * The synthetic audience is varied: addresses in the US, GB, DE, FR, JP, BR and CA as their posts
 * write them, five people per company, with damaged ZIP codes, missing cities, PO boxes, lines too
 * long for a 4 × 6 in postcard, countries and regions written out in full, suppressions and
 * duplicate people.
 */
import os from "node:os";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { to as copyTo } from "pg-copy-streams";
import { contactKeys } from "@/server/records/contacts/keys";
import { claimJob, runJob } from "@/server/records/jobs/runner";
import { jobDeps } from "@/server/records/jobs/worker";
import { jobHandlers } from "@/server/runtime/job-handlers";
import { AUDIT_CONTACT_FIELDS, asAuditContact, type TAuditContactRow } from "@/server/programme/mailability/facts";
import { getAudit, startAudit } from "@/server/programme/mailability/service";
import { AUDIENCE_FACTS, verdictOf } from "@/server/programme/mailability/verdict";
import { withBenchAudience } from "./fixture";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);

const PLACES = [
  {
    country: "US",
    city: "Boston",
    region: "MA",
    postal: (g: number) => String(2100 + (g % 99)).padStart(5, "0"),
    street: (g: number) => `${100 + (g % 900)} Boylston St`,
  },
  {
    country: "US",
    city: "Chicago",
    region: "IL",
    postal: (g: number) => `606${String(g % 100).padStart(2, "0")}`,
    street: (g: number) => `${200 + (g % 800)} W Madison St`,
  },
  {
    country: "US",
    city: "San Francisco",
    region: "California",
    postal: () => "94107",
    street: (g: number) => `${10 + (g % 500)} Berry St`,
  },
  {
    country: "GB",
    city: "London",
    region: null,
    postal: () => "EC2A 4BX",
    street: (g: number) => `${1 + (g % 200)} Shoreditch High St`,
  },
  {
    country: "DE",
    city: "Berlin",
    region: null,
    postal: () => "10117",
    street: (g: number) => `Friedrichstraße ${1 + (g % 200)}`,
  },
  {
    country: "FR",
    city: "Paris",
    region: null,
    postal: () => "75009",
    street: (g: number) => `${1 + (g % 90)} Rue de Londres`,
  },
  {
    country: "JP",
    city: "Minato-ku, Tokyo",
    region: null,
    postal: () => "106-6108",
    street: (g: number) => `6-10-${1 + (g % 9)} Roppongi`,
  },
  {
    country: "BR",
    city: "São Paulo",
    region: "SP",
    postal: () => "04538-133",
    street: (g: number) => `Av. Brigadeiro Faria Lima, ${1000 + (g % 3000)}`,
  },
  {
    country: "CA",
    city: "Toronto",
    region: "ON",
    postal: () => "M5H 2G4",
    street: (g: number) => `${100 + (g % 200)} Richmond St W`,
  },
];

/** One synthetic contact; `g` its number, five to a company (one office address per company). */
function contact(g: number) {
  const company = Math.floor(g / 5);
  const place = PLACES[company % PLACES.length];
  const c = {
    firstName: `First${g}`,
    lastName: `Last${g % 977}`,
    email: `p${g}@company-${company}.example`,
    addressLine1: place.street(company) as string | null,
    addressLine2: `Floor ${(company % 30) + 1}` as string | null,
    city: place.city as string | null,
    region: place.region as string | null,
    postalCode: place.postal(company) as string | null,
    country: place.country as string | null,
  };
  if (g % 50 === 7 && place.country === "US") c.postalCode = String(Number(c.postalCode)); // a ZIP that lost its leading zero
  if (g % 40 === 3) c.city = null;
  if (g % 60 === 11) c.addressLine1 = `PO Box ${1000 + g}`;
  if (g % 200 === 17) c.addressLine2 = "Attn: Accounts Payable Department, Building 7 East Wing, Mail Stop 4400-B";
  if (g % 7 === 3 && place.country === "DE") c.country = "Deutschland";
  if (g % 7 === 4 && place.country === "CA") c.region = "Ontario";
  if (g % 250 === 6) {
    // The same person twice: the name of the colleague before, at the same office.
    c.firstName = `First${g - 1}`;
    c.lastName = `Last${(g - 1) % 977}`;
  }
  return { ...c, company, ...contactKeys(c) };
}

async function seconds<T>(fn: () => Promise<T>): Promise<{ value: T; s: number }> {
  const t = process.hrtime.bigint();
  const value = await fn();
  return { value, s: Number(process.hrtime.bigint() - t) / 1e9 };
}
const rate = (s: number) => `${Math.round(ROWS / s).toLocaleString("en-US")} contacts/s`;
const line = (label: string, s: number, note = "") =>
  console.log(`${label.padEnd(34)}${s.toFixed(2).padStart(6)} s  ${rate(s).padStart(20)}  ${note}`);

async function main() {
  await withBenchAudience("Everyone", Math.ceil(ROWS / 5), async ({ prisma, raw, workspaceId, audienceId }) => {
    const ws = { id: workspaceId };
    const audience = { id: audienceId };
    for (let start = 0; start < ROWS; start += 10_000) {
      const rows = Array.from({ length: Math.min(10_000, ROWS - start) }, (_, i) => contact(start + i));
      await raw.query(
        `INSERT INTO "Contact" ("workspaceId", "accountId", "firstName", "lastName", email, "addressLine1", "addressLine2", city, region, "postalCode", country, "addressKey", "matchKey", "updatedAt")
         SELECT $1, a.id, r."firstName", r."lastName", r.email, r."addressLine1", r."addressLine2", r.city, r.region, r."postalCode", r.country, r."addressKey", r."matchKey", now()
           FROM jsonb_to_recordset($2::jsonb) AS r("firstName" text, "lastName" text, email text, "addressLine1" text, "addressLine2" text, city text, region text, "postalCode" text, country text, "addressKey" text, "matchKey" text, company int)
           JOIN "Account" a ON a."workspaceId" = $1 AND a.domain = 'company-' || r.company || '.example'`,
        [ws.id, JSON.stringify(rows)],
      );
    }
    await raw.query(
      `INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId") SELECT $1, id, $2 FROM "Contact" WHERE "workspaceId" = $2`,
      [audience.id, ws.id],
    );
    await raw.query(
      `INSERT INTO "Suppression" ("workspaceId", kind, value, reason) SELECT $1, 'email', 'p' || g || '@company-' || (g / 5) || '.example', 'opt-out' FROM generate_series(0, $2::int - 1, 97) g`,
      [ws.id, ROWS],
    );
    await raw.query(
      `INSERT INTO "FulfilmentContract" ("workspaceId", name, format, "unitCostCents", countries, status, "approvedAt") VALUES ($1, 'Postcards US/CA', 'postcard', 95, '{US,CA}', 'approved', now()), ($1, 'Postcards Europe', 'postcard', 140, '{GB,DE,FR}', 'approved', now())`,
      [ws.id],
    );
    await raw.query(`ANALYZE`);
    console.log(
      `bench:audit: ${ROWS.toLocaleString("en-US")} contacts in one audience (7 countries), on PostgreSQL, ${os.cpus().length} cores shared with whatever else runs\n`,
    );

    const actor = { kind: "system" as const, id: null, label: "bench" };
    const audit = async () => {
      const started = await startAudit(prisma, { workspaceId: ws.id, audienceId: audience.id, actor });
      const job = await claimJob(prisma, {
        jobId: (await prisma.mailabilityAudit.findUniqueOrThrow({ where: { id: started.auditId } })).jobId!,
        workspaceId: ws.id,
        now: new Date(),
      });
      if (job) await runJob(prisma, job, jobDeps(jobHandlers));
      return getAudit(prisma, { workspaceId: ws.id, auditId: started.auditId });
    };
    const first = await seconds(audit);
    const second = await seconds(audit);
    const a = first.value;

    // References: the same rows read with a plain SQL statement, COPY'd out, and judged in memory.
    const select = `SELECT c.id, c."firstName", c."lastName", c.title, c.email, c."accountId", c."addressLine1", c."addressLine2", c.city, c.region, c."postalCode", c.country, c."addressStatus", c."undeliverableReason", a.name AS company, a.domain
                      FROM "AudienceMember" m JOIN "Contact" c ON c.id = m."contactId" LEFT JOIN "Account" a ON a.id = c."accountId" WHERE m."audienceId" = '${audience.id}'`;
    const sql = await seconds(() => raw.query(select));
    const copy = await seconds(async () => {
      let bytes = 0;
      await pipeline(
        raw.query(copyTo(`COPY (${select}) TO STDOUT`)),
        new Writable({ write: (chunk: Buffer, _e, cb) => ((bytes += chunk.length), cb()) }),
      );
      return bytes;
    });
    const loaded = await prisma.contact.findMany({
      where: { workspaceId: ws.id, audienceMembers: { some: { audienceId: audience.id } } },
      select: AUDIT_CONTACT_FIELDS,
    });
    const contacts = (loaded as TAuditContactRow[]).map(asAuditContact);
    const shared = { ...AUDIENCE_FACTS, coveredCountries: new Set(["US", "CA", "GB", "DE", "FR"]) };
    const verdicts = await seconds(async () => {
      let mailable = 0;
      for (const c of contacts) if (verdictOf(c, shared, { suppressed: false }).status === "mailable") mailable++;
      return mailable;
    });

    line(
      "audit (job, stored, figures)",
      first.s,
      `${a.mailable.toLocaleString("en-US")} mailable, ${a.fixable.toLocaleString("en-US")} fixable, ${a.unmailable.toLocaleString("en-US")} unmailable; ${a.accountsWithMailableContact.toLocaleString("en-US")} of ${a.accounts.toLocaleString("en-US")} accounts reachable`,
    );
    line("audit again", second.s);
    line(
      "reference: verdicts in memory",
      verdicts.s,
      "(verdictOf over the same rows, already loaded: the verdict's own cost)",
    );
    line("reference: plain SQL read", sql.s, "(the same rows through the driver, nothing else)");
    line("reference: COPY out", copy.s, `(PostgreSQL's COPY of the same rows, ${(copy.value / 1e6).toFixed(1)} MB)`);
    console.log(
      `\nReasons: ${Object.entries(a.reasons)
        .map(([r, n]) => `${r} ${n}`)
        .join(", ")}`,
    );
    console.log(`Per country: ${a.byCountry.map((c) => `${c.country ?? "none"} ${c.contacts}`).join(", ")}`);
    console.log(
      `\nAim: at most 10 s for 100,000 contacts. The audit took ${first.s.toFixed(1)} s (${(first.s / sql.s).toFixed(1)}x a plain read, ${(first.s / verdicts.s).toFixed(1)}x the bare verdicts). Figures move by a third with other work on the machine.`,
    );
  });
}

await main();
