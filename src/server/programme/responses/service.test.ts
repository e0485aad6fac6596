import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { liveApiCampaign } from "@/test/rest-fixtures";
import { landingPageCampaign } from "@/test/response-fixtures";
import { destinationWithSid, followPageLink, openResponseLink } from "./service";
import { VISIT_WINDOW_MS } from "./visits";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("response links", () => {
  it("adds sid to the destination's query, keeping what is there", () => {
    expect(destinationWithSid("https://acme.example/welcome?utm_source=mail#top", "Ab3dE9xYz1Ab3dE9")).toBe(
      "https://acme.example/welcome?utm_source=mail&sid=Ab3dE9xYz1Ab3dE9#top",
    );
    expect(destinationWithSid("https://acme.example/?sid=old", "NEW0000000000000")).toBe(
      "https://acme.example/?sid=NEW0000000000000",
    );
  });

  it("records a scan for the QR code and a click for the link, with time and user agent, once per visit", async () => {
    const f = await liveApiCampaign(prisma);
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { destinationUrl: "https://acme.example/hi" } });
    const code = f.piece.responseCode;
    const t0 = new Date();
    expect(await openResponseLink(prisma, { code, via: "qr", userAgent: "iPhone Camera", now: t0 })).toEqual({
      kind: "redirect",
      location: `https://acme.example/hi?sid=${f.piece.sid}`,
    });
    expect(await openResponseLink(prisma, { code, via: null, userAgent: "Mozilla/5.0", now: t0 })).toEqual({
      kind: "redirect",
      location: `https://acme.example/hi?sid=${f.piece.sid}`,
    });
    // Reloads within the visit count once; a later visit counts again.
    await openResponseLink(prisma, {
      code,
      via: "qr",
      userAgent: "iPhone Camera",
      now: new Date(t0.getTime() + 60_000),
    });
    await openResponseLink(prisma, {
      code,
      via: "qr",
      userAgent: "iPhone Camera",
      now: new Date(t0.getTime() + VISIT_WINDOW_MS + 60_000),
    });
    const events = await prisma.responseEvent.findMany({
      where: { pieceId: f.piece.id },
      orderBy: { occurredAt: "asc" },
    });
    expect(events.map((e) => [e.kind, e.userAgent])).toEqual([
      ["scan", "iPhone Camera"],
      ["click", "Mozilla/5.0"],
      ["scan", "iPhone Camera"],
    ]);
  });

  it("answers link previews and scanners that name themselves, without counting them", async () => {
    const f = await liveApiCampaign(prisma);
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { destinationUrl: "https://acme.example/hi" } });
    for (const ua of [
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "facebookexternalhit/1.1",
    ]) {
      expect(await openResponseLink(prisma, { code: f.piece.responseCode, via: null, userAgent: ua })).toMatchObject({
        kind: "redirect",
      });
    }
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id } })).toBe(0);
  });

  it("unknown and malformed codes lead nowhere and record nothing", async () => {
    const probe = `probe-${Math.random()}`;
    for (const code of ["ZZZZZZZZZZ", "short", "../../etc", "x".repeat(300)]) {
      expect(await openResponseLink(prisma, { code, via: null, userAgent: probe })).toBeNull();
    }
    expect(await prisma.responseEvent.count({ where: { userAgent: probe } })).toBe(0);
  });
});

describe("personal landing pages", () => {
  it("opens the recipient's page with their name, company and message, recording the scan and the view once per visit", async () => {
    const f = await landingPageCampaign(prisma);
    const opened = await openResponseLink(prisma, { code: f.code, via: "qr", userAgent: "iPhone" });
    expect(opened).toMatchObject({
      kind: "page",
      page: {
        kind: "landing_page",
        callToAction: "reply",
        recipient: { firstName: f.contacts[0].firstName, lastName: "Tester", company: "Account 0" },
        message: { headline: `${f.contacts[0].firstName}, hello` },
      },
    });
    await openResponseLink(prisma, { code: f.code, via: "qr", userAgent: "iPhone" });
    const kinds = (await prisma.responseEvent.findMany({ where: { pieceId: f.piece.id }, select: { kind: true } }))
      .map((e) => e.kind)
      .sort();
    expect(kinds).toEqual(["page_view", "scan"]);
  });

  it("a meeting page's button records the click and opens the team's scheduling link; other pages have no such link", async () => {
    const f = await landingPageCampaign(prisma, {
      pageCallToAction: "meeting",
      meetingUrl: "https://cal.example/acme/intro",
    });
    expect(await followPageLink(prisma, { code: f.code, which: "meeting", userAgent: "iPhone" })).toBe(
      "https://cal.example/acme/intro",
    );
    expect(await followPageLink(prisma, { code: f.code, which: "meeting", userAgent: "iPhone" })).toBe(
      "https://cal.example/acme/intro",
    );
    expect(await followPageLink(prisma, { code: f.code, which: "visit_site", userAgent: "iPhone" })).toBeNull();
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id, kind: "meeting_click" } })).toBe(1);
  });

  it("a visit-the-site page's button goes to the destination with sid", async () => {
    const f = await landingPageCampaign(prisma, { pageCallToAction: "visit_site" });
    expect(await followPageLink(prisma, { code: f.code, which: "visit_site", userAgent: "iPhone" })).toBe(
      `https://www.example.com/welcome?utm_source=mail&sid=${f.piece.sid}`,
    );
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id, kind: "site_click" } })).toBe(1);
  });

  it("a piece that was never sent, or a page past its lifetime, is an unknown code", async () => {
    const f = await landingPageCampaign(prisma);
    expect(
      await openResponseLink(prisma, {
        code: f.code,
        via: null,
        userAgent: null,
        now: new Date(Date.now() + 366 * 86_400_000),
      }),
    ).toBeNull();
    await prisma.mailPiece.update({ where: { id: f.piece.id }, data: { status: "cancelled" } });
    expect(await openResponseLink(prisma, { code: f.code, via: null, userAgent: null })).toBeNull();
  });
});
