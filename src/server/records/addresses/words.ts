import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { countryRules } from "./metadata";

/**
 * The words of a street line that people write long or short (Street/St, Avenue/Ave, Suite/Ste,
 * Straße/Str., Rue/R, Avenida/Av), reduced to one form each so that one address written two ways
 * has one key. The street types of each language are Mapbox's geocoder abbreviations
 * (@mapbox/geocoder-abbreviations, one token file a language); the United States' are completed
 * with USPS Publication 28 (Appendix C1 street suffixes, Appendix C2 secondary unit designators),
 * which the Mapbox lists leave out because a geocoder drops units.
 */

/** USPS Publication 28, Appendix C2: secondary unit designators, the full word and its abbreviation. */
const USPS_UNITS: string[][] = [
  ["apartment", "apt"],
  ["basement", "bsmt"],
  ["building", "bldg"],
  ["department", "dept"],
  ["floor", "fl", "flr"],
  ["front", "frnt"],
  ["hangar", "hngr"],
  ["lobby", "lbby"],
  ["lower", "lowr"],
  ["office", "ofc"],
  ["penthouse", "ph"],
  ["room", "rm"],
  ["space", "spc"],
  ["suite", "ste"],
  ["trailer", "trlr"],
  ["upper", "uppr"],
];

/** USPS Publication 28, Appendix C1: the common street suffixes with their standard abbreviation and the variants it lists. */
const USPS_SUFFIXES: string[][] = [
  ["alley", "aly", "allee", "ally"],
  ["avenue", "ave", "av", "aven", "avenu", "avn", "avnue"],
  ["boulevard", "blvd", "boul", "boulv"],
  ["bypass", "byp", "bypa", "bypas", "byps"],
  ["causeway", "cswy", "causwa"],
  ["center", "ctr", "cen", "cent", "centr", "centre", "cnter", "cntr"],
  ["circle", "cir", "circ", "circl", "crcl", "crcle"],
  ["court", "ct"],
  ["cove", "cv"],
  ["creek", "crk"],
  ["crossing", "xing", "crssng"],
  ["drive", "dr", "driv", "drv"],
  ["expressway", "expy", "exp", "expr", "express", "expw"],
  ["freeway", "fwy", "freewy", "frway", "frwy"],
  ["gardens", "gdns", "gardn", "grden", "grdn"],
  ["grove", "grv", "grov"],
  ["harbor", "hbr", "harb", "harbr", "hrbor"],
  ["heights", "hts", "ht"],
  ["highway", "hwy", "highwy", "hiway", "hiwy", "hway"],
  ["hill", "hl"],
  ["junction", "jct", "jction", "jctn", "junctn", "juncton"],
  ["lane", "ln"],
  ["landing", "lndg", "lndng"],
  ["manor", "mnr"],
  ["meadows", "mdws", "mdw", "medows"],
  ["mount", "mt", "mnt"],
  ["parkway", "pkwy", "parkwy", "pkway", "pky"],
  ["place", "pl"],
  ["plaza", "plz", "plza"],
  ["point", "pt"],
  ["ridge", "rdg", "rdge"],
  ["road", "rd"],
  ["route", "rte"],
  ["square", "sq", "sqr", "sqre", "squ"],
  ["station", "sta", "statn", "stn"],
  ["street", "st", "strt", "str"],
  ["terrace", "ter", "terr"],
  ["trace", "trce", "traces"],
  ["trail", "trl", "trails", "trls"],
  ["turnpike", "tpke", "trnpk", "turnpk"],
  ["valley", "vly", "vally", "vlly"],
  ["view", "vw"],
  ["village", "vlg", "vill", "villag", "villg"],
  ["vista", "vis", "vist", "vst", "vsta"],
  ["way", "wy"],
  ["north", "n"],
  ["south", "s"],
  ["east", "e"],
  ["west", "w"],
  ["northeast", "ne"],
  ["northwest", "nw"],
  ["southeast", "se"],
  ["southwest", "sw"],
];

/** Languages of countries whose entry in Google's metadata names none (the rest come from its `languages`). */
const LANGUAGES: Record<string, string[]> = {
  GB: ["en"],
  IE: ["en"],
  NZ: ["en"],
  DE: ["de"],
  AT: ["de"],
  FR: ["fr"],
  NL: ["nl"],
  BE: ["nl", "fr", "de"],
  LU: ["fr", "de"],
  DK: ["da"],
  PL: ["pl"],
  SE: ["sv"],
  NO: ["no"],
  FI: ["fi"],
};

interface TokenEntry {
  tokens: string[];
  canonical: string;
  full?: string;
  regex?: boolean;
  type?: string;
}

const ASCII = /^[\x20-\x7e]*$/;

/** A lower-cased word without its Latin accents (é → e, ß → ss); other scripts as they are. */
export function plainWord(s: string): string {
  // Plain ASCII (most addresses) needs no Unicode decomposition: the same result, without its cost on imports.
  if (ASCII.test(s)) return s.toLowerCase();
  return s
    .toLowerCase()
    .replace(/ß/g, "ss")
    .normalize("NFKD")
    .replace(/(\p{Script=Latin})[\u0300-\u036f]+/gu, "$1")
    .normalize("NFC");
}

