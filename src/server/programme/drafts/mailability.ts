import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import {
  AUDIT_CONTACT_FIELDS,
  audienceDuplicates,
  isSuppressedBy,
  suppressionSet,
  type TAuditContactRow,
} from "@/server/programme/mailability/facts";
import { mailabilityJudge, type TJudgedCampaign } from "@/server/programme/mailability/lifecycle";
import { reasonPhrases } from "@/server/programme/mailability/reason-words";
import type { TMailabilityReason } from "@/server/programme/mailability/reasons";
import { blockingReasons } from "@/server/programme/mailability/verdict";
import { DIGEST_CONTACT_FIELDS, recipientChangedSince } from "./recipient-changes";

/** Drafts judged per round when a whole campaign's drafts are looked through (never the whole audience in memory). */
const SCAN = 500;
/** Recipients named in the sentence; the rest are counted. */
const NAMED = 3;

/** The contact fields a draft's recipient is judged by: the audit's. */
export const DRAFT_RECIPIENT_FIELDS = AUDIT_CONTACT_FIELDS;

/** Whether a draft's recipient can be mailed now, and if not, why. */
export interface TDraftMailability {
  /** The lifecycle's suppression and address gates would let the piece through (the audit's verdict for the campaign). */
  mailable: boolean;
  /** The audit's reasons that stop it, every one of them (empty when mailable). */
  reasons: TMailabilityReason[];
  /** The same in words ("no street address, no city"); null when mailable. */
  detail: string | null;
}

/** What judging needs of the campaign: its audience (duplicates), format, design size and printer contract. */
export interface TDraftsCampaign {
  id: string;
  audienceId: string | null;
  format: TJudgedCampaign["format"];
  fulfilmentContractId: string | null;
  design: { size: string } | null;
}

type TRecipientRow = { id: string; contact: TAuditContactRow };
/** A draft as a look through a campaign's drafts reads it: its recipient, and what tells whether they changed since it was rendered. */
type TScannedDraft = {
  id: string;
  recipientDigest: string | null;
  renderedAt: Date;
  contact: Prisma.ContactGetPayload<{ select: typeof DIGEST_CONTACT_FIELDS }>;
};

/**
 * The judge of a campaign's draft recipients: the mailability audit's verdict with the facts the
 * lifecycle's gates use for this campaign (mailability/lifecycle.ts mailabilityJudge: its format,
 * its design's address block, its approved contract's countries, the cached address
 * verifications), with the suppression list and the audience's duplicate people as an audit of
 * the audience finds them. So a draft flagged here is a recipient the lifecycle skips
 * (suppressed, address_invalid or address_duplicate), for the same reasons. Reads one query after
 * another: going live asks this inside its transaction.
 */
export async function draftMailabilityJudge(db: Db, p: { workspaceId: string; campaign: TDraftsCampaign }) {
  const contract = p.campaign.fulfilmentContractId
    ? await db.fulfilmentContract.findFirst({
        where: { id: p.campaign.fulfilmentContractId, workspaceId: p.workspaceId },
        select: { status: true, format: true, countries: true },
      })
    : null;
  const campaign: TJudgedCampaign = {
    format: p.campaign.format,
    designSize: p.campaign.design?.size ?? null,
    contract,
  };
  const suppression = await suppressionSet(db, p.workspaceId);
  const duplicates = p.campaign.audienceId
    ? await audienceDuplicates(db, { workspaceId: p.workspaceId, audienceId: p.campaign.audienceId })
    : new Map<string, { duplicateContact: boolean }>();
  return async (rows: TRecipientRow[]): Promise<Map<string, TDraftMailability>> => {
    const out = new Map<string, TDraftMailability>();
    if (rows.length === 0) return out;
    const judge = await mailabilityJudge(db, {
      workspaceId: p.workspaceId,
      campaign,
      contacts: rows.map((r) => r.contact),
    });
    for (const r of rows) {
      const { verdict, gate } = judge(r.contact, {
        suppressed: isSuppressedBy(suppression, r.contact),
        duplicateContact: duplicates.get(r.contact.id)?.duplicateContact ?? false,
      });
      const reasons = blockingReasons(verdict.reasons, campaign.format);
      out.set(
        r.id,
        gate === "ok"
          ? { mailable: true, reasons: [], detail: null }
          : { mailable: false, reasons, detail: reasonPhrases(r.contact, reasons).join(", ") },
      );
    }
    return out;
  };
}

