import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { bytesOf, importCsv, testActor } from "@/test/imports";
import { getImport, listImportDuplicates, startImport } from "./service";
import { receiveUpload } from "./upload";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
afterEach(() => {
  delete process.env.IMPORT_WRITE_ROWS;
});

const HUBSPOT = [
  "First Name,Last Name,Email,Street Address,Street Address 2,City,State/Region,Postal Code,Country/Region,Lead Source,Notes,Notes,Town,email",
  "Ada,Lovelace,ada@initech.example,1 Main St,Floor 12,Boston,MA,02116,United States,Trade show,likes tea,vegetarian,Back Bay,ada.private@home.example",
  "Grace,Hopper,grace@initech.example,2 Main St,,Boston,MA,02116,United States,Webinar,,,,",
].join("\n");

describe("an import keeps every column", () => {
  it("keeps columns it does not recognise as custom fields, recognises a second address line, and reports what each column became", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { importId, upload } = await importCsv(prisma, { workspaceId: o.workspaceId, csv: HUBSPOT });
    expect(upload.suggestedMapping).toEqual([
      "firstName",
      "lastName",
      "email",
      "addressLine1",
      "addressLine2",
      "city",
      "region",
      "postalCode",
      "country",
      "custom:Lead Source",
      "custom:Notes",
      "custom:Notes (2)",
      // A column naming a field another column already fills is kept too, under its own header.
      "custom:Town",
      "custom:email",
    ]);
    const ada = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "ada@initech.example" },
    });
    expect(ada).toMatchObject({ addressLine1: "1 Main St", addressLine2: "Floor 12", city: "Boston" });
    expect(ada.customFields).toEqual({
      "Lead Source": "Trade show",
      Notes: "likes tea",
      "Notes (2)": "vegetarian",
      Town: "Back Bay",
      email: "ada.private@home.example",
    });
    const grace = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "grace@initech.example" },
    });
    expect(grace.customFields).toEqual({ "Lead Source": "Webinar" });

    const view = await getImport(prisma, { workspaceId: o.workspaceId, importId });
    expect(view.columnMapping).toEqual([
      { column: "First Name", became: "firstName" },
      { column: "Last Name", became: "lastName" },
      { column: "Email", became: "email" },
      { column: "Street Address", became: "addressLine1" },
      { column: "Street Address 2", became: "addressLine2" },
      { column: "City", became: "city" },
      { column: "State/Region", became: "region" },
      { column: "Postal Code", became: "postalCode" },
      { column: "Country/Region", became: "country" },
      { column: "Lead Source", became: "custom:Lead Source" },
      { column: "Notes", became: "custom:Notes" },
      { column: "Notes", became: "custom:Notes (2)" },
      { column: "Town", became: "custom:Town" },
      { column: "email", became: "custom:email" },
    ]);
  });

  it("a column the mapping sets to ignore is still not kept, and the report says it was ignored", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { importId } = await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: HUBSPOT,
      mapping: (m, columns) => m.map((t, i) => (columns[i] === "Lead Source" ? "ignore" : t)),
    });
    const ada = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "ada@initech.example" },
    });
    expect(Object.keys(ada.customFields as object)).not.toContain("Lead Source");
    const view = await getImport(prisma, { workspaceId: o.workspaceId, importId });
    expect(view.columnMapping?.find((c) => c.column === "Lead Source")).toEqual({
      column: "Lead Source",
      became: "ignore",
    });
  });

  it("lists the rows merged as duplicates with the contact each joined, across batches and within one", async () => {
    process.env.IMPORT_WRITE_ROWS = "2";
    const o = await createOwnerWorkspace(prisma);
    // A contact already here, known by its email and its CRM id.
    await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: "First Name,Last Name,Email,CRM ID\nLin,Known,lin@known.example,crm-lin\n",
    });
    const lin = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "lin@known.example" },
    });
    const csv = [
      "First Name,Last Name,Email,CRM ID",
      // Two records a batch, the header included.
      "Ada,Lovelace,ada@initech.example,", // row 2: batch 1
      "Grace,Hopper,grace@initech.example,", // row 3: batch 2
      "Ada,Lovelace,ADA@initech.example,", // row 4: batch 2, repeats row 2 of another batch
      "Lin,Known,lin@known.example,", // row 5: batch 3, Lin by email
      "Lin,K.,lin.other@known.example,crm-lin", // row 6: batch 3, Lin again, by the CRM id
      "Alan,Turing,alan@initech.example,", // row 7: batch 4
      "Grace,Hopper,grace@initech.example,", // row 8: batch 4, repeats row 3
    ].join("\n");
    const { importId } = await importCsv(prisma, { workspaceId: o.workspaceId, csv });
    const view = await getImport(prisma, { workspaceId: o.workspaceId, importId });
    expect(view).toMatchObject({ status: "succeeded", created: 3, duplicates: 3 });
    const contactId = async (email: string) =>
      (await prisma.contact.findFirstOrThrow({ where: { workspaceId: o.workspaceId, email } })).id;
    const merged = await listImportDuplicates(prisma, { workspaceId: o.workspaceId, importId, take: 10 });
    expect(merged).toEqual({
      rows: [
        { row: 4, contactId: await contactId("ada@initech.example"), contactName: "Ada Lovelace" },
        { row: 6, contactId: lin.id, contactName: "Lin Known" },
        { row: 8, contactId: await contactId("grace@initech.example"), contactName: "Grace Hopper" },
      ],
      nextAfterRow: null,
    });
    const page = await listImportDuplicates(prisma, { workspaceId: o.workspaceId, importId, take: 2 });
    expect(page.nextAfterRow).toBe(6);
    expect(
      (await listImportDuplicates(prisma, { workspaceId: o.workspaceId, importId, afterRow: 6, take: 2 })).rows,
    ).toEqual([{ row: 8, contactId: await contactId("grace@initech.example"), contactName: "Grace Hopper" }]);
    // A contact deleted since is no longer named.
    await prisma.contact.delete({ where: { id: lin.id } });
    expect(
      (await listImportDuplicates(prisma, { workspaceId: o.workspaceId, importId, afterRow: 5, take: 1 })).rows,
    ).toEqual([{ row: 6, contactId: null, contactName: null }]);
  });

  it("lists the first 10,000 rows merged as duplicates and counts them all", async () => {
    const o = await createOwnerWorkspace(prisma);
    const csv = ["First Name,Email", ...Array.from({ length: 10_003 }, () => "Ada,ada@initech.example")].join("\n");
    const { importId } = await importCsv(prisma, { workspaceId: o.workspaceId, csv });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId })).toMatchObject({
      status: "succeeded",
      created: 1,
      duplicates: 10_002,
    });
    const ada = await prisma.contact.findFirstOrThrow({ where: { workspaceId: o.workspaceId } });
    const kept = await prisma.contactImportDuplicate.findMany({ where: { importId }, orderBy: { row: "asc" } });
    expect([kept.length, kept[0].row, kept.at(-1)!.row]).toEqual([10_000, 3, 10_002]);
    expect(kept.every((k) => k.contactId === ada.id)).toBe(true);
  }, 120_000);

  it("refuses a file of more than 500 columns at upload, and keeps nothing of it", async () => {
    const o = await createOwnerWorkspace(prisma);
    const header = ["Email", ...Array.from({ length: 500 }, (_, i) => `C${i}`)];
    const csv = `${header.join(",")}\nada@initech.example${",x".repeat(500)}\n`;
    await expect(
      receiveUpload(prisma, { workspaceId: o.workspaceId, fileName: "wide.csv", body: bytesOf(csv), actor: testActor }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      message:
        "The file has 501 columns; one import takes at most 500. Remove the columns you do not need, or split them into several files that share an email or CRM id column.",
    });
    expect(await prisma.contactImport.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("refuses to start an import that would keep more than 200 custom fields, naming the bound; nothing is written", async () => {
    const o = await createOwnerWorkspace(prisma);
    const header = ["Email", ...Array.from({ length: 201 }, (_, i) => `Extra ${i + 1}`)];
    const csv = `${header.join(",")}\nada@initech.example${",x".repeat(201)}\n`;
    const upload = await receiveUpload(prisma, {
      workspaceId: o.workspaceId,
      fileName: "wide.csv",
      body: bytesOf(csv),
      actor: testActor,
    });
    await expect(
      startImport(prisma, {
        workspaceId: o.workspaceId,
        importId: upload.importId,
        mapping: upload.suggestedMapping,
        onExisting: "update",
        actor: testActor,
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      message:
        '201 columns are kept as custom fields; an import keeps at most 200. Set the columns you do not need to "ignore".',
    });
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect(await prisma.job.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    // With one of them ignored it imports, every other column kept.
    const { importId } = await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv,
      mapping: (m) => m.map((t, i) => (i === 201 ? "ignore" : t)),
    });
    expect((await getImport(prisma, { workspaceId: o.workspaceId, importId })).status).toBe("succeeded");
    const ada = await prisma.contact.findFirstOrThrow({ where: { workspaceId: o.workspaceId } });
    expect(Object.keys(ada.customFields as object)).toHaveLength(200);
  });
});
