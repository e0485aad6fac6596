import type { RenderInput } from "@/server/ground/render/input";

/**
 * A 6x9 postcard's render input with plain brand settings, for renderer tests: each test overrides
 * what it is about (its text, its recipient, the vendor that prints the address).
 */
export function sampleRenderInput(overrides: Partial<RenderInput> = {}): RenderInput {
  return {
    title: "Sample",
    format: "postcard",
    size: "6x9",
    layout: "bold",
    colors: { primary: "#1c3d5a", accent: "#f08c00", text: "#1f2328" },
    fonts: { heading: "noto-sans", body: "noto-sans", handwriting: "caveat" },
    companyName: "Acme",
    logo: null,
    signature: null,
    image: "waves",
    returnAddress: ["415 Mission St", "San Francisco, CA 94105"],
    text: {
      headline: "A quick idea",
      body: "Hi,\n\nWe met at the meetup.",
      signOff: "Sam at Acme",
      cta: "Scan to see your plan",
    },
    recipient: { name: "", addressLines: [] },
    response: { url: "https://mail.example/r/Ab3dE9xYz1?via=qr", label: "mail.example/r/Ab3dE9xYz1" },
    gift: null,
    specimen: false,
    ...overrides,
  };
}
