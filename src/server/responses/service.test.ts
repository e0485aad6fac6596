import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { liveApiCampaign } from "@/test/rest-fixtures";
import { destinationWithSid, followResponseLink } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("response links", () => {
  it("adds sid to the destination's query, keeping what is there", () => {
    expect(destinationWithSid("https://acme.example/welcome?utm_source=mail#top", "Ab3dE9xYz1Ab3dE9")).toBe("https://acme.example/welcome?utm_source=mail&sid=Ab3dE9xYz1Ab3dE9#top");
    expect(destinationWithSid("https://acme.example/?sid=old", "NEW0000000000000")).toBe("https://acme.example/?sid=NEW0000000000000");
  });

  it("records a scan for the QR code and a click for the link, with time and user agent", async () => {
    const f = await liveApiCampaign(prisma);
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { destinationUrl: "https://acme.example/hi" } });
    const code = f.piece.responseCode;
    expect(await followResponseLink(prisma, { code, via: "qr", userAgent: "iPhone Camera" })).toBe(`https://acme.example/hi?sid=${f.piece.sid}`);
    expect(await followResponseLink(prisma, { code, via: null, userAgent: "Mozilla/5.0" })).toBe(`https://acme.example/hi?sid=${f.piece.sid}`);
    const events = await prisma.responseEvent.findMany({ where: { pieceId: f.piece.id }, orderBy: { occurredAt: "asc" } });
    expect(events.map((e) => [e.kind, e.userAgent])).toEqual([
      ["scan", "iPhone Camera"],
      ["click", "Mozilla/5.0"],
    ]);
  });

  it("unknown and malformed codes lead nowhere and record nothing", async () => {
    const probe = `probe-${Math.random()}`;
    for (const code of ["ZZZZZZZZZZ", "short", "../../etc", "x".repeat(300)]) {
      expect(await followResponseLink(prisma, { code, via: null, userAgent: probe })).toBeNull();
    }
    expect(await prisma.responseEvent.count({ where: { userAgent: probe } })).toBe(0);
  });
});
