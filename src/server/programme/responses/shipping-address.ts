import countries from "i18n-iso-countries";
import { z } from "zod";
import type { Db } from "@/server/ground/db";
import { addressKey } from "@/server/records/addresses/checks";
import { canonicalRegion } from "@/server/records/addresses/normalise";
import type { TMailabilityReason } from "@/server/programme/mailability/reasons";
import { verdictOf } from "@/server/programme/mailability/verdict";
import { DEFAULT_SIZE } from "@/server/ground/render/page-specs";

/** The longest line a shipping label takes. */
export const MAX_ADDRESS_LINE = 40;

/** One version of a gift's shipping address (version 1 is the contact's address when the claim opened). */
export interface TShippingAddress {
  version: number;
  source: "original" | "recipient";
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  region: string | null;
  postalCode: string | null;
  country: string;
  createdAt: Date;
}

export const SHIPPING_FIELDS = ["addressLine1", "addressLine2", "city", "region", "postalCode", "country"] as const;
export type TShippingField = (typeof SHIPPING_FIELDS)[number];

const line = (label: string, required: boolean) => {
  const base = z
    .string()
    .trim()
    .max(MAX_ADDRESS_LINE, `${label} has at most ${MAX_ADDRESS_LINE} characters (what fits on a shipping label).`);
  return required ? base.min(1, `Enter the ${label.toLowerCase()}.`) : base;
};

/** The address fields of the claim form, bounded; empty optional fields become null. */
export const ZShippingAddressInput = z.object({
  addressLine1: line("Street address", true),
  addressLine2: line("Apartment, suite or floor", false).transform((v) => v || null),
  city: line("City", true),
  region: line("State, province or region", false).transform((v) => v || null),
  postalCode: z
    .string()
    .trim()
    .max(20, "The postal code has at most 20 characters.")
    .transform((v) => v || null),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, "Choose the country.")
    .transform((v) => v.toUpperCase()),
});
export type TShippingAddressInput = z.infer<typeof ZShippingAddressInput>;

const asView = (a: {
  version: number;
  source: "original" | "recipient";
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  region: string | null;
  postalCode: string | null;
  country: string;
  createdAt: Date;
}): TShippingAddress => ({
  version: a.version,
  source: a.source,
  addressLine1: a.addressLine1,
  addressLine2: a.addressLine2,
  city: a.city,
  region: a.region,
  postalCode: a.postalCode,
  country: a.country,
  createdAt: a.createdAt,
});

export async function latestShippingAddress(db: Db, pieceId: string): Promise<TShippingAddress | null> {
  const row = await db.shippingAddress.findFirst({ where: { pieceId }, orderBy: { version: "desc" } });
  return row ? asView(row) : null;
}

export async function shippingAddressVersions(
  db: Db,
  p: { workspaceId: string; pieceId: string },
): Promise<TShippingAddress[]> {
  const rows = await db.shippingAddress.findMany({
    where: { pieceId: p.pieceId, workspaceId: p.workspaceId },
    orderBy: { version: "asc" },
  });
  return rows.map(asView);
}

/** Whether two addresses are the same place (the audit's normalised address key). */
type AddressFields = Pick<
  TShippingAddressInput,
  "addressLine1" | "addressLine2" | "city" | "region" | "postalCode" | "country"
>;
export function sameAddress(a: AddressFields, b: AddressFields): boolean {
  return (
    addressKey(a) === addressKey(b) && (a.region ?? "").trim().toUpperCase() === (b.region ?? "").trim().toUpperCase()
  );
}

export function countryName(code: string): string {
  return countries.getName(code, "en", { select: "official" }) ?? code;
}

/** Words for the recipient, per problem the mailability audit would name, on the field to fix. */
const PROBLEM_FIELDS: Partial<
  Record<TMailabilityReason, { field: TShippingField; message: (a: TShippingAddressInput) => string }>
> = {
  missing_address: { field: "addressLine1", message: () => "Enter the street address." },
  missing_city: { field: "city", message: () => "Enter the city." },
  missing_postal_code: { field: "postalCode", message: () => "Enter the postal code." },
  invalid_postal_code: {
    field: "postalCode",
    message: (a) => `${a.postalCode} is not a postal code of ${countryName(a.country)}.`,
  },
  invalid_region: {
    field: "region",
    message: (a) =>
      a.region
        ? `${a.region} is not a state or region of ${countryName(a.country)}.`
        : `Enter the state or province (needed in ${countryName(a.country)}).`,
  },
  unknown_country: { field: "country", message: () => "Choose the country." },
  unsupported_country: {
    field: "country",
    message: (a) => `This gift cannot be shipped to ${countryName(a.country)}.`,
  },
  po_box: { field: "addressLine1", message: () => "Gifts cannot go to a PO box: enter a street address." },
  address_too_long: { field: "addressLine1", message: () => `Each line has at most ${MAX_ADDRESS_LINE} characters.` },
  suppressed: { field: "addressLine1", message: () => "Nothing can be sent to this address: enter another one." },
};

export type AddressCheck =
  | { ok: true; address: TShippingAddressInput }
  | { ok: false; errors: Partial<Record<TShippingField, string>> };

/**
 * Checks a shipping address as the mailability audit checks a contact's (the lifecycle's own
 * address review, the countries the campaign's printer ships to, PO boxes, line lengths, the
 * suppression list), for a gift: every reason that would stop it, on the field to fix, with the
 * audit's likely correction of a postal code. A region written out ("massachusetts") is stored
 * as its postal code ("MA").
 */
export async function checkShippingAddress(
  db: Db,
  p: {
    workspaceId: string;
    recipient: { firstName: string; lastName: string };
    address: TShippingAddressInput;
    countries: string[];
  },
): Promise<AddressCheck> {
  const a = { ...p.address };
  if (a.region) a.region = canonicalRegion(a.country, a.region);
  const suppressed =
    (await db.suppression.findFirst({
      where: { workspaceId: p.workspaceId, kind: "address", value: addressKey(a) },
      select: { id: true },
    })) !== null;
  const verdict = verdictOf(
    { ...p.recipient, ...a, addressStatus: "unverified" },
    { format: "gift", block: { format: "gift", size: DEFAULT_SIZE.gift }, coveredCountries: new Set(p.countries) },
    { suppressed },
  );
  const errors: Partial<Record<TShippingField, string>> = {};
  for (const reason of verdict.reasons) {
    const where = PROBLEM_FIELDS[reason];
    if (!where || errors[where.field]) continue;
    errors[where.field] = where.message(a);
  }
  if (verdict.suggestion?.postalCode && errors.postalCode)
    errors.postalCode += ` Did you mean ${verdict.suggestion.postalCode}?`;
  if ((a.addressLine2?.length ?? 0) > MAX_ADDRESS_LINE)
    errors.addressLine2 = `Each line has at most ${MAX_ADDRESS_LINE} characters.`;
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, address: a };
}
