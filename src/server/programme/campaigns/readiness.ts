import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { formatPlural } from "@/server/ground/render/format-words";
import { draftSummary } from "@/server/programme/drafts/service";
import { unprintableDrafts } from "@/server/programme/drafts/unprintable";
import { auditForCampaign } from "@/server/programme/mailability/campaign-audit";
import { needsDestination, responseSummary } from "@/server/programme/responses/page-settings";
import { ENTRY_POLICY_WORDS, entryProblem } from "./entry-policy";
import { publicAddressProblem } from "./public-address";
import { requireCampaign } from "@/server/records/campaign-records/lookup";
import { goLiveProblems } from "./service";

export type TReadinessKey =
  | "audience"
  | "entry"
  | "mailability"
  | "destination"
  | "copy"
  | "drafts"
  | "plan"
  | "printer"
  | "budget";

/** Above this share of unmailable contacts in the audience's latest audit, going live waits for fixes. */
export const MAX_UNMAILABLE_SHARE = 0.5;

export interface TReadinessItem {
  key: TReadinessKey;
  /** What must be true, in a few words. */
  label: string;
  ok: boolean;
  /** Why it is not (or what it is) now. */
  detail: string;
  /** Where to fix it, relative to the workspace (`/w/{id}`); the budget is set on the campaign's page. */
  fix: string;
}

/**
 * Everything that must hold before a draft campaign can go live from the owner's page, each with
 * where to fix it. The owner's go-live refuses while any item is not ok, so the button and the
 * server never disagree. An agent's go-live card (confirmations/requests.ts) names the plan, printer
 * and budget gaps as warnings to the person who decides it.
 */