let tokensDir: string | undefined;
function readTokens(lang: string): TokenEntry[] {
  tokensDir ??= path.join(
    path.dirname(
      createRequire(path.join(process.cwd(), "package.json")).resolve("@mapbox/geocoder-abbreviations/package.json"),
    ),
    "tokens",
  );
  try {
    return JSON.parse(fs.readFileSync(path.join(tokensDir, `${lang}.json`), "utf8")) as TokenEntry[];
  } catch {
    return [];
  }
}

export interface TStreetWords {
  /** Each word (plainWord) to the one form the key uses. */
  words: Map<string, string>;
  /** Compounds split before the words are read (Friedrichstraße → friedrich str). */
  compounds: { pattern: RegExp; replace: string }[];
}

const byCountry = new Map<string, TStreetWords>();

/** The street words of a country's languages, and English (units and types written in English everywhere). */
export function streetWords(country: string): TStreetWords {
  const code = country.toUpperCase();
  const known = byCountry.get(code);
  if (known) return known;
  const langs = new Set([...(LANGUAGES[code] ?? countryRules(code)?.languages ?? []), "en"]);
  const words = new Map<string, string>();
  const compounds: TStreetWords["compounds"] = [];
  const group = (members: string[]) => {
    const plain = members
      .map((m) => plainWord(m).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
      .filter((m) => m && !/\s/.test(m));
    const canonical = plain.map((m) => words.get(m)).find(Boolean) ?? plain[0];
    if (!canonical) return;
    for (const m of plain) if (!words.has(m)) words.set(m, canonical);
  };
  // The standard abbreviation (Pub 28's second column) is the form kept.
  const usps = ([full, abbreviation, ...variants]: string[]) => group([abbreviation, full, ...variants]);
  USPS_UNITS.forEach(usps);
  if (code === "US") USPS_SUFFIXES.forEach(usps);
  for (const lang of langs) {
    for (const entry of readTokens(lang)) {
      if (entry.regex) {
        // Only the rewrites that keep the words (a compound split); never those that drop a unit or a box.
        if (entry.canonical && entry.full && entry.canonical.includes("$1"))
          compounds.push({ pattern: new RegExp(`^${entry.full}$`, "iu"), replace: plainWord(entry.canonical) });
        continue;
      }
      group([entry.canonical, ...entry.tokens]);
    }
  }
  const built = { words, compounds };
  byCountry.set(code, built);
  return built;
}

/**
 * A street line (or city) as the key reads it: accents, case and punctuation gone, each word in
 * its one form (77 Elm Street → 77 elm st; Friedrichstraße → friedrich str; Suite #300 → ste 300).
 */
export function keyWords(country: string, line: string | null | undefined): string {
  if (!line) return "";
  const known = recentByCountry.get(country)?.get(line);
  if (known !== undefined) return known;
  const key = readKeyWords(country, line);
  // A country the address gives is kept as written when it names none, so the countries are as
  // many as a file's values: the bound is on all the lines remembered, whatever their countries.
  if (remembered >= RECENT_LINES) {
    recentByCountry.clear();
    remembered = 0;
  }
  let recent = recentByCountry.get(country);
  if (!recent) recentByCountry.set(country, (recent = new Map()));
  recent.set(detached(line), key);
  remembered++;
  return key;
}

/**
 * The lines keyWords read last, per country, with their answer: an import's rows repeat their
 * cities, and the people of one company its street, so most lines of a file were read a few rows
 * before (the same answer, without the regular expressions). At most RECENT_LINES in all.
 */
const recentByCountry = new Map<string, Map<string, string>>();
const RECENT_LINES = 4096;
let remembered = 0;

/**
 * A copy of a line that shares no memory with the text it was cut from: a value read from a CSV
 * may be a slice of the parser's whole chunk, which a remembered line would keep alive. Short
 * strings are never slices (V8 copies under 13 characters).
 */
const detached = (s: string) => (s.length < 13 ? s : Buffer.from(s, "utf16le").toString("utf16le"));

function readKeyWords(country: string, line: string): string {
  const { words, compounds } = streetWords(country || "US");
  const out: string[] = [];
  for (const chunk of plainWord(line).split(/[\s,;/]+/u)) {
    // A word written with its dot inside (V.le, S.da) is one word; other punctuation separates.
    const bare = chunk.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (!bare) continue;
    const whole = words.get(bare);
    if (whole) {
      out.push(whole);
      continue;
    }
    for (const raw of bare.split(/[^\p{L}\p{N}]+/u)) {
      if (!raw) continue;
      let parts = [raw];
      for (const c of compounds) {
        if (c.pattern.test(raw)) {
          parts = raw.replace(c.pattern, c.replace).split(/\s+/);
          break;
        }
      }
      for (const p of parts) if (p) out.push(words.get(p) ?? p);
    }
  }
  return out.join(" ");
}
