import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import { connectCrm, getSync, startSync } from "@/server/programme/crm/service";
import type { AppError } from "@/server/ground/errors";
import { importReport } from "@/server/programme/imports/service";
import { applyFix } from "@/server/programme/mailability/fixes";
import { generateCrm } from "@/test/crm-fakes/data";
import { startHubSpotFake } from "@/test/crm-fakes/hubspot-fake";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { importCsv } from "@/test/imports";
import { drainJobs } from "@/test/jobs";
import { contactHistory, revertFieldChange } from "./history";
import { updateContact } from "./service";

let prisma: PrismaClient;
const fakes: { close(): Promise<void> }[] = [];
const owner: Actor = { kind: "user", id: null, label: "owner@example.test" };
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: AppError) => ({ code: e.code, message: e.message }),
  );

beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  process.env.CRM_TEST_ALLOW_LOCAL_URLS = "1";
  process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
});
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

const HEADER = "First Name,Last Name,Email,Street,City,State,Zip,Country,Tier";
const FILE_V1 = [
  HEADER,
  "Ann,Lee,ann@acme.example,1 Main St,Boston,MA,,US,Gold",
  "Bob,Ray,bob@acme.example,500 Boylston St,Boston,Massachusetts,2116,US,Silver",
].join("\n");

/** The fields of a contact as edited by a person: everything as it is, with some changed. */
async function editAs(workspaceId: string, contactId: string, change: Record<string, string | null>) {
  const c = await prisma.contact.findFirstOrThrow({ where: { id: contactId, workspaceId } });
  const {
    firstName,
    lastName,
    title,
    email,
    phone,
    addressLine1,
    addressLine2,
    city,
    region,
    postalCode,
    country,
    crmId,
  } = c;
  const fields = {
    firstName,
    lastName,
    title,
    email,
    phone,
    addressLine1,
    addressLine2,
    city,
    region,
    postalCode,
    country,
    crmId,
    customFields: c.customFields as Record<string, string>,
    ...change,
  };
  return updateContact(prisma, { workspaceId, contactId, fields, actor: owner });
}

