import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { resolvedAddressHeaders } from "@/server/ground/http/client-address";
import { baseUrl } from "@/server/ground/platform/base-url";
import { LIMITS } from "@/server/ground/rate-limits/limits";
import { testDatabase } from "@/test/database";
import { eventRow } from "@/test/lifecycle-fixtures";
import { giftClaimCampaign, landingPageCampaign } from "@/test/response-fixtures";
import { GET, HEAD, POST } from "./route";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const origin = () => new URL(baseUrl()).origin;
let ipCounter = 1;
const freshIp = () => `198.51.100.${ipCounter++}`;
const params = (code: string) => ({ params: Promise.resolve({ code }) });
const get = (code: string, query = "") =>
  GET(
    new Request(`${origin()}/r/${code}${query}`, { headers: { "user-agent": "Mozilla/5.0 (iPhone)" } }),
    params(code),
  );
function post(
  code: string,
  fields: Record<string, string>,
  opts: { origin?: string | null; ip?: string; type?: string; body?: string } = {},
) {
  const headers: Record<string, string> = {
    "content-type": opts.type ?? "application/x-www-form-urlencoded",
    ...resolvedAddressHeaders(opts.ip ?? freshIp()),
    "user-agent": "Mozilla/5.0 (iPhone)",
  };
  if (opts.origin !== null) headers.origin = opts.origin ?? origin();
  return POST(
    new Request(`${origin()}/r/${code}`, {
      method: "POST",
      headers,
      body: opts.body ?? new URLSearchParams(fields).toString(),
    }),
    params(code),
  );
}
const tokenOf = (htmlText: string, action = "reply") =>
  new RegExp(`name="action" value="${action}"><input type="hidden" name="token" value="([^"]+)"`).exec(htmlText)![1];

describe("GET /r/{code}", () => {
  it("answers every code that leads nowhere with the same plain 404", async () => {
    const f = await landingPageCampaign(prisma);
    await prisma.mailPiece.update({ where: { id: f.piece.id }, data: { status: "cancelled" } });
    const bodies = new Set<string>();
    for (const code of ["ZZZZZZZZZZ", "short", "..%2Fetc", f.code]) {
      const res = await get(code);
      expect(res.status).toBe(404);
      expect(res.headers.get("x-robots-tag")).toContain("noindex");
      bodies.add(await res.text());
    }
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).not.toMatch(/campaign|workspace|sid|expired/i);
  });

  it("shows the landing page server-rendered: the recipient's own data, noindex, no scripts, a CSP that allows only its own stylesheet", async () => {
    const f = await landingPageCampaign(prisma);
    const res = await get(f.code, "?via=qr");
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain(`For ${f.contacts[0].firstName} Tester, Account 0`);
    expect(body).toContain(`${f.contacts[0].firstName}, hello`);
    expect(body).not.toContain(f.contacts[1].firstName);
    expect(body).not.toMatch(/<script/i);
    expect(body).toContain('<meta name="robots" content="noindex, nofollow, noarchive">');
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow, noarchive");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    const style = /<style>([\s\S]*?)<\/style>/.exec(body)![1];
    expect(csp).toContain(`style-src 'sha256-${createHash("sha256").update(style).digest("base64")}'`);
    expect(body).toMatch(/<label for="message">Your message<\/label>/);
  });

  it("HEAD answers without recording anything", async () => {
    const f = await landingPageCampaign(prisma);
    const res = await HEAD(new Request(`${origin()}/r/${f.code}`, { method: "HEAD" }), params(f.code));
    expect(res.status).toBe(200);
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id } })).toBe(0);
  });
});

