import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { ZCampaignDraft } from "@/server/programme/campaigns/schema";
import { testDatabase } from "@/test/database";
import { callerFor, createOwnerWorkspace } from "@/test/factories";
import { dataUrl, makePng } from "@/test/images";
import { brandForRender, getBrandKit, updateBrandKit } from "./service";
import { ZBrandKitUpdate } from "./schema";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const actor = { kind: "user" as const, id: null, label: "owner@example.test" };

describe("the brand kit", () => {
  it("starts from the workspace's name and saves colours, fonts, a PNG logo and a structured return address", async () => {
    const o = await createOwnerWorkspace(prisma, { name: "Brightline" });
    expect(await getBrandKit(prisma, o)).toMatchObject({
      companyName: "Brightline",
      logo: null,
      returnAddress: null,
      fonts: { heading: "noto-sans", handwriting: "caveat" },
    });
    const kit = await updateBrandKit(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: ZBrandKitUpdate.parse({
        companyName: "Brightline Logistics",
        logo: dataUrl("image/png", makePng(600, 200)),
        colors: { primary: "#0B7285", accent: "#f08c00", text: "#212529" },
        fonts: { heading: "noto-serif", handwriting: "patrick-hand" },
        returnAddress: {
          addressLine1: "500 Boylston St",
          city: "Boston",
          region: "MA",
          postalCode: "02116",
          country: "us",
        },
        signOff: "Sam",
      }),
    });
    expect(kit).toMatchObject({
      companyName: "Brightline Logistics",
      colors: { primary: "#0b7285", accent: "#f08c00", text: "#212529" },
      fonts: { heading: "noto-serif", body: "noto-sans", handwriting: "patrick-hand" },
      logo: { type: "image/png", width: 600, height: 200 },
      returnAddress: {
        addressLine1: "500 Boylston St",
        city: "Boston",
        region: "MA",
        postalCode: "02116",
        country: "US",
        addressLine2: null,
      },
      contrastWarnings: [],
    });
    const render = await brandForRender(prisma, o);
    expect(render.returnAddress).toMatchObject({ addressLine1: "500 Boylston St", city: "Boston", country: "US" });
    expect(render.logo).toMatchObject({ mime: "image/png", widthPx: 600, heightPx: 200 });
    expect(
      await prisma.auditLogEntry.count({ where: { workspaceId: o.workspaceId, action: "brand_kit.updated" } }),
    ).toBe(1);
  }, 120_000);

  it("refuses a return address in a country that does not exist, and keeps the kit as it was", async () => {
    const o = await createOwnerWorkspace(prisma);
    const owner = await callerFor(prisma, o.user);
    const address = { addressLine1: "500 Boylston St", city: "Boston", region: "MA", postalCode: "02116" };
    const before = await getBrandKit(prisma, o);
    const refused = await owner.brand
      .update({ workspaceId: o.workspaceId, companyName: "Renamed", returnAddress: { ...address, country: "zz" } })
      .catch((e) => e);
    expect(refused.cause.issues.map((i: { path: string[]; message: string }) => [i.path.join("."), i.message])).toEqual(
      [["returnAddress.country", "ZZ is not a country's ISO code; write one like US or DE."]],
    );
    expect(await getBrandKit(prisma, o)).toEqual(before);
    expect(before.returnAddress).toBeNull();
    // A real one, written any case, is kept upper-case.
    await owner.brand.update({ workspaceId: o.workspaceId, returnAddress: { ...address, country: "de" } });
    expect((await getBrandKit(prisma, o)).returnAddress).toMatchObject({ country: "DE" });
  });

  it("sanitises an SVG logo: scripts, event handlers and external references do not survive", async () => {
    const o = await createOwnerWorkspace(prisma);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="80" onload="alert(1)"><script>alert(document.cookie)</script><foreignObject><div>x</div></foreignObject><image href="/etc/passwd" width="10" height="10"/><a href="javascript:alert(1)"><rect width="120" height="80" fill="#1c3d5a" onclick="steal()"/></a></svg>`;
    const kit = await updateBrandKit(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: { logo: dataUrl("image/svg+xml", svg) },
    });
    expect(kit.logo).toEqual({ type: "image/svg+xml", width: 200, height: 80 });
    const stored = Buffer.from(
      (await prisma.brandKit.findUniqueOrThrow({ where: { workspaceId: o.workspaceId } })).logo!,
    ).toString("utf8");
    expect(stored).toContain("<path");
    for (const bad of ["script", "onload", "onclick", "foreignObject", "javascript:", "/etc/passwd", "href"])
      expect(stored).not.toContain(bad);
  }, 120_000);

  it("refuses a file that is not a PNG or SVG, one over 2 MB, a tiny one and a broken one, and writes nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const attempt = (logo: string) =>
      updateBrandKit(prisma, { workspaceId: o.workspaceId, actor, input: { logo } }).catch((e) => e);
    expect((await attempt(dataUrl("image/gif", "GIF89a"))).message).toBe(
      "The logo must be a PNG or SVG file, sent as a data URL (data:image/png;base64,… or data:image/svg+xml;base64,…).",
    );
    expect((await attempt(dataUrl("image/png", Buffer.alloc(2 * 1024 * 1024 + 10, 1)))).message).toBe(
      "The logo is 2.0 MB; upload at most 2 MB.",
    );
    expect((await attempt(dataUrl("image/png", makePng(40, 20)))).message).toBe(
      "The logo is 40 × 20 pixels; it needs at least 64 pixels on its longer side (300 or more prints sharply).",
    );
    expect((await attempt(dataUrl("image/png", Buffer.from("not a png at all, just text")))).message).toBe(
      "The logo is not a PNG file (its first bytes are not a PNG signature).",
    );
    expect((await attempt(dataUrl("image/svg+xml", "<svg><script>x</script></svg>"))).message).toMatch(
      /^The logo (could not be read as an SVG drawing|draws nothing)/,
    );
    expect(await prisma.brandKit.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect(ZBrandKitUpdate.safeParse({ colors: { primary: "blue" } }).error?.issues[0].message).toBe(
      "A colour is written #rrggbb, like #1c7ed6.",
    );
    expect(ZBrandKitUpdate.safeParse({ fonts: { handwriting: "noto-sans" } }).success).toBe(false);
    expect(ZBrandKitUpdate.safeParse({ companyName: "A\u0000B" }).error?.issues[0].message).toBe(
      "The company name cannot contain a NUL character.",
    );
  }, 120_000);

  it("gives a new campaign without a destination of its own the brand kit's default destination", async () => {
    const o = await createOwnerWorkspace(prisma);
    await updateBrandKit(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: { destinationUrl: "https://brightline.example/hello" },
    });
    const { createDraft } = await import("@/server/programme/campaigns/service");
    const draft = (name: string, destinationUrl: string | null) =>
      ZCampaignDraft.parse({
        name,
        format: "postcard",
        audienceId: null,
        acceptsApiEvents: false,
        holdoutShare: 0.2,
        frequencyCapContact: null,
        frequencyCapAccount: null,
        frequencyWindowDays: 30,
        reviewGate: "none",
        budgetCents: 0,
        fulfilmentContractId: null,
        destinationUrl,
        headline: "",
        bodyTemplate: "",
        signOff: "",
        endsAt: null,
      });
    const plain = await createDraft(prisma, { workspaceId: o.workspaceId, actor, input: draft("Defaults", null) });
    const own = await createDraft(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: draft("Own", "https://brightline.example/own"),
    });
    expect([plain.destinationUrl, own.destinationUrl]).toEqual([
      "https://brightline.example/hello",
      "https://brightline.example/own",
    ]);
  });

  it("warns about colours that are hard to read", async () => {
    const o = await createOwnerWorkspace(prisma);
    const kit = await updateBrandKit(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: { colors: { primary: "#ffe066", text: "#adb5bd" } },
    });
    expect(kit.contrastWarnings).toEqual([
      expect.stringMatching(/^Text on white has a contrast of 2\.\d:1/),
      expect.stringMatching(/^White headlines on the primary colour/),
      expect.stringMatching(/^The primary colour on white/),
    ]);
  }, 120_000);
});
