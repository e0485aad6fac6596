import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import {
  addAudienceContacts,
  createAudience,
  deleteAudience,
  getAudience,
  listAudiencePage,
  removeAudienceContacts,
  renameAudience,
} from "@/server/records/audiences/service";
import {
  getImport,
  listImportIssues,
  listImports,
  resumeImport,
  startImport,
} from "@/server/programme/imports/service";
import { importIssuesCsv } from "@/server/programme/imports/export";
import { testDatabase } from "@/test/database";
import { createAudience as makeAudience, createOwnerWorkspace } from "@/test/factories";
import { bytesOf, importCsv, testActor } from "@/test/imports";
import { receiveUpload } from "@/server/programme/imports/upload";
import { getAccount, listAccounts } from "./accounts-service";
import { contactsCsv } from "./export";
import { countContacts, createContact, getContact, listContacts, updateContact } from "./service";
import { addSuppressions, listSuppressions, removeSuppression } from "./suppressions-service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const notFound = { code: "not_found" };

describe("every contact, account, audience, suppression and import service stays in its workspace", () => {
  it("another workspace's ids are not found, and nothing of theirs changes", async () => {
    const theirs = await createOwnerWorkspace(prisma);
    const { audience, contacts } = await makeAudience(prisma, theirs.workspaceId, { accounts: 2, perAccount: 1 });
    const imported = await importCsv(prisma, {
      workspaceId: theirs.workspaceId,
      csv: "First Name,Email\nAda,ada@x.example\n,\n,,nobody",
    });
    const [suppression] = (
      await addSuppressions(prisma, {
        workspaceId: theirs.workspaceId,
        entries: [{ email: "ada@x.example", reason: "opt-out" }],
        source: "owner",
        actor: testActor,
      })
    ).suppressions;
    const pending = await importCsv(prisma, { workspaceId: theirs.workspaceId, csv: "Email\nb@x.example", run: false });
    const before = await Promise.all([
      prisma.contact.findMany({ where: { workspaceId: theirs.workspaceId }, orderBy: { id: "asc" } }),
      prisma.audienceMember.count({ where: { audienceId: audience.id } }),
      prisma.suppression.count({ where: { workspaceId: theirs.workspaceId } }),
      prisma.audience.findMany({ where: { workspaceId: theirs.workspaceId } }),
    ]);

    const mine = await createOwnerWorkspace(prisma);
    const ws = mine.workspaceId;
    const c = contacts[0];
    await expect(getContact(prisma, { workspaceId: ws, contactId: c.id })).rejects.toMatchObject(notFound);
    await expect(
      updateContact(prisma, {
        workspaceId: ws,
        contactId: c.id,
        fields: { firstName: "Hacked", lastName: "", customFields: {} } as never,
        actor: testActor,
      }),
    ).rejects.toMatchObject(notFound);
    await expect(listContacts(prisma, { workspaceId: ws, audienceId: audience.id, take: 10 })).rejects.toMatchObject(
      notFound,
    );
    await expect(listContacts(prisma, { workspaceId: ws, accountId: c.accountId, take: 10 })).rejects.toMatchObject(
      notFound,
    );
    expect((await listContacts(prisma, { workspaceId: ws, take: 10 })).contacts).toEqual([]);
    expect(await countContacts(prisma, { workspaceId: ws })).toBe(0);
    await expect(getAccount(prisma, { workspaceId: ws, accountId: c.accountId! })).rejects.toMatchObject(notFound);
    expect((await listAccounts(prisma, { workspaceId: ws, take: 10 })).accounts).toEqual([]);
    await expect(getAudience(prisma, { workspaceId: ws, audienceId: audience.id })).rejects.toMatchObject(notFound);
    expect((await listAudiencePage(prisma, { workspaceId: ws, take: 10 })).audiences).toEqual([]);
    await expect(
      addAudienceContacts(prisma, { workspaceId: ws, audienceId: audience.id, contactIds: [c.id], actor: testActor }),
    ).rejects.toMatchObject(notFound);
    await expect(
      removeAudienceContacts(prisma, {
        workspaceId: ws,
        audienceId: audience.id,
        contactIds: [c.id],
        actor: testActor,
      }),
    ).rejects.toMatchObject(notFound);
    await expect(
      renameAudience(prisma, { workspaceId: ws, audienceId: audience.id, name: "Mine now", actor: testActor }),
    ).rejects.toMatchObject(notFound);
    await expect(
      deleteAudience(prisma, { workspaceId: ws, audienceId: audience.id, actor: testActor }),
    ).rejects.toMatchObject(notFound);
    // My own audience cannot take their contacts, by id or by filter.
    const own = await createAudience(prisma, { workspaceId: ws, name: "Mine", actor: testActor });
    await expect(
      addAudienceContacts(prisma, { workspaceId: ws, audienceId: own.id, contactIds: [c.id], actor: testActor }),
    ).rejects.toMatchObject(notFound);
    expect(
      (await addAudienceContacts(prisma, { workspaceId: ws, audienceId: own.id, filter: {}, actor: testActor })).added,
    ).toBe(0);
    await expect(
      createAudience(prisma, { workspaceId: ws, name: "Theirs", contactIds: [c.id], actor: testActor }),
    ).rejects.toMatchObject(notFound);
    await expect(
      removeSuppression(prisma, { workspaceId: ws, suppressionId: suppression.id, actor: testActor }),
    ).rejects.toMatchObject(notFound);
    expect((await listSuppressions(prisma, { workspaceId: ws, take: 10 })).suppressions).toEqual([]);
    await expect(
      addSuppressions(prisma, {
        workspaceId: ws,
        entries: [{ contactId: c.id, reason: "customer" }],
        source: "owner",
        actor: testActor,
      }),
    ).rejects.toMatchObject({ code: "validation_failed" });
    await expect(getImport(prisma, { workspaceId: ws, importId: imported.importId })).rejects.toMatchObject(notFound);
    await expect(
      listImportIssues(prisma, { workspaceId: ws, importId: imported.importId, kind: "refused", take: 10 }),
    ).rejects.toMatchObject(notFound);
    await expect(
      resumeImport(prisma, { workspaceId: ws, importId: imported.importId, actor: testActor }),
    ).rejects.toMatchObject(notFound);
    await expect(
      startImport(prisma, {
        workspaceId: ws,
        importId: pending.importId,
        mapping: ["email"],
        onExisting: "update",
        actor: testActor,
      }),
    ).rejects.toMatchObject(notFound);
    const upload = await receiveUpload(prisma, {
      workspaceId: ws,
      fileName: "mine.csv",
      body: bytesOf("Email\nc@x.example"),
      actor: testActor,
    });
    await expect(
      startImport(prisma, {
        workspaceId: ws,
        importId: upload.importId,
        mapping: ["email"],
        onExisting: "update",
        audienceId: audience.id,
        actor: testActor,
      }),
    ).rejects.toMatchObject(notFound);
    expect(await prisma.job.count({ where: { workspaceId: ws } })).toBe(0);
    expect((await listImports(prisma, { workspaceId: ws, take: 10 })).imports.map((i) => i.importId)).not.toContain(
      imported.importId,
    );
    let refusedCsv = "";
    for await (const chunk of importIssuesCsv(prisma, {
      workspaceId: ws,
      importId: imported.importId,
      kind: "refused",
    }))
      refusedCsv += chunk;
    expect(refusedCsv).toBe("");
    let exported = "";
    for await (const chunk of contactsCsv(prisma, { workspaceId: ws, filter: {} })) exported += chunk;
    expect(exported.trim().split("\r\n")).toHaveLength(1);
    // A contact made here with their email is mine, not theirs.
    await createContact(prisma, {
      workspaceId: ws,
      fields: { firstName: "Ada", lastName: "", email: "ada@x.example", customFields: {} } as never,
      actor: testActor,
      source: "owner",
    });

    expect(
      await Promise.all([
        prisma.contact.findMany({ where: { workspaceId: theirs.workspaceId }, orderBy: { id: "asc" } }),
        prisma.audienceMember.count({ where: { audienceId: audience.id } }),
        prisma.suppression.count({ where: { workspaceId: theirs.workspaceId } }),
        prisma.audience.findMany({ where: { workspaceId: theirs.workspaceId } }),
      ]),
    ).toEqual(before);
  });
});

