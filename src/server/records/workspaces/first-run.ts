import type { Db } from "@/server/ground/db";

export interface FirstRunStep {
  key: "contacts" | "audit" | "brand" | "design" | "drafts" | "plan" | "printer" | "live" | "apiKey";
  title: string;
  /** What to do, or (when done) what is there. */
  detail: string;
  done: boolean;
  /** Where to do it, under /w/<workspaceId>. */
  path: string;
}

/**
 * The guided first run: every step from an empty workspace to a live programme, each ticked from
 * what the workspace really holds (never from a flag), with the page where it is done.
 */
export async function firstRunChecklist(db: Db, p: { workspaceId: string }) {
  const { workspaceId } = p;
  const [contacts, audits, brandKit, designs, drafts, workspace, printers, live, keys, campaigns] = await Promise.all([
    db.contact.count({ where: { workspaceId } }),
    db.mailabilityAudit.count({ where: { workspaceId } }),
    db.brandKit.findUnique({ where: { workspaceId }, select: { companyName: true } }),
    db.design.count({ where: { workspaceId } }),
    db.draft.count({ where: { workspaceId } }),
    db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { plan: true } }),
    db.fulfilmentContract.count({ where: { workspaceId, status: "approved" } }),
    db.campaign.count({ where: { workspaceId, status: { in: ["live", "paused", "ended"] } } }),
    db.apiKey.count({ where: { workspaceId, revokedAt: null } }),
    db.campaign.count({ where: { workspaceId } }),
  ]);
  // With no campaign yet, the campaign steps open the form for a first one rather than an empty list.
  const campaignsPath = campaigns ? "campaigns" : "campaigns/new";
  const n = (x: number, one: string, many: string) => `${x.toLocaleString("en-US")} ${x === 1 ? one : many}`;
  const steps: FirstRunStep[] = [
    {
      key: "contacts",
      title: "Bring your people in",
      path: "contacts/import",
      done: contacts > 0,
      detail: contacts
        ? `${n(contacts, "contact", "contacts")} in the workspace.`
        : "Import a CSV of contacts with their companies and postal addresses.",
    },
    {
      key: "audit",
      title: "Run the mailability audit",
      path: "audits",
      done: audits > 0,
      detail: audits
        ? `${n(audits, "audit", "audits")} run.`
        : "See how much of your audience can really be mailed, account by account, and fix what can be fixed.",
    },
    {
      key: "brand",
      title: "Set up your brand kit",
      path: "settings/brand",
      done: brandKit !== null,
      detail: brandKit
        ? `Saved for ${brandKit.companyName}.`
        : "Your logo, colours, fonts, return address and sign-off: every piece uses them.",
    },
    {
      key: "design",
      title: "Design a piece",
      path: "designs",
      done: designs > 0,
      detail: designs
        ? `${n(designs, "design", "designs")}.`
        : "A postcard, letter, handwritten note or gift card, with a live preview.",
    },
    {
      key: "drafts",
      title: "Generate drafts for a campaign",
      path: campaignsPath,
      done: drafts > 0,
      detail: drafts
        ? `${n(drafts, "draft", "drafts")}, one per recipient.`
        : "Create a draft campaign for an audience, then generate one piece per recipient and check them.",
    },
    {
      key: "plan",
      title: "Choose the paid plan",
      path: "settings/plan",
      done: workspace.plan === "paid",
      detail:
        workspace.plan === "paid"
          ? "Mailing is on."
          : "On the free audit plan everything works except reaching a mailbox.",
    },
    {
      key: "printer",
      title: "Add and approve a printer",
      path: "settings/printing",
      done: printers > 0,
      detail: printers
        ? `${n(printers, "approved contract", "approved contracts")}.`
        : "A contract with a printer for your format, at its quoted price; the sandbox printer prints nothing.",
    },
    {
      key: "live",
      title: "Take your first campaign live",
      path: campaignsPath,
      done: live > 0,
      detail: live
        ? `${n(live, "campaign has", "campaigns have")} gone live.`
        : "Going live freezes the holdout and lets the campaign spend up to its budget.",
    },
    {
      key: "apiKey",
      title: "Create an API key",
      path: "settings/api-keys",
      done: keys > 0,
      detail: keys
        ? `${n(keys, "active key", "active keys")}.`
        : "Let your CRM or product post entry events and report conversions.",
    },
  ];
  return { steps, done: steps.filter((s) => s.done).length, total: steps.length };
}
