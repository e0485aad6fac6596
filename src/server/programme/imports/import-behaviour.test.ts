import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { cancelJob } from "@/server/records/jobs/service";
import type { JobHandlers } from "@/server/records/jobs/runner";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { bytesOf, importCsv, testActor } from "@/test/imports";
import { drainJobs } from "@/test/jobs";
import { contactsImportJob, importWriteRows } from "./job";
import type { TColumnTarget } from "@/server/records/contacts/csv-headers";
import { getImport, resumeImport } from "./service";
import { receiveUpload } from "./upload";
import { checkImportsOnEventLoop } from "./check-placement";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const HEADER = "First Name,Last Name,Email,Company,Title,Phone,Street,Suite,City,State,Zip,Country,CRM ID,Tier";
const people = (n: number, f: (i: number) => string[] = () => []) =>
  [
    HEADER,
    ...Array.from({ length: n }, (_, i) =>
      [
        `P${i}`,
        `Person`,
        `p${i}@co${i % 50}.example`,
        `Company ${i % 50}`,
        "Buyer",
        "",
        `${i} Main St`,
        "",
        "Boston",
        "MA",
        "02116",
        "US",
        `crm-${i}`,
        "",
        ...f(i),
      ]
        .slice(0, 14)
        .join(","),
    ),
  ].join("\n");

const snapshot = (workspaceId: string) =>
  prisma.contact.findMany({
    where: { workspaceId },
    orderBy: { id: "asc" },
    select: { id: true, updatedAt: true, email: true, title: true, accountId: true, customFields: true },
  });

describe("values as written", () => {
  it("keeps quotes, backslashes, braces, commas and the word NULL exactly, when contacts are created and when they are updated", async () => {
    const o = await createOwnerWorkspace(prisma);
    const awkward = (n: string) =>
      [
        `NULL`,
        `O"Brien \\ ${n}`,
        `awk@odd.example`,
        `"{Braces, Inc}"`,
        `"Head of ""Stuff"""`,
        `"{1,2}"`,
        `"1 Main St, \\N"`,
        ``,
        `Paris`,
        ``,
        `75001`,
        `FR`,
        `crm-awk`,
        `"{""json"": ""x\\y""} ${n}"`,
      ].join(",");
    const mapping = (m: TColumnTarget[], columns: string[]) =>
      m.map((t, i): TColumnTarget => (columns[i] === "Tier" ? "custom:Tier" : t));
    await importCsv(prisma, { workspaceId: o.workspaceId, csv: [HEADER, awkward("one")].join("\n"), mapping });
    const read = () =>
      prisma.contact.findFirstOrThrow({ where: { workspaceId: o.workspaceId }, include: { account: true } });
    const created = await read();
    const written = (n: string) => ({
      firstName: "NULL",
      lastName: `O"Brien \\ ${n}`,
      email: "awk@odd.example",
      title: `Head of "Stuff"`,
      phone: "{1,2}",
      addressLine1: `1 Main St, \\N`,
      addressLine2: null,
      city: "Paris",
      region: null,
      postalCode: "75001",
      country: "FR",
      crmId: "crm-awk",
      customFields: { Tier: `{"json": "x\\y"} ${n}` },
    });
    expect(created).toMatchObject(written("one"));
    expect(created.account?.name).toBe("{Braces, Inc}");
    const again = await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: [HEADER, awkward("two")].join("\n"),
      onExisting: "update",
      mapping,
    });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: again.importId })).toMatchObject({
      created: 0,
      updated: 1,
    });
    expect(await read()).toMatchObject(written("two"));
  });
});