export async function campaignReadiness(
  db: Db,
  p: { workspaceId: string; campaignId: string },
  opts: { recipients?: boolean } = {},
) {
  const campaign = await requireCampaign(db, p);
  const base = `/campaigns/${campaign.id}`;
  // One read after another: going live asks this inside its transaction, whose one connection takes one query at a time.
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true } });
  const contract = campaign.fulfilmentContractId
    ? await db.fulfilmentContract.findFirst({
        where: { id: campaign.fulfilmentContractId, workspaceId: p.workspaceId },
      })
    : null;
  const members = campaign.audienceId
    ? await db.audienceMember.count({ where: { audienceId: campaign.audienceId, workspaceId: p.workspaceId } })
    : 0;
  const drafts = await draftSummary(db, p, opts);
  const { audit, stale, ownRun } = campaign.audienceId
    ? await auditForCampaign(db, { workspaceId: p.workspaceId, campaignId: campaign.id })
    : { audit: null, stale: null, ownRun: false };
  const unprintable = await unprintableDrafts(db, p);
  const problems = await goLiveProblems(db, campaign);
  const unreachable = await publicAddressProblem(db, campaign);
  const rendering = drafts.job?.status === "queued" || drafts.job?.status === "running";
  const contractOk = !!contract && contract.status === "approved" && contract.format === campaign.format;
  const unit = contract?.unitCostCents ?? 0;

  const items: TReadinessItem[] = [
    {
      key: "audience",
      label: "An audience with contacts",
      ok: !!campaign.audienceId && members > 0,
      detail: !campaign.audienceId
        ? "No audience is chosen."
        : members === 0
          ? "The audience has no contacts."
          : `${members.toLocaleString("en-US")} contacts.`,
      fix: campaign.audienceId && members === 0 ? `/audiences/${campaign.audienceId}` : `${base}/edit`,
    },
    entryItem(campaign, `${base}/edit`),
    {
      key: "mailability",
      label: "Its audience audited for this campaign, most of it mailable",
      ok: !!audit && !stale && audit.unmailableShare <= MAX_UNMAILABLE_SHARE,
      detail: !audit
        ? "No mailability audit for this campaign yet: run it to see how much of its audience this format and printer can reach, and why not."
        : stale
          ? `The audit of ${audit.createdAt.slice(0, 10)} is out of date: ${stale} Run it again.`
          : `${Math.round(audit.unmailableShare * 100)}% unmailable at the ${ownRun ? "" : "audience's "}audit of ${audit.createdAt.slice(0, 10)}${audit.unmailableShare > MAX_UNMAILABLE_SHARE ? `, more than ${MAX_UNMAILABLE_SHARE * 100}%` : ""}.`,
      fix: audit && !stale ? `/audits/${audit.auditId}` : `${base}#audit`,
    },
    responseItem(campaign, problems, `${base}/edit`),
    {
      key: "copy",
      label: "Copy written, or a design chosen",
      ok: !problems.some((x) => x.startsWith("write the headline")),
      detail: campaign.designId ? "A design is chosen." : copyDetail(campaign.headline, campaign.bodyTemplate),
      fix: `${base}/edit`,
    },
    {
      key: "drafts",
      // Drafts are optional: without any, the item says so rather than vouching for drafts that do not exist.
      label:
        drafts.total === 0 && !rendering
          ? "Drafts are optional"
          : "Drafts up to date, each fitting and with its merge data",
      // A recipient who changed since their draft does not hold it back: their piece is rendered
      // again for them as they are when they enter (the sentence says so). A change to the copy,
      // design or brand kit since the drafts does: what was reviewed is not what would print.
      ok:
        !rendering &&
        drafts.inputsChanged === 0 &&
        drafts.overflowing === 0 &&
        drafts.missingData === 0 &&
        unprintable.count === 0,
      detail: draftsDetail(drafts, rendering, unprintable.sentence),
      fix: `${base}#drafts`,
    },
    {
      key: "plan",
      label: "The paid plan (mailing on)",
      ok: workspace.plan === "paid",
      detail:
        workspace.plan === "paid"
          ? "Paid plan."
          : "The workspace is on the free audit plan: nothing reaches a mailbox.",
      fix: "/settings/plan",
    },
    {
      key: "printer",
      label: `An approved printer for ${formatPlural(campaign.format)}`,
      ok: contractOk && !unreachable,
      detail: unreachable
        ? unreachable
        : !contract
          ? "No fulfilment contract is chosen."
          : contract.format !== campaign.format
            ? `${contract.name} prints ${formatPlural(contract.format)}, not ${formatPlural(campaign.format)}.`
            : contract.status !== "approved"
              ? `${contract.name} is ${contract.status}, not approved.`
              : `${contract.name}.`,
      fix:
        contract && contract.status !== "approved"
          ? "/settings/printing"
          : contract
            ? `${base}/edit`
            : "/settings/printing",
    },
    {
      key: "budget",
      label: "A budget for at least one piece",
      ok: campaign.budgetCents > 0 && campaign.budgetCents >= unit,
      detail:
        campaign.budgetCents === 0
          ? "The budget is $0."
          : campaign.budgetCents < unit
            ? "The budget is less than one piece costs."
            : `$${(campaign.budgetCents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}.`,
      fix: base,
    },
  ];
  return { campaignId: campaign.id, status: campaign.status, ready: items.every((i) => i.ok), items };
}
const count = (n: number) => n.toLocaleString("en-US");

/** The copy item without a design: what is written, and what is still missing (the headline, the message or both). */
function copyDetail(headline: string, body: string): string {
  const h = headline.trim();
  const b = body.trim();
  if (!h && !b) return "No headline or message yet.";
  if (!b) return `The headline is written (“${h.slice(0, 80)}”); the message is missing.`;
  if (!h) return "The message is written; the headline is missing.";
  return `“${h.slice(0, 80)}”`;
}

/**
 * What the drafts item says: being rendered, none (they are optional), out of date (rendered before
 * a change to the copy, design or brand kit, or for a recipient who changed since), needing
 * attention (unprintable characters named by recipient), or ready; and, when some recipients
 * cannot be mailed, how many drafts can be, naming those who cannot and why (not a blocker: the
 * lifecycle skips them, and the mailability item weighs the audience).
 */
