import { allCountries } from "country-region-data";
import countries from "i18n-iso-countries";
import da from "i18n-iso-countries/langs/da.json";
import de from "i18n-iso-countries/langs/de.json";
import en from "i18n-iso-countries/langs/en.json";
import es from "i18n-iso-countries/langs/es.json";
import fr from "i18n-iso-countries/langs/fr.json";
import it from "i18n-iso-countries/langs/it.json";
import ja from "i18n-iso-countries/langs/ja.json";
import nl from "i18n-iso-countries/langs/nl.json";
import pl from "i18n-iso-countries/langs/pl.json";
import pt from "i18n-iso-countries/langs/pt.json";
import sv from "i18n-iso-countries/langs/sv.json";
import { countryRules, type TRegion } from "./metadata";

// The country names people write in a B2B list, in the languages of the lists we see most.
const LOCALES = [en, de, fr, es, it, nl, pt, sv, da, pl, ja];
for (const locale of LOCALES) countries.registerLocale(locale);

/**
 * Forms the library does not list: common abbreviations and the parts of the United Kingdom, which
 * a postal address names but ISO 3166-1 does not (the Royal Mail delivers all of them as GB).
 */
const ALIASES: Record<string, string> = {
  "u s": "US",
  "etats unis": "US",
  "u s a": "US",
  "united states of america": "US",
  america: "US",
  "great britain": "GB",
  britain: "GB",
  england: "GB",
  scotland: "GB",
  wales: "GB",
  "northern ireland": "GB",
  "u k": "GB",
  uk: "GB",
  holland: "NL",
  "the netherlands": "NL",
  "south korea": "KR",
  korea: "KR",
  "czech republic": "CZ",
  uae: "AE",
  "u a e": "AE",
  russia: "RU",
};

const squash = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9\u3040-\u30ff\u4e00-\u9fff]+/g, " ")
    .trim();

/**
 * An ISO 3166-1 alpha-2 code for a country as people write it: a code (`de`, `DEU`, `276`), a
 * name in one of several languages (`Deutschland`, `Allemagne`, `United States`), or a common
 * abbreviation (`USA`, `U.S.`, `UK`). Null when it names no country.
 */
export function toCountryCode(input: string | null | undefined): string | null {
  if (!input) return null;
  // A file repeats a handful of spellings thousands of times.
  const known = memo.get(input);
  if (known !== undefined) return known;
  const code = lookupCountry(input);
  if (memo.size > 10_000) memo.clear();
  memo.set(input, code);
  return code;
}

const memo = new Map<string, string | null>();

function lookupCountry(input: string): string | null {
  const raw = input.trim();
  if (!raw) return null;
  if (/^[A-Za-z]{2}$/.test(raw)) {
    const code = raw.toUpperCase();
    if (code === "UK") return "GB";
    return countries.isValid(code) ? code : null;
  }
  if (/^[A-Za-z]{3}$/.test(raw)) {
    const code = countries.alpha3ToAlpha2(raw.toUpperCase());
    if (code) return code;
  }
  if (/^\d{3}$/.test(raw)) return countries.numericToAlpha2(raw) ?? null;
  const key = squash(raw);
  if (ALIASES[key]) return ALIASES[key];
  const compact = key.replace(/ /g, "");
  if (/^[a-z]{2}$/.test(compact) && countries.isValid(compact.toUpperCase())) return compact.toUpperCase();
  return byName().get(key) ?? null;
}

let names: Map<string, string> | undefined;
/** Every name of every country in the registered languages, squashed (no accents, case or punctuation). */
function byName(): Map<string, string> {
  if (names) return names;
  names = new Map();
  for (const locale of LOCALES) {
    for (const [code, value] of Object.entries(countries.getNames(locale.locale, { select: "all" }))) {
      for (const name of value) if (!names.has(squash(name))) names.set(squash(name), code);
    }
  }
  return names;
}

/** The English name of a country code, for people reading a list. */
export function countryName(code: string | null | undefined): string | null {
  if (!code) return null;
  return countries.getName(code, "en", { select: "official" }) ?? null;
}

/** A region's name reduced for comparison: no case, accents, punctuation or spaces; every script's letters kept. */
const regionForm = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");

/**
 * The word for the kind of region that people leave off or add (Tokyo / Tokyo-to / 東京都,
 * Beijing / Beijing Shi, 서울 / 서울특별시, г. Москва, Moscow Oblast): removed before comparing.
 */
