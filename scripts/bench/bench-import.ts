/**
 * npm run bench:import: a 100,000-row CSV (about 20 MB) imported into an empty workspace on
 * PostgreSQL, the whole way (upload into the database in pieces, encoding and delimiter detection,
 * row counting, the contacts_import job: parsing, mapping, de-duplication against the workspace,
 * accounts by company, set-based batches with their checkpoints, audience membership), then the
 * same file again (every row found, nothing changed). Prints rows/s and peak memory, and in the
 * same run PostgreSQL's own COPY of the same rows into a bare table: the limit of what loading
 * these rows into this database can cost on this machine; and the limit this schema sets: the
 * same rows written into accounts, contacts and an audience by three statements (schemaFloor).
 * Each import's job runs in a worker process of its own, compiled and started as `npm run worker`
 * does, so the memory printed is a worker's, start-up included, and not this script's.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import type { TImportView } from "@/server/programme/imports/schema";
import { getImport, startImport } from "@/server/programme/imports/service";
import { receiveUpload } from "@/server/programme/imports/upload";
import { emptyBenchDatabase } from "./fixture";
import { compileWorker, startWorker, stopWorker } from "./workers";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const actor: Actor = { kind: "system", id: null, label: "bench" };

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
  "O'Connell",
  "Srinivasan",
  "Feldman",
  "Dubois",
  "Raman",
  "Moreau",
  "Jiménez",
  "Adeyemi",
  "Whitfield",
];
const COUNTRIES = [
  ["US", "United States"],
  ["US", "USA"],
  ["GB", "United Kingdom"],
  ["DE", "Deutschland"],
  ["FR", "France"],
  ["CA", "Canada"],
  ["US", "U.S."],
];
const HEADER =
  "First Name,Last Name,Email Address,Company Name,Job Title,Phone,Street Address,Address Line 2,City,State/Province,Zip/Postal Code,Country,Record ID,Lead Source,Notes";

/** One row of a CRM export: five people per company, one in twenty on a free-mail address. */
function row(i: number): string {
  const company = Math.floor(i / 5);
  const first = FIRST[i % 20];
  const last = LAST[Math.floor(i / 20) % 20];
  const domain = i % 20 === 7 ? "gmail.com" : `company-${company}.example`;
  const [, country] = COUNTRIES[company % COUNTRIES.length];
  const name = `Company ${company} ${["Logistics", "Holdings", "Software", "Health"][company % 4]}`;
  return [
    first,
    last,
    `${first}.${last.replace(/\W/g, "")}.${i}@${domain}`.toLowerCase(),
    i % 20 === 7 ? "" : name,
    ["VP Operations", "Director of IT", "Head of Procurement", "CFO"][i % 4],
    `+1 555 ${String(i).padStart(7, "0")}`,
    `${100 + (company % 900)} Market Street`,
    `Floor ${(i % 9) + 2}`,
    "Springfield",
    "IL",
    String(62700 + (company % 99)).padStart(5, "0"),
    country,
    `crm-${i}`,
    "Trade show",
    `"Met at booth ${i % 40}, interested in ""gifting"", follow up in Q${(i % 4) + 1}"`,
  ].join(",");
}

