import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { importCsv } from "@/test/imports";
import { getImport, listImportIssues } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const PEOPLE = [
  "First Name,Last Name,Email Address,Company Name,Job Title,Street,City,State/Province,Zip/Postal Code,Country,Shoe size",
  "Ada,Lovelace,ADA@Initech.com,Initech,CTO,1 Main St,Boston,MA,02116,United States,7",
  "Grace,Hopper,grace@initech.com,Initech,Admiral,2 Main St,Boston,MA,02116,USA,8",
  "Alan,Turing,alan@gmail.com,,,3 King St,London,,SW1A 1AA,UK,",
  ",,,Nobody Ltd,,,,,,,",
  "Linus,Torvalds,linus@example.org,,,,,,,Narnia,",
  '"Hopper, Jr.","Grace ""Amazing""",grace2@initech.com,Initech,"Line one\nline two",,,,,de,',
].join("\n");

describe("a CSV import", () => {
  it("creates contacts, accounts and the audience, and reports refused rows and warnings by number and column", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { importId, upload } = await importCsv(prisma, { workspaceId: o.workspaceId, csv: PEOPLE });
    expect(upload.rows).toBe(6);
    expect(upload.suggestedMapping).toEqual([
      "firstName",
      "lastName",
      "email",
      "company",
      "title",
      "addressLine1",
      "city",
      "region",
      "postalCode",
      "country",
      "custom:Shoe size",
    ]);
    const report = await getImport(prisma, { workspaceId: o.workspaceId, importId });
    expect(report).toMatchObject({
      status: "succeeded",
      rows: 6,
      created: 5,
      updated: 0,
      skipped: 0,
      refusedCount: 1,
      warningCount: 1,
    });
    const refused = await listImportIssues(prisma, { workspaceId: o.workspaceId, importId, kind: "refused", take: 10 });
    expect(refused.issues).toEqual([
      {
        row: 5,
        column: null,
        reason: "no name and no email: a contact needs at least one of them",
        values: ["", "", "", "Nobody Ltd", "", "", "", "", "", "", ""],
      },
    ]);
    const warnings = await listImportIssues(prisma, {
      workspaceId: o.workspaceId,
      importId,
      kind: "warning",
      take: 10,
    });
    expect(warnings.issues[0]).toMatchObject({ row: 6, column: "Country", reason: expect.stringContaining("Narnia") });
    // Nothing of the refused row: no "Nobody Ltd" account.
    expect(await prisma.account.count({ where: { workspaceId: o.workspaceId, name: "Nobody Ltd" } })).toBe(0);

    const ada = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "ada@initech.com" },
      include: { account: true },
    });
    expect(ada).toMatchObject({
      firstName: "Ada",
      country: "US",
      source: "import",
      sourceImportId: importId,
      account: { name: "Initech", domain: "initech.com" },
    });
    const grace = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "grace@initech.com" },
    });
    expect(grace.accountId).toBe(ada.accountId);
    const jr = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "grace2@initech.com" },
    });
    expect(jr).toMatchObject({
      firstName: "Hopper, Jr.",
      lastName: 'Grace "Amazing"',
      title: "Line one\nline two",
      country: "DE",
      accountId: ada.accountId,
    });
    // Free mail makes no account of gmail.com: Alan gets an account of his own.
    const alan = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "alan@gmail.com" },
      include: { account: true },
    });
    expect(alan.account).toMatchObject({ name: "Alan Turing", domain: null });
    expect(alan.country).toBe("GB");
    // The audience holds every written contact.
    const audience = await prisma.audience.findFirstOrThrow({ where: { workspaceId: o.workspaceId } });
    expect(audience).toMatchObject({ name: "people (import)", source: "csv" });
    expect(await prisma.audienceMember.count({ where: { audienceId: audience.id } })).toBe(5);
  });
});
