import { layoutPiece, piecePngAsync } from "@/server/ground/render";

/**
 * The landing page's example: a 6 × 9 postcard drawn by the same renderer that draws every
 * proof and printed piece, for one made-up recipient. Each side is rendered once per process and
 * kept in memory; nothing goes through Next's route cache, which would store an entry for every
 * path a client names (any method), so an unknown side is a 404 that is never cached.
 */
export const dynamic = "force-dynamic";

const SIDES: Record<string, number> = { "front.png": 0, "back.png": 1 };
const rendered = new Map<number, Promise<Buffer>>();

const sample = layoutPiece({
  title: "Sample postcard",
  format: "postcard",
  size: "6x9",
  layout: "split",
  colors: { primary: "#3b2f9e", accent: "#f2a33a", text: "#1d1b2e" },
  fonts: { heading: "noto-serif", body: "noto-sans", handwriting: "caveat" },
  companyName: "Northwind Analytics",
  logo: null,
  signature: null,
  image: "sunrise",
  returnAddress: ["500 Market Street, Suite 12", "San Francisco CA 94105"],
  text: {
    headline: "Maya, your Q3 forecast, on paper",
    body: "You asked how Lakeside Logistics could cut forecast error before peak season. We wrote down three ideas for your team, and a fourth for your CFO.",
    signOff: "Sam Ortiz, Northwind",
    cta: "Scan for your team's notes",
  },
  recipient: {
    name: "Maya Patel",
    addressLines: ["Maya Patel", "Lakeside Logistics", "1200 Harbor Way", "Oakland CA 94607"],
  },
  response: { url: "https://example.com/r/k7Qm2xWp9a", label: "example.com/r/k7Qm2xWp9a" },
  gift: null,
  specimen: false,
});

export async function GET(_request: Request, { params }: { params: Promise<{ side: string }> }) {
  const { side } = await params;
  const page = Object.hasOwn(SIDES, side) ? SIDES[side] : undefined;
  if (page === undefined)
    return new Response("Not found", {
      status: 404,
      headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" },
    });
  let png = rendered.get(page);
  if (!png) {
    png = piecePngAsync(sample, page, { widthPx: 900, crop: "trim" });
    rendered.set(page, png);
    png.catch(() => rendered.delete(page));
  }
  return new Response(new Uint8Array(await png), {
    headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=86400" },
  });
}
