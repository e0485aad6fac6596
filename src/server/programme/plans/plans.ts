/**
 * The two plans, as the Plan page and agents describe them. The free audit plan is the whole
 * product except the printer; the paid plan turns mailing on.
 */
export const PAID_PLAN_MONTHLY_CENTS = 49_900;

export const PLANS = {
  audit: {
    plan: "audit",
    name: "Free audit plan",
    monthlyPriceCents: 0,
    summary:
      "Everything up to the mailbox: bring your contacts in, see who can be mailed, and prepare every piece. Nothing is printed or mailed.",
    includes: [
      "Contacts, accounts and audiences from a CSV file",
      "Campaign drafts with account-level holdouts",
      "Confirmation cards for every consequential request",
      "Agents over MCP and workspace API keys",
      "Holdout and lift calculators",
    ],
    excludes: [
      "Printing and mailing: campaigns are prepared to the last draft, and go live once the paid plan turns mailing on",
    ],
  },
  paid: {
    plan: "paid",
    name: "Paid plan",
    monthlyPriceCents: PAID_PLAN_MONTHLY_CENTS,
    summary:
      "Everything in the audit plan, and mail reaches mailboxes through the printers you approve, within each campaign's budget.",
    includes: [
      "Everything in the free audit plan",
      "Printing and mailing through approved printer contracts",
      "Pieces charged at the printer's quoted price, never above a campaign's budget",
      "Lift measured against the held-out accounts",
    ],
    excludes: [],
  },
} as const;

export type TPlan = keyof typeof PLANS;
