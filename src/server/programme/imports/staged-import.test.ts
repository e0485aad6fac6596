import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { contactKeys } from "@/server/records/contacts/keys";
import type { JobHandlers } from "@/server/records/jobs/runner";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { importCsv } from "@/test/imports";
import { drainJobs } from "@/test/jobs";
import { contactsImportJob } from "./job";
import { getImport, listImportDuplicates, listImportIssues } from "./service";
import { stagedRows } from "./stage";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const HEADER = "First Name,Last Name,Email,Company,Street,City,Zip,Country,CRM ID";
const person = (i: number) =>
  `P${i},Person,p${i}@co${i % 7}.example,Company ${i % 7},${i} Main St,Boston,02116,US,crm-${i}`;

describe("the staged import (rows staged with COPY, written set-based)", () => {
  it("leaves nothing staged after it succeeds, and nothing after a run that fails", async () => {
    const o = await createOwnerWorkspace(prisma);
    const ok = await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: [HEADER, ...Array.from({ length: 40 }, (_, i) => person(i))].join("\n"),
    });
    expect(ok.outcomes).toEqual(["succeeded"]);
    expect(await stagedRows(prisma, ok.importId)).toBe(0);

    // A run whose first write fails after its batch was staged.
    const started = await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: [HEADER, ...Array.from({ length: 40 }, (_, i) => person(100 + i))].join("\n"),
      run: false,
    });
    const failing: JobHandlers = {
      contacts_import: {
        ...contactsImportJob,
        run: (run) => {
          const db = new Proxy(run.db, {
            get: (target, key, receiver) =>
              key === "$transaction"
                ? () => Promise.reject(new Error("the database went away"))
                : Reflect.get(target, key, receiver),
          });
          return contactsImportJob.run({ ...(run as Parameters<typeof contactsImportJob.run>[0]), db });
        },
      },
    };
    const outcomes = await drainJobs(prisma, { workspaceId: o.workspaceId, handlers: failing });
    expect(outcomes).not.toContain("succeeded");
    expect(await stagedRows(prisma, started.importId)).toBe(0);
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(40);
  });

  it("a re-import of the same file after a person's edit keeps the edit, writes no history and touches no contact", async () => {
    const o = await createOwnerWorkspace(prisma);
    const csv = [HEADER, ...Array.from({ length: 30 }, (_, i) => person(i))].join("\n");
    await importCsv(prisma, { workspaceId: o.workspaceId, csv });
    const edited = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "p3@co3.example" },
    });
    await prisma.contact.update({
      where: { id: edited.id },
      data: {
        city: "Cambridge",
        ...contactKeys({ ...edited, city: "Cambridge" }),
        fieldSources: {
          o: "csv",
          f: { city: { k: "owner", at: new Date().toISOString() } },
          s: { csv: { city: "Boston" } },
        },
      },
    });
    const before = await prisma.contact.findMany({ where: { workspaceId: o.workspaceId }, orderBy: { id: "asc" } });
    const changes = await prisma.contactFieldChange.count({ where: { workspaceId: o.workspaceId } });
    const again = await importCsv(prisma, { workspaceId: o.workspaceId, csv });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: again.importId })).toMatchObject({
      status: "succeeded",
      created: 0,
      updated: 0,
      skipped: 30,
      keptFields: 1,
    });
    expect(await prisma.contact.findMany({ where: { workspaceId: o.workspaceId }, orderBy: { id: "asc" } })).toEqual(
      before,
    );
    expect(await prisma.contactFieldChange.count({ where: { workspaceId: o.workspaceId } })).toBe(changes);
  });

  it("a re-import writes the rows whose value or custom field changed, and goes through provenance for a contact another writer made with the same values", async () => {
    const o = await createOwnerWorkspace(prisma);
    const header = `${HEADER},Notes`;
    const rows = (notes: string, city: string) =>
      [header, ...Array.from({ length: 5 }, (_, i) => `${person(i)},note ${i}`)].map((l, i) =>
        i === 2 ? l.replace(/note 1$/, notes) : i === 3 ? l.replace("Boston", city) : l,
      );
    // A contact a person made with the values of the file's first row, at the account the file's company finds.
    const account = await prisma.account.create({
      data: { workspaceId: o.workspaceId, name: "Company 0", domain: "co0.example" },
    });
    const made = {
      accountId: account.id,
      firstName: "P0",
      lastName: "Person",
      email: "p0@co0.example",
      addressLine1: "0 Main St",
      city: "Boston",
      postalCode: "02116",
      country: "US",
      crmId: "crm-0",
      customFields: { Notes: "note 0" },
    };
    await prisma.contact.create({
      data: {
        workspaceId: o.workspaceId,
        ...made,
        ...contactKeys({ ...made, addressLine2: null, region: null }),
        fieldSources: { o: "owner" },
        updatedAt: new Date(),
      },
    });
    const first = await importCsv(prisma, { workspaceId: o.workspaceId, csv: rows("note 1", "Boston").join("\n") });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: first.importId })).toMatchObject({
      status: "succeeded",
      created: 4,
      updated: 0,
      skipped: 1,
    });
    // The file's values of the person's contact are remembered as the file's (field provenance), its fields still the person's.
    const owned = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "p0@co0.example" },
    });
    expect(owned.fieldSources).toMatchObject({ o: "owner", s: { csv: { city: "Boston", "custom:Notes": "note 0" } } });

    const again = await importCsv(prisma, { workspaceId: o.workspaceId, csv: rows("note 1", "Boston").join("\n") });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: again.importId })).toMatchObject({
      status: "succeeded",
      created: 0,
      updated: 0,
      skipped: 5,
    });
    expect((await prisma.contact.findFirstOrThrow({ where: { id: owned.id } })).fieldSources).toEqual(
      owned.fieldSources,
    );

    const changed = await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: rows("a new note", "Cambridge").join("\n"),
    });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: changed.importId })).toMatchObject({
      status: "succeeded",
      created: 0,
      updated: 2,
      skipped: 3,
    });
    const after = await prisma.contact.findMany({
      where: { workspaceId: o.workspaceId, email: { in: ["p1@co1.example", "p2@co2.example"] } },
      orderBy: { email: "asc" },
    });
    expect(after.map((c) => [c.customFields, c.city])).toEqual([
      [{ Notes: "a new note" }, "Boston"],
      [{ Notes: "note 2" }, "Cambridge"],
    ]);
  });

  it("reports refused rows, warnings and duplicates by their exact row numbers, blank lines counted", async () => {
    const o = await createOwnerWorkspace(prisma);
    const lines = [
      HEADER, // row 1
      person(1), // 2
      "", // 3: blank
      ",,,,2 Elm St,Boston,,,", // 4: refused, no name and no email
      person(1), // 5: repeats row 2
      "Q,Quinn,not-an-email,,9 Elm St,Boston,02116,US,", // 6: warning, kept without email
      `P9,Person,other@elsewhere.example,,1 Main St,Boston,02116,US,crm-1`, // 7: row 2's CRM id: the same person
      person(2), // 8
    ];
    const r = await importCsv(prisma, { workspaceId: o.workspaceId, csv: lines.join("\n") });
    const view = await getImport(prisma, { workspaceId: o.workspaceId, importId: r.importId });
    expect(view).toMatchObject({ status: "succeeded", created: 3, refusedCount: 1, duplicates: 2 });
    const refused = await listImportIssues(prisma, {
      workspaceId: o.workspaceId,
      importId: r.importId,
      kind: "refused",
      take: 10,
    });
    expect(JSON.stringify(refused)).toContain('"row":4');
    const warnings = await listImportIssues(prisma, {
      workspaceId: o.workspaceId,
      importId: r.importId,
      kind: "warning",
      take: 10,
    });
    expect(JSON.stringify(warnings)).toContain('"row":6');
    const duplicates = await listImportDuplicates(prisma, {
      workspaceId: o.workspaceId,
      importId: r.importId,
      take: 10,
    });
    const first = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "p1@co1.example" },
    });
    expect(JSON.parse(JSON.stringify(duplicates))).toMatchObject({
      rows: [
        { row: 5, contactId: first.id },
        { row: 7, contactId: first.id },
      ],
    });
  });
});
