import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { importReport } from "@/server/programme/imports/service";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { importCsv } from "@/test/imports";
import { contactsCsv } from "./export";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const HEADER =
  "First Name,Last Name,Email,Company,Website,Title,Phone,Street,Suite,City,State,Zip,Country,CRM ID,Tier,Notes";
const ROWS = [
  // Values a spreadsheet would run as formulas: the export guards them with an apostrophe.
  `Ann,Lee,ann@acme.example,Acme Inc,acme.example,=Head of Ops,+1 415 555 0102,1 Main St,Suite 200,Boston,MA,02116,US,crm-1,-5,@home`,
  `Bob,"O'Brien, Jr",bob@acme.example,Acme Inc,acme.example,Buyer,-0100,"500 Boylston St","",Boston,MA,02116,United States,,Gold,"He said ""hi"", then left"`,
  // No company: an account of her own, named after her.
  `Chloé,Müller,,,,,'quoted,Friedrichstraße 68,,Berlin,,10117,DE,,,`,
];

async function text(gen: AsyncGenerator<string>) {
  let out = "";
  for await (const part of gen) out += part;
  return out;
}

const fieldsOf = (workspaceId: string) =>
  prisma.contact.findMany({
    where: { workspaceId },
    orderBy: [{ lastName: "asc" }],
    select: {
      firstName: true,
      lastName: true,
      email: true,
      title: true,
      phone: true,
      addressLine1: true,
      addressLine2: true,
      city: true,
      region: true,
      postalCode: true,
      country: true,
      crmId: true,
      customFields: true,
      addressKey: true,
      matchKey: true,
      account: { select: { name: true, domain: true } },
    },
  });

describe("exports that round-trip", () => {
  it("the contacts export, imported into a fresh workspace with the suggested mapping, gives every field identical", async () => {
    const a = await createOwnerWorkspace(prisma);
    await importCsv(prisma, {
      workspaceId: a.workspaceId,
      csv: [HEADER, ...ROWS].join("\n"),
      mapping: (m, columns) =>
        m.map((t, i) => (columns[i] === "Tier" || columns[i] === "Notes" ? (`custom:${columns[i]}` as const) : t)),
    });
    const original = await fieldsOf(a.workspaceId);
    expect(original).toHaveLength(3);
    expect(original.find((c) => c.email === "ann@acme.example")).toMatchObject({
      title: "=Head of Ops",
      phone: "+1 415 555 0102",
      customFields: { Tier: "-5", Notes: "@home" },
    });

    const csv = await text(contactsCsv(prisma, { workspaceId: a.workspaceId, filter: {} }));
    // The formula guard stays, for spreadsheets.
    expect(csv).toContain(`'+1 415 555 0102`);
    expect(csv).toContain(`'=Head of Ops`);

    const b = await createOwnerWorkspace(prisma);
    const back = await importCsv(prisma, { workspaceId: b.workspaceId, csv, fileName: "contacts-export.csv" });
    expect(back.upload.suggestedMapping.slice(-2)).toEqual(["custom:Notes", "custom:Tier"]);
    expect(await importReport(prisma, { workspaceId: b.workspaceId, importId: back.importId })).toMatchObject({
      created: 3,
      refusedCount: 0,
    });
    expect(await fieldsOf(b.workspaceId)).toEqual(original);

    // Importing the export into the workspace it came from changes nothing.
    const same = await importCsv(prisma, { workspaceId: a.workspaceId, csv });
    expect(await importReport(prisma, { workspaceId: a.workspaceId, importId: same.importId })).toMatchObject({
      created: 0,
      updated: 0,
    });
    expect(await fieldsOf(a.workspaceId)).toEqual(original);
  }, 240_000);
});
