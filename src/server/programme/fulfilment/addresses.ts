import { printedName } from "@/server/records/addresses/scripts";
import type { PostalAddress } from "./adapter";

/** A contact's address as the structured address a vendor prints (null when it lacks the essentials). */
export function postalAddressOf(c: {
  firstName: string;
  lastName: string;
  company?: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
}): PostalAddress | null {
  if (!c.addressLine1 || !c.city || !c.postalCode) return null;
  return {
    name: printedName(c),
    company: c.company ?? null,
    line1: c.addressLine1,
    line2: c.addressLine2,
    city: c.city,
    region: c.region,
    postalCode: c.postalCode,
    country: c.country ?? "US",
  };
}
