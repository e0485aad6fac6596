import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { createApiKey } from "@/server/records/api-keys/service";
import { testDatabase } from "@/test/database";
import { uniq } from "@/test/factories";
import { liveApiCampaign } from "@/test/rest-fixtures";
import { parseTrustProxy } from "@/server/ground/http/client-address";
import { serveEntryEventPost } from "@/server/doors/rest/entry-event-door";
import { directDoors, makeDirectDoors } from "./direct-doors";
import { frontDoor } from "./front-door";

/**
 * The fast path for POST /api/v1/campaigns/{id}/events (rest/entry-event-door.ts) answers byte for
 * byte as the /api/v1 door does, for valid and invalid requests alike. Each request goes to two
 * servers: one whose only door is the fast path (anything it leaves gets a 418), and one without
 * it. Each server has its own key and client address (so both see the same rate-limit counts),
 * and the service's clock stands still (so the rate-limit headers agree). Node writes the Date
 * header from its own clock, which a fake one does not stop: that header alone is not compared.
 */

let prisma: PrismaClient;
const servers: http.Server[] = [];
let fastPort: number;
let generalPort: number;
let c: Awaited<ReturnType<typeof liveApiCampaign>>;
const keys = { fast: "", general: "", fastOtherScope: "", generalOtherScope: "", setup: "" };

async function listen(serve: http.RequestListener): Promise<number> {
  const server = http.createServer(serve);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  c = await liveApiCampaign(prisma);
  const actor = { kind: "user" as const, id: c.user.id, label: c.user.email };
  for (const [name, scopes] of [
    ["fast", ["post_entry_events"]],
    ["general", ["post_entry_events"]],
    ["fastOtherScope", ["post_conversions"]],
    ["generalOtherScope", ["post_conversions"]],
    ["setup", ["post_entry_events"]],
  ] as const) {
    keys[name] = (await createApiKey(prisma, { workspaceId: c.workspaceId, name, scopes: [...scopes], actor })).secret;
  }
  const trust = parseTrustProxy("127.0.0.1");
  const refuse = (_req: http.IncomingMessage, res: http.ServerResponse) => void res.writeHead(418).end();
  fastPort = await listen(frontDoor({ trust, doors: { ...directDoors, serve: serveEntryEventPost }, next: refuse }));
  generalPort = await listen(frontDoor({ trust, doors: makeDirectDoors({ entryEventFastPath: false }), next: refuse }));
  vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
});
afterAll(async () => {
  vi.useRealTimers();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

interface Sent {
  path?: string;
  headers?: [string, string][];
  /** The body, or one per side. */
  body?: string | Buffer | ((side: "fast" | "general") => string);
  /** Which key to present: the side's entry-events one (default), the side's one lacking that scope, a made-up one, none, or the one that prepares the cases. */
  key?: "entry" | "otherScope" | "unknown" | "none" | "setup";
}

/** Sends the request as raw bytes and gives the raw answer. */
function exchange(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () =>
      resolve(
        Buffer.concat(chunks)
          .toString("latin1")
          .replace(/\r\nDate: [^\r]*\r\n/, "\r\nDate: (now)\r\n"),
      ),
    );
    socket.on("error", reject);
    socket.write(bytes);
  });
}