describe("importing again", () => {
  it("the same file changes nothing and makes no duplicate, in update and in skip mode", async () => {
    const o = await createOwnerWorkspace(prisma);
    const csv = people(120);
    const first = await importCsv(prisma, { workspaceId: o.workspaceId, csv, audienceName: "Leads" });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: first.importId })).toMatchObject({
      created: 120,
      updated: 0,
      skipped: 0,
    });
    const before = await snapshot(o.workspaceId);
    const accounts = await prisma.account.count({ where: { workspaceId: o.workspaceId } });
    for (const onExisting of ["update", "skip"] as const) {
      const again = await importCsv(prisma, { workspaceId: o.workspaceId, csv, audienceName: "Leads", onExisting });
      expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: again.importId })).toMatchObject({
        status: "succeeded",
        created: 0,
        updated: 0,
        skipped: 120,
      });
    }
    expect(await snapshot(o.workspaceId)).toEqual(before);
    expect(await prisma.account.count({ where: { workspaceId: o.workspaceId } })).toBe(accounts);
    expect(await prisma.audience.count({ where: { workspaceId: o.workspaceId } })).toBe(1);
    expect(await prisma.audienceMember.count({ where: { workspaceId: o.workspaceId } })).toBe(120);
  });

  it("the workspace's own contacts export, brought back after editing, updates its contacts and never makes their ids CRM ids", async () => {
    const o = await createOwnerWorkspace(prisma);
    await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: "First Name,Last Name,Email,CRM ID\nAda,Lovelace,ada@initech.com,crm-ada\nGrace,Hopper,grace@navy.example,",
    });
    const { contactsCsv } = await import("@/server/records/contacts/export");
    let exported = "";
    for await (const part of contactsCsv(prisma, { workspaceId: o.workspaceId, filter: {} })) exported += part;
    const edited = exported.replace(/,Lovelace,/, ",Lovelace-King,");
    const back = await importCsv(prisma, { workspaceId: o.workspaceId, csv: edited, onExisting: "update" });
    expect(back.upload.suggestedMapping[0]).toBe("ignore");
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: back.importId })).toMatchObject({
      created: 0,
      updated: 1,
      skipped: 1,
    });
    const rows = await prisma.contact.findMany({
      where: { workspaceId: o.workspaceId },
      orderBy: { email: "asc" },
      select: { email: true, lastName: true, crmId: true },
    });
    expect(rows).toEqual([
      { email: "ada@initech.com", lastName: "Lovelace-King", crmId: "crm-ada" },
      { email: "grace@navy.example", lastName: "Hopper", crmId: null },
    ]);
    // Mapped by hand to the CRM id anyway: the workspace's own ids are refused as CRM ids with a warning.
    const forced = await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: edited,
      mapping: (m) => m.map((t, i) => (i === 0 ? "crmId" : t === "crmId" ? "ignore" : t)),
    });
    expect((await getImport(prisma, { workspaceId: o.workspaceId, importId: forced.importId })).warningCount).toBe(2);
    expect(
      (await prisma.contact.findMany({ where: { workspaceId: o.workspaceId, crmId: { startsWith: "ctc_" } } })).length,
    ).toBe(0);
  });

  it("update takes the new values (empty cells change nothing, custom fields merge, a new street replaces the whole address); skip leaves the contact as it was", async () => {
    const o = await createOwnerWorkspace(prisma);
    await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: `${HEADER}\nAda,Lovelace,ada@initech.com,Initech,CTO,+1 555 0100,1 Main St,Suite 5,Boston,MA,02116,US,crm-1,gold`,
      mapping: (m) => m.map((t, i) => (i === 13 ? "custom:Tier" : t)),
    });
    const ada = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "ada@initech.com" },
    });
    await prisma.contact.update({
      where: { id: ada.id },
      data: { addressStatus: "deliverable", customFields: { Tier: "gold", Owner: "Sam" } },
    });
    const changed = `${HEADER}\nAda,,ADA@initech.com,,Chief Technology Officer,,9 Elm St,,Cambridge,MA,02139,US,,platinum`;
    const mapping = (m: string[]) => m.map((t, i) => (i === 13 ? "custom:Tier" : t)) as never;

    const skipped = await importCsv(prisma, { workspaceId: o.workspaceId, csv: changed, onExisting: "skip", mapping });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: skipped.importId })).toMatchObject({
      created: 0,
      updated: 0,
      skipped: 1,
    });
    expect((await prisma.contact.findUniqueOrThrow({ where: { id: ada.id } })).title).toBe("CTO");

    const updated = await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: changed,
      onExisting: "update",
      mapping,
    });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: updated.importId })).toMatchObject({
      created: 0,
      updated: 1,
      skipped: 0,
    });
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: ada.id } })).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      title: "Chief Technology Officer",
      phone: "+1 555 0100",
      crmId: "crm-1",
      addressLine1: "9 Elm St",
      addressLine2: null,
      city: "Cambridge",
      postalCode: "02139",
      addressStatus: "unverified",
      customFields: { Tier: "platinum", Owner: "Sam" },
      accountId: ada.accountId,
    });
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(1);
  });

  it("a CRM id updates the same person when the email changed; name and address find a contact without email", async () => {
    const o = await createOwnerWorkspace(prisma);
    await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: `${HEADER}\nAda,Lovelace,ada@old.example,Initech,,,,,,,,,crm-1,\nAlan,Turing,,,,,3 King St,,London,,SW1A 1AA,UK,,`,
    });
    const csv = `${HEADER}\nAda,Lovelace,ada@new.example,Initech,,,,,,,,,crm-1,\nALAN,turing,,,Mathematician,,3 King St,,London,,SW1A 1AA,United Kingdom,,`;
    const again = await importCsv(prisma, { workspaceId: o.workspaceId, csv });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: again.importId })).toMatchObject({
      created: 0,
      updated: 2,
    });
    const all = await prisma.contact.findMany({ where: { workspaceId: o.workspaceId }, orderBy: { lastName: "asc" } });
    expect(all.map((c) => [c.email, c.crmId, c.title])).toEqual([
      ["ada@new.example", "crm-1", null],
      [null, null, "Mathematician"],
    ]);
  });
});

