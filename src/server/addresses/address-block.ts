import addressFormatter from "@fragaria/address-formatter";
import { countryName } from "@/server/addresses/countries";
import { recipientBlock, type TFormat, type TRecipientBlock } from "@/server/render/page-specs";
import { textWidth } from "@/server/render/text";
import type { TFontFamily } from "@/server/render/fonts";
import type { AddressFields } from "./normalise";

/** The country the service mails from: its own country line is left off (the USPS asks for none). */
export const HOME_COUNTRY = "US";

// address-formatter (OpenCage's per-country templates) renders a template each call (about 0.1 ms);
// the layout of a country depends only on which fields are present, so each layout is rendered
// once with placeholders and filled in afterwards.
const FIELDS = ["road", "city", "state", "postcode"] as const;
const mark = (i: number) => `\u0001${i}\u0002`;
const layouts = new Map<string, string[]>();

function countryLayout(country: string, present: boolean[]): string[] {
  const key = `${country}|${present.map((p) => (p ? 1 : 0)).join("")}`;
  let layout = layouts.get(key);
  if (!layout) {
    const input: Record<string, string> = { countryCode: country || "US" };
    FIELDS.forEach((f, i) => present[i] && (input[f] = mark(i)));
    layout = addressFormatter.format(input, { output: "array" }) as string[];
    layouts.set(key, layout);
  }
  return layout;
}

/**
 * The street, city and country lines of an address as its country's post writes them
 * (address-formatter's templates): "10117 Berlin", "Toronto, ON M5H 2G4", "London" / "E14 5AB".
 * Address line 2 follows the street line; the country name (English, upper case) ends a foreign address.
 */
export function formatAddressLines(a: AddressFields): string[] {
  const country = a.country && /^[A-Z]{2}$/.test(a.country) ? a.country : "";
  const values = [a.addressLine1, a.city, a.region, a.postalCode].map((v) => v?.trim() || "");
  const layout = countryLayout(country, values.map(Boolean));
  const lines: string[] = [];
  for (const line of layout) {
    const filled = line.replace(/\u0001(\d)\u0002/g, (_, i: string) => values[Number(i)]).trim();
    if (!filled) continue;
    lines.push(filled);
    if (values[0] && line.includes(mark(0)) && a.addressLine2?.trim()) lines.push(a.addressLine2.trim());
  }
  if (!values[0] && a.addressLine2?.trim()) lines.unshift(a.addressLine2.trim());
  if (country && country !== HOME_COUNTRY) lines.push((countryName(country) ?? country).toUpperCase());
  else if (!country && a.country?.trim()) lines.push(a.country.trim());
  return lines;
}

/** The whole address block as printed: name, title and company, then the address lines. */
export function addressBlockLines(c: AddressFields & { firstName: string; lastName: string; title?: string | null; company?: string | null }): string[] {
  const name = `${c.firstName} ${c.lastName}`.trim();
  const org = c.title && c.company ? `${c.title}, ${c.company}` : (c.company ?? c.title ?? "");
  return [name, org, ...formatAddressLines(c)].filter((l) => l.trim() !== "");
}

/** Where an audit measures addresses: a format's block (its size and the design's handwriting font). */
export interface TBlockSpec {
  format: TFormat;
  size: string;
  handwriting?: TFontFamily;
}

/** The block an audience audit without a campaign measures against: the smallest, a 4 × 6 in postcard's. */
export const SMALLEST_BLOCK: TBlockSpec = { format: "postcard", size: "4x6" };

const widths = new Map<string, Map<string, number>>();
/** A character's advance at 1 pt in a font (with the renderer's fallback fonts), measured once per process. */
function charWidth(family: TFontFamily, ch: string): number {
  let table = widths.get(family);
  if (!table) widths.set(family, (table = new Map()));
  let w = table.get(ch);
  if (w === undefined) {
    w = textWidth(ch, family, 400, 1);
    table.set(ch, w);
  }
  return w;
}

/** A line's width at 1 pt: the sum of its characters' advances (no kerning, so never less than printed). */
export function lineWidth(family: TFontFamily, line: string): number {
  let w = 0;
  for (const ch of line.normalize("NFC")) w += charWidth(family, ch);
  return w;
}

const blocks = new Map<string, TRecipientBlock>();
export function blockOf(spec: TBlockSpec): TRecipientBlock {
  const key = `${spec.format}|${spec.size}|${spec.handwriting ?? ""}`;
  let b = blocks.get(key);
  if (!b) blocks.set(key, (b = recipientBlock(spec.format, spec.size, spec.handwriting)));
  return b;
}

/**
 * Whether printed lines fit a block at the smallest type size its layout allows: no line may need
 * to wrap, and all lines must fit the block's height. The renderer shrinks the address down to
 * that size before it gives up, so an address that passes here prints whole and unbroken.
 */
export function fitsBlock(lines: string[], spec: TBlockSpec): boolean {
  const b = blockOf(spec);
  if (lines.length * b.minSize * b.lineHeight > b.box.h + 0.01) return false;
  const maxUnits = b.box.w / b.minSize;
  return lines.every((l) => lineWidth(b.family, l) <= maxUnits);
}
