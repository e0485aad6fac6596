import { z } from "zod";
import { CUSTOM_FIELD_MAX, FIELD_MAX } from "./limits";

const noNul = (s: string) => !s.includes("\u0000");
const text = (max: number) =>
  z.string().trim().max(max, `At most ${max} characters.`).refine(noNul, "Contains a NUL character.");
const optionalText = (max: number) =>
  text(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const ZId = (what: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w-]+$/, `Not ${what}.`);
export const ZContactId = ZId("a contact id");
export const ZAccountId = ZId("an account id");
export const ZAudienceId = ZId("an audience id");

export const ZCustomFields = z
  .record(text(CUSTOM_FIELD_MAX.name).min(1), text(CUSTOM_FIELD_MAX.value))
  .refine((r) => Object.keys(r).length <= CUSTOM_FIELD_MAX.count, `At most ${CUSTOM_FIELD_MAX.count} custom fields.`);

/** What a person (or an agent) may set on a contact. */
export const ZContactFields = z.object({
  firstName: text(FIELD_MAX.firstName).default(""),
  lastName: text(FIELD_MAX.lastName).default(""),
  title: optionalText(FIELD_MAX.title),
  email: optionalText(FIELD_MAX.email),
  phone: optionalText(FIELD_MAX.phone),
  addressLine1: optionalText(FIELD_MAX.addressLine1),
  addressLine2: optionalText(FIELD_MAX.addressLine2),
  city: optionalText(FIELD_MAX.city),
  region: optionalText(FIELD_MAX.region),
  postalCode: optionalText(FIELD_MAX.postalCode),
  country: optionalText(FIELD_MAX.country).describe("A country name or ISO code; kept as the ISO 3166-1 alpha-2 code."),
  crmId: optionalText(FIELD_MAX.crmId),
  customFields: ZCustomFields.default({}),
});
export type TContactFields = z.infer<typeof ZContactFields>;

export const ZContactCreate = ZContactFields.extend({
  company: optionalText(FIELD_MAX.company).describe("The company: finds its account by name, or makes one."),
  website: optionalText(FIELD_MAX.website),
});

export const ZContactFilter = z.object({
  search: z
    .string()
    .max(100)
    .refine(noNul, "Contains a NUL character.")
    .nullish()
    .describe("Words of a name, an email or a company; each word matches the start of a word."),
  audienceId: ZAudienceId.nullish().describe("Only this audience's contacts (aud_…)."),
  accountId: ZAccountId.nullish().describe("Only this account's contacts (acc_…)."),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "An ISO 3166-1 alpha-2 code, like US or DE.")
    .nullish()
    .describe("Only contacts in this country (ISO code, e.g. US)."),
  suppressed: z.boolean().nullish().describe("true: only contacts a suppression stops; false: only the others."),
});

export const ZPage = { cursor: z.string().max(200).nullish(), take: z.number().int().min(1).max(100).default(25) };
