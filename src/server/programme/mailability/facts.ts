import type { SuppressionKind } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { suppressionKeys } from "@/server/records/contacts/suppression-check";
import { DEFAULT_SIZE, type TFormat } from "@/server/ground/render/page-specs";
import type { TFontFamily } from "@/server/ground/render/fonts";
import { SMALLEST_BLOCK, type TBlockSpec } from "@/server/records/addresses/address-block";
import type { TAuditContact, TSharedFacts } from "./verdict";

/** The contact fields an audit reads (a Contact row with its account). */
export const AUDIT_CONTACT_FIELDS = {
  id: true,
  firstName: true,
  lastName: true,
  title: true,
  email: true,
  accountId: true,
  addressLine1: true,
  addressLine2: true,
  city: true,
  region: true,
  postalCode: true,
  country: true,
  addressStatus: true,
  undeliverableReason: true,
  account: { select: { name: true, domain: true } },
} as const;

export type TAuditContactRow = TAuditContact & {
  id: string;
  email: string | null;
  accountId: string | null;
  account: { name: string; domain: string | null } | null;
};

/** A row as the verdict reads it (its company prints in the address block). */
export const asAuditContact = (c: TAuditContactRow): TAuditContactRow => ({ ...c, company: c.account?.name ?? null });

/** The approved printer contracts of a workspace: formats, countries and unit prices. */
export async function approvedContracts(db: Db, workspaceId: string) {
  return db.fulfilmentContract.findMany({
    where: { workspaceId, status: "approved" },
    select: { id: true, format: true, countries: true, unitCostCents: true, countryPrices: true },
    orderBy: { createdAt: "asc" },
  });
}

/**
 * The facts shared by an audit: for an audience, every approved printer's countries and the
 * smallest address block; for a campaign, its format, its design's block and its own contract's
 * countries (the workspace's approved contracts for its format while it has none chosen).
 */
export async function sharedFactsFor(
  db: Db,
  p: { workspaceId: string; campaignId?: string | null },
): Promise<TSharedFacts & { campaign: { id: string; name: string; audienceId: string | null } | null }> {
  const contracts = await approvedContracts(db, p.workspaceId);
  if (!p.campaignId) {
    return {
      format: null,
      block: SMALLEST_BLOCK,
      coveredCountries: contracts.length ? new Set(contracts.flatMap((c) => c.countries)) : null,
      campaign: null,
    };
  }
  const campaign = await db.campaign.findFirst({
    where: { id: p.campaignId, workspaceId: p.workspaceId },
    select: {
      id: true,
      name: true,
      format: true,
      audienceId: true,
      fulfilmentContractId: true,
      design: { select: { size: true } },
    },
  });
  if (!campaign) return { format: null, block: SMALLEST_BLOCK, coveredCountries: null, campaign: null };
  const format = campaign.format as TFormat;
  const own = contracts.find((c) => c.id === campaign.fulfilmentContractId && c.format === format);
  const forFormat = own ? [own] : contracts.filter((c) => c.format === format);
  const brand =
    format === "handwritten"
      ? await db.brandKit.findFirst({ where: { workspaceId: p.workspaceId }, select: { handwritingFont: true } })
      : null;
  const block: TBlockSpec = {
    format,
    size: campaign.design?.size ?? DEFAULT_SIZE[format],
    handwriting: (brand?.handwritingFont as TFontFamily | undefined) ?? undefined,
  };
  return {
    format,
    block,
    coveredCountries: forFormat.length ? new Set(forFormat.flatMap((c) => c.countries)) : null,
    campaign: { id: campaign.id, name: campaign.name, audienceId: campaign.audienceId },
  };
}

/** The workspace's suppression list as `kind:value` keys (checked in memory for a whole audit), and the kinds it holds. */
export async function suppressionSet(
  db: Db,
  workspaceId: string,
): Promise<{ keys: Set<string>; kinds: Set<SuppressionKind> }> {
  const rows = await db.suppression.findMany({ where: { workspaceId }, select: { kind: true, value: true } });
  return { keys: new Set(rows.map((s) => `${s.kind}:${s.value}`)), kinds: new Set(rows.map((s) => s.kind)) };
}

export function isSuppressedBy(set: { keys: Set<string>; kinds: Set<SuppressionKind> }, c: TAuditContactRow): boolean {
  if (!set.keys.size) return false;
  return suppressionKeys({ ...c, accountDomain: c.account?.domain ?? null }, set.kinds).some((k) =>
    set.keys.has(`${k.kind}:${k.value}`),
  );
}

/**
 * The contacts of an audience that share their address with another member, and those that are
 * the same person at the same address as an earlier member (by when they were created): from the
 * keys every write keeps on the contact (contacts/keys.ts), in one statement.
 */
export async function audienceDuplicates(
  db: Db,
  p: { workspaceId: string; audienceId: string },
): Promise<Map<string, { duplicateContact: boolean }>> {
  const rows = await db.$queryRaw<{ id: string; later: boolean }[]>`
    SELECT id, later FROM (
      SELECT c.id,
             count(*) OVER (PARTITION BY c."addressKey") AS same_address,
             c."matchKey" IS NOT NULL AND row_number() OVER (PARTITION BY c."matchKey" ORDER BY c."createdAt", c.id) > 1 AS later
        FROM "AudienceMember" m JOIN "Contact" c ON c.id = m."contactId"
       WHERE m."audienceId" = ${p.audienceId} AND m."workspaceId" = ${p.workspaceId} AND c."addressKey" IS NOT NULL
    ) d WHERE same_address > 1`;
  return new Map(rows.map((r) => [r.id, { duplicateContact: r.later }]));
}
