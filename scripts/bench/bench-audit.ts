/**
 * npm run bench:audit: the mailability audit of a 100,000-contact audience on PostgreSQL (every
 * verdict, duplicates within the audience, suppressions, the stored run and its problem rows), and
 * in the same run the reference: reading the same contacts with the same query and nothing else,
 * the floor of what any audit of these rows costs on this machine.
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import pg from "pg";
import { getAudit, startAudit } from "@/server/mailability/service";
import { openDatabase } from "@/server/platform/database";
import { applyMigrations } from "@/server/platform/migrate";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SERVER = process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function seconds<T>(fn: () => Promise<T>): Promise<{ value: T; s: number }> {
  const t = process.hrtime.bigint();
  const value = await fn();
  return { value, s: Number(process.hrtime.bigint() - t) / 1e9 };
}

async function main() {
  const name = `dm_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const database = openDatabase({ kind: "postgres", url: url.toString() });
  try {
    await applyMigrations(database.migrationAdapter());
    const prisma = database.prisma;
    const ws = await prisma.workspace.create({ data: { name: "Bench", slug: `bench-${randomBytes(4).toString("hex")}` } });
    const audience = await prisma.audience.create({ data: { workspaceId: ws.id, name: "Everyone" } });
    // Five people per company; one in 50 with a ZIP code missing its leading zero, one in 40 without a city, one in 100 outside the US.
    await prisma.$executeRawUnsafe(`
      INSERT INTO "Account" ("workspaceId", name, domain, "updatedAt")
      SELECT '${ws.id}', 'Company ' || g, 'company-' || g || '.example', now() FROM generate_series(0, ${Math.ceil(ROWS / 5) - 1}) g`);
    await prisma.$executeRawUnsafe(`
      INSERT INTO "Contact" ("workspaceId", "accountId", "firstName", "lastName", email, "addressLine1", "addressLine2", city, region, "postalCode", country, "addressKey", "updatedAt")
      SELECT '${ws.id}', a.id, 'First' || g, 'Last' || g, 'p' || g || '@company-' || (g / 5) || '.example',
             (100 + (g / 5) % 900) || ' Market Street', 'Floor ' || (g % 9 + 2),
             CASE WHEN g % 40 = 3 THEN NULL ELSE 'Springfield' END, 'IL',
             CASE WHEN g % 50 = 7 THEN '2701' ELSE lpad((62700 + (g / 5) % 99)::text, 5, '0') END,
             CASE WHEN g % 100 = 11 THEN 'DE' ELSE 'US' END, 'k' || (g / 5), now()
        FROM generate_series(0, ${ROWS - 1}) g JOIN "Account" a ON a.domain = 'company-' || (g / 5) || '.example' AND a."workspaceId" = '${ws.id}'`);
    await prisma.$executeRawUnsafe(`INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId") SELECT '${audience.id}', id, '${ws.id}' FROM "Contact" WHERE "workspaceId" = '${ws.id}'`);
    await prisma.$executeRawUnsafe(`INSERT INTO "Suppression" ("workspaceId", kind, value, reason) SELECT '${ws.id}', 'email', 'p' || g || '@company-' || (g / 5) || '.example', 'opt-out' FROM generate_series(0, ${ROWS - 1}, 97) g`);
    await prisma.$executeRawUnsafe(`ANALYZE`);
    console.log(`bench:audit: ${ROWS.toLocaleString("en-US")} contacts in one audience, on PostgreSQL (${os.cpus().length} cores)\n`);

    const actor = { kind: "system" as const, id: null, label: "bench" };
    const reference = await seconds(() =>
      prisma.contact.findMany({
        where: { workspaceId: ws.id, audienceMembers: { some: { audienceId: audience.id } } },
        select: { id: true, firstName: true, lastName: true, email: true, accountId: true, addressLine1: true, addressLine2: true, city: true, region: true, postalCode: true, country: true, addressStatus: true, undeliverableReason: true, account: { select: { domain: true } } },
      }),
    );
    const run = async () => {
      const started = await startAudit(prisma, { workspaceId: ws.id, audienceId: audience.id, actor });
      return getAudit(prisma, { workspaceId: ws.id, auditId: started.auditId });
    };
    const audit = await seconds(run);
    const again = await seconds(run);
    const a = audit.value;
    console.log(`${"audit".padEnd(20)}${audit.s.toFixed(2)} s  ${Math.round(ROWS / audit.s).toLocaleString("en-US")} contacts/s`);
    console.log(`${"".padEnd(20)}${a.mailable} mailable, ${a.fixable} fixable, ${a.unmailable} unmailable; ${a.accountsWithMailableContact} of ${a.accounts} accounts reachable`);
    console.log(`${"audit again".padEnd(20)}${again.s.toFixed(2)} s  ${Math.round(ROWS / again.s).toLocaleString("en-US")} contacts/s`);
    console.log(`${"reference read".padEnd(20)}${reference.s.toFixed(2)} s  ${Math.round(ROWS / reference.s).toLocaleString("en-US")} contacts/s  (the same contacts read, nothing else)`);
    console.log(`\nThe audit takes ${(audit.s / reference.s).toFixed(1)}x the time of reading its contacts (aim: at most 10 s for 100,000).`);
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
