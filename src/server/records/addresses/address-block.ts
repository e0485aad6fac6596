import addressFormatter from "@fragaria/address-formatter";
import { countryName, findRegion, toCountryCode } from "@/server/records/addresses/countries";
import { canonicalPostalCode } from "@/server/records/addresses/postal-code";
import { recipientBlock, type TFormat, type TRecipientBlock } from "@/server/ground/render/page-specs";
import { textWidth } from "@/server/ground/render/text";
import type { TFontFamily } from "@/server/ground/render/fonts";
import type { AddressFields } from "./normalise";
import { JAPANESE_SCRIPT, printedName } from "./scripts";

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

const LETTER = /\p{L}/u;

/**
 * Whether a Japanese address is written in Japanese script: its street line decides (the city, then
 * the second line, when the street line has no letters, like 1-9-1). Japan Post reads an address
 * written in Japanese from the largest unit to the smallest, and one written in Latin letters in the
 * international order; each is printed whole in its own script (JP_ja / JP_en in Google's data).
 */
function inJapaneseOrder(country: string, a: AddressFields): boolean {
  if (country !== "JP") return false;
  const decides = [a.addressLine1, a.city, a.addressLine2].find((v) => v && LETTER.test(v));
  return !!decides && JAPANESE_SCRIPT.test(decides);
}

/**
 * The units written one after another, largest first, without a unit the smaller one already
 * begins with: 東京都 + 千代田区 + 千代田区丸の内1-9-1 → 東京都千代田区丸の内1-9-1.
 */
function joinUnits(units: string[]): string {
  let out = "";
  const written: string[] = [];
  for (const unit of units) {
    if (!unit) continue;
    // The longest run of the units written so far that this one already begins with.
    let skip = 0;
    for (let i = 0; i < written.length && !skip; i++) {
      const tail = written.slice(i).join("");
      if (unit.startsWith(tail)) skip = tail.length;
    }
    out = skip ? out.slice(0, out.length - skip) + unit : out + unit;
    written.push(unit);
  }
  return out;
}

/**
 * A Japanese-script address's lines as Japan Post writes them (Google's address metadata for JP,
 * 〒%Z / %S / %A / %O / %N; address-formatter's JP_ja template has the same order but its format()
 * cannot choose it): 〒 and the postal code, then the prefecture, city and street as one line
 * (東京都千代田区丸の内1-9-1), then the building and floor. The prefecture is written as the post
 * writes it (Kyoto → 京都府); a city written in Latin letters is left out (the street line in
 * Japanese carries the ward and town, and the postal code names them); the company and the name
 * follow (addressBlockLines).
 */
function japaneseLines(a: AddressFields): string[] {
  const postal = a.postalCode?.trim() ?? "";
  const written = a.region?.trim() ?? "";
  const region = written && !JAPANESE_SCRIPT.test(written) ? (findRegion("JP", written)?.key ?? "") : written;
  const city = a.city?.trim() ?? "";
  const lines = [
    postal ? `〒${canonicalPostalCode("JP", postal)}` : "",
    joinUnits([region, JAPANESE_SCRIPT.test(city) || !LETTER.test(city) ? city : "", a.addressLine1?.trim() ?? ""]),
    a.addressLine2?.trim() ?? "",
  ];
  return lines.filter(Boolean);
}

/**
 * A Japanese address written in Latin letters as Japan Post reads a romanised one: the prefecture by
 * its Latin name (京都府 → Kyoto), a city written in Japanese script left out (its ward and town are
 * in the street line, and the postal code names them).
 */
function romanisedJapanese(a: AddressFields): AddressFields {
  const written = a.region?.trim() ?? "";
  const known = written && JAPANESE_SCRIPT.test(written) ? findRegion("JP", written) : null;
  const region = known ? (known.latin ?? "") : written && JAPANESE_SCRIPT.test(written) ? "" : a.region;
  const city = a.city && JAPANESE_SCRIPT.test(a.city) ? null : a.city;
  return { ...a, region, city };
}

/**
 * The address lines (without the country line) in the order they print, and the country line, if
 * any: the country's name, unless the piece is posted in that country (`postedIn`, the home country
 * for a recipient's address, the recipient's country for the return address).
 */
function addressParts(
  written: AddressFields,
  postedIn = HOME_COUNTRY,
): { lines: string[]; country: string | null; japanese: boolean } {
  const country = written.country && /^[A-Z]{2}$/.test(written.country) ? written.country : "";
  const japanese = inJapaneseOrder(country, written);
  const a = country === "JP" && !japanese ? romanisedJapanese(written) : written;
  const countryLine =
    country && country !== postedIn
      ? (countryName(country) ?? country).toUpperCase()
      : !country && a.country?.trim()
        ? a.country.trim()
        : null;
  if (japanese) return { lines: japaneseLines(a), country: countryLine, japanese: true };
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
  return { lines, country: countryLine, japanese: false };
}

/**
 * The street, city and country lines of an address as its country's post writes them
 * (address-formatter's templates): "10117 Berlin", "Toronto, ON M5H 2G4", "London" / "E14 5AB".
 * Address line 2 follows the street line; the country name (English, upper case) ends a foreign
 * address. A Japanese address written in Japanese script runs from the largest unit to the smallest
 * ("〒100-0005" / "東京都千代田区丸の内1-9-1" / "グラントウキョウ 5階" / "JAPAN").
 */
export function formatAddressLines(a: AddressFields): string[] {
  const { lines, country } = addressParts(a);
  return country ? [...lines, country] : lines;
}

/**
 * The return address as printed on a piece to `destination` (the recipient's country; the home
 * country when it has none): in its own country's order, with its country's name when that is not
 * the destination's (a US sender writing to Canada prints UNITED STATES OF AMERICA; to Boston, no country).
 */
export function returnAddressLines(a: AddressFields | null, destination: string | null | undefined): string[] {
  if (!a) return [];
  const { lines, country } = addressParts(a, toCountryCode(destination) ?? HOME_COUNTRY);
  return country ? [...lines, country] : lines;
}

/**
 * The whole address block as printed: name, title and company, then the address lines; in a
 * Japanese-script address, the address lines, then company and title, then the name (family name
 * first for a name in Japanese script), the country line last.
 */
export function addressBlockLines(
  c: AddressFields & { firstName: string; lastName: string; title?: string | null; company?: string | null },
): string[] {
  const name = printedName(c);
  const { lines, country, japanese } = addressParts(c);
  if (japanese) {
    const org = [c.company, c.title]
      .map((v) => v?.trim() ?? "")
      .filter(Boolean)
      .join(" ");
    return [...lines, org, name, country ?? ""].filter((l) => l.trim() !== "");
  }
  const org = c.title && c.company ? `${c.title}, ${c.company}` : (c.company ?? c.title ?? "");
  return [name, org, ...lines, country ?? ""].filter((l) => l.trim() !== "");
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
