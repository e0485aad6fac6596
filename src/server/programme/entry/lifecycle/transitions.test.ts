import { describe, expect, it } from "vitest";
import { SKIP_REASONS } from "../lifecycle-states";
import {
  type Action,
  decide,
  type EventStatus,
  type GateFacts,
  type Snapshot,
  statusAfter,
  TERMINAL_STATUSES,
} from "./transitions";

const now = new Date("2026-11-22T12:00:00Z");
const past = new Date("2026-11-01T00:00:00Z");
const future = new Date("2026-12-20T00:00:00Z");
const okFacts: GateFacts = {
  alreadyEnrolled: false,
  isMember: true,
  isSuppressed: false,
  address: "ok",
  arm: "treatment",
  heldOutBy: null,
  contract: "ok",
  firstAllowedAt: now,
};

const statuses: EventStatus[] = [
  "accepted",
  "processing",
  "waiting",
  "enrolled",
  "held_out",
  "completed",
  "skipped",
  "failed",
];
const campaigns: Snapshot["campaign"][] = (["draft", "live", "paused", "ended"] as const).flatMap((status) =>
  [null, past, future].flatMap((endsAt) => [true, false].map((reviewGate) => ({ status, endsAt, reviewGate }))),
);
const enrollments: Snapshot["enrollment"][] = [
  null,
  { arm: "holdout", scheduledFor: null, cancelled: false },
  ...[null, past, future].flatMap((scheduledFor) =>
    [false, true].map((cancelled) => ({ arm: "treatment" as const, scheduledFor, cancelled })),
  ),
];
const pieces: Snapshot["piece"][] = [
  null,
  ...(["pending_review", "approved", "rendered", "printed", "mailed", "cancelled", "failed"] as const).map(
    (status) => ({ status }),
  ),
];
const reviews: Snapshot["review"][] = [
  null,
  ...(["pending", "accepted", "declined", "expired"] as const).map((status) => ({ status })),
];
const reservations: Snapshot["reservation"][] = [
  null,
  ...(["held", "charged", "released"] as const).map((status) => ({ status })),
];
const mailings: Snapshot["mailing"][] = ["ok", "mailing_disabled", "no_fulfilment_contract"];

function* everySnapshot(): Generator<Snapshot> {
  for (const eventStatus of statuses)
    for (const campaign of campaigns)
      for (const enrollment of enrollments)
        for (const piece of pieces)
          for (const review of reviews)
            for (const reservation of reservations)
              for (const mailing of mailings)
                yield { now, eventStatus, campaign, enrollment, piece, review, reservation, mailing };
}

const ended = (s: Snapshot) =>
  s.campaign.status === "ended" || (s.campaign.endsAt !== null && s.campaign.endsAt <= s.now);

