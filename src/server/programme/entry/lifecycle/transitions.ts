import type { SkipReason } from "../lifecycle-states";

/**
 * The entry lifecycle as a pure function: given what is known about one event now, the next
 * thing to do. The runner (runner.ts) gathers the snapshot, asks `decide`, applies the action in a
 * transaction, and asks again until the event waits or ends.
 *
 * Gate order (each gate is a module in ./gates):
 *   0. one entry per contact -> skipped(already_enrolled) unless the campaign allows re-entry
 *   1. audience membership   -> skipped(not_in_audience)
 *   2. suppression           -> skipped(suppressed)
 *   3. address review        -> skipped(address_invalid | address_duplicate)
 *   4. holdout               -> held_out (recorded for measurement, never mailed); also an account
 *                               another measuring campaign of the workspace holds out (heldOutBy)
 *   5. fulfilment contract   -> skipped(mailing_disabled | no_fulfilment_contract)
 *   6. frequency scheduling  -> waiting until the first allowed date, or skipped(frequency_capped)
 *   7. review gate           -> waiting for a person's approval, or skipped(review_declined)
 *   8. budget headroom       -> the piece's cost reserved, or skipped(budget_exhausted)
 *   9. gift claim            -> (gift campaigns with a claim page) the claim opens and the event
 *                               waits for the recipient: claimed goes on, declined is
 *                               skipped(gift_declined), unclaimed at its expiry skipped(gift_unclaimed)
 *  10. fulfilment            -> printed and mailed, cost charged -> completed
 * Gate 5 is checked again at every later step: a workspace moved back to the audit plan, or a
 * revoked contract, skips every piece the vendor does not have yet.
 * Gates 5 and 6 come before 7 and 8 so that nobody is asked to review, and no budget is held, for
 * a piece that cannot be sent. A campaign that ends first skips the event (campaign_ended); a
 * paused one makes it wait. A gift its recipient has claimed is a promise made to a person: like a
 * piece the vendor has, it still ships when the campaign ends (but waits while it is paused, and
 * stops if mail can no longer go out).
 */

export type CampaignState = "draft" | "live" | "paused" | "ended";
export type EventStatus =
  | "accepted"
  | "processing"
  | "waiting"
  | "enrolled"
  | "held_out"
  | "completed"
  | "skipped"
  | "failed";
export const TERMINAL_STATUSES: readonly EventStatus[] = ["held_out", "completed", "skipped", "failed"];

export interface Snapshot {
  now: Date;
  eventStatus: EventStatus;
  /** giftClaim: the campaign ships each gift only after its recipient claims it on the hosted page. */
  campaign: { status: CampaignState; endsAt: Date | null; reviewGate: boolean; giftClaim?: boolean };
  /** The event's enrollment, once there is one. */
  enrollment: { arm: "treatment" | "holdout"; scheduledFor: Date | null; cancelled: boolean } | null;
  piece: { status: "pending_review" | "approved" | "rendered" | "printed" | "mailed" | "cancelled" | "failed" } | null;
  /** The review card of the piece, when the campaign has a review gate. */
  review: { status: "pending" | "accepted" | "declined" | "expired" } | null;
  reservation: { status: "held" | "charged" | "released" } | null;
  /** The piece's gift claim, once it is open (gift claim campaigns only). */
  claim?: { status: "open" | "claimed" | "declined" | "expired" | "cancelled"; expiresAt: Date } | null;
  /**
   * Whether mail can go out now: the workspace's plan and the campaign's contract as they are at
   * this step (a workspace back on the audit plan, or a revoked contract, stops every piece the
   * vendor does not have yet).
   */
  mailing: "ok" | "mailing_disabled" | "no_fulfilment_contract";
}

/** What the gates say, evaluated by the runner for the gates `decide` reaches. */
export interface GateFacts {
  /** The contact already entered this campaign (and its re-entry period, if any, has not passed). */
  alreadyEnrolled: boolean;
  isMember: boolean;
  isSuppressed: boolean;
  address: "ok" | "invalid" | "duplicate";
  arm: "treatment" | "holdout";
  /** Another live campaign of the workspace holds the account out while it measures: never mailed here either. */
  heldOutBy: string | null;
  contract: "ok" | "mailing_disabled" | "no_fulfilment_contract";
  /** First date the frequency caps allow a piece (now if nothing stands in the way). */
  firstAllowedAt: Date;
}

export type Action =
  | { kind: "none" }
  /** The admission gates must be evaluated first: call again with their facts. */
  | { kind: "needs_facts" }
  | { kind: "skip"; reason: SkipReason }
  | { kind: "hold_out" }
  | { kind: "enroll"; scheduledFor: Date }
  | { kind: "wait"; until: Date | null; reason: "scheduled" | "review" | "paused" | "claim" }
  | { kind: "prepare_piece"; needsReview: boolean }
  | { kind: "reserve_budget" }
  /** Opens the gift's claim on the hosted page (budget already held, so a claim always ships). */
  | { kind: "open_claim" }
  | { kind: "submit_to_vendor" }
  | { kind: "complete" };