describe("editing a contact", () => {
  it("checks the email and the country, refuses another contact's email, resets a changed address, and logs the fields", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { contacts } = await makeAudience(prisma, o.workspaceId, { accounts: 1, perAccount: 2 });
    const [a, b] = contacts;
    const base = {
      firstName: a.firstName,
      lastName: a.lastName,
      title: null,
      email: a.email,
      phone: null,
      addressLine1: a.addressLine1,
      addressLine2: a.addressLine2,
      city: a.city,
      region: a.region,
      postalCode: a.postalCode,
      country: a.country,
      crmId: null,
      customFields: {},
    };
    await expect(
      updateContact(prisma, {
        workspaceId: o.workspaceId,
        contactId: a.id,
        fields: { ...base, email: "not an email", country: "Narnia" },
        actor: testActor,
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ pointer: "/email" }, { pointer: "/country" }],
    });
    await expect(
      updateContact(prisma, {
        workspaceId: o.workspaceId,
        contactId: a.id,
        fields: { ...base, email: b.email!.toUpperCase() },
        actor: testActor,
      }),
    ).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining(b.id) });
    const saved = await updateContact(prisma, {
      workspaceId: o.workspaceId,
      contactId: a.id,
      fields: {
        ...base,
        title: "CFO",
        addressLine1: "9 Elm St",
        country: "United States",
        customFields: { Tier: "gold" },
      },
      actor: testActor,
    });
    expect(saved).toMatchObject({
      title: "CFO",
      addressLine1: "9 Elm St",
      country: "US",
      addressStatus: "unverified",
      customFields: { Tier: "gold" },
    });
    expect(saved.addressKey).toBe("us|02116|boston|9 elm st ste 1");
    const log = await prisma.auditLogEntry.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, action: "contact.updated" },
    });
    expect((log.data as { fields: string[] }).fields.sort()).toEqual(["addressLine1", "customFields", "title"]);
  });
});