function requestBytes(sent: Sent, side: "fast" | "general"): Buffer {
  const body = Buffer.from(typeof sent.body === "function" ? sent.body(side) : (sent.body ?? ""));
  const key = sent.key ?? "entry";
  const secret = {
    entry: keys[side],
    otherScope: keys[side === "fast" ? "fastOtherScope" : "generalOtherScope"],
    setup: keys.setup,
    unknown: "dm_live_madeup",
    none: "",
  }[key];
  const headers: [string, string][] = [
    ["Host", "x"],
    ["Connection", "close"],
    // Each side its own client address, so calls without a working key count in buckets of their own.
    ["X-Forwarded-For", side === "fast" ? "192.0.2.31" : "192.0.2.32"],
    ...(key === "none" ? [] : [["Authorization", `Bearer ${secret}`] as [string, string]]),
    ...(sent.headers ?? [["Content-Type", "application/json"] as [string, string]]),
  ];
  if (!headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name)))
    headers.push(["Content-Length", String(body.length)]);
  const head = `POST ${sent.path ?? `/api/v1/campaigns/${c.campaign.id}/events`} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

/** Both answers to the same request, the general door's first. */
async function both(sent: Sent): Promise<{ fast: string; general: string }> {
  const general = await exchange(generalPort, requestBytes(sent, "general"));
  const fast = await exchange(fastPort, requestBytes(sent, "fast"));
  return { fast, general };
}

const json = (value: unknown) => JSON.stringify(value);

describe("the entry-event fast path", () => {
  it("accepts and replays an event byte for byte as the /api/v1 door does (each side's new event id aside)", async () => {
    const idempotencyKey = uniq("fresh");
    const fresh = await both({
      body: (side) =>
        json({
          contactId: c.contacts[1].id,
          idempotencyKey: `${idempotencyKey}-${side[0]}`,
          occurredAt: "2026-01-02T03:04:05Z",
        }),
    });
    expect(fresh.general).toMatch(/^HTTP\/1\.1 202 Accepted\r\n/);
    expect(fresh.general).toMatch(/\r\nlocation: \/api\/v1\/campaigns\/cmp_\w+\/events\/evt_\w+\r\n/);
    const masked = (answer: string) => answer.replace(/evt_\w+/g, "evt_*");
    expect(masked(fresh.fast)).toBe(masked(fresh.general));
    expect(fresh.fast.match(/evt_\w+/g)?.[0]).not.toBe(fresh.general.match(/evt_\w+/g)?.[0]);

    // The same body under one idempotency key: both answer with the event the first call stored.
    const body = json({ contactId: c.contacts[2].id, idempotencyKey: uniq("replay") });
    const first = await exchange(generalPort, requestBytes({ body, key: "setup" }, "general"));
    expect(first).toMatch(/^HTTP\/1\.1 202/);
    const replay = await both({ body });
    expect(replay.fast).toBe(replay.general);
    expect(replay.fast).toContain(first.match(/evt_\w+/)![0]);

    // A contact named by its email is the same contact: a fresh event each, then one replayed.
    const email = c.contacts[3].email;
    if (!email) throw new Error("the fixture's contacts have email addresses");
    const byEmail = await both({
      body: (side) => json({ contactId: email.toUpperCase(), idempotencyKey: `${idempotencyKey}-email-${side[0]}` }),
    });
    expect(byEmail.general).toMatch(/^HTTP\/1\.1 202 Accepted\r\n/);
    expect(masked(byEmail.fast)).toBe(masked(byEmail.general));
    const sameByEmail = await both({ body: json({ contactId: email, idempotencyKey: `${idempotencyKey}-email-f` }) });
    expect(sameByEmail.fast).toBe(sameByEmail.general);
    expect(sameByEmail.fast).toContain(byEmail.fast.match(/evt_\w+/)![0]);
  });

  it("refuses invalid requests with the same status, headers and problem document", async () => {
    const used = uniq("used");
    expect(
      await exchange(
        generalPort,
        requestBytes({ body: json({ contactId: c.contacts[1].id, idempotencyKey: used }), key: "setup" }, "general"),
      ),
    ).toMatch(/^HTTP\/1\.1 202/);
    const other = (data: { status: "paused" | "live"; acceptsApiEvents: boolean }) =>
      prisma.campaign.create({
        data: {
          workspaceId: c.workspaceId,
          name: "Other",
          format: "postcard",
          audienceId: c.audience.id,
          budgetCents: 10_000,
          ...data,
        },
      });
    const paused = await other({ status: "paused", acceptsApiEvents: true });
    const closed = await other({ status: "live", acceptsApiEvents: false });
    const cases: [string, Sent][] = [
      [
        "campaign not live",
        {
          path: `/api/v1/campaigns/${paused.id}/events`,
          body: json({ contactId: c.contacts[1].id, idempotencyKey: uniq("k") }),
        },
      ],
      [
        "campaign not taking API events",
        {
          path: `/api/v1/campaigns/${closed.id}/events`,
          body: json({ contactId: c.contacts[1].id, idempotencyKey: uniq("k") }),
        },
      ],
      ["key reused with other data", { body: json({ contactId: c.contacts[3].id, idempotencyKey: used }) }],
      ["no key", { key: "none", body: json({ contactId: c.contacts[1].id, idempotencyKey: uniq("k") }) }],
      ["unknown key", { key: "unknown", body: json({ contactId: c.contacts[1].id, idempotencyKey: uniq("k") }) }],
      [
        "key without the scope",
        { key: "otherScope", body: json({ contactId: c.contacts[1].id, idempotencyKey: uniq("k") }) },
      ],
      [
        "unknown campaign",
        {
          path: "/api/v1/campaigns/cmp_nothing/events",
          body: json({ contactId: c.contacts[1].id, idempotencyKey: uniq("k") }),
        },
      ],
      ["unknown contact", { body: json({ contactId: "ctc_nothing", idempotencyKey: uniq("k") }) }],
      ["unknown email", { body: json({ contactId: "nobody@nowhere.example", idempotencyKey: uniq("k") }) }],
      ["unknown CRM record id", { body: json({ contactId: "hubspot:404", idempotencyKey: uniq("k") }) }],
      ["missing members", { body: json({}) }],
      ["wrong types and an unknown member", { body: json({ contactId: 7, idempotencyKey: [], colour: "red" }) }],
      [
        "campaignId in the body",
        { body: json({ campaignId: c.campaign.id, contactId: c.contacts[1].id, idempotencyKey: uniq("k") }) },
      ],
      [
        "occurredAt in the future",
        { body: json({ contactId: c.contacts[1].id, idempotencyKey: uniq("k"), occurredAt: "2999-01-01T00:00:00Z" }) },
      ],
      [
        "occurredAt without an offset",
        { body: json({ contactId: c.contacts[1].id, idempotencyKey: uniq("k"), occurredAt: "2026-01-01T00:00:00" }) },
      ],
      ["a NUL character", { body: json({ contactId: c.contacts[1].id, idempotencyKey: "a\u0000b" }) }],
      [
        "a __proto__ member",
        { body: `{"__proto__":{"x":1},"contactId":"${c.contacts[1].id}","idempotencyKey":"${uniq("k")}"}` },
      ],
      ["not JSON", { body: "{contactId:" }],
      ["empty", { body: "  " }],
      ["an array", { body: "[]" }],
      ["not UTF-8", { body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }],
      ["text/plain", { headers: [["Content-Type", "text/plain"]], body: json({}) }],
      ["no content type", { headers: [], body: json({}) }],
      [
        "JSON with parameters, in capitals",
        {
          headers: [["Content-Type", "Application/JSON; charset=utf-8"]],
          body: json({ contactId: c.contacts[1].id, idempotencyKey: uniq("k") }),
        },
      ],
    ];
    for (const [label, sent] of cases) {
      const { fast, general } = await both(sent);
      expect(fast, label).not.toMatch(/^HTTP\/1\.1 418/);
      expect(fast, label).toBe(general);
    }
  });

  it("answers a key over its rate limit as the door does", async () => {
    for (let i = 0; i < 61; i++) {
      const { fast, general } = await both({ body: json({}) });
      expect(fast).toBe(general);
      if (i === 60) expect(fast).toMatch(/^HTTP\/1\.1 429/);
    }
  });

  it("leaves to the door what it might read differently: a query string, an encoded id, a repeated header, a body without a Content-Length or over the limit", async () => {
    const body = json({ contactId: c.contacts[1].id, idempotencyKey: uniq("left") });
    for (const sent of [
      { path: `/api/v1/campaigns/${c.campaign.id}/events?x=1`, body },
      { path: `/api/v1/campaigns/${c.campaign.id.replace("_", "%5F")}/events`, body },
      {
        headers: [
          ["Content-Type", "application/json"],
          ["Content-Type", "application/json"],
        ],
        body,
      },
      {
        headers: [
          ["Content-Type", "application/json"],
          ["Transfer-Encoding", "chunked"],
        ],
        body: `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      },
      {
        headers: [
          ["Content-Type", "application/json"],
          ["Content-Length", "20000"],
        ],
        body: "x".repeat(20_000),
      },
    ] as Sent[]) {
      expect(await exchange(fastPort, requestBytes(sent, "fast"))).toMatch(/^HTTP\/1\.1 418/);
    }
  });
});