/** How long a paused campaign's events sleep before looking again (resuming wakes them at once). */
export const PAUSED_RECHECK_MS = 15 * 60_000;

const isTerminal = (s: EventStatus) => TERMINAL_STATUSES.includes(s);

/**
 * The admission gates 0-6 need facts about the contact; the later steps need only the snapshot.
 * Without facts, `decide` says so when it reaches the gates, so the runner evaluates them (and
 * takes their locks) only then.
 */
export function decide(s: Snapshot, facts: GateFacts | null): Action {
  if (isTerminal(s.eventStatus)) return { kind: "none" };

  // Once the vendor has the piece, it is finished whatever happens to the campaign.
  if (s.piece?.status === "mailed") return { kind: "complete" };
  if (s.piece?.status === "printed") return { kind: "submit_to_vendor" };
  // A claimed gift ships even if the campaign has ended since (it waits while paused).
  const claimedGift =
    s.claim?.status === "claimed" &&
    s.reservation?.status === "held" &&
    s.enrollment !== null &&
    !s.enrollment.cancelled;
  if (claimedGift && s.campaign.status !== "paused")
    return s.mailing === "ok" ? { kind: "submit_to_vendor" } : { kind: "skip", reason: s.mailing };

  const ended = s.campaign.status === "ended" || (s.campaign.endsAt !== null && s.campaign.endsAt <= s.now);
  if (ended) return { kind: "skip", reason: "campaign_ended" };
  if (s.campaign.status !== "live")
    return { kind: "wait", until: new Date(s.now.getTime() + PAUSED_RECHECK_MS), reason: "paused" };

  if (!s.enrollment) {
    if (!facts) return { kind: "needs_facts" };
    const f = facts;
    if (f.alreadyEnrolled) return { kind: "skip", reason: "already_enrolled" };
    if (!f.isMember) return { kind: "skip", reason: "not_in_audience" };
    if (f.isSuppressed) return { kind: "skip", reason: "suppressed" };
    if (f.address === "invalid") return { kind: "skip", reason: "address_invalid" };
    if (f.address === "duplicate") return { kind: "skip", reason: "address_duplicate" };
    if (f.arm === "holdout" || f.heldOutBy) return { kind: "hold_out" };
    if (f.contract !== "ok") return { kind: "skip", reason: f.contract };
    if (s.campaign.endsAt !== null && f.firstAllowedAt > s.campaign.endsAt)
      return { kind: "skip", reason: "frequency_capped" };
    return { kind: "enroll", scheduledFor: f.firstAllowedAt };
  }
  if (s.enrollment.arm === "holdout") return { kind: "hold_out" };
  if (s.enrollment.cancelled) return { kind: "skip", reason: "campaign_ended" };
  // The plan or the contract changed since admission: nothing more goes to the printer.
  if (s.mailing !== "ok") return { kind: "skip", reason: s.mailing };

  if (s.enrollment.scheduledFor && s.enrollment.scheduledFor > s.now) {
    return { kind: "wait", until: s.enrollment.scheduledFor, reason: "scheduled" };
  }
  if (!s.piece) return { kind: "prepare_piece", needsReview: s.campaign.reviewGate };
  if (s.piece.status === "cancelled" || s.piece.status === "failed") return { kind: "skip", reason: "review_declined" };
  if (s.piece.status === "pending_review") {
    const review = s.review?.status ?? "pending";
    if (review === "declined" || review === "expired") return { kind: "skip", reason: "review_declined" };
    return { kind: "wait", until: null, reason: "review" };
  }
  if (!s.reservation) return { kind: "reserve_budget" };
  if (s.reservation.status === "released") return { kind: "skip", reason: "budget_exhausted" };
  if (s.campaign.giftClaim) {
    const claim = s.claim ?? null;
    if (!claim) return { kind: "open_claim" };
    if (claim.status === "declined") return { kind: "skip", reason: "gift_declined" };
    if (
      claim.status === "expired" ||
      claim.status === "cancelled" ||
      (claim.status === "open" && claim.expiresAt <= s.now)
    )
      return { kind: "skip", reason: "gift_unclaimed" };
    if (claim.status === "open") return { kind: "wait", until: claim.expiresAt, reason: "claim" };
  }
  return { kind: "submit_to_vendor" };
}

/** The event status an action leaves behind (before the action's own terminal outcome). */
export function statusAfter(action: Action, current: EventStatus): EventStatus {
  switch (action.kind) {
    case "none":
    case "needs_facts":
      return current;
    case "skip":
      return "skipped";
    case "hold_out":
      return "held_out";
    case "complete":
      return "completed";
    case "wait":
      return "waiting";
    case "enroll":
    case "prepare_piece":
      return "processing";
    case "reserve_budget":
    case "open_claim":
    case "submit_to_vendor":
      return "enrolled";
  }
}
