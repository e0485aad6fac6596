import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { TOOL_ERROR_CODES, TOOL_ERROR_META_KEY } from "@/server/doors/mcp/errors";
import {
  contentType,
  hostileBody,
  hostileJson,
  hostileObject,
  hostileString,
  METHODS,
  oddHeaders,
  validHeaders,
} from "./arbitraries";
import {
  check,
  describeRequest,
  isHttpRefusal,
  tagKeys,
  expectHealthy,
  expectNoInternalText,
  expectNoServerError,
  expectOnlyAcceptedWrites,
  fuzzWorkspace,
  observe,
  observeAll,
  type Reply,
  type Sent,
  send,
  snapshot,
  Writes,
} from "./harness";

/**
 * The MCP endpoint and every tool it lists (read from tools/list, so a new tool is fuzzed as soon
 * as it is registered): hostile JSON-RPC envelopes, methods, tool names and arguments, bodies,
 * media types and tokens. Every answer is under 500 and JSON-RPC's own shape; a failed tool call
 * is an isError result with a stable code and no internal text; refused calls write nothing.
 */

test.describe.configure({ mode: "serial", timeout: 300_000 });

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
};

/** A plausible value for a JSON Schema property (the enum, the type, or a real id of the fuzz workspace). */
function plausible(name: string, schema: JsonSchema): fc.Arbitrary<unknown> {
  const fz = fuzzWorkspace();
  const ids: Record<string, string[]> = {
    campaignId: [fz.liveCampaignId, fz.draftCampaignId],
    contactId: fz.contactIds,
    pieceId: [fz.pieceId],
    cardId: ["card_00000000000000000000000000000000"],
    eventId: ["evt_00000000000000000000000000000000"],
  };
  if (ids[name]) return fc.constantFrom(...ids[name]);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? schema.anyOf?.[0]?.type);
  if (type === "number" || type === "integer")
    return fc.oneof(
      fc.integer({ min: -10, max: 100_000 }),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1, max: 2 }),
    );
  if (type === "boolean") return fc.boolean();
  if (type === "object" && schema.properties)
    return hostileObject(Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, plausible(k, v)])));
  return fc.string({ maxLength: 30 });
}

/** JSON-RPC 2.0: a response object (or a batch of them) with a result or an error {code, message}. */
function expectJsonRpc(reply: Reply, req: Sent) {
  const where = `${reply.status} for ${describeRequest(req)}`;
  if (reply.status === 202 && reply.text === "") return;
  if (reply.status === 405) expect(reply.headers.allow, where).toBeTruthy();
  const messages = Array.isArray(reply.json) ? reply.json : [reply.json];
  expect(messages.length, where).toBeGreaterThan(0);
  for (const m of messages) {
    expect(m, where).toMatchObject({ jsonrpc: "2.0" });
    const { result, error } = m as { result?: unknown; error?: { code: unknown; message: unknown } };
    if (error) expect(error, where).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
    else expect(result, where).toBeDefined();
    const toolResult = result as
      | { isError?: boolean; _meta?: Record<string, { code?: string; message?: string; nextStep?: string }> }
      | undefined;
    if (toolResult?.isError) {
      const coded = toolResult._meta?.[TOOL_ERROR_META_KEY];
      expect(TOOL_ERROR_CODES, `tool error code in ${where}: ${JSON.stringify(toolResult).slice(0, 300)}`).toContain(
        coded?.code,
      );
      expect(typeof coded?.message, where).toBe("string");
      expect(typeof coded?.nextStep, where).toBe("string");
    }
  }
  if (reply.status === 401) expect(reply.headers["www-authenticate"], where).toContain("Bearer");
}