describe.each([
  ["in the import's thread, as a large upload is in a process that serves the web", false],
  ["on the event loop, a slice at a time, as `npm run worker` reads every file", true],
])("a long import read %s", (_, onEventLoop) => {
  const ROWS = 7_000;
  // The first batch's records: the header and the rows after it.
  const FIRST_BATCH = importWriteRows() - 1;
  // A crash or a cancel ends the reading too, wherever it runs.
  beforeAll(() => {
    process.env.IMPORT_THREAD_MIN_BYTES = "0";
    checkImportsOnEventLoop(onEventLoop);
  });
  afterAll(() => {
    delete process.env.IMPORT_THREAD_MIN_BYTES;
    checkImportsOnEventLoop(false);
  });

  it("that crashes mid-batch resumes after its last committed batch: no contact twice, no row lost, exact counts", async () => {
    const o = await createOwnerWorkspace(prisma);
    const started = await importCsv(prisma, { workspaceId: o.workspaceId, csv: people(ROWS), run: false });
    let shift = 0;
    let checkpoints = 0;
    const crashing: JobHandlers = {
      contacts_import: {
        ...contactsImportJob,
        run: (run) =>
          contactsImportJob.run({
            ...(run as Parameters<typeof contactsImportJob.run>[0]),
            checkpoint: async (tx, cp, done, total) => {
              if (++checkpoints === 2) {
                // The worker dies inside the second batch's transaction: the batch rolls back; retried after the backoff.
                shift = 10 * 60_000;
                throw new Error("worker died");
              }
              return run.checkpoint(tx, cp, done, total);
            },
          }),
      },
    };
    const clock = () => new Date(Date.now() + shift);
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers: crashing, now: clock })).toEqual(["retry"]);
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: started.importId })).toMatchObject({
      status: "running",
      rowsDone: FIRST_BATCH,
      created: FIRST_BATCH,
    });
    // Another worker claims it after the backoff.
    shift += 60_000;
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers: crashing, now: clock })).toEqual([
      "succeeded",
    ]);
    const view = await getImport(prisma, { workspaceId: o.workspaceId, importId: started.importId });
    expect(view).toMatchObject({
      status: "succeeded",
      rows: ROWS,
      rowsDone: ROWS,
      created: ROWS,
      updated: 0,
      skipped: 0,
    });
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(ROWS);
    expect(await prisma.audienceMember.count({ where: { workspaceId: o.workspaceId } })).toBe(ROWS);
    expect(await prisma.account.count({ where: { workspaceId: o.workspaceId } })).toBe(50);
    expect(await prisma.contactImportChunk.count({ where: { importId: started.importId } })).toBe(0);
  }, 120_000);

  it("that is cancelled keeps the batches it committed, writes nothing of the next, and can be resumed to the end", async () => {
    const o = await createOwnerWorkspace(prisma);
    const started = await importCsv(prisma, { workspaceId: o.workspaceId, csv: people(ROWS), run: false });
    // The person presses Cancel once the first batch has committed (while the second is being read).
    let transactions = 0;
    const cancelling: JobHandlers = {
      contacts_import: {
        ...contactsImportJob,
        run: (run) => {
          const db = new Proxy(run.db, {
            get(target, key, receiver) {
              if (key !== "$transaction") return Reflect.get(target, key, receiver);
              return async (...args: unknown[]) => {
                const out = await (target.$transaction as (...a: unknown[]) => Promise<unknown>)(...args);
                if (++transactions === 1)
                  await cancelJob(prisma, { workspaceId: o.workspaceId, jobId: run.job.id, actor: testActor });
                return out;
              };
            },
          });
          return contactsImportJob.run({ ...(run as Parameters<typeof contactsImportJob.run>[0]), db });
        },
      },
    };
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers: cancelling })).toEqual(["cancelled"]);
    const stopped = await getImport(prisma, { workspaceId: o.workspaceId, importId: started.importId });
    expect(stopped).toMatchObject({ status: "cancelled", created: FIRST_BATCH, rowsDone: FIRST_BATCH });
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(FIRST_BATCH);

    const resumed = await resumeImport(prisma, {
      workspaceId: o.workspaceId,
      importId: started.importId,
      actor: testActor,
    });
    expect(resumed.job?.progress).toMatchObject({ done: FIRST_BATCH, total: ROWS });
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: started.importId })).toMatchObject({
      status: "succeeded",
      created: ROWS,
      rowsDone: ROWS,
    });
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(ROWS);
    await expect(
      resumeImport(prisma, { workspaceId: o.workspaceId, importId: started.importId, actor: testActor }),
    ).rejects.toMatchObject({ code: "invalid_state" });
  }, 120_000);
});

