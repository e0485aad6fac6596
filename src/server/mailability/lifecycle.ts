import type { Db } from "@/server/db";
import type { EventContext } from "@/server/entry/lifecycle/snapshot";
import { DEFAULT_SIZE } from "@/server/render/page-specs";
import type { TFontFamily } from "@/server/render/fonts";
import type { TAuditContact } from "./verdict";
import { lifecycleOutcome, type TSharedFacts, verdictOf } from "./verdict";
import { cachedVerifications, verificationKey } from "./verifiers/cache";
import { addressVerifier } from "./verifiers/registry";

/**
 * The facts a campaign's lifecycle judges its contacts with, the same as a campaign audit's: its
 * format, its design's address block, and its contract's countries (not judged without an approved
 * contract for its format: the contract gate then stops the piece anyway).
 */
export async function campaignFacts(db: Db, p: { workspaceId: string; campaign: EventContext["campaign"] }): Promise<TSharedFacts> {
  const { campaign } = p;
  const contract = campaign.contract && campaign.contract.status === "approved" && campaign.contract.format === campaign.format ? campaign.contract : null;
  const brand = campaign.format === "handwritten" ? await db.brandKit.findFirst({ where: { workspaceId: p.workspaceId }, select: { handwritingFont: true } }) : null;
  return {
    format: campaign.format,
    block: { format: campaign.format, size: campaign.designSize ?? DEFAULT_SIZE[campaign.format], handwriting: (brand?.handwritingFont as TFontFamily | undefined) ?? undefined },
    coveredCountries: contract ? new Set(contract.countries) : null,
  };
}

/**
 * The lifecycle's suppression and address gates for one contact: the audit's verdict (with the
 * address verifier's cached answer for the address) and which gate it stops at, with the reasons.
 */
export async function mailabilityOfEnrollee(
  db: Db,
  p: { workspaceId: string; campaign: EventContext["campaign"]; contact: TAuditContact & { account?: { name: string } | null }; suppressed: boolean; duplicateContact: boolean },
) {
  const shared = await campaignFacts(db, p);
  const contact = { ...p.contact, company: p.contact.account?.name ?? null };
  const key = contact.addressLine1?.trim() ? verificationKey(contact) : null;
  const verifier = addressVerifier();
  const verification = key ? ((await cachedVerifications(db, { workspaceId: p.workspaceId, verifier: verifier.name, keys: [key] })).get(key) ?? null) : null;
  const verdict = verdictOf(contact, shared, { suppressed: p.suppressed, duplicateContact: p.duplicateContact, verification });
  return { verdict, ...lifecycleOutcome(verdict, shared.format) };
}