test("hostile JSON-RPC to the MCP endpoint and every tool: never a 5xx, always JSON-RPC, coded tool errors, nothing written on refusal", async () => {
  const fz = fuzzWorkspace();
  const list = await send({
    method: "POST",
    path: "/api/mcp",
    headers: {
      Authorization: `Bearer ${fz.agents.full}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const tools = (list.json as { result: { tools: { name: string; inputSchema: JsonSchema }[] } }).result.tools;
  expect(tools.length).toBeGreaterThan(10);

  const toolCall = fc.constantFrom(...tools).chain((tool) =>
    fc.record({
      name: fc.oneof({ weight: 12, arbitrary: fc.constant(tool.name) }, { weight: 1, arbitrary: hostileString() }),
      arguments: fc.oneof(
        {
          weight: 8,
          arbitrary: hostileObject(
            Object.fromEntries(Object.entries(tool.inputSchema.properties ?? {}).map(([k, v]) => [k, plausible(k, v)])),
            [fz.liveCampaignId, fz.draftCampaignId],
          ).map(tagKeys),
        },
        { weight: 1, arbitrary: hostileJson() },
      ),
    }),
  );
  const message = fc.oneof(
    {
      weight: 10,
      arbitrary: fc.record({
        jsonrpc: fc.constant("2.0"),
        id: fc.oneof(fc.nat(), fc.string({ maxLength: 8 })),
        method: fc.constant("tools/call"),
        params: toolCall,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        jsonrpc: fc.constant("2.0"),
        id: fc.oneof(fc.nat(), fc.constant(null), hostileJson()),
        method: fc.oneof(
          fc.constantFrom(
            "initialize",
            "ping",
            "tools/list",
            "resources/list",
            "resources/read",
            "resources/templates/list",
            "prompts/list",
            "prompts/get",
            "logging/setLevel",
            "completion/complete",
            "notifications/initialized",
          ),
          hostileString(),
        ),
        params: hostileObject({
          uri: fc.constantFrom("https://x/agents/policy.md", "file:///etc/passwd"),
          protocolVersion: fc.constantFrom("2025-11-25", "1999-01-01"),
          capabilities: hostileJson(),
          clientInfo: hostileJson(),
          cursor: hostileString(),
        }),
      }),
    },
    { weight: 1, arbitrary: hostileJson() },
  );
  const token = fc.oneof(
    { weight: 10, arbitrary: fc.constant(fz.agents.full) },
    { weight: 2, arbitrary: fc.constant(fz.agents.readOnly) },
    { weight: 1, arbitrary: fc.constantFrom("dma_unknown", fz.apiKeys[0], "", "dmr_x") },
  );
  const request = fc
    .record({
      body: hostileBody(
        fc.oneof(
          { weight: 6, arbitrary: message },
          { weight: 1, arbitrary: fc.array(message, { minLength: 1, maxLength: 4 }) },
        ),
      ),
      token,
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant("POST") },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      type: fc.oneof({ weight: 6, arbitrary: fc.constant("application/json") }, { weight: 1, arbitrary: contentType }),
      accept: fc.oneof(
        { weight: 8, arbitrary: fc.constant("application/json, text/event-stream") },
        { weight: 1, arbitrary: fc.constantFrom("application/json", "*/*", "") },
      ),
      extra: oddHeaders.map(({ Origin: _o, ...rest }) => rest),
      protocol: fc.option(fc.constantFrom("2025-11-25", "2025-06-18", "1999-01-01", "garbage"), {
        nil: undefined,
        freq: 3,
      }),
    })
    .map(
      (r): Sent => ({
        method: r.method,
        path: "/api/mcp",
        headers: validHeaders({
          ...r.extra,
          Authorization: r.token ? `Bearer ${r.token}` : undefined,
          "Content-Type": r.type,
          Accept: r.accept,
          "MCP-Protocol-Version": r.protocol,
        }),
        body: ["GET", "HEAD"].includes(r.method) ? undefined : r.body,
      }),
    );

  const before = await snapshot();
  const writes = new Writes();
  const known = new Set(before.campaigns.map((c) => c.id));
  await check("mcp endpoint", request, 600, async (req) => {
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
    if (req.method === "HEAD" || req.method === "OPTIONS" || isHttpRefusal(reply)) return;
    expectJsonRpc(reply, req);
    // What the accepted calls wrote, read from their results: only that may show in the snapshot.
    const answers = (Array.isArray(reply.json) ? reply.json : [reply.json]) as {
      result?: {
        isError?: boolean;
        structuredContent?: { changed?: string[]; result?: { id?: string; cardId?: string; eventId?: string } };
      };
      error?: { code: number; data?: { elicitations?: { elicitationId: string }[] } };
    }[];
    for (const answer of answers) {
      // URL-mode elicitation: the card exists, the answer is an error pointing to it.
      if (answer?.error?.code === -32042)
        for (const e of answer.error.data?.elicitations ?? []) writes.cardIds.add(e.elicitationId);
      const structured = answer?.result?.structuredContent;
      if (!structured || answer.result?.isError || !structured.changed?.length) continue;
      const { id, cardId, eventId } = structured.result ?? {};
      if (id?.startsWith("cmp_")) (known.has(id) ? writes.touchedCampaigns : writes.createdCampaigns).add(id);
      if (eventId) writes.eventIds.add(eventId);
      if (cardId) writes.cardIds.add(cardId);
    }
  });
  expectOnlyAcceptedWrites(before, await snapshot(), writes);
  await expectHealthy();
});

/** What the people tools can change, as the read-only agent sees it. */
async function peopleState() {
  const { contacts, accounts, audiences } = (await observe("workspace_get_summary", {})).counts as Record<
    string,
    number
  >;
  const suppressions = await observeAll<{ id: string }>("suppressions_list", {}, "suppressions");
  const sizes = (await observeAll<{ id: string; size: number }>("audiences_list", {}, "audiences"))
    .map((a) => `${a.id}:${a.size}`)
    .sort();
  return { contacts, accounts, audiences, suppressions: suppressions.length, sizes };
}

test("hostile arguments to the tools that change contacts, audiences and suppressions: never a 5xx, coded errors, a refused call changes nothing", async () => {
  const fz = fuzzWorkspace();
  const list = await send({
    method: "POST",
    path: "/api/mcp",
    headers: {
      Authorization: `Bearer ${fz.agents.people}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const tools = (
    list.json as { result: { tools: { name: string; inputSchema: JsonSchema; description: string }[] } }
  ).result.tools.filter((t) => t.description.includes("Scope: contacts:write."));
  expect(tools.map((t) => t.name)).toEqual(
    expect.arrayContaining([
      "contacts_import",
      "audiences_create",
      "audiences_add_contacts",
      "audiences_remove_contacts",
      "suppressions_add",
      "contacts_apply_fix",
    ]),
  );
  const csv = fc.oneof(
    fc.constant("First Name,Last Name,Email\nAda,Lovelace,ada@fuzz.example\n"),
    fc.constant("\u0000,\n"),
    fc.constant("=cmd|' /C calc'!A0,@SUM(1)\n-1,+2\n"),
    hostileString(),
  );
  const call = fc.constantFrom(...tools).chain((tool) =>
    fc.record({
      name: fc.constant(tool.name),
      arguments: fc.oneof(
        {
          weight: 8,
          arbitrary: hostileObject(
            Object.fromEntries(
              Object.entries(tool.inputSchema.properties ?? {}).map(([k, v]) => [
                k,
                k === "csv" ? csv : plausible(k, v),
              ]),
            ),
          ),
        },
        { weight: 1, arbitrary: hostileJson() },
      ),
    }),
  );
  await check("people tools", call, 150, async (params) => {
    const before = await peopleState();
    const req: Sent = {
      method: "POST",
      path: "/api/mcp",
      headers: {
        Authorization: `Bearer ${fz.agents.people}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params }),
    };
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
    if (isHttpRefusal(reply)) return;
    expectJsonRpc(reply, req);
    const result = (reply.json as { result?: { isError?: boolean } }).result;
    if (result?.isError || (reply.json as { error?: unknown }).error)
      expect(await peopleState(), `a refused ${params.name} changed nothing: ${describeRequest(req)}`).toEqual(before);
  });
  await expectHealthy();
});
