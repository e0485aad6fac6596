/**
 * npm run bench:render
 * Drafts per second in one process for a 6x9 postcard with a logo (front and back: logo, artwork,
 * headline, message, sign-off in a handwriting font, QR code, address block), each recipient with
 * their own name, company, address and a fresh random response code, through renderDraft (merge
 * fields, layout, print PDF) as the drafts job calls it. In the same run, two references:
 * - the floor: the same pages of one recipient, laid out once, written to a PDF again and again
 *   (PDFKit with the same fonts and logo; everything that differs between recipients removed);
 * - pdf-lib writing the same two pages with its built-in Helvetica (no font embedding, no shaping,
 *   no Unicode: the cheapest PDF a renderer can write).
 * And the preview PNG rate. Usage: bench-render.ts [drafts] (default 400).
 */
import { loadavg } from "node:os";
import type { CampaignRenderContext } from "@/server/programme/drafts/render";
import { renderDraft } from "@/server/programme/drafts/render";
import { draftsRenderedOnThreads, renderDrafts, renderThreadCount } from "@/server/programme/drafts/render-pool";
import type { RecipientContact } from "@/server/programme/designs/recipient";
import { layoutPiece, piecePdf, piecePng } from "@/server/ground/render";
import { imageAsset } from "@/server/ground/render/images";
import { makePng } from "@/test/images";
import { sampleRenderInput } from "@/test/render-input";
import { pdfLibReference } from "./render-reference";

const FIRST = [
  "Ada",
  "Łukasz",
  "Đặng",
  "芳",
  "Елена",
  "Grace",
  "Hiro",
  "Olivia",
  "Diego",
  "Priya",
  "Noah",
  "Zoë",
  "Kwame",
  "Ingrid",
  "Mateo",
  "Aisha",
  "Yusuf",
];
const LAST = [
  "Okafor",
  "Wiśniewski",
  "Minh",
  "王",
  "Петрова",
  "Lindqvist",
  "Tanaka",
  "Dubois",
  "Alvarez",
  "Raman",
  "Fischer",
  "Quigley",
  "Mensah",
  "Johansson",
  "Jiménez",
];
// Every recipient of a run has a company of their own (13 x 37 names), so no headline, message or
// address repeats: a cache of whole blocks cannot flatter the figures.
const PREFIX = [
  "Bright",
  "Harbor",
  "Iron",
  "Lumen",
  "North",
  "Quay",
  "Vex",
  "Crest",
  "Fjord",
  "Gale",
  "Juniper",
  "Kestrel",
  "Oak",
];
const SUFFIX = [
  "line Logistics",
  "view Health",
  "bridge Capital",
  "field Energy",
  "peak Software",
  "side Foods",
  "worth & Co",
  "stone Labs",
  "gate Partners",
  "wood Media",
  "haven Clinics",
  "ridge Mining",
  "mark Retail",
  "brook Dairy",
  "water Travel",
  "moor Textiles",
  "ford Motors",
  "well Pharma",
  "point Analytics",
  "light Studios",
  "hill Farms",
  "vale Insurance",
  "cliff Robotics",
  "port Shipping",
  "lake Hotels",
  "dale Bakery",
  "field Optics",
  "crest Legal",
  "shore Marine",
  "wick Print",
  "ton Payroll",
  "by Games",
  "holm Steel",
  "stead Homes",
  "land Water",
  "more Tools",
  "bury Books",
];
const logo = imageAsset(makePng(900, 300), "image/png")!;

const ctx: CampaignRenderContext = {
  workspaceId: "bench",
  campaign: {
    id: "bench",
    name: "Spring plan",
    format: "postcard",
    headline: "",
    bodyTemplate: "",
    signOff: "",
    designId: "bench",
  },
  design: {
    format: "postcard",
    size: "6x9",
    layout: "bold",
    image: "waves",
    giftItem: null,
    colors: {},
    blocks: {
      headline: "{{firstName|Hello}}, a quick idea for {{company|your team}}",
      body: "Hi {{firstName|there}},\n\nTeams like {{company|yours}} tell us the hardest part of growing is keeping everyone on the same page. We put together a short plan with three ideas you could try this quarter.\n\nThe code below opens it; it takes two minutes to read.",
      signOff: "Sam Whitmore, Acme",
      cta: "Scan to see the plan we made for {{company|you}}",
    },
  },
  brand: {
    companyName: "Acme",
    colors: { primary: "#1c3d5a", accent: "#f08c00", text: "#1f2328" },
    fonts: { heading: "noto-sans", body: "noto-sans", handwriting: "caveat" },
    logo,
    signature: null,
    returnAddress: {
      addressLine1: "415 Mission St",
      addressLine2: null,
      city: "San Francisco",
      region: "CA",
      postalCode: "94105",
      country: "US",
    },
    signOff: "Sam Whitmore",
    destinationUrl: null,
  },
  specimen: false,
  addressPrintedBy: null,
};

function contact(i: number): RecipientContact {
  const combos = PREFIX.length * SUFFIX.length;
  const company = `${PREFIX[i % PREFIX.length]}${SUFFIX[Math.floor(i / PREFIX.length) % SUFFIX.length]}${i >= combos ? ` ${Math.floor(i / combos) + 1}` : ""}`;
  return {
    id: `c${i}`,
    firstName: FIRST[i % FIRST.length],
    lastName: LAST[(i * 7) % LAST.length],
    title: "VP Operations",
    email: null,
    addressLine1: `${100 + ((i * 37) % 9000)} Boylston St`,
    addressLine2: i % 3 ? null : `Suite ${i % 700}`,
    city: "Boston",
    region: "MA",
    postalCode: `02${String(100 + (i % 900))}`,
    country: "US",
    account: { name: company, domain: null },
  };
}