describe("POST /r/{code}: the reply form", () => {
  it("records the reply with its text once, however often the same form is sent", async () => {
    const f = await landingPageCampaign(prisma);
    const token = tokenOf(await (await get(f.code)).text());
    const fields = { action: "reply", token, message: "Yes, let's talk next week.", replyTo: "ana@home.example" };
    const first = await post(f.code, fields);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("has your message");
    expect((await post(f.code, fields)).status).toBe(200);
    const replies = await prisma.responseEvent.findMany({ where: { pieceId: f.piece.id, kind: "reply" } });
    expect(replies).toHaveLength(1);
    expect(replies[0].data).toEqual({ text: "Yes, let's talk next week.", replyTo: "ana@home.example" });
    // A new page view gives a new form: a second reply is a second occurrence.
    const again = tokenOf(await (await get(f.code)).text());
    await post(f.code, { ...fields, token: again, message: "Also, bring the pricing." });
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id, kind: "reply" } })).toBe(2);
  });

  it("refuses a post from another site (Origin, Sec-Fetch-Site) and one without the page's token, writing nothing", async () => {
    const f = await landingPageCampaign(prisma);
    const token = tokenOf(await (await get(f.code)).text());
    const fields = { action: "reply", token, message: "Forged" };
    expect((await post(f.code, fields, { origin: "https://evil.example" })).status).toBe(403);
    const crossSite = await POST(
      new Request(`${origin()}/r/${f.code}`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "cross-site",
          ...resolvedAddressHeaders(freshIp()),
        },
        body: new URLSearchParams(fields).toString(),
      }),
      params(f.code),
    );
    expect(crossSite.status).toBe(403);
    for (const bad of ["", "nonsense", `${token.slice(0, -2)}xx`]) {
      const res = await post(f.code, { ...fields, token: bad });
      expect(res.status).toBe(403);
      const text = await res.text();
      expect(text).toContain("This form was not sent from its page");
      // What was typed comes back, with a fresh token, so the person can send it again.
      expect(text).toContain(">Forged</textarea>");
    }
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id, kind: "reply" } })).toBe(0);
  });

  it("checks the fields: an empty or oversized reply is refused with the reason beside the field", async () => {
    const f = await landingPageCampaign(prisma);
    const token = tokenOf(await (await get(f.code)).text());
    for (const message of ["   ", "x".repeat(2001)]) {
      const res = await post(f.code, { action: "reply", token, message });
      expect(res.status).toBe(422);
      const text = await res.text();
      expect(text).toContain('aria-invalid="true"');
      expect(text).toMatch(/id="message-error"/);
    }
    expect((await post(f.code, {}, { type: "text/plain", body: "message=hi" })).status).toBe(400);
    expect((await post(f.code, {}, { body: `action=reply&token=${token}&message=${"x".repeat(20_000)}` })).status).toBe(
      400,
    );
    expect((await post(f.code, { action: "claim", token })).status).toBe(400);
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id, kind: "reply" } })).toBe(0);
  });

  it("limits posts per code and per address (429 with Retry-After), writing nothing past the limit", async () => {
    const f = await landingPageCampaign(prisma);
    const token = tokenOf(await (await get(f.code)).text());
    const fields = { action: "reply", token, message: "Hello" };
    for (let i = 0; i < LIMITS.responseFormPerCode.limit; i++) expect((await post(f.code, fields)).status).toBe(200);
    const limited = await post(f.code, { ...fields, token: tokenOf(await (await get(f.code)).text()) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await prisma.responseEvent.count({ where: { pieceId: f.piece.id, kind: "reply" } })).toBe(1);

    const other = await landingPageCampaign(prisma);
    const ip = freshIp();
    const otherToken = tokenOf(await (await get(other.code)).text());
    for (let i = 0; i < LIMITS.responseFormPerIp.limit; i++)
      await post(other.code, { action: "reply", token: "bad" }, { ip });
    const blocked = await post(other.code, { action: "reply", token: otherToken, message: "Hello" }, { ip });
    expect(blocked.status).toBe(429);
    expect(await prisma.responseEvent.count({ where: { pieceId: other.piece.id, kind: "reply" } })).toBe(0);
  });
});

describe("POST /r/{code}: the gift claim", () => {
  it("claims with a corrected address (303 back to the page, which then shows the claim), and refuses a bad one with the reason", async () => {
    const f = await giftClaimCampaign(prisma);
    const page = await (await get(f.code)).text();
    expect(page).toContain("Choose one");
    expect(page).toContain('value="tea-tin"');
    expect(page).toContain(`value="${f.contacts[0].addressLine1}"`);
    const token = tokenOf(page, "claim");
    const address = {
      addressLine1: "12 Elm Street",
      addressLine2: "",
      city: "Cambridge",
      region: "MA",
      postalCode: "2139",
      country: "US",
    };
    const bad = await post(f.code, { action: "claim", token, gift: "tea-tin", ...address });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("Did you mean 02139?");
    expect(await prisma.giftClaim.findUniqueOrThrow({ where: { pieceId: f.piece.id } })).toMatchObject({
      status: "open",
    });

    const ok = await post(f.code, { action: "claim", token, gift: "tea-tin", ...address, postalCode: "02139" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe(`/r/${f.code}`);
    const after = await (await get(f.code)).text();
    expect(after).toContain("Your gift is claimed");
    expect(after).toContain("12 Elm Street");
    expect(after).not.toContain('name="action"');
    expect(await prisma.giftClaim.findUniqueOrThrow({ where: { pieceId: f.piece.id } })).toMatchObject({
      status: "claimed",
      giftItem: "tea-tin",
    });
    expect((await eventRow(prisma, f.eventId)).runAfter.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("declines (303), and the page then says nothing will be sent", async () => {
    const f = await giftClaimCampaign(prisma);
    const token = tokenOf(await (await get(f.code)).text(), "decline");
    expect((await post(f.code, { action: "decline", token })).status).toBe(303);
    expect(await (await get(f.code)).text()).toContain("Nothing will be sent.");
  });
});
