import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { MCP_TOOLS } from "@/server/doors/mcp/catalog";
import { generateCrm } from "@/test/crm-fakes/data";
import { startHubSpotFake } from "@/test/crm-fakes/hubspot-fake";
import { testDatabase } from "@/test/database";
import { callerFor, createOwnerWorkspace } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { agentFor, toolErrorOf } from "@/test/mcp";
import { keyring, open, seal } from "@/server/ground/platform/secret-box";

let prisma: PrismaClient;
let close: () => Promise<void>;
const TOKEN = "pat-na1-access-test-0001";

beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  const fake = await startHubSpotFake(generateCrm("hubspot", { contacts: 10 }), { token: TOKEN });
  close = fake.close;
  process.env.CRM_TEST_ALLOW_LOCAL_URLS = "1";
  process.env.CRM_TEST_HUBSPOT_BASE_URL = fake.url;
  // On PostgreSQL the key must come from the environment (as in production).
  process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 9).toString("base64");
});
afterAll(() => close());

/** A workspace whose owner connected HubSpot in the browser, synced once. */
async function connected() {
  const o = await createOwnerWorkspace(prisma);
  const owner = await callerFor(prisma, o.user);
  const { connectionId, sync } = await owner.crm.connect({
    workspaceId: o.workspaceId,
    credentials: { kind: "hubspot", accessToken: TOKEN },
  });
  await drainJobs(prisma, { workspaceId: o.workspaceId });
  return { ...o, owner, connectionId, syncId: sync.syncId };
}

