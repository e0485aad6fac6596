import { Prisma } from "@/generated/prisma/client";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import type { Db } from "@/server/ground/db";
import { addressKey } from "@/server/records/addresses/checks";
import { type AddressFields, normaliseAddress } from "@/server/records/addresses/normalise";
import { type TVerification, type TVerificationVerdict, VERIFICATION_VERDICTS } from "./types";

/** How long a verification is trusted: people move and buildings change, so an address is verified again after this. */
export const VERIFICATION_MAX_AGE_DAYS = 180;
const DAY = 86_400_000;

/** The name a verifier's answers are cached under (its name and verification mode). */
export const cacheNameOf = (v: { name: string; cacheName?: string }) => v.cacheName ?? v.name;

/** The cache key of an address: its normalised form, squashed (addresses/checks.ts addressKey). */
export function verificationKey(a: AddressFields): string {
  return addressKey(normaliseAddress(a));
}

const asVerdict = (v: string): TVerificationVerdict | null =>
  (VERIFICATION_VERDICTS as readonly string[]).includes(v) ? (v as TVerificationVerdict) : null;

/** The cached answers for these keys (fresh ones only), by key. */
export async function cachedVerifications(
  db: Db,
  p: { workspaceId: string; verifier: string; keys: string[]; now?: Date },
): Promise<Map<string, TVerification>> {
  const out = new Map<string, TVerification>();
  if (!p.keys.length) return out;
  const since = new Date((p.now ?? new Date()).getTime() - VERIFICATION_MAX_AGE_DAYS * DAY);
  // A raw read: inside a lifecycle batch's hot transaction it runs straight on its connection.
  const rows = await hotSql<{ addressKey: string; verdict: string; vendorVerdict: string; standardised: unknown }>(
    db,
    Prisma.sql`SELECT "addressKey", verdict, "vendorVerdict", standardised FROM "AddressVerification"
                WHERE "workspaceId" = ${p.workspaceId} AND verifier = ${p.verifier} AND "addressKey" = ANY(${[...new Set(p.keys)]}::text[]) AND "verifiedAt" >= ${since}`,
  );
  for (const r of rows) {
    const verdict = asVerdict(r.verdict);
    if (verdict)
      out.set(r.addressKey, {
        verdict,
        vendorVerdict: r.vendorVerdict,
        standardised: (r.standardised as AddressFields | null) ?? null,
      });
  }
  return out;
}

/** Keeps verifier answers (a newer answer for the same address replaces the older). */
export async function storeVerifications(
  db: Db,
  p: {
    workspaceId: string;
    verifier: string;
    entries: { key: string; verification: TVerification; costCents: number }[];
    now?: Date;
  },
) {
  for (const e of p.entries) {
    const data = {
      verdict: e.verification.verdict,
      vendorVerdict: e.verification.vendorVerdict.slice(0, 100),
      standardised: (e.verification.standardised ?? undefined) as Prisma.InputJsonValue | undefined,
      costCents: e.costCents,
      verifiedAt: p.now ?? new Date(),
    };
    await db.addressVerification.upsert({
      where: {
        workspaceId_verifier_addressKey: { workspaceId: p.workspaceId, verifier: p.verifier, addressKey: e.key },
      },
      create: { workspaceId: p.workspaceId, verifier: p.verifier, addressKey: e.key, ...data },
      update: data,
    });
  }
}
