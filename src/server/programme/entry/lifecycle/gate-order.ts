import type { SkipReason } from "../lifecycle-states";

/** The gates in the order the lifecycle applies them (see transitions.ts), for the docs. */
export const GATE_ORDER: { gate: string; what: string; outcomes: (SkipReason | "held_out" | "waiting")[] }[] = [
  {
    gate: "One entry per contact",
    what: "A contact enters a campaign once: a later entry event for it (whatever its idempotency key, from the REST door, an agent, a batch or an audience policy) is skipped. A campaign with reentryAfterDays (frozen at go-live) admits the contact again once that many days have passed since its last entry.",
    outcomes: ["already_enrolled"],
  },
  {
    gate: "Audience membership",
    what: "The contact must still be in the campaign's audience when the event is processed.",
    outcomes: ["not_in_audience"],
  },
  {
    gate: "Suppression",
    what: "The contact, its email, its postal address, its account or its (email or account) domain must not be suppressed.",
    outcomes: ["suppressed"],
  },
  {
    gate: "Address review",
    what: "Street, city, postal code and (in the US, Canada and Australia) state that fit the country, no undeliverable marker, and no other contact with the same name at the same address already enrolled in the campaign.",
    outcomes: ["address_invalid", "address_duplicate"],
  },
  {
    gate: "Holdout",
    what: "Accounts in the holdout arm, frozen when the campaign went live, are recorded for measurement and never mailed. So is an account another live campaign of the workspace holds out while it measures (its enrollment names that campaign in heldOutBy, and this campaign leaves it out of its results).",
    outcomes: ["held_out"],
  },
  {
    gate: "Fulfilment contract",
    what: "Mail goes out only from a paid workspace through an approved contract for the campaign's format. Checked before review and budget so nobody reviews, and no budget is held, for mail that cannot be sent.",
    outcomes: ["mailing_disabled", "no_fulfilment_contract"],
  },
  {
    gate: "Frequency scheduling",
    what: "The campaign's cap per contact and per account within its window (counting all of the workspace's mail) defers the piece to the first allowed date.",
    outcomes: ["waiting", "frequency_capped"],
  },
  {
    gate: "Review gate",
    what: "With a review gate, each piece waits for a person to accept its confirmation card (7 days, then it expires).",
    outcomes: ["waiting", "review_declined"],
  },
  {
    gate: "Budget headroom",
    what: "The piece's cost is reserved atomically against the budget; the campaign never spends more than its budget.",
    outcomes: ["budget_exhausted"],
  },
  {
    gate: "Gift claim",
    what: "Gift campaigns with a claim page only: once the budget is held, the recipient's hosted page opens for a claim (confirm or correct the shipping address, choose among the campaign's gifts, or decline) and the event waits, for the campaign's claim window (30 days unless set). A claimed gift goes on to the printer, even if the campaign ends meanwhile.",
    outcomes: ["waiting", "gift_declined", "gift_unclaimed"],
  },
  {
    gate: "Print and mail",
    what: "The vendor prints and mails the piece; its cost is charged against the reservation and the event completes.",
    outcomes: [],
  },
];
