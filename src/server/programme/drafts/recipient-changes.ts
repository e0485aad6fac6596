import type { Prisma } from "@/generated/prisma/client";
import { AUDIT_CONTACT_FIELDS } from "@/server/programme/mailability/facts";
import type { RecipientContact } from "@/server/programme/designs/recipient";
import { draftRecipientState } from "./recipient-digest";

/**
 * What a draft's recipient is read with when a campaign's drafts are looked through
 * (mailability.ts scanDraftRecipients): the audit's fields, for whether they can be mailed, and
 * what recipientDigest reads besides, with when the contact and its account were last written.
 */
export const DIGEST_CONTACT_FIELDS = {
  ...AUDIT_CONTACT_FIELDS,
  customFields: true,
  updatedAt: true,
  account: { select: { name: true, domain: true, updatedAt: true } },
} as const satisfies Prisma.ContactSelect;

type TComparedContact = RecipientContact & {
  customFields?: unknown;
  updatedAt: Date;
  account: { name: string; domain: string | null; updatedAt: Date } | null;
};

/**
 * Whether a draft's recipient changed since it was rendered, as the owner is told (the drafts'
 * summary, readiness, one draft): its digest differs from the contact's as it is now. A draft made
 * before digests were kept is counted when its contact or account was written after it was
 * rendered. That is only a hint, good enough for this count: the lifecycle never relies on it and
 * renders such a draft again at piece time whatever it says (recipient-digest.ts draftRecipientState),
 * so the piece prints the recipient as they are; for a contact not written since, that render
 * gives what the owner reviewed.
 */
export function recipientChangedSince(
  draft: { recipientDigest: string | null; renderedAt: Date },
  contact: TComparedContact,
): boolean {
  const state = draftRecipientState(draft.recipientDigest, contact);
  if (state !== "unknown") return state === "changed";
  return (
    contact.updatedAt > draft.renderedAt || (contact.account !== null && contact.account.updatedAt > draft.renderedAt)
  );
}

/**
 * "2 drafts are out of date: their recipient changed since they were made; generate again to review
 * them." Once the campaign is live its drafts cannot be generated again: each such recipient's piece
 * is rendered again for them as they are when they enter. Null when none changed.
 */
export function recipientChangedSentence(changed: number, campaignIsDraft: boolean): string | null {
  if (changed === 0) return null;
  const one = changed === 1;
  const head = one
    ? "1 draft is out of date: its recipient changed since it was made"
    : `${changed.toLocaleString("en-US")} drafts are out of date: their recipient changed since they were made`;
  const rendered = `${one ? "its piece is" : "their pieces are"} rendered again for the recipient as they are now when they enter`;
  const then = campaignIsDraft ? `generate again to review ${one ? "it" : "them"}; otherwise ${rendered}` : rendered;
  return `${head}; ${then}.`;
}
