import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { contactKeys } from "@/server/records/contacts/keys";
import { testDatabase } from "@/test/database";
import { callerFor } from "@/test/factories";
import { importCsv } from "@/test/imports";
import { drain, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/** Every row of every table of the database, as text (all its columns), except the suppression list. */
async function dumpDatabase(): Promise<{ table: string; row: string }[]> {
  const tables = await prisma.$queryRaw<{ name: string }[]>`
    SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
       AND table_name NOT IN ('Suppression', '_prisma_migrations')
     ORDER BY table_name`;
  const rows: { table: string; row: string }[] = [];
  for (const { name } of tables) {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    const found = await prisma.$queryRawUnsafe<{ row: string }[]>(`SELECT t::text AS row FROM ${quoted} t`);
    for (const r of found) rows.push({ table: name, row: r.row });
  }
  return rows;
}

describe("deleting a contact with suppress: true", () => {
  it("leaves none of the person's values anywhere in the database but the suppression list", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 2 });
    const domain = f.contacts[0].email!.split("@")[1];
    const person = {
      firstName: "Zebulon",
      lastName: "Quixmorely",
      title: "Chief Quixotic Officer",
      email: `zebulon.quixmorely@${domain}`,
      phone: "+1 617 555 0147",
      addressLine1: "77 Wistful Vista",
      addressLine2: "Apt 9Q",
      city: "Boston",
      region: "MA",
      postalCode: "02116",
      country: "US",
    };
    const contact = await prisma.contact.update({
      where: { id: f.contacts[0].id },
      data: { ...person, ...contactKeys(person) },
    });
    // The verifier's standardised form of their address, cached.
    await prisma.addressVerification.create({
      data: {
        workspaceId: f.workspaceId,
        verifier: "sandbox",
        addressKey: contact.addressKey!,
        verdict: "deliverable",
        vendorVerdict: "deliverable",
        standardised: { primary_line: "77 WISTFUL VISTA", secondary_line: "APT 9Q", city: "BOSTON" },
      },
    });
    // A mailed piece of theirs.
    const clock = testClock();
    await postEvent(prisma, f, contact.id);
    await drain(prisma, clock, f.workspaceId);
    expect(await prisma.mailPiece.findFirstOrThrow({ where: { contactId: contact.id } })).toMatchObject({
      status: "mailed",
    });
    // A file that brings them in again, with a value the import cannot keep (a warning with the row).
    const csv = [
      "First Name,Last Name,Email Address,Job Title,Phone,Street,Street 2,City,State/Province,Zip/Postal Code,Country",
      `${person.firstName},${person.lastName},${person.email},${person.title},${person.phone},${person.addressLine1},${person.addressLine2},Boston,MA,02116,Narnia`,
      `Other,Person,other.person@${domain},,,5 Elm St,,Boston,MA,02116,US`,
    ].join("\n");
    const imported = await importCsv(prisma, { workspaceId: f.workspaceId, csv });
    const values = [
      person.firstName,
      person.lastName,
      person.title,
      person.email,
      person.phone,
      person.addressLine1,
      person.addressLine2,
    ];
    const before = await dumpDatabase();
    const hits = (rows: { table: string; row: string }[]) =>
      [
        ...new Set(
          rows.flatMap(({ table, row }) =>
            values.filter((v) => row.toLowerCase().includes(v.toLowerCase())).map((v) => `${table}: ${v}`),
          ),
        ),
      ].sort();
    // The search finds the person where they are before the deletion (the import kept its sample and the warning's row).
    expect(hits(before)).toEqual(
      expect.arrayContaining([
        `AddressVerification: ${person.addressLine1}`,
        `Contact: ${person.email}`,
        `ContactImport: ${person.email}`,
        `ContactImportIssue: ${person.email}`,
        `MailPiece: ${person.lastName}`,
      ]),
    );
    expect(
      await prisma.contactImportIssue.count({ where: { importId: imported.importId, kind: "warning" } }),
    ).toBeGreaterThan(0);

    const owner = await callerFor(prisma, f.user);
    const result = await owner.contact.delete({ workspaceId: f.workspaceId, contactId: contact.id, suppress: true });
    expect(result).toMatchObject({ deleted: true, suppressed: ["email", "address"] });

    expect(hits(await dumpDatabase())).toEqual([]);
    // On the suppression list only: the email and the normalised address.
    const suppressed = await prisma.suppression.findMany({
      where: { workspaceId: f.workspaceId },
      select: { kind: true, value: true },
      orderBy: { kind: "asc" },
    });
    expect(suppressed).toEqual([
      { kind: "email", value: person.email },
      { kind: "address", value: contact.addressKey },
    ]);
    // The import's report still counts its rows; the other person's sample row stays.
    const report = await prisma.contactImport.findUniqueOrThrow({ where: { id: imported.importId } });
    expect(report).toMatchObject({ rowCount: 2, warnings: 1 });
    expect((report.sample as string[][]).map((row) => row[2])).toEqual([`other.person@${domain}`]);
  });
});