describe("nothing a person fixed is undone behind their back", () => {
  it("import, fix by hand, accept an audit fix, re-import the same file and sync the unchanged CRM record: every fix stands; a changed file value wins, with its history and a way back", async () => {
    const o = await createOwnerWorkspace(prisma);
    const ws = o.workspaceId;
    const tierAsCustom = (m: string[], columns: string[]) =>
      m.map((t, i) => (columns[i] === "Tier" ? "custom:Tier" : t)) as never;
    const first = await importCsv(prisma, { workspaceId: ws, csv: FILE_V1, mapping: tierAsCustom });
    expect((await importReport(prisma, { workspaceId: ws, importId: first.importId })).created).toBe(2);
    const ann = await prisma.contact.findFirstOrThrow({ where: { workspaceId: ws, email: "ann@acme.example" } });
    const bob = await prisma.contact.findFirstOrThrow({ where: { workspaceId: ws, email: "bob@acme.example" } });
    expect(ann.postalCode).toBeNull();

    // The CRM knows Bob with the same wrong values, and a title; its first sync brings the title.
    const crm = generateCrm("hubspot", { contacts: 1 });
    Object.assign(crm.contacts[0], {
      firstName: "Bob",
      lastName: "Ray",
      email: "bob@acme.example",
      title: "Buyer",
      phone: null,
      street: "500 Boylston St",
      city: "Boston",
      region: "Massachusetts",
      postalCode: "2116",
      country: "US",
      optedOut: false,
    });
    crm.lists = [];
    crm.deals = [];
    const fake = await startHubSpotFake(crm, { token: "pat-na1-11111111-3333" });
    fakes.push(fake);
    process.env.CRM_TEST_HUBSPOT_BASE_URL = fake.url;
    const { connectionId } = await connectCrm(prisma, {
      workspaceId: ws,
      input: { kind: "hubspot", accessToken: "pat-na1-11111111-3333" },
      actor: owner,
    });
    expect(await drainJobs(prisma, { workspaceId: ws })).toEqual(["succeeded"]);
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: bob.id } })).toMatchObject({
      title: "Buyer",
      postalCode: "2116",
      region: "Massachusetts",
    });

    // A person fills in Ann's postcode and her tier; Bob's address fix is accepted from the audit.
    await editAs(ws, ann.id, { postalCode: "02110", customFields: { Tier: "Platinum" } } as never);
    await prisma.fulfilmentContract.create({
      data: {
        workspaceId: ws,
        name: "US postcards",
        format: "postcard",
        unitCostCents: 104,
        countries: ["US"],
        countryPrices: { US: 104 },
        status: "approved",
        approvedAt: new Date(),
      },
    });
    const fixed = await applyFix(prisma, { workspaceId: ws, contactId: bob.id, actor: owner });
    expect(fixed.changed).toMatchObject({ postalCode: { from: "2116", to: "02116" } });
    const bobFixed = await prisma.contact.findUniqueOrThrow({ where: { id: bob.id } });
    expect(bobFixed.postalCode).toBe("02116");

    // The same file again, "update with the file's values": nothing fixed goes back.
    const again = await importCsv(prisma, { workspaceId: ws, csv: FILE_V1, mapping: tierAsCustom });
    const report = await importReport(prisma, { workspaceId: ws, importId: again.importId });
    const fixedFields = Object.keys(fixed.changed).length;
    expect(report).toMatchObject({ created: 0, updated: 0, keptFields: fixedFields + 1 });
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: ann.id } })).toMatchObject({
      postalCode: "02110",
      customFields: { Tier: "Platinum" },
    });
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: bob.id } })).toMatchObject({
      postalCode: "02116",
      region: bobFixed.region,
      title: "Buyer",
    });

    // The hourly sync sends Bob's unchanged record again (touched in the CRM, same values): the fix stands.
    crm.contacts[0].modifiedAt = Date.now();
    const sync = await startSync(prisma, { workspaceId: ws, connectionId, trigger: "owner", actor: owner });
    expect(await drainJobs(prisma, { workspaceId: ws })).toEqual(["succeeded"]);
    expect((await getSync(prisma, { workspaceId: ws, syncId: sync.view.syncId })).counts.contacts).toMatchObject({
      read: 1,
      updated: 0,
    });
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: bob.id } })).toMatchObject({
      postalCode: "02116",
      region: bobFixed.region,
    });

    // The file really changes Bob's postcode: that field takes the file's new value, the others stand.
    const v2 = FILE_V1.replace("Massachusetts,2116,US", "Massachusetts,02118,US");
    const third = await importCsv(prisma, { workspaceId: ws, csv: v2, mapping: tierAsCustom });
    expect(await importReport(prisma, { workspaceId: ws, importId: third.importId })).toMatchObject({
      updated: 1,
      keptFields: fixedFields - 1 + 1,
    });
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: bob.id } })).toMatchObject({
      postalCode: "02118",
      region: bobFixed.region,
    });
    const history = await contactHistory(prisma, { workspaceId: ws, contactId: bob.id });
    const postcode = history.changes.filter((c) => c.field === "postalCode");
    expect(postcode.map((c) => [c.byKind, c.byLabel, c.oldValue, c.newValue])).toEqual([
      ["import", "people.csv", "02116", "02118"],
      ["fix", "owner@example.test", "2116", "02116"],
    ]);
    expect(history.writers.postalCode.kind).toBe("import");
    expect(history.writers.title.kind).toBe("crm");

    // The way back: the person restores the fix's value; it then stands against the same file.
    const back = await revertFieldChange(prisma, {
      workspaceId: ws,
      contactId: bob.id,
      changeId: postcode[0].id,
      actor: owner,
    });
    expect(back.changes[0]).toMatchObject({
      field: "postalCode",
      oldValue: "02118",
      newValue: "02116",
      byKind: "owner",
      revertOf: postcode[0].id,
    });
    expect(
      await refusal(
        revertFieldChange(prisma, { workspaceId: ws, contactId: bob.id, changeId: postcode[0].id, actor: owner }),
      ),
    ).toEqual({
      code: "invalid_state",
      message: "The field has changed since (it is now “02116”); undo its newest change instead.",
    });
    await importCsv(prisma, { workspaceId: ws, csv: v2, mapping: tierAsCustom });
    expect((await prisma.contact.findUniqueOrThrow({ where: { id: bob.id } })).postalCode).toBe("02116");
    expect(
      await refusal(
        revertFieldChange(prisma, { workspaceId: ws, contactId: bob.id, changeId: "fch_nope", actor: owner }),
      ),
    ).toEqual({ code: "not_found", message: "No such change in this contact's history." });
  }, 120_000);

  it("an empty cell never clears a value; a new value from the file still replaces one the file wrote; a new street brings its whole address", async () => {
    const o = await createOwnerWorkspace(prisma);
    const ws = o.workspaceId;
    const header = "Email,First Name,Street,Suite,City,Zip,Country,Phone";
    await importCsv(prisma, {
      workspaceId: ws,
      csv: `${header}\nx@y.example,Xena,1 Main St,Suite 2,Boston,02116,US,555 0100`,
    });
    await importCsv(prisma, { workspaceId: ws, csv: `${header}\nx@y.example,,1 Main St,,,,,555 0199` });
    let c = await prisma.contact.findFirstOrThrow({ where: { workspaceId: ws, email: "x@y.example" } });
    expect(c).toMatchObject({
      firstName: "Xena",
      addressLine1: "1 Main St",
      addressLine2: "Suite 2",
      city: "Boston",
      postalCode: "02116",
      country: "US",
      phone: "555 0199",
    });
    // She moves: the file's new street comes with its own city and postcode, and no suite.
    await importCsv(prisma, { workspaceId: ws, csv: `${header}\nx@y.example,,9 Elm St,,Cambridge,02139,US,` });
    c = await prisma.contact.findFirstOrThrow({ where: { workspaceId: ws, email: "x@y.example" } });
    expect(c).toMatchObject({
      addressLine1: "9 Elm St",
      addressLine2: null,
      city: "Cambridge",
      postalCode: "02139",
      country: "US",
      phone: "555 0199",
      addressStatus: "unverified",
    });
    await editAs(ws, c.id, { addressLine2: "Apt 4" });
    // Clearing is an explicit act: a person empties the suite.
    await editAs(ws, c.id, { addressLine2: null });
    expect((await contactHistory(prisma, { workspaceId: ws, contactId: c.id })).changes[0]).toMatchObject({
      field: "addressLine2",
      oldValue: "Apt 4",
      newValue: null,
      byKind: "owner",
    });
  }, 120_000);
});