describe("files as people save them", () => {
  it("a street written over several lines in one quoted cell becomes the first and second address lines, whatever its line breaks", async () => {
    const o = await createOwnerWorkspace(prisma);
    const csv = `${HEADER}\nAda,Okafor,ada@brightline.example,Brightline,,,"500 Boylston St\nFloor 12",,Boston,MA,02116,US,,\nBen,Hartley,ben@brightline.example,Brightline,,,"1 Main St\r\n\r\nBuilding 7",Suite 4,Boston,MA,02116,US,,`;
    await importCsv(prisma, { workspaceId: o.workspaceId, csv });
    const rows = await prisma.contact.findMany({
      where: { workspaceId: o.workspaceId },
      orderBy: { firstName: "asc" },
      select: { addressLine1: true, addressLine2: true },
    });
    expect(rows).toEqual([
      { addressLine1: "500 Boylston St", addressLine2: "Floor 12" },
      { addressLine1: "1 Main St", addressLine2: "Building 7, Suite 4" },
    ]);
  });

  it("Windows-1252 with semicolons (Excel on a German Windows) keeps its accents and the euro sign", async () => {
    const o = await createOwnerWorkspace(prisma);
    const text =
      "Vorname;Nachname;E-Mail;Firma;Straße;PLZ;Ort;Land;Budget\r\nJörg;Müller;jorg@kaffee.de;Kaffeerösterei Süd;Königsallee 1;40212;Düsseldorf;Deutschland;5 €\r\n";
    const { importId, upload } = await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: new Uint8Array(iconv.encode(text, "win1252")),
      mapping: (m) => m.map((t, i) => (i === 8 ? "custom:Budget" : i === 4 ? "addressLine1" : t)),
    });
    expect(upload).toMatchObject({
      encoding: "windows-1252",
      delimiter: ";",
      rows: 1,
      columns: ["Vorname", "Nachname", "E-Mail", "Firma", "Straße", "PLZ", "Ort", "Land", "Budget"],
    });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId })).toMatchObject({ created: 1 });
    expect(
      await prisma.contact.findFirstOrThrow({ where: { workspaceId: o.workspaceId }, include: { account: true } }),
    ).toMatchObject({
      firstName: "Jörg",
      lastName: "Müller",
      addressLine1: "Königsallee 1",
      city: "Düsseldorf",
      country: "DE",
      customFields: { Budget: "5 €" },
      account: { name: "Kaffeerösterei Süd" },
    });
  });

  it("UTF-16 with tabs (Excel's Unicode text) and UTF-8 with a byte-order mark", async () => {
    const o = await createOwnerWorkspace(prisma);
    const tsv = "given_name\tfamily_name\temail\nZoë\tÅberg\tzoe@nord.se\n";
    const a = await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: new Uint8Array(iconv.encode(tsv, "utf16le", { addBOM: true })),
    });
    expect(a.upload).toMatchObject({ encoding: "utf-16le", delimiter: "\t", rows: 1 });
    const bom = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode("Email Address,First Name\r\nchloe@lyon.fr,Chloé\r\n"),
    ]);
    const b = await importCsv(prisma, { workspaceId: o.workspaceId, csv: bom });
    expect(b.upload).toMatchObject({ encoding: "utf-8", columns: ["Email Address", "First Name"] });
    const names = (
      await prisma.contact.findMany({ where: { workspaceId: o.workspaceId }, orderBy: { firstName: "asc" } })
    ).map((c) => `${c.firstName} ${c.lastName}`.trim());
    expect(names).toEqual(["Chloé", "Zoë Åberg"]);
  });

  it("refuses what is not a CSV it can import, keeping nothing of it", async () => {
    const o = await createOwnerWorkspace(prisma);
    const upload = (body: string | Uint8Array, maxBytes?: number) =>
      receiveUpload(prisma, {
        workspaceId: o.workspaceId,
        fileName: "x.csv",
        body: bytesOf(body),
        actor: testActor,
        maxBytes,
      });
    await expect(upload("")).rejects.toMatchObject({ code: "validation_failed", message: "The file is empty." });
    await expect(upload("First Name,Email\n")).rejects.toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("no rows of contacts"),
    });
    await expect(upload(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]))).rejects.toMatchObject({
      message: expect.stringContaining("spreadsheet file (.xlsx"),
    });
    await expect(upload(people(100), 2048)).rejects.toMatchObject({ code: "payload_too_large" });
    await expect(
      upload(`email\n${Array.from({ length: 200_001 }, (_, i) => `p${i}@x.example`).join("\n")}\n`),
    ).rejects.toMatchObject({ message: expect.stringContaining("200,001 rows") });
    expect(await prisma.contactImport.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect(await prisma.contactImportChunk.count({ where: { import: { workspaceId: o.workspaceId } } })).toBe(0);
  }, 60_000);
});
