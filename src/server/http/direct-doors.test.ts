import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as v1Route from "@/app/api/v1/[...path]/route";
import * as toolsRoute from "@/app/api/tools/[...path]/route";
import type { PrismaClient } from "@/generated/prisma/client";
import { createApiKey } from "@/server/api-keys/service";
import { testDatabase } from "@/test/database";
import { uniq } from "@/test/factories";
import { liveApiCampaign } from "@/test/rest-fixtures";
import { DOORS, directDoors, doorFor } from "./direct-doors";
import { SECURITY_HEADERS } from "./security-headers";

const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const exported = (route: object) => HTTP_METHODS.filter((m) => m in route);

let prisma: PrismaClient;
let server: http.Server;
let base: string;
const nextAnswered: string[] = [];

beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  // What scripts/serve.ts does, with a stand-in for Next that records what it was left.
  server = http.createServer((req, res) => {
    if (directDoors.serve(req, res)) return;
    nextAnswered.push(`${req.method} ${req.url}`);
    res.writeHead(418).end();
  });
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
    const { secret } = await createApiKey(prisma, { workspaceId: c.workspaceId, name: "CRM", scopes: ["post_entry_events"], actor: { kind: "user", id: c.user.id, label: c.user.email } });
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

  it("counts a call without a key against the socket's address, as Next reports it", async () => {
    const res = await fetch(`${base}/api/v1/conversions`, { method: "POST" });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const counter = await prisma.rateLimitCounter.findFirst({ where: { bucket: { startsWith: "rest:addr:127.0.0.1:" } } });
    expect(counter?.count).toBeGreaterThanOrEqual(1);
  });

  it("refuses an oversized body with 413, writes nothing, and the connection still serves the next request", async () => {
    const c = await liveApiCampaign(prisma);
    const { secret } = await createApiKey(prisma, { workspaceId: c.workspaceId, name: "CRM", scopes: ["post_conversions"], actor: { kind: "user", id: c.user.id, label: c.user.email } });
    const body = JSON.stringify({ sid: "x".repeat(40_000) });
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk));
    socket.write(`POST /api/v1/conversions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${secret}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    socket.write(body);
    socket.write("GET /api/v1/nothing HTTP/1.1\r\nHost: x\r\n\r\n");
    await expect.poll(() => received.match(/HTTP\/1\.1 \d+/g), { timeout: 5000 }).toEqual(["HTTP/1.1 413", "HTTP/1.1 404"]);
    socket.destroy();
    expect(received).toContain('"detail":"The body is larger than 16 KiB."');
    expect(await prisma.conversion.count({ where: { workspaceId: c.workspaceId } })).toBe(0);
  });

  it("leaves HEAD, a trailing slash and the rest of the site to Next", async () => {
    nextAnswered.length = 0;
    await fetch(`${base}/api/v1/conversions`, { method: "HEAD" });
    await fetch(`${base}/api/v1/conversions/`);
    await fetch(`${base}/w/settings`);
    expect(nextAnswered).toEqual(["HEAD /api/v1/conversions", "GET /api/v1/conversions/", "GET /w/settings"]);
  });
});
