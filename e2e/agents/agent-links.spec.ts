import { expect, test } from "@playwright/test";
import { demo } from "../support/demo";
import { MCP_HEADERS, rpc } from "../support/mcp-http";

test("/agents/tools.json describes every tool tools/list names, with its input and result schemas", async ({
  request,
}) => {
  const { testAgents } = demo();
  const res = await request.get("/agents/tools.json");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/json");
  const catalogue = await res.json();
  const byName = new Map<string, { inputSchema: { type: string }; resultSchema: unknown; scope: string }>(
    catalogue.tools.map((t: { name: string }) => [t.name, t]),
  );
  const listed = await rpc(
    await request.post("/api/mcp", {
      headers: { ...MCP_HEADERS, Authorization: `Bearer ${testAgents.acme.full}` },
      data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    }),
  );
  const names: string[] = listed.result.tools.map((t: { name: string }) => t.name);
  expect(names.length).toBeGreaterThan(10);
  for (const name of names) {
    const t = byName.get(name);
    expect(t, name).toBeDefined();
    expect(t!.inputSchema.type, name).toBe("object");
    expect(t!.resultSchema, name).toBeTruthy();
  }
  expect(catalogue.$defs.envelope.required).toEqual(["requested", "changed", "awaitingConfirmation", "result"]);
});

test("a printed piece's proof link opens without a session while it is valid; a changed link is refused", async ({
  request,
  playwright,
}) => {
  const { testAgents, workspaces } = demo();
  const auth = { Authorization: `Bearer ${testAgents.acme.full}` };
  const call = async (name: string, args: Record<string, unknown>) => {
    const answer = await rpc(
      await request.post("/api/mcp", {
        headers: { ...MCP_HEADERS, ...auth },
        data: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } },
      }),
    );
    expect(answer.result.isError ?? false, JSON.stringify(answer).slice(0, 500)).toBe(false);
    return answer.result.structuredContent.result;
  };
  const listed = await call("pieces_list", { campaignId: workspaces.acme.campaigns.liveApiEntry });
  const mailed = listed.pieces.find((p: { status: string }) => p.status === "mailed");
  expect(mailed).toBeDefined();
  const piece = await call("pieces_get", { pieceId: mailed.pieceId });
  expect(piece.proofUrl).toMatch(/\/api\/pieces\/pc_[0-9a-f]+\/proof\?.*expires=\d+&signature=/);

  // A fresh client with no cookie and no token: the signed link alone opens the PDF.
  const stranger = await playwright.request.newContext({ baseURL: new URL(piece.proofUrl).origin });
  try {
    const opened = await stranger.get(piece.proofUrl);
    expect(opened.status()).toBe(200);
    expect(opened.headers()["content-type"]).toBe("application/pdf");
    expect((await opened.body()).subarray(0, 5).toString()).toBe("%PDF-");
    const url = new URL(piece.proofUrl);
    const signature = url.searchParams.get("signature")!;
    url.searchParams.set("signature", (signature[0] === "A" ? "B" : "A") + signature.slice(1));
    const forged = await stranger.get(url.toString());
    expect([401, 403, 404]).toContain(forged.status());
    expect(forged.headers()["content-type"]).not.toBe("application/pdf");
    // The agent's bearer token is not what opens it: without the signature the same path asks for a session.
    const bare = await stranger.get(`${url.origin}${url.pathname}?workspaceId=${workspaces.acme.id}`, {
      headers: auth,
    });
    expect([401, 403, 404]).toContain(bare.status());
  } finally {
    await stranger.dispose();
  }
});
