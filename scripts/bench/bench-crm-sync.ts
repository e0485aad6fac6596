/**
 * npm run bench:crm-sync: a full sync of 50,000 contacts (with 10,000 companies, 5,000 deals and two
 * lists) from a local CRM fake into an empty workspace on PostgreSQL, the whole way (the official
 * client's paging, every page checked and written with its checkpoint, accounts, suppressions,
 * audiences, outcomes). Prints objects/s and, in the same run, two references: the fake's pages read
 * bare through the same adapter with nothing written (the floor set by the CRM side), and
 * PostgreSQL's own COPY of the same 50,000 contact rows into a bare table (the floor set by the
 * database). BENCH_VENDOR=salesforce syncs from the Salesforce fake instead (2,000 records a page).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { CRM_OBJECT_TYPES, type CrmAdapter } from "@/server/programme/crm/adapter";
import { hubspotAdapter } from "@/server/programme/crm/hubspot";
import { salesforceAdapter } from "@/server/programme/crm/salesforce";
import { connectCrm, getSync } from "@/server/programme/crm/service";
import { emptyBenchDatabase } from "./fixture";
import { generateCrm } from "@/test/crm-fakes/data";
import { drainJobs } from "@/test/jobs";

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 50_000);
const VENDOR = process.env.BENCH_VENDOR === "salesforce" ? "salesforce" : "hubspot";

async function seconds<T>(fn: () => Promise<T>): Promise<{ value: T; s: number }> {
  const t = process.hrtime.bigint();
  const value = await fn();
  return { value, s: Number(process.hrtime.bigint() - t) / 1e9 };
}

function startFake(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    path.resolve("node_modules/.bin/tsx"),
    ["scripts/bench/crm-fake-server.ts", VENDOR, String(CONTACTS)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the fake stopped (${code})`)));
    child.stdout.once("data", (line: Buffer) =>
      resolve({ url: JSON.parse(line.toString()).url, stop: () => child.kill("SIGTERM") }),
    );
  });
}

/** Every page of every type and list, read through the adapter and thrown away. */
async function readBare(adapter: CrmAdapter): Promise<number> {
  let objects = 0;
  for (const type of CRM_OBJECT_TYPES) {
    for (let cursor: string | null = null, first = true; first || cursor; first = false) {
      const page: { records: unknown[]; next: string | null } = await adapter.page(type, null, cursor);
      objects += page.records.length;
      cursor = page.next;
    }
  }
  for (const list of await adapter.lists()) {
    for (let cursor: string | null = null, first = true; first || cursor; first = false) {
      const page: { next: string | null } = await adapter.listMembers(list.id, cursor);
      cursor = page.next;
    }
    objects++;
  }
  return objects;
}

async function main() {
  process.env.CRM_TEST_ALLOW_LOCAL_URLS = "1";
  process.env.CRM_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
  const fake = await startFake();
  process.env.CRM_TEST_HUBSPOT_BASE_URL = fake.url;
  const { url, prisma, workspace, drop } = await emptyBenchDatabase();
  try {
    const ws = await workspace();
    console.log(
      `bench:crm-sync: a full ${VENDOR} sync of ${CONTACTS.toLocaleString("en-US")} contacts from a local fake (its own process), on PostgreSQL (${os.cpus().length} cores)\n`,
    );

    const adapter =
      VENDOR === "hubspot"
        ? hubspotAdapter({ accessToken: "pat-na1-bench-0001" })
        : salesforceAdapter({ origin: fake.url, clientId: "bench-key", clientSecret: "bench-secret-0001" });
    const bare = await seconds(() => readBare(adapter));

    const input =
      VENDOR === "hubspot"
        ? { kind: "hubspot" as const, accessToken: "pat-na1-bench-0001" }
        : {
            kind: "salesforce" as const,
            myDomainUrl: fake.url,
            clientId: "bench-key",
            clientSecret: "bench-secret-0001",
          };
    const { sync } = await connectCrm(prisma, {
      workspaceId: ws.id,
      input,
      actor: { kind: "system", id: null, label: "bench" },
    });
    const run = await seconds(() => drainJobs(prisma, { workspaceId: ws.id }));
    const done = await getSync(prisma, { workspaceId: ws.id, syncId: sync.syncId });
    const objects = done.job.progress.done;
    const c = done.counts;

    // PostgreSQL's own COPY of the same contact rows into a bare table.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      `CREATE TABLE bench_copy (id text primary key, first text, last text, email text, title text, street text, city text, region text, zip text, country text, company text)`,
    );
    const rows = generateCrm(VENDOR, { contacts: CONTACTS }).contacts.map(
      (p) =>
        `${[
          p.id,
          p.firstName,
          p.lastName,
          p.email,
          p.title,
          p.street,
          p.city,
          p.region,
          p.postalCode,
          p.country,
          p.companyId,
        ]
          .map((v) => (v == null ? "\\N" : String(v)))
          .join("\t")}\n`,
    );
    const copy = await seconds(() =>
      pipeline(Readable.from(rows), client.query(copyFrom("COPY bench_copy FROM STDIN"))),
    );
    await client.end();

    console.log(
      `${"sync".padEnd(18)}${run.s.toFixed(1)} s  ${Math.round(objects / run.s).toLocaleString("en-US")} objects/s  (${done.status}; ${objects.toLocaleString("en-US")} objects)`,
    );
    console.log(
      `${"".padEnd(18)}contacts ${c.contacts.created.toLocaleString("en-US")} created, accounts ${c.companies.created.toLocaleString("en-US")}, outcomes ${c.outcomes.created.toLocaleString("en-US")}, audience members ${c.audienceMembers.added.toLocaleString("en-US")}, suppressions ${c.suppressions.added}, warnings ${c.issues.warnings.toLocaleString("en-US")}`,
    );
    console.log(
      `${"reference: read".padEnd(18)}${bare.s.toFixed(1)} s  ${Math.round(bare.value / bare.s).toLocaleString("en-US")} objects/s  (every page read through the same client, nothing written)`,
    );
    console.log(
      `${"reference: COPY".padEnd(18)}${copy.s.toFixed(1)} s  ${Math.round(CONTACTS / copy.s).toLocaleString("en-US")} rows/s  (the contacts into a bare table)`,
    );
    console.log(
      `\nThe sync takes ${(run.s / bare.s).toFixed(1)}x the time of reading the CRM bare (aim: under 60 s for 50,000 contacts). Figures move by a third from run to run on this shared machine.`,
    );
  } finally {
    fake.stop();
    await drop();
  }
}

await main();
