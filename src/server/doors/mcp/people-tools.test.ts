import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import type { TMcpScope } from "@/server/records/oauth/scopes";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { MCP_TOOLS } from "./catalog";
import { buildMcpServer } from "./server";
import { envelopeOf } from "./tool";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const ALL: TMcpScope[] = ["workspace:read", "contacts:write"];

async function agentFor(workspaceId: string, scopes: TMcpScope[] = ALL) {
  const server = buildMcpServer({
    db: prisma,
    base: "https://dm.example",
    workspaceId,
    grantId: "grt_people",
    clientName: "Ledger Bot",
    scopes,
    role: "owner",
    actor: { kind: "agent", id: "grt_people", label: "Ledger Bot (agent)" },
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(b);
  return client;
}

/** Calls a tool, checks its result against the tool's own output schema, and returns the result. */
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  // An import that refused rows answers isError true with its whole report (reading it later does not); nothing else may fail.
  const refusedRows =
    name === "contacts_import" &&
    Boolean((r.structuredContent as { result?: { refusedCount?: number } })?.result?.refusedCount);
  if (Boolean(r.isError) !== refusedRows) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  const tool = MCP_TOOLS.find((t) => t.name === name)!;
  envelopeOf(tool.result).parse(r.structuredContent);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (r.structuredContent as any).result;
}

async function refusal(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError).toBe(true);
  return JSON.stringify(r.content);
}

const CSV = [
  "Full Name,E-mail,Organisation,Street,Town,Postcode,Country,Tier",
  "Ada Lovelace,ada@initech.com,Initech,1 Main St,Boston,02116,U.S.,gold",
  "Grace Hopper,grace@initech.com,Initech,2 Main St,Boston,02116,USA,silver",
  ",,Nobody,,,,,",
].join("\n");

