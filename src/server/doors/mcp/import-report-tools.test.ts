import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { agentFor, toolErrorOf } from "@/test/mcp";
import { MCP_TOOLS } from "./catalog";
import { envelopeOf } from "./tool";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

type Report = {
  importId: string;
  duplicates: number;
  duplicateRows: { row: number; contactId: string | null }[];
  nextDuplicatesAfterRow: number | null;
  columns: { column: string; became: string }[];
};

/** Calls a tool, checks its answer against the tool's own result schema, and returns the result. */
async function call(
  client: Awaited<ReturnType<typeof agentFor>>,
  name: string,
  args: Record<string, unknown>,
): Promise<Report> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  envelopeOf(MCP_TOOLS.find((t) => t.name === name)!.result).parse(r.structuredContent);
  return (r.structuredContent as { result: Report }).result;
}

const SALESFORCE = [
  "First Name,Last Name,Email,Mailing Street,Mailing Street 2,Mailing City,Mailing State/Province,Mailing Zip/Postal Code,Mailing Country,Lead Source,Shoe",
  "Ada,Lovelace,ada@initech.example,1 Main St,Suite 400,Boston,MA,02116,US,Partner,7",
  "Grace,Hopper,grace@initech.example,2 Main St,,Boston,MA,02116,US,Web,8",
  "Ada,Lovelace,ada@initech.example,1 Main St,Suite 400,Boston,MA,02116,US,Partner,7",
].join("\n");

describe("contacts_import and imports_get say what became of every column and every row", () => {
  it("keep unknown columns as custom fields, honour an explicit ignore, name each column's fate and the rows merged as duplicates", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const report = await call(client, "contacts_import", {
      csv: SALESFORCE,
      audienceName: "SF",
      mapping: { Shoe: "ignore" },
    });
    expect(report.columns).toEqual([
      { column: "First Name", became: "firstName" },
      { column: "Last Name", became: "lastName" },
      { column: "Email", became: "email" },
      { column: "Mailing Street", became: "addressLine1" },
      { column: "Mailing Street 2", became: "addressLine2" },
      { column: "Mailing City", became: "city" },
      { column: "Mailing State/Province", became: "region" },
      { column: "Mailing Zip/Postal Code", became: "postalCode" },
      { column: "Mailing Country", became: "country" },
      { column: "Lead Source", became: "custom:Lead Source" },
      { column: "Shoe", became: "ignore" },
    ]);
    const ada = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "ada@initech.example" },
    });
    expect(ada).toMatchObject({ addressLine2: "Suite 400", customFields: { "Lead Source": "Partner" } });
    expect(report).toMatchObject({
      duplicates: 1,
      duplicateRows: [{ row: 4, contactId: ada.id }],
      nextDuplicatesAfterRow: null,
    });
    const again = await call(client, "imports_get", { importId: report.importId });
    expect(again).toMatchObject({ columns: report.columns, duplicateRows: report.duplicateRows });
  });

  it("a column whose field the mapping gives to another column is kept as a custom field, not dropped", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const csv = "First Name,Email,Work Email,Notes\nAda,ada@home.example,ada@initech.example,tea\n";
    const report = await call(client, "contacts_import", {
      csv,
      mapping: { "Work Email": "email", "First Name": "custom:Notes" },
    });
    expect(report.columns).toEqual([
      { column: "First Name", became: "custom:Notes" },
      { column: "Email", became: "custom:Email" },
      { column: "Work Email", became: "email" },
      { column: "Notes", became: "custom:Notes (2)" },
    ]);
    const ada = await prisma.contact.findFirstOrThrow({ where: { workspaceId: o.workspaceId } });
    expect(ada).toMatchObject({
      email: "ada@initech.example",
      customFields: { Notes: "Ada", Email: "ada@home.example", "Notes (2)": "tea" },
    });
  });

  it("imports_get pages through the rows merged as duplicates, a hundred at a time", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const csv = [
      "First Name,Email",
      "Ada,ada@initech.example",
      ...Array.from({ length: 150 }, () => "Ada,ada@initech.example"),
    ].join("\n");
    const first = await call(client, "contacts_import", { csv });
    expect([
      first.duplicates,
      first.duplicateRows.length,
      first.duplicateRows[99].row,
      first.nextDuplicatesAfterRow,
    ]).toEqual([150, 100, 102, 102]);
    const next = await call(client, "imports_get", {
      importId: first.importId,
      duplicatesAfterRow: first.nextDuplicatesAfterRow,
    });
    expect(next.duplicateRows.map((r) => r.row)).toEqual(Array.from({ length: 50 }, (_, i) => 103 + i));
    expect(next.nextDuplicatesAfterRow).toBeNull();
    const ada = await prisma.contact.findFirstOrThrow({ where: { workspaceId: o.workspaceId } });
    expect(new Set([...first.duplicateRows, ...next.duplicateRows].map((r) => r.contactId))).toEqual(new Set([ada.id]));
  });

  it("a file with more custom columns than a contact keeps is refused with the bound, and nothing is written", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const header = ["Email", ...Array.from({ length: 201 }, (_, i) => `Extra ${i + 1}`)];
    const res = await client.callTool({
      name: "contacts_import",
      arguments: { csv: `${header.join(",")}\nada@initech.example${",x".repeat(201)}\n` },
    });
    expect(toolErrorOf(res)).toMatchObject({
      code: "invalid_argument",
      message:
        '201 columns are kept as custom fields; an import keeps at most 200. Set the columns you do not need to "ignore".',
    });
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    // Nor is the file kept: no upload is left behind, never imported.
    expect(await prisma.contactImport.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("a mapping naming a column the file does not have is refused, and the upload is not left behind", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const res = await client.callTool({
      name: "contacts_import",
      arguments: { csv: "Email,First Name\nada@initech.example,Ada\n", mapping: { "E-mail address": "email" } },
    });
    expect(toolErrorOf(res)).toMatchObject({
      code: "invalid_argument",
      message: "The file has no column “E-mail address”; its columns are “Email”, “First Name”.",
    });
    expect(await prisma.contactImport.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });
});