describe("contact search", () => {
  it("matches the start of words of names, emails and companies, whatever the punctuation and accents", async () => {
    const o = await createOwnerWorkspace(prisma);
    await importCsv(prisma, {
      workspaceId: o.workspaceId,
      csv: [
        "First Name,Last Name,Email,Company",
        "Siobhán,O'Brien,siobhan.obrien@kerrygold.example,Kerry Gold Foods",
        "Jörg,Müller-Lüdenscheidt,jorg@kaffee.example,Kaffeerösterei Süd",
        "Jane,Doe,jane.doe@acme.example,Acme",
      ].join("\n"),
    });
    const find = async (search: string) =>
      (await listContacts(prisma, { workspaceId: o.workspaceId, search, take: 10 })).contacts
        .map((c) => c.lastName)
        .sort();
    expect(await find("o'brien")).toEqual(["O'Brien"]);
    expect(await find("BRIEN")).toEqual(["O'Brien"]);
    expect(await find("brienx")).toEqual([]);
    expect(await find("siobhan.obr")).toEqual(["O'Brien"]);
    expect(await find("lüdensch")).toEqual(["Müller-Lüdenscheidt"]);
    expect(await find("müller")).toEqual(["Müller-Lüdenscheidt"]);
    expect(await find("jane.doe@acme")).toEqual(["Doe"]);
    expect(await find("kaffeer")).toEqual(["Müller-Lüdenscheidt"]);
    expect(await find("gold foods")).toEqual(["O'Brien"]);
    expect(await find("acme jane")).toEqual(["Doe"]);
    expect(await find("acme jorg")).toEqual([]);
    expect(await find("@@ --")).toEqual([]);
    expect(await countContacts(prisma, { workspaceId: o.workspaceId, search: "example" })).toBe(3);
    expect(
      (await listAccounts(prisma, { workspaceId: o.workspaceId, search: "kerry", take: 10 })).accounts.map(
        (a) => a.name,
      ),
    ).toEqual(["Kerry Gold Foods"]);
  });
});