describe("decide over every state", () => {
  it("keeps its invariants in every combination (with and without gate facts)", () => {
    let checked = 0;
    const violations: string[] = [];
    for (const s of everySnapshot()) {
      for (const facts of [null, okFacts]) {
        const a: Action = decide(s, facts);
        checked++;
        const must = (ok: boolean, rule: string) => {
          if (!ok && violations.length < 5) violations.push(`${rule}: ${JSON.stringify({ s, facts: !!facts, a })}`);
        };
        if (TERMINAL_STATUSES.includes(s.eventStatus)) {
          must(a.kind === "none", "terminal events do nothing");
          continue;
        }
        must(a.kind !== "none", "a live event always has a next step");
        if (a.kind === "skip") must(SKIP_REASONS.includes(a.reason), "skip reasons come from the closed set");
        // A piece the vendor has finishes whatever else is true.
        if (s.piece?.status === "mailed") must(a.kind === "complete", "a mailed piece completes");
        if (s.piece?.status === "printed")
          must(a.kind === "submit_to_vendor", "a printed piece goes back to its vendor");
        const atVendor = s.piece?.status === "mailed" || s.piece?.status === "printed";
        // Nothing new happens in a campaign that is not live.
        if (!atVendor && ended(s)) must(a.kind === "skip" && a.reason === "campaign_ended", "an ended campaign skips");
        if (!atVendor && !ended(s) && s.campaign.status !== "live")
          must(a.kind === "wait" && a.reason === "paused", "a paused campaign waits");
        // Gates are asked for exactly when an event without enrollment reaches them.
        must(
          (a.kind === "needs_facts") ===
            (!facts && !s.enrollment && !atVendor && !ended(s) && s.campaign.status === "live"),
          "gates asked for exactly when reached",
        );
        // Money and printing only for a treatment enrollment with an approved piece in a live campaign.
        if (a.kind === "reserve_budget" || (a.kind === "submit_to_vendor" && !atVendor)) {
          must(s.campaign.status === "live", "spend only while live");
          must(s.enrollment?.arm === "treatment", "spend only for treatment");
          must(s.piece?.status === "approved" || s.piece?.status === "rendered", "spend only for an approved piece");
          must(s.mailing === "ok", "spend only while the plan and contract allow mail");
        }
        if (a.kind === "submit_to_vendor" && !atVendor)
          must(s.reservation?.status === "held" || s.reservation?.status === "charged", "print only with budget held");
        if (
          !atVendor &&
          s.enrollment?.arm === "treatment" &&
          !s.enrollment.cancelled &&
          !ended(s) &&
          s.campaign.status === "live" &&
          s.mailing !== "ok"
        ) {
          must(
            a.kind === "skip" && a.reason === s.mailing,
            "a plan or contract change stops every piece the vendor does not have",
          );
        }
        if (a.kind === "prepare_piece")
          must(s.piece === null && a.needsReview === s.campaign.reviewGate, "one piece, reviewed iff gated");
        if (s.enrollment?.arm === "holdout" && !atVendor && !ended(s) && s.campaign.status === "live")
          must(a.kind === "hold_out", "holdout is never mailed");
        if (a.kind === "wait" && a.reason === "review")
          must(s.piece?.status === "pending_review", "review waits only on a piece under review");
        if (a.kind === "wait" && a.reason === "scheduled")
          must(s.enrollment!.scheduledFor!.getTime() > now.getTime(), "scheduled waits are in the future");
      }
    }
    expect(violations).toEqual([]);
    expect(checked).toBe(
      2 *
        statuses.length *
        campaigns.length *
        enrollments.length *
        pieces.length *
        reviews.length *
        reservations.length *
        mailings.length,
    );
  });
});

const live: Snapshot = {
  now,
  eventStatus: "processing",
  campaign: { status: "live", endsAt: future, reviewGate: false },
  enrollment: null,
  piece: null,
  review: null,
  reservation: null,
  mailing: "ok",
};

describe("the admission gates, in order", () => {
  const cases: [string, Partial<GateFacts>, Action][] = [
    ["everything passes", {}, { kind: "enroll", scheduledFor: now }],
    [
      "already entered, whatever else holds",
      { alreadyEnrolled: true, isMember: false, isSuppressed: true, address: "invalid", arm: "holdout" },
      { kind: "skip", reason: "already_enrolled" },
    ],
    [
      "not a member",
      { isMember: false, isSuppressed: true, address: "invalid", arm: "holdout" },
      { kind: "skip", reason: "not_in_audience" },
    ],
    ["suppressed", { isSuppressed: true, address: "invalid", arm: "holdout" }, { kind: "skip", reason: "suppressed" }],
    [
      "bad address",
      { address: "invalid", arm: "holdout", contract: "mailing_disabled" },
      { kind: "skip", reason: "address_invalid" },
    ],
    ["duplicate address", { address: "duplicate" }, { kind: "skip", reason: "address_duplicate" }],
    ["held out by another campaign", { heldOutBy: "cmp_other" }, { kind: "hold_out" }],
    [
      "held-out account, even on the audit plan",
      { arm: "holdout", contract: "mailing_disabled" },
      { kind: "hold_out" },
    ],
    [
      "audit plan",
      { contract: "mailing_disabled", firstAllowedAt: new Date("2027-06-01") },
      { kind: "skip", reason: "mailing_disabled" },
    ],
    ["no contract", { contract: "no_fulfilment_contract" }, { kind: "skip", reason: "no_fulfilment_contract" }],
    [
      "frequency cap, before the end",
      { firstAllowedAt: new Date("2026-12-01") },
      { kind: "enroll", scheduledFor: new Date("2026-12-01") },
    ],
    [
      "frequency cap, after the end",
      { firstAllowedAt: new Date("2027-01-15") },
      { kind: "skip", reason: "frequency_capped" },
    ],
  ];
  for (const [name, facts, expected] of cases) {
    it(name, () => {
      expect(decide(live, { ...okFacts, ...facts })).toEqual(expected);
    });
  }

  it("a campaign without an end never skips for the frequency cap", () => {
    expect(
      decide(
        { ...live, campaign: { ...live.campaign, endsAt: null } },
        { ...okFacts, firstAllowedAt: new Date("2030-01-01") },
      ),
    ).toEqual({
      kind: "enroll",
      scheduledFor: new Date("2030-01-01"),
    });
  });
});

