import { baseUrl } from "@/server/ground/platform/base-url";
import { formatCents, formatDateTimeUtc, formatNumber } from "./format";
import { type RenderedEmail, rendered } from "./rendered";

/** Who gets a notification and why, with the page where they turn it off. */
interface Audience {
  workspaceId: string;
  workspaceName: string;
  /** The recipient's role, in the footer's sentence. */
  role: string;
  base?: string;
}

const footer = (a: Audience, what: string) => [
  `You get this email because you are ${/^[aeiou]/.test(a.role) ? "an" : "a"} ${a.role} of ${a.workspaceName} and ${what}.`,
  `Turn these emails off in Settings → Notifications: ${a.base ?? baseUrl()}/w/${a.workspaceId}/settings/notifications`,
];

/** A confirmation card waits for a decision: what it asks, its cost, and the card's own link. */
export function cardWaitingEmail(
  a: Audience & {
    card: {
      id: string;
      title: string;
      summary: string;
      costCents: number | null;
      recipients: number | null;
      budgetAfterCents: number | null;
      requestedByLabel: string;
      expiresAt: Date;
    };
  },
): RenderedEmail {
  const base = a.base ?? baseUrl();
  const c = a.card;
  const facts: [string, string][] = [["Asked by", c.requestedByLabel]];
  if (c.costCents != null) facts.push(["Cost", formatCents(c.costCents)]);
  if (c.recipients != null) facts.push(["Recipients", formatNumber(c.recipients)]);
  if (c.budgetAfterCents != null) facts.push(["Budget after", formatCents(c.budgetAfterCents)]);
  facts.push(["Decide by", formatDateTimeUtc(c.expiresAt)]);
  const cost = c.costCents != null ? ` (${formatCents(c.costCents)})` : "";
  return rendered("card_waiting", `Waiting for your decision in ${a.workspaceName}: ${c.title}${cost}`, {
    preview: `${c.requestedByLabel} asks: ${c.title}`,
    heading: c.title,
    paragraphs: [
      `${c.requestedByLabel} asks for this in ${a.workspaceName}. Nothing happens until someone accepts it.`,
      c.summary,
    ],
    facts,
    action: { label: "Accept or decline", url: `${base}/w/${a.workspaceId}/confirmations#card-${c.id}` },
    after: ["If nobody decides in time, the card expires and nothing happens."],
    footer: footer(a, "may accept this card"),
  });
}

/** A live campaign skips entries because its budget is spent. */
export function budgetStoppedEmail(
  a: Audience & { campaign: { id: string; name: string; budgetCents: number } },
): RenderedEmail {
  const base = a.base ?? baseUrl();
  return rendered("campaign_budget_stopped", `${a.campaign.name} stopped mailing: its budget is spent`, {
    preview: `New entries to ${a.campaign.name} are skipped until its budget is raised.`,
    heading: `${a.campaign.name} has spent its budget`,
    paragraphs: [
      `The campaign ${a.campaign.name} in ${a.workspaceName} has no budget left for another piece, so new entries are skipped (budget_exhausted). Raise its budget to mail again.`,
    ],
    facts: [["Budget", formatCents(a.campaign.budgetCents)]],
    action: { label: "Open the campaign", url: `${base}/w/${a.workspaceId}/campaigns/${a.campaign.id}` },
    footer: footer(a, "may raise a campaign's budget"),
  });
}

/** A print vendor or a CRM refused the workspace's saved credentials. */
export function vendorConnectionFailedEmail(
  a: Audience & { vendor: string; reason: string; settingsPath: string },
): RenderedEmail {
  const base = a.base ?? baseUrl();
  return rendered("vendor_connection_failed", `${a.vendor} refused ${a.workspaceName}'s connection`, {
    preview: `Nothing more goes to ${a.vendor} until the connection is fixed.`,
    heading: `The ${a.vendor} connection failed`,
    paragraphs: [
      `${a.vendor} refused the credentials ${a.workspaceName} saved, and nothing more is sent through it until they are replaced.`,
    ],
    facts: [["What it said", a.reason.slice(0, 300)]],
    action: { label: "Fix the connection", url: `${base}/w/${a.workspaceId}${a.settingsPath}` },
    footer: footer(a, "may manage its connections"),
  });
}
