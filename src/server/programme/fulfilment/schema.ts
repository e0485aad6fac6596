import { z } from "zod";
import { ALL_PRINT_SIZES, PRINT_FORMATS } from "./sizes";
import { CONNECTABLE_VENDORS } from "./vendors/connector";

export const ZContractId = z.object({
  contractId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w-]+$/, "Not a contract id."),
});

/** A new fulfilment contract: the vendor quotes its price; the owner approves it afterwards. */
export const ZNewContract = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the contract a name.")
    .max(120, "A name has at most 120 characters.")
    .refine((v) => !v.includes("\0"), "A name cannot contain a NUL character."),
  vendor: z.string().min(1).max(40),
  format: z.enum(PRINT_FORMATS),
  size: z.enum(ALL_PRINT_SIZES as [string, ...string[]]).describe("The product size, e.g. 6x9 or us_letter."),
  countries: z
    .array(z.string().regex(/^[A-Z]{2}$/, "Countries are ISO 3166-1 alpha-2 codes such as US or DE."))
    .min(1, "Choose at least one country.")
    .max(60, "A contract covers at most 60 countries.")
    .transform((v) => [...new Set(v)]),
  /** The owner's price per piece (cents), for vendors whose price the owner's own plan sets (Lob). */
  unitCostCents: z
    .number()
    .int("Enter the price in whole cents.")
    .min(1, "Enter a price above zero.")
    .max(100_000, "A price per piece is at most 1,000.00 USD.")
    .optional(),
  /** The workspace's vendor account to print through (Lob); by default its connected one. */
  connectionId: z
    .string()
    .regex(/^pvc_[0-9a-f]{32}$/, "Not a print vendor connection id.")
    .optional(),
});
export type TNewContract = z.infer<typeof ZNewContract>;

/** fulfilment.connectVendor: the workspace's own account at a vendor (vendors/connectors.ts checks the key). */
export const ZConnectVendor = z.object({
  vendor: z.enum(CONNECTABLE_VENDORS),
  apiKey: z
    .string()
    .trim()
    .min(1, "Paste your API key.")
    .max(200, "That is too long for an API key.")
    .regex(/^\S+$/, "An API key has no spaces."),
  /** The webhook's signing secret, for a vendor that sends webhooks (Lob). */
  webhookSecret: z.string().trim().max(500, "That is too long for a signing secret.").optional(),
});
export const ZVendorConnectionId = z.object({
  connectionId: z.string().regex(/^pvc_[0-9a-f]{32}$/, "Not a print vendor connection id."),
});
