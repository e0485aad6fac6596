import { expect, test } from "@playwright/test";
import { demo } from "../support/demo";
import { MCP_HEADERS, rpc } from "../support/mcp-http";

test("an agent's token lists and reads CRM connections over MCP, and reaches no connection procedure of the owner's API", async ({
  request,
}) => {
  const { workspaces, testAgents } = demo();
  const token = testAgents.acme.full;
  const auth = { Authorization: `Bearer ${token}` };

  const listed = await rpc(
    await request.post("/api/mcp", {
      headers: { ...MCP_HEADERS, ...auth },
      data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    }),
  );
  const names: string[] = listed.result.tools.map((t: { name: string }) => t.name);
  // This agent was not granted contacts:write, so starting a sync is not among its tools; nothing connects a CRM for any agent.
  expect(names.filter((n) => n.startsWith("crm_"))).toEqual(["crm_connections_list", "crm_sync_get"]);
  const call = await rpc(
    await request.post("/api/mcp", {
      headers: { ...MCP_HEADERS, ...auth },
      data: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "crm_connections_list", arguments: {} } },
    }),
  );
  expect(call.result.structuredContent.result).toEqual({ connections: [] });

  // The owner's tRPC API: the bearer token is no session, so every CRM procedure is refused.
  const workspaceId = workspaces.acme.id;
  const connect = await request.post("/api/trpc/crm.connect", {
    headers: { ...auth, "Content-Type": "application/json" },
    data: { json: { workspaceId, credentials: { kind: "hubspot", accessToken: "pat-na1-agent-tries-this" } } },
  });
  expect(connect.status()).toBe(401);
  for (const path of ["crm.connections", "crm.syncs", "crm.sync"]) {
    const input = encodeURIComponent(
      JSON.stringify({
        json: {
          workspaceId,
          connectionId: "crm_00000000000000000000000000000000",
          syncId: "cs_00000000000000000000000000000000",
        },
      }),
    );
    const res = await request.get(`/api/trpc/${path}?input=${input}`, { headers: auth });
    expect(res.status(), path).toBe(401);
  }
  for (const path of ["crm.disconnect", "crm.syncNow", "crm.setSchedule"]) {
    const res = await request.post(`/api/trpc/${path}`, {
      headers: { ...auth, "Content-Type": "application/json" },
      data: { json: { workspaceId, connectionId: "crm_00000000000000000000000000000000", scheduleMinutes: 60 } },
    });
    expect(res.status(), path).toBe(401);
  }
});
