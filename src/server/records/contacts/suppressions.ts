import { z } from "zod";
import type { SuppressionKind, SuppressionReason } from "@/generated/prisma/client";
import { addressKey } from "@/server/records/addresses/checks";
import { toCountryCode } from "@/server/records/addresses/countries";
import { normaliseEmail, toDomain } from "./keys";
import { FIELD_MAX } from "./limits";

/** Why something must never be mailed: the names agents, the API and the docs use. */
export const SUPPRESSION_REASONS = ["opt-out", "customer", "competitor", "do-not-mail", "bounced"] as const;
export type TSuppressionReason = (typeof SUPPRESSION_REASONS)[number];
export const ZSuppressionReason = z
  .enum(SUPPRESSION_REASONS)
  .describe(
    "opt-out (asked not to be mailed), do-not-mail (any other standing instruction), bounced (mail came back), customer, competitor.",
  );

const toDb: Record<TSuppressionReason, SuppressionReason> = {
  "opt-out": "opt_out",
  customer: "customer",
  competitor: "competitor",
  "do-not-mail": "do_not_mail",
  bounced: "bounced",
};
export const reasonToDb = (r: TSuppressionReason) => toDb[r];
export const reasonFromDb = (r: SuppressionReason): TSuppressionReason =>
  (Object.keys(toDb) as TSuppressionReason[]).find((k) => toDb[k] === r)!;

/** A reason as people write it in a CSV ("Opt out", "unsubscribed", "DNC", "returned mail"), or null. */
export function parseReason(input: string | null | undefined): TSuppressionReason | null {
  const s = input
    ?.trim()
    .toLowerCase()
    .replace(/[^a-z]+/g, " ")
    .trim();
  if (!s) return null;
  if (/^(opt ?out|opted out|unsubscribe|unsubscribed|optout|gdpr|asked)/.test(s)) return "opt-out";
  if (/^(customer|client|existing customer)/.test(s)) return "customer";
  if (/^(competitor|competition)/.test(s)) return "competitor";
  if (/^(do not mail|dnm|dnc|do not contact|no mail|legal)/.test(s)) return "do-not-mail";
  if (/^(bounce|bounced|returned|return to sender|undeliverable|rts)/.test(s)) return "bounced";
  return null;
}

export const ZSuppressionAddress = z.object({
  addressLine1: z.string().trim().min(1).max(FIELD_MAX.addressLine1),
  addressLine2: z.string().trim().max(FIELD_MAX.addressLine2).nullish(),
  city: z.string().trim().max(FIELD_MAX.city).nullish(),
  region: z.string().trim().max(FIELD_MAX.region).nullish(),
  postalCode: z.string().trim().max(FIELD_MAX.postalCode).nullish(),
  country: z.string().trim().min(1).max(FIELD_MAX.country).describe("A country name or ISO code."),
});

/** One entry: exactly one of email, address, domain, accountId (or, from the owner's browser, contactId), and a reason. */
export const ZSuppressionEntry = z
  .object({
    email: z.string().trim().max(FIELD_MAX.email).optional(),
    address: ZSuppressionAddress.optional(),
    domain: z
      .string()
      .trim()
      .max(FIELD_MAX.website)
      .optional()
      .describe("A web domain: every contact with an email there, and every account with it."),
    accountId: z.string().min(1).max(64).optional().describe("An account (acc_…): every contact of it is suppressed."),
    contactId: z.string().min(1).max(64).optional(),
    reason: ZSuppressionReason,
  })
  .refine(
    (e) => [e.email, e.address, e.domain, e.accountId, e.contactId].filter((v) => v !== undefined).length === 1,
    "Give exactly one of email, address, domain or accountId.",
  );
export type TSuppressionEntry = z.infer<typeof ZSuppressionEntry>;

export interface NormalisedSuppression {
  kind: SuppressionKind;
  value: string;
  label: string;
  reason: TSuppressionReason;
}

/** An entry as it is kept (normalised value, readable label), or the sentence why it cannot be. */
export function normaliseEntry(e: TSuppressionEntry): NormalisedSuppression | { error: string; field: string } {
  if (e.email !== undefined) {
    const email = normaliseEmail(e.email);
    return email
      ? { kind: "email", value: email, label: email, reason: e.reason }
      : { error: `“${e.email}” is not an email address.`, field: "email" };
  }
  if (e.domain !== undefined) {
    const domain = toDomain(e.domain);
    return domain
      ? { kind: "domain", value: domain, label: domain, reason: e.reason }
      : { error: `“${e.domain}” is not a web domain (like acme.com).`, field: "domain" };
  }
  if (e.address) {
    const country = toCountryCode(e.address.country);
    if (!country) return { error: `“${e.address.country}” is not a country we know.`, field: "address/country" };
    if (!e.address.postalCode && !e.address.city)
      return { error: "An address needs a postal code or a city besides the street.", field: "address/postalCode" };
    const a = {
      addressLine1: e.address.addressLine1,
      addressLine2: e.address.addressLine2 ?? null,
      city: e.address.city ?? null,
      postalCode: e.address.postalCode ?? null,
      country,
    };
    const label = [
      a.addressLine1,
      a.addressLine2,
      [a.city, e.address.region, a.postalCode].filter(Boolean).join(" "),
      country,
    ]
      .filter(Boolean)
      .join(", ");
    return { kind: "address", value: addressKey(a), label, reason: e.reason };
  }
  if (e.accountId !== undefined) return { kind: "account", value: e.accountId, label: "", reason: e.reason };
  return { kind: "contact", value: e.contactId!, label: "", reason: e.reason };
}
