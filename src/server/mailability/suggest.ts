import { addressProblems, type PostalAddress } from "@/server/entry/lifecycle/gates/address";

export type TAddressFix = { postalCode: string };

/**
 * Postal codes as people and spreadsheets damage them, mended per country's known format (the
 * forms postcode-validator refuses; it already accepts, say, a British code without its space).
 */
function mendPostalCode(country: string, raw: string): string | null {
  const compact = raw.toUpperCase().replace(/[^A-Z0-9]/g, "");
  switch (country) {
    case "US": {
      // Spreadsheets drop leading zeros (02116 becomes 2116) and run ZIP+4 together.
      if (/^\d{3,4}$/.test(compact)) return compact.padStart(5, "0");
      if (/^\d{9}$/.test(compact)) return `${compact.slice(0, 5)}-${compact.slice(5)}`;
      if (/^\d{5}$/.test(compact) && compact !== raw) return compact;
      return null;
    }
    case "JP": {
      const digits = raw.replace(/\D/g, "");
      return digits.length === 7 ? `${digits.slice(0, 3)}-${digits.slice(3)}` : null;
    }
    case "DE":
    case "FR": {
      const digits = raw.replace(/\D/g, "");
      return digits.length === 4 ? digits.padStart(5, "0") : null;
    }
    default:
      return null;
  }
}

/**
 * A likely correction of the address's postal code, when one makes the address pass the postal
 * code check (the lifecycle's own): null when there is none. Nothing else is ever changed.
 */
export function suggestFix(a: PostalAddress): TAddressFix | null {
  const country = a.country?.trim().toUpperCase() ?? "";
  if (!a.postalCode || !addressProblems(a).some((p) => p.code === "invalid_postal_code")) return null;
  const mended = mendPostalCode(country, a.postalCode.trim());
  if (!mended) return null;
  return addressProblems({ ...a, postalCode: mended }).some((p) => p.code === "invalid_postal_code") ? null : { postalCode: mended };
}