async function writeCsv(file: string) {
  const out = fs.createWriteStream(file);
  out.write(`${HEADER}\n`);
  for (let i = 0; i < ROWS; i++)
    if (!out.write(`${row(i)}\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
  await new Promise<void>((resolve) => out.end(resolve));
}

/** Times `work`. */
async function measure<T>(work: () => Promise<T>) {
  const start = performance.now();
  const result = await work();
  return { result, seconds: (performance.now() - start) / 1000 };
}

interface RunResult {
  uploadSeconds: number;
  jobSeconds: number;
  seconds: number;
  /** CPU time of the worker process (user and system) while it ran the job. */
  cpuSeconds: number;
  startRssMb: number;
  peakRssMb: number;
  view: TImportView;
}

/** The worker's resident memory now and at its highest (kernel's VmRSS and VmHWM), in MB. */
function memoryOf(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

/** CPU seconds (user and system) the process has used so far. */
function cpuOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime, in clock ticks of 1/100 s
}

/**
 * One import the way the product runs it: the file uploaded into the database (the server's
 * part, done here), the import started, and its contacts_import job run by a worker process of
 * its own, compiled and started as `npm run worker` does; the worker's memory is its kernel
 * high-water mark over its whole life, start-up included.
 */
async function importInWorker(
  prisma: PrismaClient,
  url: string,
  workspaceId: string,
  file: string,
): Promise<RunResult> {
  // BENCH_CPU_PROFILE=dir: a V8 CPU profile of each worker, written into dir when it stops.
  const profile = process.env.BENCH_CPU_PROFILE
    ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROFILE)}`]
    : [];
  const worker = await startWorker(url, { nodeFlags: profile, echo: true });
  try {
    const start = memoryOf(worker.pid!);
    const cpu0 = cpuOf(worker.pid!);
    const t0 = performance.now();
    const upload = await receiveUpload(prisma, {
      workspaceId,
      fileName: path.basename(file),
      body: fs.createReadStream(file, { highWaterMark: 256 * 1024 }),
      actor,
    });
    const uploadSeconds = (performance.now() - t0) / 1000;
    const started = await startImport(prisma, {
      workspaceId,
      importId: upload.importId,
      mapping: upload.suggestedMapping,
      onExisting: "update",
      audienceName: "Bench import",
      actor,
    });
    let job = await prisma.job.findUniqueOrThrow({ where: { id: started.job!.jobId } });
    while (!["succeeded", "failed", "cancelled"].includes(job.status)) {
      await new Promise((r) => setTimeout(r, 100));
      job = await prisma.job.findUniqueOrThrow({ where: { id: job.id } });
    }
    const jobSeconds = (job.finishedAt!.getTime() - job.startedAt!.getTime()) / 1000;
    return {
      uploadSeconds,
      jobSeconds,
      seconds: uploadSeconds + jobSeconds,
      cpuSeconds: cpuOf(worker.pid!) - cpu0,
      startRssMb: start.rssMb,
      peakRssMb: memoryOf(worker.pid!).peakMb,
      view: await getImport(prisma, { workspaceId, importId: upload.importId }),
    };
  } finally {
    await stopWorker(worker);
  }
}

const line = (label: string, r: RunResult) =>
  `${label.padEnd(16)}${r.seconds.toFixed(1)} s  ${Math.round(ROWS / r.seconds).toLocaleString("en-US")} rows/s  (upload ${r.uploadSeconds.toFixed(1)} s, job ${r.jobSeconds.toFixed(1)} s, the worker's CPU ${r.cpuSeconds.toFixed(1)} s)  worker's peak RSS ${r.peakRssMb.toFixed(0)} MB (${r.startRssMb.toFixed(0)} MB before the job)`;

/**
 * The second reference, the limit this schema sets on a first import: the same rows, already in
 * the database (the COPY reference's table), written into an empty workspace's accounts, contacts
 * and audience by three set-based statements in one transaction, through every index, generated
 * column, key and foreign key of those tables, with none of the import's work (the upload, reading,
 * checks, matching, field provenance, the report). Keys and ids as wide as the service's. Returns
 * the contacts written.
 */
async function schemaFloor(client: pg.Client, workspaceId: string): Promise<number> {
  await client.query("BEGIN");
  await client.query(
    `INSERT INTO "Account" (id, "workspaceId", name, domain, source, "createdAt", "updatedAt")
     SELECT 'acc_' || md5(c3), $1, c3, split_part(lower(c2), '@', 2), 'import', now(), now()
       FROM (SELECT DISTINCT ON (c3) c3, c2 FROM bench_copy WHERE c3 <> '' ORDER BY c3, id) a`,
    [workspaceId],
  );
  const contacts = await client.query(
    `INSERT INTO "Contact" (id, "workspaceId", "accountId", "firstName", "lastName", title, email, phone, "addressLine1", "addressLine2",
                            city, region, "postalCode", country, "addressKey", "matchKey", "crmId", "customFields", "fieldSources", source, "createdAt", "updatedAt")
     SELECT 'ctc_' || md5(id::text), $1, CASE WHEN c3 <> '' THEN 'acc_' || md5(c3) END, c0, c1, c4, lower(c2), c5, c6, c7, c8, c9, c10,
            CASE c11 WHEN 'United Kingdom' THEN 'GB' WHEN 'Deutschland' THEN 'DE' WHEN 'France' THEN 'FR' WHEN 'Canada' THEN 'CA' ELSE 'US' END,
            md5(lower(c6 || c7 || c8 || c10)), md5(lower(c0 || c1 || c6 || c10)), c12, jsonb_build_object('Lead Source', c13, 'Notes', c14),
            '{"o":"import"}'::jsonb, 'import', now(), now()
       FROM bench_copy`,
    [workspaceId],
  );
  await client.query(
    `INSERT INTO "Audience" (id, "workspaceId", name, source, "updatedAt") VALUES ('aud_floor', $1, 'Floor', 'csv', now())`,
    [workspaceId],
  );
  await client.query(
    `INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId", "addedAt") SELECT 'aud_floor', id, $1, now() FROM "Contact" WHERE "workspaceId" = $1`,
    [workspaceId],
  );
  await client.query("COMMIT");
  return contacts.rowCount ?? 0;
}

/**
 * The schema's floor for the same file again: what a re-import must write at the least, on the
 * floor's workspace (its contacts written by schemaFloor). An import adds every row's contact to an
 * audience of its own (the report's audience), so a file whose rows all change nothing still makes
 * an audience of 100,000 members: each row found by its email, in one statement, with the audience
 * members' indexes and foreign keys, and nothing else of the import's work. Returns the members.
 */
async function againFloor(client: pg.Client, workspaceId: string): Promise<number> {
  await client.query("BEGIN");
  await client.query(
    `INSERT INTO "Audience" (id, "workspaceId", name, source, "updatedAt") VALUES ('aud_floor_again', $1, 'Floor again', 'csv', now())`,
    [workspaceId],
  );
  const members = await client.query(
    `INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId", "addedAt")
     SELECT 'aud_floor_again', c.id, $1, now() FROM bench_copy b JOIN "Contact" c ON c."workspaceId" = $1 AND c.email = lower(b.c2)
     ON CONFLICT DO NOTHING`,
    [workspaceId],
  );
  await client.query("COMMIT");
  return members.rowCount ?? 0;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dm-bench-import-"));
  const file = path.join(dir, "contacts.csv");
  await writeCsv(file);
  const bytes = fs.statSync(file).size;
  await compileWorker();
  const { url, prisma, workspace, drop } = await emptyBenchDatabase();
  try {
    const ws = await workspace();
    console.log(
      `bench:import: ${ROWS.toLocaleString("en-US")} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB, on PostgreSQL (${os.cpus().length} cores)\n`,
    );

    const first = await importInWorker(prisma, url, ws.id, file);
    if (first.view.status !== "succeeded")
      throw new Error(`import ended ${first.view.status}: ${first.view.job?.error}`);
    const [contacts, members, accounts] = await Promise.all([
      prisma.contact.count({ where: { workspaceId: ws.id } }),
      prisma.audienceMember.count({ where: { workspaceId: ws.id } }),
      prisma.account.count({ where: { workspaceId: ws.id } }),
    ]);
    console.log(line("first import", first));
    console.log(
      `${"".padEnd(16)}created ${first.view.created}, updated ${first.view.updated}, skipped ${first.view.skipped}, refused ${first.view.refusedCount}; ${contacts} contacts, ${accounts} accounts, ${members} audience members`,
    );
    const again = await importInWorker(prisma, url, ws.id, file);
    console.log(line("same file again", again));
    console.log(
      `${"".padEnd(16)}created ${again.view.created}, updated ${again.view.updated}, skipped ${again.view.skipped}; ${await prisma.contact.count({ where: { workspaceId: ws.id } })} contacts\n`,
    );

    // The reference: PostgreSQL's own COPY of the same rows (CSV parsing in the server, no checks, no indexes but the key).
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      `CREATE TABLE bench_copy (id bigserial PRIMARY KEY, ${HEADER.split(",")
        .map((_, i) => `c${i} text`)
        .join(", ")})`,
    );
    const copy = await measure(() =>
      pipeline(
        fs.createReadStream(file),
        client.query(
          copyFrom(
            `COPY bench_copy (${HEADER.split(",")
              .map((_, i) => `c${i}`)
              .join(", ")}) FROM STDIN WITH (FORMAT csv, HEADER true)`,
          ),
        ),
      ),
    );
    const copied = (await client.query("SELECT count(*)::int AS n FROM bench_copy")).rows[0].n;
    const floorWorkspace = await workspace();
    const floor = await measure(() => schemaFloor(client, floorWorkspace.id));
    // Planned with the floor's contacts counted (they were written a moment ago), as the fastest it could be.
    await client.query(`ANALYZE "Contact"; ANALYZE bench_copy`);
    const floorAgain = await measure(() => againFloor(client, floorWorkspace.id));
    await client.end();
    console.log(
      `${"reference COPY".padEnd(16)}${copy.seconds.toFixed(1)} s  ${Math.round(ROWS / copy.seconds).toLocaleString("en-US")} rows/s  (${copied} rows into a bare table)`,
    );
    console.log(
      `${"schema's floor".padEnd(16)}${floor.seconds.toFixed(1)} s  ${Math.round(ROWS / floor.seconds).toLocaleString("en-US")} rows/s  (${floor.result} rows from that table into another workspace's accounts, contacts and audience in three statements: ${(floor.seconds / copy.seconds).toFixed(1)}x COPY)`,
    );
    console.log(
      `${"its floor again".padEnd(16)}${floorAgain.seconds.toFixed(1)} s  ${Math.round(ROWS / floorAgain.seconds).toLocaleString("en-US")} rows/s  (the same rows again: each found by its email and added to a new audience, ${floorAgain.result} members in one statement: ${(floorAgain.seconds / copy.seconds).toFixed(1)}x COPY)`,
    );
    const peak = Math.max(first.peakRssMb, again.peakRssMb);
    console.log(
      `\nFirst import ${(first.seconds / copy.seconds).toFixed(1)}x the time of COPY, the same file again ${(again.seconds / copy.seconds).toFixed(1)}x; the worker's peak RSS ${peak.toFixed(0)} MB (the aim: at most 8x and 4x, under 300 MB).`,
    );
    console.log(
      `First import ${(first.seconds / floor.seconds).toFixed(1)}x the schema's floor, the same file again ${(again.seconds / floorAgain.seconds).toFixed(1)}x its floor.`,
    );
  } finally {
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
