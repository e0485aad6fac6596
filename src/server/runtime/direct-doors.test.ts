import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as v1Route from "@/app/api/v1/[...path]/route";
import * as toolsRoute from "@/app/api/tools/[...path]/route";
import type { PrismaClient } from "@/generated/prisma/client";
import { createApiKey } from "@/server/records/api-keys/service";
import { testDatabase } from "@/test/database";
import { uniq } from "@/test/factories";
import { liveApiCampaign } from "@/test/rest-fixtures";
import { CLIENT_ADDRESS_HEADER, parseTrustProxy } from "@/server/ground/http/client-address";
import { DOORS, directDoors, doorFor } from "./direct-doors";
import { frontDoor } from "./front-door";
import { answerClientError } from "@/server/ground/http/methods";
import { SECURITY_HEADERS } from "@/server/ground/http/security-headers";

const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const exported = (route: object) => HTTP_METHODS.filter((m) => m in route);

let prisma: PrismaClient;
let server: http.Server;
let base: string;
const nextAnswered: string[] = [];

beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  // What scripts/serve.ts does, with a stand-in for Next that records what it was left (and
  // answers 405 without Allow for /next-405, as Next does for a method a route does not export).
  server = http.createServer(
    frontDoor({
      trust: parseTrustProxy(undefined),
      doors: directDoors,
      next: (req, res) => {
        nextAnswered.push(`${req.method} ${req.url}`);
        res.writeHead(req.url === "/next-405" ? 405 : 418).end();
      },
    }),
  );
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("which requests the direct doors take", () => {
  it("takes exactly the methods the App Router routes export, so both servers route the same", () => {
    expect(DOORS.map((d) => [d.prefix, [...d.methods].sort()])).toEqual([
      ["/api/v1/", exported(v1Route).sort()],
      ["/api/tools/", exported(toolsRoute).sort()],
    ]);
  });

  it("leaves to Next other paths, HEAD, OPTIONS on /api/v1, and paths Next redirects first", () => {
    expect(doorFor("POST", "/api/v1/conversions")?.prefix).toBe("/api/v1/");
    expect(doorFor("GET", "/api/v1/campaigns/c/events/e?x=1")?.prefix).toBe("/api/v1/");
    expect(doorFor("OPTIONS", "/api/tools/holdout-size")?.prefix).toBe("/api/tools/");
    for (const [method, url] of [
      ["HEAD", "/api/v1/conversions"],
      ["OPTIONS", "/api/v1/conversions"],
      ["GET", "/api/v1/conversions/"],
      ["GET", "/api/v1//conversions"],
      ["GET", "/api/v1\\conversions"],
      ["GET", "/api/v1"],
      ["GET", "/api/trpc/x"],
      ["GET", "/sign-in?next=/api/v1/x"],
    ]) {
      expect(doorFor(method, url), `${method} ${url}`).toBeNull();
    }
  });
});

