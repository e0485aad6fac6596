/**
 * npm run bench:contacts: the Contacts page's reads on a workspace of 50,000 contacts on PostgreSQL
 * (the first page, search by name, email or company, the country, audience and suppressed filters, a
 * page from a cursor deep in the list, and the count the page shows), each the service's own query
 * (listContacts, countContacts) timed 30 times after a warm-up. In the same run, the reference: the
 * bare index read of one page (ids only, no account, no suppression check), the least a page costs.
 */
import { countContacts, listContacts } from "@/server/records/contacts/service";
import { encodeCursor, type TContactFilter } from "@/server/records/contacts/filter";
import { withBenchAudience } from "./fixture";

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const RUNS = 30;
const TAKE = 50;
const FIRST = [
  "Ada",
  "Ben",
  "Chloe",
  "Diego",
  "Elena",
  "Farid",
  "Grace",
  "Hiro",
  "Isla",
  "Jonas",
  "Keisha",
  "Liam",
  "Maya",
  "Noah",
  "Olivia",
  "Priya",
  "Quentin",
  "Rosa",
  "Samuel",
  "Tara",
];
const LAST = [
  "Okafor",
  "Hartley",
  "Nakamura",
  "Alvarez",
  "Petrova",
  "Haddad",
  "Lindqvist",
  "Tanaka",
  "McKenzie",
  "Becker",
  "Robinson",
  "OConnell",
  "Srinivasan",
  "Feldman",
  "Dubois",
  "Raman",
  "Moreau",
  "Jimenez",
  "Adeyemi",
  "Whitfield",
];
const COUNTRIES = ["US", "US", "US", "GB", "DE", "FR", "CA"];

async function timed(run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 3; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(RUNS / 2)], p95: ms[Math.ceil(RUNS * 0.95) - 1] };
}

async function main() {
  await withBenchAudience("Trade show", Math.ceil(ROWS / 5), async ({ prisma, raw, workspaceId, audienceId }) => {
    const ws = { id: workspaceId };
    const audience = { id: audienceId };
    const people = Array.from({ length: ROWS }, (_, i) => ({
      firstName: FIRST[i % 20],
      lastName: `${LAST[Math.floor(i / 20) % 20]}`,
      email:
        `${FIRST[i % 20]}.${LAST[Math.floor(i / 20) % 20]}.${i}@company-${Math.floor(i / 5)}.example`.toLowerCase(),
      company: Math.floor(i / 5),
      country: COUNTRIES[Math.floor(i / 5) % COUNTRIES.length],
    }));
    for (let start = 0; start < ROWS; start += 10_000) {
      await raw.query(
        `INSERT INTO "Contact" ("workspaceId", "accountId", "firstName", "lastName", email, "addressLine1", city, "postalCode", country, "updatedAt", "createdAt")
         SELECT $1, a.id, r."firstName", r."lastName", r.email, '100 Market Street', 'Springfield', '62701', r.country, now(), now() - (r.n || ' seconds')::interval
           FROM jsonb_to_recordset($2::jsonb) AS r("firstName" text, "lastName" text, email text, company int, country text, n int)
           JOIN "Account" a ON a."workspaceId" = $1 AND a.domain = 'company-' || r.company || '.example'`,
        [ws.id, JSON.stringify(people.slice(start, start + 10_000).map((p, i) => ({ ...p, n: ROWS - start - i })))],
      );
    }
    await raw.query(
      `INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId") SELECT $1, id, $2 FROM "Contact" WHERE "workspaceId" = $2 AND ("createdAt" > now() - interval '1 day') AND random() < 0.3`,
      [audience.id, ws.id],
    );
    await raw.query(
      `INSERT INTO "Suppression" ("workspaceId", kind, value, reason) SELECT $1, 'email', email, 'opt-out' FROM "Contact" WHERE "workspaceId" = $1 AND random() < 0.01`,
      [ws.id],
    );
    await raw.query(`ANALYZE`);

    const deep = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: ws.id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: Math.floor(ROWS * 0.8),
      select: { id: true, createdAt: true },
    });
    const cursor = encodeCursor(deep.createdAt, deep.id);
    const list =
      (f: TContactFilter, c: string | null = null) =>
      () =>
        listContacts(prisma, { workspaceId: ws.id, take: TAKE, cursor: c, ...f });
    const cases: [string, () => Promise<unknown>][] = [
      ["first page", list({})],
      ["search a last name (okafor)", list({ search: "okafor" })],
      ["search first and last name (ada tanaka)", list({ search: "ada tanaka" })],
      ["search an email's start (grace.haddad.4)", list({ search: "grace.haddad.4" })],
      ["search a company (company 4711)", list({ search: "company 4711" })],
      ["country GB", list({ country: "GB" })],
      ["audience (30 % of the contacts)", list({ audienceId: audience.id })],
      ["suppressed only (1 %)", list({ suppressed: true })],
      ["a page from a cursor 80 % down", list({}, cursor)],
      ["count with a search (okafor)", () => countContacts(prisma, { workspaceId: ws.id, search: "okafor" })],
      ["count of all", () => countContacts(prisma, { workspaceId: ws.id })],
    ];
    const reference = await timed(() =>
      raw.query(
        `SELECT id FROM "Contact" WHERE "workspaceId" = $1 ORDER BY "createdAt" DESC, id DESC LIMIT ${TAKE + 1}`,
        [ws.id],
      ),
    );

    console.log(
      `\nContacts page reads on PostgreSQL, ${ROWS.toLocaleString("en-US")} contacts in one workspace, ${TAKE} a page (median and p95 of ${RUNS} runs)\n`,
    );
    console.log("| read | p50 ms | p95 ms |");
    console.log("|---|---|---|");
    for (const [label, run] of cases) {
      const t = await timed(run);
      console.log(`| ${label} | ${t.p50.toFixed(1)} | ${t.p95.toFixed(1)} |`);
    }
    console.log(
      `| reference: one page of ids by the index, bare SQL | ${reference.p50.toFixed(1)} | ${reference.p95.toFixed(1)} |`,
    );
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
