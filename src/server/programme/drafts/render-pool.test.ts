import { afterEach, describe, expect, it } from "vitest";
import type { RecipientContact } from "@/server/programme/designs/recipient";
import { imageAsset } from "@/server/ground/render/images";
import { makePng } from "@/test/images";
import { type CampaignRenderContext, renderDraft } from "./render-draft";
import { draftsRenderedOnThreads, renderDrafts } from "./render-pool";

const ctx: CampaignRenderContext = {
  workspaceId: "w",
  campaign: { id: "c", name: "Spring", format: "postcard", headline: "", bodyTemplate: "", signOff: "", designId: "d" },
  design: {
    format: "postcard",
    size: "6x9",
    layout: "bold",
    image: "waves",
    giftItem: null,
    colors: {},
    blocks: {
      headline: "{{firstName|Hello}}, an idea for {{company|your team}} ({{custom.plan|none}})",
      body: "Hi {{firstName|there}},\n\nA short plan for {{company|you}}.",
      signOff: "Sam",
      cta: "Scan to see it",
    },
  },
  brand: {
    companyName: "Acme",
    colors: { primary: "#1c3d5a", accent: "#f08c00", text: "#1f2328" },
    fonts: { heading: "noto-sans", body: "noto-sans", handwriting: "caveat" },
    logo: imageAsset(makePng(300, 100), "image/png")!,
    signature: null,
    returnAddress: {
      addressLine1: "415 Mission St",
      addressLine2: null,
      city: "San Francisco",
      region: "CA",
      postalCode: "94105",
      country: "US",
    },
    signOff: "Sam",
    destinationUrl: null,
  },
  specimen: false,
  addressPrintedBy: null,
};

const NAMES = [
  ["Ada", "Okafor"],
  ["Łukasz", "Wiśniewski"],
  ["محمد", "السيد"],
  ["שרה", "כהן"],
  ["芳", "王"],
  ["健太", "山田"],
  ["प्रिया", "शर्मा"],
  ["สมชาย", "ใจดี"],
  ["Елена", "Петрова"],
];
const contact = (i: number): RecipientContact & { customFields: Record<string, string> } => ({
  id: `c${i}`,
  firstName: NAMES[i % NAMES.length][0],
  lastName: NAMES[i % NAMES.length][1],
  title: null,
  email: null,
  addressLine1: `${100 + i} Boylston St`,
  addressLine2: null,
  city: "Boston",
  region: "MA",
  postalCode: "02116",
  country: i === 5 ? "JP" : "US",
  account: { name: `Company ${i}`, domain: null },
  customFields: { plan: `Plan ${i}` },
});

const threads = process.env.DRAFT_RENDER_THREADS;
afterEach(() => {
  if (threads === undefined) delete process.env.DRAFT_RENDER_THREADS;
  else process.env.DRAFT_RENDER_THREADS = threads;
});

describe("renderDrafts", () => {
  it("renders on two threads exactly what renderDraft renders on the calling thread, in the order given", async () => {
    process.env.DRAFT_RENDER_THREADS = "2";
    const drafts = Array.from({ length: 12 }, (_, i) => ({
      contact: contact(i),
      override: i === 3 ? { headline: "Own copy for {{firstName}}" } : null,
      codes: { sid: `sid${i}`, responseCode: `CODE${i}` },
    }));
    const before = draftsRenderedOnThreads();
    const pooled = await renderDrafts(ctx, drafts);
    expect(pooled).toHaveLength(drafts.length);
    expect(draftsRenderedOnThreads() - before).toBe(drafts.length);
    for (const [i, d] of drafts.entries()) {
      const here = await renderDraft(ctx, d.contact, d.override, d.codes);
      expect(Buffer.isBuffer(pooled[i].pdf)).toBe(true);
      expect(pooled[i].pdf.equals(here.pdf)).toBe(true);
      expect({ ...pooled[i], pdf: null }).toEqual({ ...here, pdf: null });
    }
    expect(pooled[0].blocks.headline).toBe("Ada, an idea for Company 0 (Plan 0)");
    expect(pooled[3].blocks.headline).toBe("Own copy for שרה");
  }, 120_000);

  it("fails a batch with the error renderDraft throws for its first failing draft", async () => {
    process.env.DRAFT_RENDER_THREADS = "2";
    const broken: CampaignRenderContext = { ...ctx, design: { ...ctx.design, layout: "no-such-layout" } };
    const drafts = [0, 1, 2].map((i) => ({ contact: contact(i), override: null }));
    const here = await renderDraft(broken, drafts[0].contact, null).catch((e: unknown) => e);
    expect(here).toBeInstanceOf(Error);
    await expect(renderDrafts(broken, drafts)).rejects.toThrow((here as Error).message);
  }, 120_000);

  it("renders a draft that cannot be sent to a thread on the calling thread instead", async () => {
    process.env.DRAFT_RENDER_THREADS = "2";
    const odd = {
      ...contact(1),
      // A function where strings belong: what a thread cannot be sent.
      customFields: { plan: "Gold", notCloneable: () => "x" } as unknown as Record<string, string>,
    };
    const drafts = [
      { contact: contact(0), override: null, codes: { sid: "s0", responseCode: "R0" } },
      { contact: odd, override: null, codes: { sid: "s1", responseCode: "R1" } },
    ];
    const before = draftsRenderedOnThreads();
    const out = await renderDrafts(ctx, drafts);
    expect(draftsRenderedOnThreads() - before).toBe(1);
    expect(out[1].blocks.headline).toBe("Łukasz, an idea for Company 1 (Gold)");
    expect(out[1].pdf.equals((await renderDraft(ctx, odd, null, drafts[1].codes)).pdf)).toBe(true);
  }, 120_000);

  it("renders on the calling thread with DRAFT_RENDER_THREADS=0, the same drafts", async () => {
    process.env.DRAFT_RENDER_THREADS = "0";
    const drafts = [0, 1].map((i) => ({
      contact: contact(i),
      override: null,
      codes: { sid: `s${i}`, responseCode: `R${i}` },
    }));
    const before = draftsRenderedOnThreads();
    const out = await renderDrafts(ctx, drafts);
    expect(draftsRenderedOnThreads()).toBe(before);
    expect(out.map((d) => d.sid)).toEqual(["s0", "s1"]);
    expect(out[1].pdf.equals((await renderDraft(ctx, drafts[1].contact, null, drafts[1].codes)).pdf)).toBe(true);
  }, 60_000);
});