describe("answers over node:http", () => {
  it("accepts an entry event with the handler's status, headers and body, plus the security headers and a length", async () => {
    const c = await liveApiCampaign(prisma);
    const { secret } = await createApiKey(prisma, {
      workspaceId: c.workspaceId,
      name: "CRM",
      scopes: ["post_entry_events"],
      actor: { kind: "user", id: c.user.id, label: c.user.email },
    });
    const body = JSON.stringify({ contactId: c.contacts[1].id, idempotencyKey: uniq("door") });
    const res = await fetch(`${base}/api/v1/campaigns/${c.campaign.id}/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body,
    });
    const text = await res.text();
    expect(res.status).toBe(202);
    const { eventId } = JSON.parse(text);
    expect(res.headers.get("location")).toBe(`/api/v1/campaigns/${c.campaign.id}/events/${eventId}`);
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(res.headers.get("ratelimit-policy")).toBe('"per-key-endpoint";q=60;w=60');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name)).toBe(value);
    expect(await prisma.entryEvent.count({ where: { id: eventId, workspaceId: c.workspaceId } })).toBe(1);
  });

  it("counts a call without a key against the connection's address: neither X-Forwarded-For nor a copy of the internal header moves it", async () => {
    const before = await prisma.rateLimitCounter.aggregate({
      where: { bucket: { startsWith: "rest:addr:127.0.0.1:" } },
      _sum: { count: true },
    });
    // Addresses no other test file writes (on PostgreSQL the files share one database).
    for (const headers of [
      {} as Record<string, string>,
      { "x-forwarded-for": "192.0.2.207" },
      { [CLIENT_ADDRESS_HEADER]: "192.0.2.208" },
      { "x-forwarded-for": "z".repeat(8000) },
    ]) {
      const res = await fetch(`${base}/api/v1/conversions`, { method: "POST", headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
    const after = await prisma.rateLimitCounter.aggregate({
      where: { bucket: { startsWith: "rest:addr:127.0.0.1:" } },
      _sum: { count: true },
    });
    expect((after._sum.count ?? 0) - (before._sum.count ?? 0)).toBe(4);
    expect(
      await prisma.rateLimitCounter.count({
        where: { OR: [{ bucket: { contains: "192.0.2.207" } }, { bucket: { contains: "192.0.2.208" } }] },
      }),
    ).toBe(0);
  });

  it("answers a method no route takes with 405 and Allow, and gives Next's 405s an Allow header", async () => {
    const raw = (request: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
        let received = "";
        socket.on("data", (chunk) => (received += chunk));
        socket.on("end", () => resolve(received));
        socket.write(request);
        setTimeout(() => socket.end(), 500);
      });
    const trace = await raw("TRACE /api/v1/conversions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(trace).toMatch(/^HTTP\/1\.1 405/);
    expect(trace).toMatch(/\r\nallow: POST\r\n/i);
    expect(trace).toContain('"status":405');
    const propfind = await raw("PROPFIND /sign-in HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(propfind).toMatch(/^HTTP\/1\.1 405/);
    expect(propfind).toMatch(/\r\nallow: GET, HEAD\r\n/i);
    expect(
      (await raw("TRACE /api/tools/holdout-size HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toLowerCase(),
    ).toContain("allow: get, options");
    // Methods and headers Node cannot parse: problem documents too, not bare status lines.
    const unparseable = await raw("FOO-BAR /api/v1/conversions HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(unparseable).toMatch(/^HTTP\/1\.1 405/);
    expect(unparseable).toMatch(/\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/);
    expect(unparseable).toContain("application/problem+json");
    const overflow = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${"1".repeat(20_000)}\r\n\r\n`);
    expect(overflow).toMatch(/^HTTP\/1\.1 431/);
    expect(overflow).toContain('"status":431');
    // An address Next cannot decode (it answered 500): a 400 problem document, before Next sees it.
    nextAnswered.length = 0;
    const undecodable = await fetch(`${base}/api/trpc/%`);
    expect(undecodable.status).toBe(400);
    expect(await undecodable.json()).toMatchObject({
      status: 400,
      type: expect.stringMatching(/\/problems\/malformed-request$/),
    });
    expect((await fetch(`${base}/w/%E0%A4%A`)).status).toBe(400);
    expect(nextAnswered).toEqual([]);
    const next405 = await fetch(`${base}/next-405`, { method: "DELETE" });
    expect(next405.status).toBe(405);
    expect(next405.headers.get("allow")).toBe("GET, HEAD");
  });

  it("refuses an oversized body with 413, writes nothing, and the connection still serves the next request", async () => {
    const c = await liveApiCampaign(prisma);
    const { secret } = await createApiKey(prisma, {
      workspaceId: c.workspaceId,
      name: "CRM",
      scopes: ["post_conversions"],
      actor: { kind: "user", id: c.user.id, label: c.user.email },
    });
    const body = JSON.stringify({ sid: "x".repeat(40_000) });
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk));
    socket.write(
      `POST /api/v1/conversions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${secret}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body);
    socket.write("GET /api/v1/nothing HTTP/1.1\r\nHost: x\r\n\r\n");
    await expect
      .poll(() => received.match(/HTTP\/1\.1 \d+/g), { timeout: 5000 })
      .toEqual(["HTTP/1.1 413", "HTTP/1.1 404"]);
    socket.destroy();
    expect(received).toContain('"detail":"The body is larger than 16 KiB."');
    expect(await prisma.conversion.count({ where: { workspaceId: c.workspaceId } })).toBe(0);
  });

  it("a chunked body over the limit gets 413, and what still arrives is dropped without an error outside the handler", async () => {
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on("uncaughtException", onError);
    const c = await liveApiCampaign(prisma);
    const { secret } = await createApiKey(prisma, {
      workspaceId: c.workspaceId,
      name: "CRM",
      scopes: ["post_conversions"],
      actor: { kind: "user", id: c.user.id, label: c.user.email },
    });
    try {
      // More of the body keeps arriving after the handler has stopped reading and answered.
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          `${base}/api/v1/conversions`,
          { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" } },
          (res) => {
            res.resume();
            for (let i = 0; i < 8; i++) req.write(Buffer.alloc(8 * 1024, "b"));
            req.end();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.write(Buffer.alloc(20 * 1024, "a"));
      });
      expect(status).toBe(413);
      await new Promise((r) => setTimeout(r, 300));
      expect(errors).toEqual([]);
    } finally {
      process.off("uncaughtException", onError);
    }
  });

  it("a client that goes on sending after its 413 is read only within the drain's bounds, then its connection is closed", async () => {
    const c = await liveApiCampaign(prisma);
    const { secret } = await createApiKey(prisma, {
      workspaceId: c.workspaceId,
      name: "CRM",
      scopes: ["post_conversions"],
      actor: { kind: "user", id: c.user.id, label: c.user.email },
    });
    const { received, sent } = await sendUntilClosed(
      `POST /api/v1/conversions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${secret}\r\nContent-Type: application/json`,
    );
    expect(received).toMatch(/^HTTP\/1\.1 413/);
    // The handler's drain (64 times the 16 KiB cap) and the front door's (16 MiB), with what the sockets buffer: far from the 64 MiB sent without end.
    expect(sent).toBeLessThan(40 * 1024 * 1024);
    expect(await prisma.conversion.count({ where: { workspaceId: c.workspaceId } })).toBe(0);
  });

  it("so is a body that a page's handler answered without reading", async () => {
    const { received, sent } = await sendUntilClosed(
      "POST /r/abc HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded",
    );
    expect(received).toMatch(/^HTTP\/1\.1 418/);
    expect(sent).toBeLessThan(40 * 1024 * 1024);
  });

  it("leaves HEAD, a trailing slash and the rest of the site to Next", async () => {
    nextAnswered.length = 0;
    await fetch(`${base}/api/v1/conversions`, { method: "HEAD" });
    await fetch(`${base}/api/v1/conversions/`);
    await fetch(`${base}/w/settings`);
    expect(nextAnswered.filter((r) => !r.includes("next-405"))).toEqual([
      "HEAD /api/v1/conversions",
      "GET /api/v1/conversions/",
      "GET /w/settings",
    ]);
  });
});

/**
 * Sends a chunked body of up to 64 MiB, 64 KiB at a time, until the server closes the connection:
 * what came back and how much was sent by then.
 */
async function sendUntilClosed(head: string): Promise<{ received: string; sent: number }> {
  const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
  let received = "";
  let closed = false;
  socket.on("data", (chunk) => (received += chunk));
  socket.on("error", () => {});
  socket.on("close", () => (closed = true));
  socket.write(`${head}\r\nTransfer-Encoding: chunked\r\n\r\n`);
  const piece = Buffer.alloc(64 * 1024, "a");
  const chunk = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]);
  let sent = 0;
  while (!closed && sent < 64 * 1024 * 1024) {
    if (!socket.write(chunk))
      await new Promise((resolve) => (socket.once("drain", resolve), socket.once("close", resolve)));
    sent += piece.length;
  }
  await expect.poll(() => closed, { timeout: 5000 }).toBe(true);
  return { received, sent };
}
