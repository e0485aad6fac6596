import type { Db } from "@/server/ground/db";
import { DEFAULT_SIZE } from "@/server/ground/render/page-specs";
import type { TFontFamily } from "@/server/ground/render/fonts";
import type { TAuditContact } from "./verdict";
import { lifecycleOutcome, type TSharedFacts, verdictOf } from "./verdict";
import { cacheNameOf, cachedVerifications, verificationKey } from "./verifiers/cache";
import { addressVerifier } from "./verifiers/registry";

/**
 * The facts a campaign's lifecycle judges its contacts with, the same as a campaign audit's: its
 * format, its design's address block, and its contract's countries (not judged without an approved
 * contract for its format: the contract gate then stops the piece anyway).
 */
export async function campaignFacts(
  db: Db,
  p: { workspaceId: string; campaign: TJudgedCampaign },
): Promise<TSharedFacts> {
  const { campaign } = p;
  const contract =
    campaign.contract && campaign.contract.status === "approved" && campaign.contract.format === campaign.format
      ? campaign.contract
      : null;
  const brand =
    campaign.format === "handwritten"
      ? await db.brandKit.findFirst({ where: { workspaceId: p.workspaceId }, select: { handwritingFont: true } })
      : null;
  return {
    format: campaign.format,
    block: {
      format: campaign.format,
      size: campaign.designSize ?? DEFAULT_SIZE[campaign.format],
      handwriting: (brand?.handwritingFont as TFontFamily | undefined) ?? undefined,
    },
    coveredCountries: contract ? new Set(contract.countries) : null,
  };
}

/** What the gates need of a campaign (the lifecycle's snapshot of one, entry/lifecycle/snapshot.ts, has this and more). */
export interface TJudgedCampaign {
  format: "postcard" | "letter" | "handwritten" | "gift";
  designSize: string | null;
  contract: { status: string; format: string; countries: string[] } | null;
}

/** A contact as the lifecycle's gates judge it: the audit's fields, with its account's name. */
export type TEnrollee = TAuditContact & { account?: { name: string } | null };

/**
 * The lifecycle's suppression and address gates for a campaign's contacts, as the audit judges
 * them: the campaign's facts read once, the address verifier's cached answers for all of the
 * contacts' addresses in one query, then a pure verdict per contact (with whether it is suppressed
 * and whether the same person is already on their way), and the gate it stops at, with the reasons.
 */
export async function mailabilityJudge(
  db: Db,
  p: { workspaceId: string; campaign: TJudgedCampaign; contacts: TEnrollee[] },
) {
  const shared = await campaignFacts(db, p);
  const verifier = addressVerifier();
  const keyOf = (c: TEnrollee) => (c.addressLine1?.trim() ? verificationKey(c) : null);
  const keys = p.contacts.map(keyOf).filter((k): k is string => k !== null);
  const cached = await cachedVerifications(db, { workspaceId: p.workspaceId, verifier: cacheNameOf(verifier), keys });
  return (contact: TEnrollee, own: { suppressed: boolean; duplicateContact: boolean }) => {
    const key = keyOf(contact);
    const verdict = verdictOf({ ...contact, company: contact.account?.name ?? null }, shared, {
      ...own,
      verification: key ? (cached.get(key) ?? null) : null,
    });
    return { verdict, ...lifecycleOutcome(verdict, shared.format) };
  };
}