describe("after enrollment", () => {
  const enrolled: Snapshot = { ...live, enrollment: { arm: "treatment", scheduledFor: now, cancelled: false } };
  const table: [string, Partial<Snapshot>, Action][] = [
    [
      "waits for its date",
      { enrollment: { arm: "treatment", scheduledFor: future, cancelled: false } },
      { kind: "wait", until: future, reason: "scheduled" },
    ],
    ["prepares the piece", {}, { kind: "prepare_piece", needsReview: false }],
    [
      "prepares it for review",
      { campaign: { ...live.campaign, reviewGate: true } },
      { kind: "prepare_piece", needsReview: true },
    ],
    [
      "waits for the review",
      { piece: { status: "pending_review" }, review: { status: "pending" } },
      { kind: "wait", until: null, reason: "review" },
    ],
    [
      "declined",
      { piece: { status: "pending_review" }, review: { status: "declined" } },
      { kind: "skip", reason: "review_declined" },
    ],
    [
      "review expired",
      { piece: { status: "pending_review" }, review: { status: "expired" } },
      { kind: "skip", reason: "review_declined" },
    ],
    ["declined piece was cancelled", { piece: { status: "cancelled" } }, { kind: "skip", reason: "review_declined" }],
    ["reserves budget", { piece: { status: "approved" } }, { kind: "reserve_budget" }],
    [
      "goes to the vendor",
      { piece: { status: "approved" }, reservation: { status: "held" } },
      { kind: "submit_to_vendor" },
    ],
    [
      "printed: asks the vendor again",
      { piece: { status: "printed" }, reservation: { status: "held" } },
      { kind: "submit_to_vendor" },
    ],
    ["mailed: completes", { piece: { status: "mailed" }, reservation: { status: "charged" } }, { kind: "complete" }],
    [
      "campaign ended before the vendor had it",
      {
        campaign: { ...live.campaign, status: "ended" },
        piece: { status: "approved" },
        reservation: { status: "held" },
      },
      { kind: "skip", reason: "campaign_ended" },
    ],
    [
      "campaign ended after the vendor had it",
      { campaign: { ...live.campaign, status: "ended" }, piece: { status: "mailed" } },
      { kind: "complete" },
    ],
    [
      "paused",
      { campaign: { ...live.campaign, status: "paused" } },
      { kind: "wait", until: new Date(now.getTime() + 15 * 60_000), reason: "paused" },
    ],
    [
      "back on the audit plan before printing",
      { piece: { status: "approved" }, reservation: { status: "held" }, mailing: "mailing_disabled" },
      { kind: "skip", reason: "mailing_disabled" },
    ],
    [
      "back on the audit plan while under review",
      { piece: { status: "pending_review" }, review: { status: "pending" }, mailing: "mailing_disabled" },
      { kind: "skip", reason: "mailing_disabled" },
    ],
    [
      "contract revoked before printing",
      { piece: { status: "approved" }, mailing: "no_fulfilment_contract" },
      { kind: "skip", reason: "no_fulfilment_contract" },
    ],
    [
      "back on the audit plan after the vendor printed it",
      { piece: { status: "printed" }, reservation: { status: "held" }, mailing: "mailing_disabled" },
      { kind: "submit_to_vendor" },
    ],
  ];
  for (const [name, patch, expected] of table) {
    it(name, () => {
      expect(decide({ ...enrolled, ...patch }, null)).toEqual(expected);
    });
  }
});