export type TDraftJudge = Awaited<ReturnType<typeof draftMailabilityJudge>>;

/**
 * Looks through a campaign's drafts after `after` in id order, SCAN at a time, judging each
 * round's recipients; `visit` gets each round and returns false to stop.
 */
export async function scanDraftRecipients(
  db: Db,
  p: { workspaceId: string; campaignId: string; after?: string | null; judge: TDraftJudge },
  visit: (round: (TScannedDraft & { mailability: TDraftMailability })[]) => boolean,
) {
  let after = p.after ?? "";
  for (;;) {
    const rows = (await db.draft.findMany({
      where: { campaignId: p.campaignId, workspaceId: p.workspaceId, id: { gt: after } },
      orderBy: { id: "asc" },
      take: SCAN,
      select: { id: true, recipientDigest: true, renderedAt: true, contact: { select: DIGEST_CONTACT_FIELDS } },
    })) satisfies TScannedDraft[];
    if (rows.length === 0) return;
    const verdicts = await p.judge(rows);
    if (!visit(rows.map((r) => ({ ...r, mailability: verdicts.get(r.id)! })))) return;
    if (rows.length < SCAN) return;
    after = rows[rows.length - 1].id;
  }
}

const nameOf = (c: { firstName: string; lastName: string; email: string | null }) =>
  `${c.firstName} ${c.lastName}`.trim() || c.email || "a recipient without a name";

/**
 * One look through a campaign's drafts for what the owner is told of their recipients: how many can
 * be mailed, the first few who cannot with their reasons, and a sentence saying so ("7 of 8 drafts
 * can be mailed; 1 recipient cannot …", null when every draft can be, or there are none); and how
 * many drafts no longer print their recipient as they are (`changed`), of which how many were
 * rendered after `inputsChangedAt`, so are not out of date otherwise (`changedOnly`).
 */
export async function draftRecipients(
  db: Db,
  p: { workspaceId: string; campaign: TDraftsCampaign; inputsChangedAt?: Date },
) {
  const judge = await draftMailabilityJudge(db, p);
  const inputsChangedAt = p.inputsChangedAt ?? new Date(0);
  let total = 0;
  let unmailable = 0;
  const changes = { changed: 0, changedOnly: 0 };
  const recipients: {
    draftId: string;
    contactId: string;
    contactName: string;
    reasons: TMailabilityReason[];
    detail: string;
  }[] = [];
  await scanDraftRecipients(db, { workspaceId: p.workspaceId, campaignId: p.campaign.id, judge }, (round) => {
    total += round.length;
    for (const r of round) {
      if (recipientChangedSince(r, r.contact)) {
        changes.changed += 1;
        if (r.renderedAt >= inputsChangedAt) changes.changedOnly += 1;
      }
      if (r.mailability.mailable) continue;
      unmailable += 1;
      if (recipients.length < NAMED)
        recipients.push({
          draftId: r.id,
          contactId: r.contact.id,
          contactName: nameOf(r.contact),
          reasons: r.mailability.reasons,
          detail: r.mailability.detail ?? "",
        });
    }
    return true;
  });
  return {
    total,
    mailable: total - unmailable,
    unmailable,
    recipients,
    sentence: unmailable ? mailabilitySentence(total, unmailable, recipients) : null,
    changes,
  };
}

const n = (x: number) => x.toLocaleString("en-US");

/** "7 of 8 drafts can be mailed; 1 recipient cannot and is skipped when they enter (Li Wei: no street address, no city)." */
export function mailabilitySentence(
  total: number,
  unmailable: number,
  named: { contactName: string; detail: string }[],
): string {
  const more = unmailable - named.length;
  const list = [
    ...named.map((r) => `${r.contactName}: ${r.detail}`),
    ...(more > 0 ? [`and ${n(more)} more`] : []),
  ].join("; ");
  const who =
    unmailable === 1
      ? "1 recipient cannot and is skipped when they enter"
      : `${n(unmailable)} recipients cannot and are skipped when they enter`;
  return `${n(total - unmailable)} of ${n(total)} draft${total === 1 ? "" : "s"} can be mailed; ${who} (${list}).`;
}