function draftsDetail(d: Awaited<ReturnType<typeof draftSummary>>, rendering: boolean, unprintable: string | null) {
  if (rendering) return "Drafts are being generated; going live waits until the job has finished.";
  if (d.total === 0)
    return "No drafts: each piece is rendered when its recipient enters; generate drafts to review them first.";
  // Rendered before a change to the copy, design or brand kit: what they say of fitting is moot until they are generated again.
  if (d.inputsChanged > 0) {
    return [
      `${count(d.inputsChanged)} of ${count(d.total)} drafts were rendered before the latest change to the copy, design or brand kit: generate them again.`,
      d.recipientChangedSentence ?? "",
    ]
      .filter(Boolean)
      .join(" ");
  }
  const attention = [
    d.overflowing ? `${count(d.overflowing)} with text that does not fit` : "",
    d.missingData ? `${count(d.missingData)} missing merge data` : "",
  ].filter(Boolean);
  const fits = attention.length ? `Of ${count(d.total)} drafts, ${attention.join(" and ")}.` : "";
  // A recipient who changed since their draft does not hold the campaign back, so it is said beside what does.
  const said = [
    fits,
    unprintable ?? "",
    d.mailabilitySentence ?? "",
    d.recipientChangedSentence ?? "",
    d.specimenSentence ?? "",
  ]
    .filter(Boolean)
    .join(" ");
  return said || `${count(d.total)} drafts ready.`;
}

export type TCampaignReadiness = Awaited<ReturnType<typeof campaignReadiness>>;

/** Where the printed link leads: the destination URL, the landing page's meeting link, or the hosted page alone. */
function responseItem(
  c: {
    responseMode: string;
    pageCallToAction: string;
    meetingUrl: string | null;
    destinationUrl: string | null;
    giftOptions: string[];
    claimWindowDays: number;
  },
  problems: string[],
  fix: string,
): TReadinessItem {
  if (needsDestination(c)) {
    const label =
      c.responseMode === "redirect"
        ? "A destination URL for response links"
        : "A destination URL for the landing page's button";
    return { key: "destination", label, ok: !!c.destinationUrl, detail: c.destinationUrl ?? "Not set.", fix };
  }
  if (c.responseMode === "landing_page" && c.pageCallToAction === "meeting") {
    return {
      key: "destination",
      label: "A meeting link for the landing page",
      ok: !problems.some((x) => x.startsWith("set the meeting link")),
      detail: c.meetingUrl ?? "Not set.",
      fix,
    };
  }
  return {
    key: "destination",
    label: c.responseMode === "gift_claim" ? "A gift claim page" : "A personal landing page",
    ok: true,
    detail: responseSummary(c),
    fix,
  };
}

/** Who gets the campaign once live: its entry policy, or API entry events; with neither, nobody ever could. */
function entryItem(
  c: { entryPolicy: keyof typeof ENTRY_POLICY_WORDS; acceptsApiEvents: boolean; sendAt: Date | null },
  fix: string,
): TReadinessItem {
  const ok = entryProblem(c) === null;
  const when =
    c.entryPolicy !== "none" && c.sendAt
      ? ` Sent on ${c.sendAt.toISOString().slice(0, 16).replace("T", " ")} UTC.`
      : "";
  const api = c.acceptsApiEvents ? " Entry events posted with an API key also admit people." : "";
  return {
    key: "entry",
    label: "Who gets this, and when",
    ok,
    detail: ok
      ? `${ENTRY_POLICY_WORDS[c.entryPolicy]}.${when}${api}`
      : "Nobody: the campaign neither sends to its audience nor accepts API entry events. Choose who gets it.",
    fix,
  };
}

/** Refuses (422 invalid_state) with every blocker named, when the owner's go-live would not be ready. */
export async function assertReady(db: Db, p: { workspaceId: string; campaignId: string }) {
  // Without looking through the drafts' recipients: what that finds never holds a campaign back.
  const readiness = await campaignReadiness(db, p, { recipients: false });
  if (readiness.status !== "draft") return;
  const blockers = readiness.items.filter((i) => !i.ok);
  if (blockers.length)
    throw new AppError(
      "invalid_state",
      `Not ready to go live. ${blockers.map((b) => `${b.label}: ${b.detail}`).join(" ")}`,
    );
}
