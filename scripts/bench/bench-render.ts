/**
 * npm run bench:render
 * Proofs per second on one core for a 6x9 postcard (front and back: logo, artwork, headline, message,
 * sign-off in a handwriting font, QR code, address block), each recipient with their own name and
 * response link, and the size of each PDF; in the same run, a reference: the same two pages written
 * by pdf-lib with its built-in Helvetica (no font embedding, no shaping, no Unicode: the cheapest PDF
 * a renderer can write), to show where the limit is.
 */
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import { layoutPiece, piecePdf, piecePng } from "@/server/render";
import { imageAsset } from "@/server/render/images";
import type { RenderInput } from "@/server/render/input";
import { qrPath } from "@/server/render/qr";
import { makePng } from "@/test/images";
import { sampleRenderInput } from "@/test/render-input";

const NAMES = ["Ada Okafor", "Łukasz Wiśniewski", "Đặng Văn Minh", "王芳", "Елена Петрова", "Grace Lindqvist", "Hiro Tanaka", "Olivia Dubois", "Diego Alvarez", "Priya Raman"];
const COMPANIES = ["Brightline Logistics", "Harborview Health", "Ironbridge Capital", "Lumenfield Energy", "Northpeak Software"];
const logo = imageAsset(makePng(900, 300), "image/png")!;

function input(i: number): RenderInput {
  const name = NAMES[i % NAMES.length];
  const first = name.split(" ")[0];
  const company = COMPANIES[i % COMPANIES.length];
  const code = `Ab3dE${String(i).padStart(5, "0")}`;
  return sampleRenderInput({
    title: `Proof ${i}`,
    logo,
    text: {
      headline: `${first}, a quick idea for ${company}`,
      body: `Hi ${first},\n\nTeams like ${company} tell us the hardest part of growing is keeping everyone on the same page. We put together a short plan with three ideas you could try this quarter.\n\nThe code below opens it; it takes two minutes to read.`,
      signOff: "Sam Whitmore, Acme",
      cta: `Scan to see the plan we made for ${company}`,
    },
    recipient: { name, addressLines: [name, `VP Operations, ${company}`, `${100 + i} Boylston St`, "Boston, MA 02116"] },
    response: { url: `https://mail.acme.example/r/${code}?via=qr`, label: `mail.acme.example/r/${code}` },
  });
}

async function reference(i: number): Promise<Uint8Array> {
  const x = input(i);
  const pdf = await PDFDocument.create();
  const sans = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const ascii = (s: string) => s.replace(/[^\x20-\x7e]/g, "?");
  const front = pdf.addPage([666, 450]);
  front.drawRectangle({ x: 0, y: 0, width: 666, height: 450, color: rgb(0.11, 0.24, 0.35) });
  front.drawText(ascii(x.text.headline), { x: 45, y: 250, size: 30, font: bold, color: rgb(1, 1, 1), maxWidth: 520, lineHeight: 34 });
  const back = pdf.addPage([666, 450]);
  let y = 380;
  for (const line of x.text.body.split("\n")) {
    back.drawText(ascii(line), { x: 30, y, size: 10.5, font: sans, maxWidth: 300, lineHeight: 13 });
    y -= 30;
  }
  back.drawText(ascii(x.text.signOff), { x: 30, y: 120, size: 16, font: sans });
  back.drawSvgPath(qrPath(x.response.url, 0, 0, 61), { x: 30, y: 90 });
  x.recipient.addressLines.forEach((l, k) => back.drawText(ascii(l), { x: 380, y: 180 - k * 12, size: 10, font: sans }));
  return pdf.save();
}

async function measure(label: string, n: number, one: (i: number) => Promise<{ length: number }>) {
  for (let i = 0; i < 30; i++) await one(i);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let bytes = 0;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const size = (await one(i)).length;
    bytes += size;
    max = Math.max(max, size);
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const row = { label, proofs: n, perSecondWall: n / wall, perCpuSecond: n / cpuSeconds, avgKb: bytes / n / 1024, maxKb: max / 1024 };
  console.log(`${label.padEnd(58)} ${row.perSecondWall.toFixed(1).padStart(7)} /s wall  ${row.perCpuSecond.toFixed(1).padStart(7)} /s per CPU-second  avg ${row.avgKb.toFixed(1)} KB  max ${row.maxKb.toFixed(1)} KB`);
  return row;
}

const n = Number(process.argv[2] ?? 400);
console.log(`6x9 postcard, front and back, ${n} recipients (names in Latin, Polish, Vietnamese, Chinese and Cyrillic), one process on one core:\n`);
const ours = await measure("This renderer: layout + print PDF (fonts embedded)", n, async (i) => piecePdf(layoutPiece(input(i))));
const ref = await measure("Reference: pdf-lib, built-in Helvetica, no layout", n, reference);
await measure("Preview PNGs (both pages, 900 px wide), for comparison", Math.max(20, Math.round(n / 10)), async (i) => {
  const r = layoutPiece(input(i));
  return { length: piecePng(r, 0, { widthPx: 900 }).length + piecePng(r, 1, { widthPx: 900 }).length };
});
console.log(`\nThis renderer makes ${ours.perCpuSecond.toFixed(0)} proofs per CPU-second (aim: at least 50), ${(ours.perCpuSecond / ref.perCpuSecond).toFixed(2)} of the reference's ${ref.perCpuSecond.toFixed(0)}; the largest PDF is ${ours.maxKb.toFixed(0)} KB (aim: under 500 KB).`);
