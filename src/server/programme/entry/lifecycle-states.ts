import { EntryEventStatus } from "@/generated/prisma/enums";

export type { EntryEventStatus };

/**
 * The closed sets the status read exposes. Terminal statuses: held_out, completed, skipped, failed.
 */
export const ENTRY_STATUSES = Object.values(EntryEventStatus) as [EntryEventStatus, ...EntryEventStatus[]];

export const entryStatusDescriptions: Record<EntryEventStatus, string> = {
  accepted: "Stored and queued; the lifecycle has not looked at it yet.",
  processing: "A worker is applying the campaign's gates to it now.",
  waiting:
    "Waiting for something outside the event: the first date the frequency cap allows, a person's approval of the piece, or (gift claim campaigns) the recipient's claim of the gift on its hosted page.",
  enrolled: "The contact is enrolled in the treatment arm and its piece is on its way through fulfilment.",
  held_out:
    "Terminal. The contact's account is in the campaign's holdout arm: recorded for measurement and never mailed.",
  completed: "Terminal. The piece was printed and mailed.",
  skipped: "Terminal. A gate stopped the event; skipReason says which.",
  failed:
    "Terminal. The service could not process the event after several attempts; support has the cause. A piece still waiting for review is cancelled and the budget it held released; an approved one keeps its reservation, since the printer may have it.",
};

/** Why an event was skipped: one value per gate that can skip. */
export const SKIP_REASONS = [
  "already_enrolled",
  "not_in_audience",
  "suppressed",
  "address_invalid",
  "address_duplicate",
  "frequency_capped",
  "review_declined",
  "budget_exhausted",
  "no_fulfilment_contract",
  "mailing_disabled",
  "campaign_ended",
  "gift_declined",
  "gift_unclaimed",
  "contact_deleted",
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const skipReasonDescriptions: Record<SkipReason, string> = {
  already_enrolled:
    "The contact already entered this campaign (by another entry event, whatever its idempotency key): one entry per contact per campaign, in either arm. A campaign with reentryAfterDays admits the contact again once that many days have passed since its last entry.",
  not_in_audience: "The contact had left the campaign's audience when the event was processed.",
  suppressed:
    "The contact, its email, its address, its account or its domain is on the workspace's suppression list (mailability reason suppressed).",
  address_invalid:
    "The postal address failed review, for the mailability audit's reasons (see /docs/mailability): a required field is missing, the postal code or region does not fit the country, the country is not one the campaign's printer mails to, it does not fit the format's address block, the address verifier or a returned piece says it is undeliverable or misses a unit, or it is a PO box and the campaign sends gifts.",
  address_duplicate:
    "Another contact with the same name at the same postal address (a duplicate record of the same person) is already enrolled in this campaign's treatment arm, or this contact, re-entering, still has a piece on its way (mailability reason duplicate_contact). The same contact entering twice is already_enrolled.",
  frequency_capped: "The frequency cap allows no piece before the campaign ends.",
  review_declined: "A person declined the piece at the campaign's review gate, or the review expired.",
  budget_exhausted: "The campaign's budget has no headroom for this piece.",
  no_fulfilment_contract: "The campaign has no approved fulfilment contract, so nothing can be printed.",
  mailing_disabled: "The workspace is on the free audit plan: nothing reaches a mailbox.",
  campaign_ended: "The campaign ended before the piece could be sent.",
  gift_declined:
    "The recipient declined the gift on its claim page: nothing was sent, and the budget it held was released.",
  contact_deleted:
    "The contact was deleted (contacts_delete) before its piece was printed: any unprinted piece was cancelled and the budget it held released; the event stays, without the person.",
  gift_unclaimed:
    "The recipient did not claim the gift before its claim expired (the campaign's claim window): nothing was sent, and the budget it held was released.",
};

/** Why an unfinished event is not done yet (entry_events_get, and the REST status read while waiting). */
export const WAITING_REASONS = [
  "frequency_cap",
  "review",
  "gift_claim",
  "campaign_paused",
  "retrying",
  "queued",
] as const;
export type TWaitingReason = (typeof WAITING_REASONS)[number];

export const waitingReasonDescriptions: Record<TWaitingReason, string> = {
  frequency_cap: "The frequency cap defers the piece until the first date it allows.",
  review: "The piece waits for a person to approve it on its review card, until the review expires.",
  gift_claim:
    "The gift waits for its recipient to claim it on their claim page, until the claim expires (then the event ends skipped with gift_unclaimed).",
  campaign_paused: "The campaign is paused: the event goes on when the owner resumes it (no set time).",
  retrying: "An attempt failed on our side; it is retried at the time given.",
  queued: "Due now: a worker takes it at the time given, or sooner.",
};