describe("statusAfter", () => {
  it("maps each action to the status the event shows", () => {
    expect(statusAfter({ kind: "skip", reason: "suppressed" }, "processing")).toBe("skipped");
    expect(statusAfter({ kind: "hold_out" }, "processing")).toBe("held_out");
    expect(statusAfter({ kind: "wait", until: null, reason: "review" }, "processing")).toBe("waiting");
    expect(statusAfter({ kind: "reserve_budget" }, "processing")).toBe("enrolled");
    expect(statusAfter({ kind: "complete" }, "enrolled")).toBe("completed");
    expect(statusAfter({ kind: "none" }, "failed")).toBe("failed");
  });
});

describe("gift claims (a gift campaign whose gifts ship only after their recipient claims them)", () => {
  const claims: NonNullable<Snapshot["claim"]>[] = [
    { status: "open", expiresAt: future },
    { status: "open", expiresAt: past },
    ...(["claimed", "declined", "expired", "cancelled"] as const).map((status) => ({ status, expiresAt: future })),
  ];
  const giftCampaigns = campaigns.filter((c) => !c.reviewGate).map((c) => ({ ...c, giftClaim: true }));

  it("keeps its invariants in every combination", () => {
    const violations: string[] = [];
    let checked = 0;
    for (const eventStatus of ["processing", "waiting", "enrolled"] as const)
      for (const campaign of giftCampaigns)
        for (const enrollment of enrollments.filter((e) => e !== null))
          for (const piece of pieces)
            for (const reservation of reservations)
              for (const mailing of mailings)
                for (const claim of [null, ...claims]) {
                  const s: Snapshot = {
                    now,
                    eventStatus,
                    campaign,
                    enrollment,
                    piece,
                    review: null,
                    reservation,
                    mailing,
                    claim,
                  };
                  const a = decide(s, null);
                  checked++;
                  const must = (ok: boolean, rule: string) => {
                    if (!ok && violations.length < 5) violations.push(`${rule}: ${JSON.stringify({ s, a })}`);
                  };
                  const atVendor = piece?.status === "mailed" || piece?.status === "printed";
                  const claimed = claim?.status === "claimed";
                  if (a.kind === "submit_to_vendor" && !atVendor) {
                    must(claimed, "a gift goes to the printer only after its claim");
                    must(
                      reservation?.status === "held" || reservation?.status === "charged",
                      "a claimed gift ships only with its budget held",
                    );
                    must(mailing === "ok", "a claimed gift ships only while mail can go out");
                    must(campaign.status !== "paused", "nothing ships while paused");
                  }
                  if (a.kind === "open_claim") {
                    must(
                      claim === null &&
                        (reservation?.status === "held" || reservation?.status === "charged") &&
                        campaign.status === "live" &&
                        mailing === "ok",
                      "a claim opens once, with budget held, while live and mailable",
                    );
                    must(
                      piece?.status === "approved" || piece?.status === "rendered",
                      "a claim opens for an approved piece",
                    );
                  }
                  if (a.kind === "wait" && a.reason === "claim")
                    must(
                      claim?.status === "open" && claim.expiresAt > now && a.until === claim.expiresAt,
                      "waits for an open claim until it expires",
                    );
                  const due = !enrollment!.scheduledFor || enrollment!.scheduledFor <= now;
                  const approved = due && (piece?.status === "approved" || piece?.status === "rendered");
                  if (
                    claim?.status === "declined" &&
                    approved &&
                    !ended(s) &&
                    campaign.status === "live" &&
                    mailing === "ok" &&
                    !enrollment!.cancelled &&
                    enrollment!.arm === "treatment" &&
                    reservation?.status === "held"
                  )
                    must(a.kind === "skip" && a.reason === "gift_declined", "a declined gift is skipped");
                  if (
                    claim?.status === "open" &&
                    claim.expiresAt <= now &&
                    approved &&
                    !ended(s) &&
                    campaign.status === "live" &&
                    mailing === "ok" &&
                    !enrollment!.cancelled &&
                    enrollment!.arm === "treatment" &&
                    reservation?.status === "held"
                  )
                    must(a.kind === "skip" && a.reason === "gift_unclaimed", "an expired claim is skipped");
                  if (
                    claimed &&
                    reservation?.status === "held" &&
                    !enrollment!.cancelled &&
                    !atVendor &&
                    campaign.status !== "paused"
                  )
                    must(
                      mailing === "ok" ? a.kind === "submit_to_vendor" : a.kind === "skip" && a.reason === mailing,
                      "a claimed gift ships even after the campaign ended, unless mail cannot go out",
                    );
                  if (!claimed && !atVendor && ended(s))
                    must(
                      a.kind === "skip" && a.reason === "campaign_ended",
                      "an ended campaign skips an unclaimed gift",
                    );
                }
    expect(violations).toEqual([]);
    expect(checked).toBeGreaterThan(10_000);
  });

  const gift: Snapshot = {
    ...live,
    campaign: { ...live.campaign, giftClaim: true },
    enrollment: { arm: "treatment", scheduledFor: now, cancelled: false },
    piece: { status: "approved" },
    reservation: { status: "held" },
  };
  const table: [string, Partial<Snapshot>, Action][] = [
    ["budget held: opens the claim", {}, { kind: "open_claim" }],
    ["reserves budget before the claim opens", { reservation: null }, { kind: "reserve_budget" }],
    [
      "waits for the recipient until the claim expires",
      { claim: { status: "open", expiresAt: future } },
      { kind: "wait", until: future, reason: "claim" },
    ],
    ["claimed: goes to the printer", { claim: { status: "claimed", expiresAt: future } }, { kind: "submit_to_vendor" }],
    ["declined", { claim: { status: "declined", expiresAt: future } }, { kind: "skip", reason: "gift_declined" }],
    [
      "not claimed by its expiry",
      { claim: { status: "open", expiresAt: now } },
      { kind: "skip", reason: "gift_unclaimed" },
    ],
    [
      "campaign ended before the claim",
      { campaign: { ...gift.campaign, status: "ended" }, claim: { status: "open", expiresAt: future } },
      { kind: "skip", reason: "campaign_ended" },
    ],
    [
      "campaign ended after the claim: still ships",
      { campaign: { ...gift.campaign, status: "ended" }, claim: { status: "claimed", expiresAt: future } },
      { kind: "submit_to_vendor" },
    ],
    [
      "paused after the claim: waits",
      { campaign: { ...gift.campaign, status: "paused" }, claim: { status: "claimed", expiresAt: future } },
      { kind: "wait", until: new Date(now.getTime() + 15 * 60_000), reason: "paused" },
    ],
    [
      "claimed, then back on the audit plan",
      { claim: { status: "claimed", expiresAt: future }, mailing: "mailing_disabled" },
      { kind: "skip", reason: "mailing_disabled" },
    ],
    [
      "a gift campaign without a claim page ships at once",
      { campaign: { ...gift.campaign, giftClaim: false } },
      { kind: "submit_to_vendor" },
    ],
  ];
  for (const [name, patch, expected] of table) {
    it(name, () => {
      expect(decide({ ...gift, ...patch }, null)).toEqual(expected);
    });
  }

  it("opening a claim leaves the event enrolled; waiting for it, waiting", () => {
    expect(statusAfter({ kind: "open_claim" }, "enrolled")).toBe("enrolled");
    expect(statusAfter({ kind: "wait", until: future, reason: "claim" }, "enrolled")).toBe("waiting");
  });
});
