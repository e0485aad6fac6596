import { z } from "zod";
import { ALL_PRINT_SIZES, PRINT_FORMATS } from "./sizes";

export const ZContractId = z.object({ contractId: z.string().min(1).max(64).regex(/^[\w-]+$/, "Not a contract id.") });

/** A new fulfilment contract: the vendor quotes its price; the owner approves it afterwards. */
export const ZNewContract = z.object({
  name: z.string().trim().min(1, "Give the contract a name.").max(120, "A name has at most 120 characters.").refine((v) => !v.includes("\0"), "A name cannot contain a NUL character."),
  vendor: z.string().min(1).max(40),
  format: z.enum(PRINT_FORMATS),
  size: z.enum(ALL_PRINT_SIZES as [string, ...string[]]).describe("The product size, e.g. 6x9 or us_letter."),
  countries: z
    .array(z.string().regex(/^[A-Z]{2}$/, "Countries are ISO 3166-1 alpha-2 codes such as US or DE."))
    .min(1, "Choose at least one country.")
    .max(60, "A contract covers at most 60 countries.")
    .transform((v) => [...new Set(v)]),
});
export type TNewContract = z.infer<typeof ZNewContract>;