describe("the contact, audience, suppression and import tools", () => {
  it("contacts_import imports CSV text with a mapping by column name, then finds nothing new the second time; every change is audit-logged as the agent", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(o.workspaceId);
    const first = await call(client, "contacts_import", {
      csv: CSV,
      audienceName: "From the ledger",
      mapping: { "E-mail": "email", Organisation: "company", Tier: "custom" },
    });
    expect(first).toMatchObject({
      status: "succeeded",
      rows: 3,
      created: 2,
      updated: 0,
      skipped: 0,
      refusedCount: 1,
      refused: [{ row: 4, column: null, reason: expect.stringContaining("no name and no email") }],
    });
    const ada = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, email: "ada@initech.com" },
      include: { account: true },
    });
    expect(ada).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      country: "US",
      customFields: { Tier: "gold" },
      account: { name: "Initech" },
    });
    const audience = await prisma.audience.findFirstOrThrow({ where: { id: first.audienceId } });
    expect(audience.name).toBe("From the ledger");

    const again = await call(client, "contacts_import", {
      csv: CSV,
      audienceName: "From the ledger",
      mapping: { "E-mail": "email", Organisation: "company", Tier: "custom" },
    });
    expect(again).toMatchObject({
      status: "succeeded",
      created: 0,
      updated: 0,
      skipped: 2,
      audienceId: first.audienceId,
    });
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(2);
    expect(await prisma.audienceMember.count({ where: { audienceId: first.audienceId } })).toBe(2);
    const log = await prisma.auditLogEntry.findMany({
      where: { workspaceId: o.workspaceId, action: "contacts.import.started" },
    });
    expect(log).toHaveLength(2);
    expect(log.every((e) => e.actorKind === "agent" && e.actorLabel === "Ledger Bot (agent)")).toBe(true);
    const contact = await prisma.contact.findFirstOrThrow({ where: { id: ada.id } });
    expect(contact).toMatchObject({ source: "import" });
  });

  it("imports_get pages through every refused row, a hundred at a time", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(o.workspaceId);
    const csv = [
      "First Name,Email",
      ...Array.from({ length: 150 }, (_, i) => (i % 2 ? `Ada${i},ada${i}@example.test` : ",not-an-email")),
      "",
    ].join("\n");
    const first = (await call(client, "contacts_import", { csv, audienceName: "Half bad" })) as {
      importId: string;
      refusedCount: number;
      refused: { row: number }[];
      nextRefusedAfterRow: number | null;
    };
    expect([first.refusedCount, first.refused.length]).toEqual([75, 75]);
    expect(first.nextRefusedAfterRow).toBeNull();
    const many = [
      "First Name,Email",
      ...Array.from({ length: 250 }, () => ",not-an-email"),
      "Ada,ada@example.test",
      "",
    ].join("\n");
    const big = (await call(client, "contacts_import", { csv: many, audienceName: "Mostly bad" })) as typeof first;
    expect([big.refusedCount, big.refused.length, big.refused[99].row, big.nextRefusedAfterRow]).toEqual([
      250, 100, 101, 101,
    ]);
    const rest: number[] = [];
    for (let after: number | null = big.nextRefusedAfterRow; after !== null; ) {
      const page = (await call(client, "imports_get", {
        importId: big.importId,
        refusedAfterRow: after,
      })) as typeof first;
      rest.push(...page.refused.map((r) => r.row));
      after = page.nextRefusedAfterRow;
    }
    expect(rest).toEqual(Array.from({ length: 150 }, (_, i) => 102 + i));
  });

  it("tools that change or remove what exists say so (destructiveHint), and contacts_import is not idempotent (each call is a new import)", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { tools } = await (
      await agentFor(o.workspaceId, ["workspace:read", "contacts:write", "campaigns:write"])
    ).listTools();
    // Hints left out take MCP's defaults (readOnlyHint false, destructiveHint true unless read-only, idempotentHint false).
    const hints = Object.fromEntries(
      tools.map((t) => {
        const readOnly = t.annotations?.readOnlyHint ?? false;
        return [
          t.name,
          {
            readOnlyHint: readOnly,
            destructiveHint: !readOnly && (t.annotations?.destructiveHint ?? true),
            idempotentHint: readOnly || (t.annotations?.idempotentHint ?? false),
          },
        ];
      }),
    );
    for (const name of [
      "audiences_remove_contacts",
      "contacts_import",
      "campaigns_end",
      "campaigns_update_draft",
      "drafts_update",
      "contacts_update",
      "contacts_delete",
    ])
      expect(hints[name], name).toMatchObject({ destructiveHint: true });
    for (const name of ["audiences_add_contacts", "suppressions_add", "campaigns_create_draft", "contacts_list"])
      expect(hints[name], name).toMatchObject({ destructiveHint: false });
    expect(hints.contacts_import).toMatchObject({ idempotentHint: false, readOnlyHint: false });
  });

  it("contacts_import refuses a mapping to a column the text does not have, and writes nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(o.workspaceId);
    const text = await refusal(client, "contacts_import", { csv: CSV, mapping: { Mail: "email" } });
    expect(text).toContain("The file has no column “Mail”");
    const bad = await refusal(client, "contacts_import", { csv: CSV, mapping: { "E-mail": "emailAddress" } });
    expect(bad).toContain("is not a field");
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect(await prisma.audience.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("a large contacts_import answers running, and imports_get reports progress and then the final report", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(o.workspaceId);
    const rows = Array.from({ length: 2100 }, (_, i) => `Person,${i},p${i}@bulk.example`);
    const started = await call(client, "contacts_import", { csv: ["First Name,Last Name,Email", ...rows].join("\n") });
    expect(started).toMatchObject({
      status: "queued",
      rows: 2100,
      created: 0,
      progress: { done: 0, total: 2100, unit: "rows" },
    });
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    const done = await call(client, "imports_get", { importId: started.importId });
    expect(done).toMatchObject({
      status: "succeeded",
      rows: 2100,
      created: 2100,
      progress: { done: 2100, total: 2100, percent: 100 },
    });
    expect(await refusal(client, "imports_get", { importId: "imp_missing" })).toContain("No such import");
  });

  it("contacts_list searches by name, email or company, takes the old query argument, filters by account, and pages; contacts_get returns every field", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(o.workspaceId);
    await call(client, "contacts_import", { csv: CSV });
    const byCompany = await call(client, "contacts_list", { search: "initech" });
    expect(byCompany.contacts.map((c: { email: string }) => c.email).sort()).toEqual([
      "ada@initech.com",
      "grace@initech.com",
    ]);
    const byName = await call(client, "contacts_list", { query: "grac" });
    expect(byName.contacts).toHaveLength(1);
    expect(byName.contacts[0]).toMatchObject({ firstName: "Grace", account: { name: "Initech" }, suppressed: false });
    const accountId = byName.contacts[0].account.id;
    const page1 = await call(client, "contacts_list", { accountId, take: 1 });
    const page2 = await call(client, "contacts_list", { accountId, take: 1, cursor: page1.nextCursor });
    expect(page2.nextCursor).toBeNull();
    expect(new Set([page1.contacts[0].id, page2.contacts[0].id]).size).toBe(2);
    expect(await refusal(client, "contacts_list", { accountId: "acc_nope" })).toContain("No such account");
    expect(await refusal(client, "contacts_list", { cursor: "bm9wZQ" })).toContain("cursor");
    const full = await call(client, "contacts_get", { contactId: page1.contacts[0].id });
    expect(full).toMatchObject({
      postalCode: "02116",
      addressLine1: expect.any(String),
      account: { id: accountId },
      audiences: [expect.objectContaining({ id: expect.any(String) })],
      pieces: [],
      suppressions: [],
    });
    // Its mailability, as an audit would judge it now (a US address needs its state), with the normalised address beside the original.
    expect(full.mailability).toMatchObject({
      status: "unmailable",
      reasons: ["invalid_region"],
      normalised: { postalCode: "02116", country: "US" },
      verification: null,
    });
    expect(await refusal(client, "contacts_get", { contactId: "ctc_nope" })).toContain("No such contact");
  });

  it("accounts_list and accounts_get show the accounts with their contacts", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(o.workspaceId);
    await call(client, "contacts_import", { csv: CSV });
    const { accounts } = await call(client, "accounts_list", { search: "init" });
    expect(accounts).toEqual([
      expect.objectContaining({ name: "Initech", domain: "initech.com", contacts: 2, source: "import" }),
    ]);
    const account = await call(client, "accounts_get", { accountId: accounts[0].id });
    expect(account).toMatchObject({
      name: "Initech",
      contacts: 2,
      audiences: [expect.objectContaining({ contacts: 2 })],
    });
    expect(await refusal(client, "accounts_get", { accountId: "acc_nope" })).toContain("No such account");
  });

  it("audiences_create, _get, _add_contacts and _remove_contacts change membership and audit each change; unknown ids write nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { contacts } = await createAudience(prisma, o.workspaceId, { accounts: 3, perAccount: 2 });
    const client = await agentFor(o.workspaceId);
    const created = await call(client, "audiences_create", {
      name: "Board members",
      contactIds: [contacts[0].id, contacts[1].id],
    });
    expect(created).toMatchObject({ name: "Board members", size: 2, accounts: 1 });
    expect(await refusal(client, "audiences_create", { name: "Board members" })).toContain("already an audience");
    const added = await call(client, "audiences_add_contacts", {
      audienceId: created.id,
      contactIds: [contacts[1].id, contacts[2].id],
    });
    expect(added).toMatchObject({ added: 1, alreadyMembers: 1, size: 3, accounts: 2 });
    expect(
      await refusal(client, "audiences_add_contacts", {
        audienceId: created.id,
        contactIds: [contacts[3].id, "ctc_nope"],
      }),
    ).toContain("ctc_nope");
    expect(await prisma.audienceMember.count({ where: { audienceId: created.id } })).toBe(3);
    const removed = await call(client, "audiences_remove_contacts", {
      audienceId: created.id,
      contactIds: [contacts[0].id],
    });
    expect(removed).toMatchObject({ removed: 1, size: 2 });
    const got = await call(client, "audiences_get", { audienceId: created.id });
    expect(got).toMatchObject({ size: 2, accounts: 2, byCountry: [{ country: "US", contacts: 2 }], campaigns: [] });
    const listed = await call(client, "audiences_list", {});
    expect(listed.audiences.map((a: { name: string }) => a.name)).toContain("Board members");
    expect(await refusal(client, "audiences_get", { audienceId: "aud_nope" })).toContain("No such audience");
    const actions = (
      await prisma.auditLogEntry.findMany({
        where: { workspaceId: o.workspaceId, actorKind: "agent" },
        orderBy: { createdAt: "asc" },
      })
    ).map((e) => e.action);
    expect(actions).toEqual(["audience.created", "audience.contacts_added", "audience.contacts_removed"]);
  });

  it("suppressions_add takes emails, addresses, domains and accounts with a closed reason; the contacts it names show as suppressed; bad entries write nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { contacts } = await createAudience(prisma, o.workspaceId, { accounts: 4, perAccount: 1 });
    const client = await agentFor(o.workspaceId);
    const bad = await refusal(client, "suppressions_add", {
      entries: [
        { email: "ok@x.example", reason: "opt-out" },
        { email: "not an email", reason: "opt-out" },
      ],
    });
    expect(bad).toContain("/entries/1/email");
    expect(
      await refusal(client, "suppressions_add", { entries: [{ email: "a@b.example", reason: "annoyed" }] }),
    ).toContain("reason");
    expect(
      await refusal(client, "suppressions_add", {
        entries: [{ email: "a@b.example", domain: "b.example", reason: "customer" }],
      }),
    ).toContain("exactly one");
    expect(await prisma.suppression.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    const r = await call(client, "suppressions_add", {
      entries: [
        { email: contacts[0].email, reason: "opt-out" },
        {
          address: {
            addressLine1: contacts[1].addressLine1,
            addressLine2: contacts[1].addressLine2,
            city: "Boston",
            postalCode: "02116",
            country: "United States",
          },
          reason: "bounced",
        },
        { domain: "https://www.competitor.example/", reason: "competitor" },
        { accountId: contacts[2].accountId, reason: "customer" },
      ],
    });
    expect(r).toMatchObject({ added: 4, alreadySuppressed: 0 });
    expect(r.suppressions.map((s: { kind: string; reason: string }) => `${s.kind}:${s.reason}`).sort()).toEqual([
      "account:customer",
      "address:bounced",
      "domain:competitor",
      "email:opt-out",
    ]);
    const again = await call(client, "suppressions_add", {
      entries: [{ email: contacts[0].email!.toUpperCase(), reason: "bounced" }],
    });
    expect(again).toMatchObject({ added: 0, alreadySuppressed: 1 });
    const suppressed = await call(client, "contacts_list", { suppressed: true, take: 10 });
    expect(suppressed.contacts.map((c: { id: string }) => c.id).sort()).toEqual(
      [contacts[0].id, contacts[1].id, contacts[2].id].sort(),
    );
    const clear = await call(client, "contacts_list", { suppressed: false, take: 10 });
    expect(clear.contacts.map((c: { id: string }) => c.id)).toEqual([contacts[3].id]);
    const list = await call(client, "suppressions_list", { reason: "opt-out" });
    expect(list.suppressions).toEqual([
      expect.objectContaining({
        kind: "email",
        value: contacts[0].email,
        reason: "opt-out",
        source: "agent",
        createdBy: "Ledger Bot (agent)",
      }),
    ]);
  });

  it("write tools need contacts:write; a read-only agent is refused and nothing changes", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(o.workspaceId, ["workspace:read"]);
    for (const [name, args] of [
      ["contacts_import", { csv: CSV }],
      ["audiences_create", { name: "x" }],
      ["suppressions_add", { entries: [{ email: "a@b.example", reason: "opt-out" }] }],
    ] as const) {
      expect(await refusal(client, name, args)).toContain("contacts:write");
    }
    expect(await prisma.contactImport.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect(await prisma.audience.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect(await prisma.suppression.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("another workspace's contacts, accounts, audiences and imports are not found", async () => {
    const theirs = await createOwnerWorkspace(prisma);
    const { audience, contacts } = await createAudience(prisma, theirs.workspaceId, { accounts: 1, perAccount: 1 });
    const theirClient = await agentFor(theirs.workspaceId);
    const imported = await call(theirClient, "contacts_import", { csv: CSV });
    const mine = await createOwnerWorkspace(prisma);
    const client = await agentFor(mine.workspaceId);
    expect(await refusal(client, "contacts_get", { contactId: contacts[0].id })).toContain("No such contact");
    expect(await refusal(client, "accounts_get", { accountId: contacts[0].accountId })).toContain("No such account");
    expect(await refusal(client, "audiences_get", { audienceId: audience.id })).toContain("No such audience");
    expect(await refusal(client, "imports_get", { importId: imported.importId })).toContain("No such import");
    expect(
      await refusal(client, "audiences_add_contacts", { audienceId: audience.id, contactIds: [contacts[0].id] }),
    ).toContain("No such audience");
    expect(await refusal(client, "contacts_import", { csv: CSV, audienceId: audience.id })).toContain(
      "No such audience",
    );
    expect(
      await refusal(client, "suppressions_add", {
        entries: [{ accountId: contacts[0].accountId, reason: "customer" }],
      }),
    ).toContain("No account");
    expect((await call(client, "contacts_list", {})).contacts).toEqual([]);
    expect(await prisma.audienceMember.count({ where: { audienceId: audience.id } })).toBe(1);
  });
});