/** Times `one` over recipients 0..n-1, `batch` at a time (all of a batch at once, as the drafts job hands its render threads 25). */
async function measure(
  label: string,
  n: number,
  one: (i: number) => Promise<{ length: number }>,
  batch = 1,
  warm = 30,
) {
  const run = async (from: number, to: number) => {
    const sizes: number[] = [];
    for (let i = from; i < to; i += batch) {
      const ids = Array.from({ length: Math.min(batch, to - i) }, (_, k) => i + k);
      sizes.push(...(await Promise.all(ids.map(one))).map((r) => r.length));
    }
    return sizes;
  };
  // Warm-up on recipients the timed loop does not render again.
  await run(n, n + warm);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const sizes = await run(0, n);
  const bytes = sizes.reduce((a, b) => a + b, 0);
  const max = Math.max(...sizes);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const row = {
    label,
    n,
    perSecondWall: n / wall,
    perCpuSecond: n / ((cpu.user + cpu.system) / 1e6),
    avgKb: bytes / n / 1024,
    maxKb: max / 1024,
  };
  console.log(
    `${label.padEnd(66)} ${row.perSecondWall.toFixed(1).padStart(7)} /s wall  ${row.perCpuSecond.toFixed(1).padStart(7)} /s per CPU-second  avg ${row.avgKb.toFixed(1)} KB  max ${row.maxKb.toFixed(1)} KB`,
  );
  return row;
}

/** One recipient at a time into the drafts job's renderDrafts, gathered into one call per batch as the job makes it. */
function pooled(): (i: number) => Promise<{ length: number }> {
  let waiting: { i: number; resolve: (pdf: Buffer) => void; reject: (e: unknown) => void }[] = [];
  return (i) =>
    new Promise((resolve, reject) => {
      waiting.push({ i, resolve, reject });
      if (waiting.length > 1) return;
      queueMicrotask(() => {
        const batch = waiting;
        waiting = [];
        renderDrafts(
          ctx,
          batch.map((w) => ({ contact: contact(w.i), override: null })),
        ).then(
          (out) => batch.forEach((w, k) => w.resolve(out[k].pdf)),
          (e) => batch.forEach((w) => w.reject(e)),
        );
      });
    });
}

const n = Number(process.argv[2] ?? 400);
console.log(
  `6x9 postcard with a logo, front and back, ${n} recipients (names in Latin, Polish, Vietnamese, Chinese and Cyrillic, each with a random response code), one process with ${renderThreadCount()} render thread(s) (DRAFT_RENDER_THREADS):\n`,
);
const threads = renderThreadCount();
const one = await measure(
  "Drafts: renderDraft on the calling thread (merge fields, layout, PDF)",
  n,
  async (i) => (await renderDraft(ctx, contact(i), null)).pdf,
);
// The drafts job's way: batches of 25 through renderDrafts, on its render threads. Its warm-up is
// 100 drafts, 4 batches: starting a thread (loading the renderer's modules and fonts, its caches
// empty) takes about 1.5 CPU-seconds, which a job of thousands of drafts pays once.
const drafts =
  threads > 0
    ? await measure(
        `Drafts: the drafts job's renderDrafts, ${threads} render thread${threads === 1 ? "" : "s"}, 25 a batch`,
        n,
        pooled(),
        25,
        100,
      )
    : one;
if (threads > 0 && draftsRenderedOnThreads() < n)
  throw new Error(`Only ${draftsRenderedOnThreads()} of the drafts were rendered on the render threads.`);
const laidOut = layoutPiece(
  sampleRenderInput({
    title: "Floor",
    logo,
    text: {
      headline: "Ada, a quick idea for Brightline Logistics",
      body: ctx.design.blocks.body!.replace(/\{\{[^}]*\}\}/g, "Ada"),
      signOff: "Sam Whitmore, Acme",
      cta: "Scan to see the plan",
    },
    recipient: {
      name: "Ada Okafor",
      addressLines: ["Ada Okafor", "Brightline Logistics", "500 Boylston St", "Boston, MA 02116"],
    },
  }),
);
const floor = await measure("Floor: one recipient's laid-out pages written again (PDFKit)", n, () => piecePdf(laidOut));
const ref = await measure("Reference: pdf-lib, built-in Helvetica, no layout", n, (i) =>
  pdfLibReference(ctx, contact(i)),
);
await measure("Preview PNGs (both pages, 900 px wide), for comparison", Math.max(20, Math.round(n / 10)), async (i) => {
  const r = layoutPiece(
    sampleRenderInput({
      logo,
      text: { ...sampleRenderInput().text, headline: `${FIRST[i % FIRST.length]}, a quick idea` },
    }),
  );
  return { length: piecePng(r, 0, { widthPx: 900 }).length + piecePng(r, 1, { widthPx: 900 }).length };
});
const ratio = (a: number, b: number) => (a / b).toFixed(2);
console.log(
  `\nDrafts (one process, ${threads} render thread${threads === 1 ? "" : "s"}; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(
      " ",
    )}): ${drafts.perSecondWall.toFixed(0)}/s wall (aim: 150/s), ${drafts.perCpuSecond.toFixed(0)} per CPU-second; on the calling thread ${one.perSecondWall.toFixed(0)}/s wall, ${one.perCpuSecond.toFixed(0)} per CPU-second, ${ratio(one.perCpuSecond, floor.perCpuSecond)} of the floor's ${floor.perCpuSecond.toFixed(0)} and ${ratio(one.perCpuSecond, ref.perCpuSecond)} of pdf-lib's ${ref.perCpuSecond.toFixed(0)} per CPU-second; the largest PDF is ${drafts.maxKb.toFixed(0)} KB (aim: under 500 KB); resident memory ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB.`,
);