describe("who can reach a CRM connection", () => {
  it("the owner's browser only: a request with an agent's bearer token and no session reaches no crm procedure", async () => {
    const o = await connected();
    const agentRequest = await callerFor(prisma, null, { authorization: "Bearer mcp_at_0123456789abcdef" });
    const id = { workspaceId: o.workspaceId };
    const attempts: [string, () => Promise<unknown>][] = [
      ["connections", () => agentRequest.crm.connections(id)],
      [
        "connect",
        () =>
          agentRequest.crm.connect({ ...id, credentials: { kind: "hubspot", accessToken: "pat-na1-someone-elses" } }),
      ],
      ["disconnect", () => agentRequest.crm.disconnect({ ...id, connectionId: o.connectionId })],
      ["setSchedule", () => agentRequest.crm.setSchedule({ ...id, connectionId: o.connectionId, scheduleMinutes: 15 })],
      ["syncNow", () => agentRequest.crm.syncNow({ ...id, connectionId: o.connectionId })],
      ["dealOptions", () => agentRequest.crm.dealOptions({ ...id, connectionId: o.connectionId })],
      [
        "setDealFilter",
        () =>
          agentRequest.crm.setDealFilter({
            ...id,
            connectionId: o.connectionId,
            pipelines: null,
            stages: ["closedwon"],
          }),
      ],
      ["sync", () => agentRequest.crm.sync({ ...id, syncId: o.syncId })],
      ["syncs", () => agentRequest.crm.syncs({ ...id, connectionId: o.connectionId })],
      ["issues", () => agentRequest.crm.issues({ ...id, syncId: o.syncId })],
    ];
    for (const [name, attempt] of attempts)
      await expect(attempt(), name).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    // Another workspace's owner sees nothing of it either.
    const stranger = await createOwnerWorkspace(prisma);
    const other = await callerFor(prisma, stranger.user);
    await expect(
      other.crm.disconnect({ workspaceId: o.workspaceId, connectionId: o.connectionId }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      other.crm.syncNow({ workspaceId: stranger.workspaceId, connectionId: o.connectionId }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await prisma.crmConnection.findUniqueOrThrow({ where: { id: o.connectionId } })).toMatchObject({
      status: "connected",
      scheduleMinutes: 60,
    });
  });

  it("agents get exactly three CRM tools, none of which sees, sets or changes a connection or credentials", async () => {
    const crmTools = MCP_TOOLS.filter((t) => t.name.startsWith("crm_")).map((t) => [t.name, t.scope, t.kind]);
    expect(crmTools).toEqual([
      ["crm_connections_list", "workspace:read", "read"],
      ["crm_sync_start", "contacts:write", "write"],
      ["crm_sync_get", "workspace:read", "read"],
    ]);
    for (const tool of MCP_TOOLS)
      expect(Object.keys(tool.input.shape), tool.name).not.toEqual(expect.arrayContaining(["accessToken"]));
    const o = await connected();
    const reader = await agentFor(prisma, o.workspaceId, ["workspace:read"]);
    const listed = await reader.callTool({ name: "crm_connections_list", arguments: {} });
    expect(JSON.stringify(listed)).not.toContain(TOKEN);
    expect(JSON.stringify(listed)).not.toMatch(/credentials|v1\.[0-9a-f]{8}\./);
    expect(
      toolErrorOf(await reader.callTool({ name: "crm_sync_start", arguments: { connectionId: o.connectionId } }))?.code,
    ).toBe("insufficient_scope");
    expect(toolErrorOf(await reader.callTool({ name: "crm_connect", arguments: { accessToken: TOKEN } }))?.code).toBe(
      "unknown_tool",
    );
    // Another workspace's agent cannot sync it.
    const stranger = await createOwnerWorkspace(prisma);
    const writer = await agentFor(prisma, stranger.workspaceId);
    expect(
      toolErrorOf(await writer.callTool({ name: "crm_sync_start", arguments: { connectionId: o.connectionId } }))?.code,
    ).toBe("not_found");
    expect(toolErrorOf(await writer.callTool({ name: "crm_sync_get", arguments: { syncId: o.syncId } }))?.code).toBe(
      "not_found",
    );
  });

  it("after the owner disconnects, the credentials are gone, what was synced stays, and an agent's sync is refused with the next step", async () => {
    const o = await connected();
    await o.owner.crm.disconnect({ workspaceId: o.workspaceId, connectionId: o.connectionId });
    const row = await prisma.crmConnection.findUniqueOrThrow({ where: { id: o.connectionId } });
    expect(row).toMatchObject({ status: "disconnected", credentials: null, nextSyncAt: null });
    expect(
      await prisma.contact.count({ where: { workspaceId: o.workspaceId, source: "crm", sourceDetail: "HubSpot" } }),
    ).toBe(10);
    const agent = await agentFor(prisma, o.workspaceId);
    const refused = toolErrorOf(
      await agent.callTool({ name: "crm_sync_start", arguments: { connectionId: o.connectionId } }),
    );
    expect(refused).toMatchObject({
      code: "invalid_state",
      nextStep: expect.stringContaining("Only the workspace owner can connect it again"),
    });
    const log = await prisma.auditLogEntry.findMany({
      where: { workspaceId: o.workspaceId, action: { startsWith: "crm." } },
      orderBy: { createdAt: "asc" },
    });
    expect(log.map((e) => e.action)).toEqual(["crm.connected", "crm.sync_started", "crm.disconnected"]);
    expect(JSON.stringify(log)).not.toContain(TOKEN);
  });

  it("bad input is refused with a sentence and writes nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const owner = await callerFor(prisma, o.user);
    const attempt = (credentials: unknown) =>
      owner.crm.connect({ workspaceId: o.workspaceId, credentials: credentials as never });
    await expect(attempt({ kind: "hubspot", accessToken: "pat na1 with spaces" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(attempt({ kind: "hubspot", accessToken: "x".repeat(501) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(attempt({ kind: "pipedrive", accessToken: TOKEN })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      attempt({
        kind: "salesforce",
        myDomainUrl: "https://169.254.169.254/latest",
        clientId: "3MVG9-key-123",
        clientSecret: "secret-123456",
      }),
    ).rejects.toMatchObject({
      message:
        "Only Salesforce My Domain addresses are accepted (https://<your-domain>.my.salesforce.com); find yours in Setup → My Domain.",
    });
    await expect(
      owner.crm.setSchedule({
        workspaceId: o.workspaceId,
        connectionId: "crm_00000000000000000000000000000000",
        scheduleMinutes: 5,
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await prisma.crmConnection.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });
});

describe("the secret box", () => {
  it("binds a ciphertext to its connection and reads ciphertexts of an older key", () => {
    const old = Buffer.alloc(32, 1).toString("base64");
    const current = Buffer.alloc(32, 2).toString("base64");
    const before = keyring({ CRM_ENCRYPTION_KEY: old, DATABASE_URL: "memory://" });
    const sealed = seal({ kind: "hubspot", accessToken: TOKEN }, "crm_a", before);
    expect(sealed).not.toContain(TOKEN);
    expect(() => open(sealed, "crm_b", before)).toThrow(/could not be decrypted/);
    const rotated = keyring({ CRM_ENCRYPTION_KEY: current, CRM_ENCRYPTION_OLD_KEYS: old, DATABASE_URL: "memory://" });
    expect(open(sealed, "crm_a", rotated)).toEqual({ value: { kind: "hubspot", accessToken: TOKEN }, stale: true });
    expect(() => open(sealed, "crm_a", keyring({ CRM_ENCRYPTION_KEY: current, DATABASE_URL: "memory://" }))).toThrow(
      /not configured/,
    );
    expect(() => keyring({ DATABASE_URL: "postgresql://db/x" })).toThrow(/CRM_ENCRYPTION_KEY/);
  });
});
