import { layoutPiece, piecePngAsync } from "@/server/ground/render";

/**
 * The landing page's example: a 6 × 9 postcard drawn by the same renderer that draws every
 * proof and printed piece, for one made-up recipient. Rendered once at build time.
 */
export const dynamic = "force-static";
export const generateStaticParams = () => [{ side: "front.png" }, { side: "back.png" }];

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
  const page = { "front.png": 0, "back.png": 1 }[side];
  if (page === undefined) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const png = await piecePngAsync(sample, page, { widthPx: 900, crop: "trim" });
  return new Response(new Uint8Array(png), {
    headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=86400" },
  });
}
