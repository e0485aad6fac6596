import { countryRules } from "@/server/records/addresses/metadata";

/**
 * A postal code as the country's post writes it, from the forms people and spreadsheets leave:
 * lower case, a missing or misplaced space or hyphen, a leading zero lost (a number column), a
 * ZIP+4 run together. Google's address metadata gives each country's pattern but not its printed
 * form, so the canonical forms of the countries below are written out here; any other country's
 * code is trimmed, upper-cased and, where only that fits its pattern, written without spaces.
 */
export function canonicalPostalCode(country: string, raw: string): string {
  const upper = raw.toUpperCase().replace(/\s+/g, " ").trim();
  const compact = upper.replace(/[^A-Z0-9]/g, "");
  const digits = upper.replace(/\D/g, "");
  switch (country) {
    case "US":
      if (/^\d{3,4}$/.test(compact)) return compact.padStart(5, "0");
      if (/^\d{9}$/.test(compact)) return `${compact.slice(0, 5)}-${compact.slice(5)}`;
      if (/^\d{8}$/.test(compact) && /^\d{4}[-\s]\d{4}$/.test(upper))
        return `0${compact.slice(0, 4)}-${compact.slice(4)}`;
      return /^\d{5}$/.test(compact) ? compact : upper;
    case "GB":
    case "IE":
      // The inward code is always the last three characters (digit, letter, letter).
      return /^[A-Z0-9]{5,7}$/.test(compact) && (country === "GB" ? /\d[A-Z]{2}$/.test(compact) : true)
        ? `${compact.slice(0, -3)} ${compact.slice(-3)}`
        : upper;
    case "CA":
      return /^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(compact) ? `${compact.slice(0, 3)} ${compact.slice(3)}` : upper;
    case "NL":
      return /^\d{4}[A-Z]{2}$/.test(compact) ? `${compact.slice(0, 4)} ${compact.slice(4)}` : upper;
    case "JP":
      return digits.length === 7 && compact === digits ? `${digits.slice(0, 3)}-${digits.slice(3)}` : upper;
    case "BR":
      return digits.length === 8 && compact === digits ? `${digits.slice(0, 5)}-${digits.slice(5)}` : upper;
    case "PL":
      return digits.length === 5 && compact === digits ? `${digits.slice(0, 2)}-${digits.slice(2)}` : upper;
    case "SE":
      return digits.length === 5 && compact === digits ? `${digits.slice(0, 3)} ${digits.slice(3)}` : upper;
    case "DE":
    case "FR":
    case "ES":
    case "IT":
      // A five-digit code a number column cut to four (a leading zero: Dresden 01067, Nice 06000).
      return compact === digits && digits.length === 4
        ? digits.padStart(5, "0")
        : compact === digits && digits.length === 5
          ? digits
          : upper;
    default: {
      // Elsewhere, the form that fits the country's pattern (Google's address metadata): a code
      // written with a stray space or hyphen where the post writes none (KR 04524, RU 125032, IN 400051).
      const pattern = countryRules(country)?.postalCode;
      if (!pattern || pattern.test(upper)) return upper;
      return pattern.test(compact) ? compact : upper;
    }
  }
}

/**
 * Whether canonicalPostalCode would put back a leading zero that a number column dropped (a US ZIP
 * of three or four digits, or of eight with its +4; a four-digit code in DE, FR, ES or IT). The
 * zero is a guess: "9501" may be 09501 or a mistyped 95014. The normalised address keeps the guess
 * only where the region given confirms it (addresses/normalise.ts).
 */
export function restoresLeadingZero(country: string, raw: string): boolean {
  const written = raw.replace(/\D/g, "");
  const read = canonicalPostalCode(country, raw).replace(/\D/g, "");
  return (
    read.length > written.length && /^0+$/.test(read.slice(0, read.length - written.length)) && read.endsWith(written)
  );
}