const ADMIN_WORDS =
  /^(?:г\.?\s*|gorod\s+)|[\s-]+(?:shi|sheng|zizhiqu|do|to|fu|ken|prefecture|province|provincia|state|oblast'?|kray|krai|region|territory)$|(?:都|道|府|県|省|市|自治区|特別市|特别行政区|특별시|광역시|특별자치시|특별자치도|도)$/iu;
const stripped = (s: string) => s.trim().replace(ADMIN_WORDS, "").trim();

interface RegionIndex {
  /** Each name as written (reduced). */
  exact: Map<string, TRegion>;
  /** Each name without its kind-of-region word: matched only when no exact name is. */
  loose: Map<string, TRegion>;
}
const regionIndexes = new Map<string, RegionIndex>();

/** Every accepted written form of each region of a country (Google's data, then country-region-data's English names). */
function regionIndex(country: string): RegionIndex {
  let index = regionIndexes.get(country);
  if (index) return index;
  const exact = new Map<string, TRegion>();
  const loose = new Map<string, TRegion>();
  const add = (form: string, region: TRegion) => {
    const f = regionForm(form);
    if (f && !exact.has(f)) exact.set(f, region);
    const g = regionForm(stripped(form));
    if (g && !loose.has(g)) loose.set(g, region);
  };
  const regions = countryRules(country)?.regions ?? [];
  for (const r of regions) add(r.key, r);
  for (const r of regions) for (const n of r.names) add(n, r);
  const other = allCountries.find(([, code]) => code === country)?.[2] ?? [];
  for (const [name, short] of other) {
    const region =
      regions.find((r) => r.isoid && short && r.isoid.toUpperCase() === short.toUpperCase()) ??
      exact.get(regionForm(name)) ??
      loose.get(regionForm(stripped(name)));
    if (!region) continue;
    add(name, region);
    if (short) add(short, region);
  }
  index = { exact, loose };
  regionIndexes.set(country, index);
  return index;
}

/**
 * The region a written value names in a country, in any form its post or its people write it
 * (`MA`/`Massachusetts`, `東京都`/`Tokyo`/`JP-13`, `Москва`/`Moskva`/`Moscow`, `MI`/`Milano`),
 * or null when the data lists no region of that name (or no regions for the country).
 */
export function findRegion(country: string, written: string | null | undefined): TRegion | null {
  if (!written?.trim()) return null;
  const { exact, loose } = regionIndex(country.toUpperCase());
  const as = regionForm(written);
  const bare = regionForm(stripped(written));
  return exact.get(as) ?? exact.get(bare) ?? loose.get(as) ?? loose.get(bare) ?? null;
}

/** Letters of a script other than Latin. */
const NON_LATIN = /(?!\p{Script=Latin})\p{L}/u;

/**
 * A region's name in the script its address is written in: the post's own form (東京都, Москва), or
 * its Latin-script name (Tokyo, Moskva) where the region as written and the rest of the address
 * (`address`: its street lines and city) are in Latin letters only. A region written in its own
 * script is never transliterated, and one written in Latin letters inside an address written in
 * another script takes the post's form (Moscow in a Cyrillic address is Москва).
 */
export function regionInScript(
  region: TRegion,
  written: string,
  address: readonly (string | null | undefined)[] = [],
): string {
  if (!region.latin || !NON_LATIN.test(region.key)) return region.key;
  return [written, ...address].some((s) => s && NON_LATIN.test(s)) ? region.key : region.latin;
}

/**
 * A postal code that fits the country's pattern but is not one of the region's (Google's data gives
 * each region's first digits: 530-0001 is Osaka's, not Tokyo's): the region as the data knows it and
 * the one region the code is of (null where no region, or more than one, claims it). Null when the
 * code does not fit the country, the region is unknown, or the data does not say.
 */
export function postalCodeOfAnotherRegion(
  country: string,
  region: string | null | undefined,
  postalCode: string | null | undefined,
): { region: TRegion; codeOf: TRegion | null } | null {
  const postal = postalCode?.trim() ?? "";
  const rules = countryRules(country);
  if (!postal || !rules?.usesRegion || !rules.regions.length || (rules.postalCode && !rules.postalCode.test(postal)))
    return null;
  const known = findRegion(country, region);
  if (!known?.postalPrefix || known.postalPrefix.test(postal)) return null;
  const owners = rules.regions.filter((r) => r.postalPrefix?.test(postal));
  return { region: known, codeOf: owners.length === 1 ? owners[0] : null };
}
