import type { Campaign } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { pricePerPiece } from "@/server/records/pieces/contract-price";
import { chooseHoldoutAccounts } from "@/server/programme/holdouts/assignment";
import { accountsTakenElsewhere } from "@/server/programme/holdouts/across";
import { programmeHeldOut } from "@/server/programme/holdouts/programme";
import { frequencyWaits } from "./go-live-waits";
import { ENTRY_POLICY_WORDS } from "./entry-policy";

/**
 * What accepting a go-live card does to the audience, for the card: how many contacts
 * enter now, how many of them are held out (the same draw going live makes: the seed is the
 * campaign's id), what mailing the rest would cost against the budget, and when it is sent.
 */
export interface GoLiveEntryPreview {
  entryPolicy: Campaign["entryPolicy"];
  acceptsApiEvents: boolean;
  /** Contacts in the audience now. */
  audienceContacts: number;
  /** Contacts the service enters when the card is accepted (0 for policy none). */
  enterNow: number;
  /** Of those, contacts whose account is held out: entered, never mailed, measured. */
  heldOut: number;
  /** Of those, contacts whose account another live campaign holds out while it measures: held out because of it (heldOutBy), never mailed. */
  heldOutByOthers: number;
  /** Of those, contacts whose account the workspace's programme holdout holds out: mailed by no campaign. */
  heldOutByProgramme: number;
  /** Of those, contacts in mailed accounts (each still passes the gates: suppression, address, caps). */
  toMail: number;
  /** Of the contacts to mail, those the frequency caps (counting every campaign's pieces) make wait, and until when at the latest (ISO 8601, UTC). */
  frequencyWaiting: number;
  frequencyWaitUntil: string | null;
  /** The average price of the pieces to mail (each at its destination's price on the contract; 0 without an approved printer). */
  unitCostCents: number;
  /** True when the pieces to mail do not all cost the same (their recipients' countries have different prices): unitCostCents is then an average. */
  unitCostVaries: boolean;
  /** The sum of the destination prices of the contacts to mail (0 without an approved printer). */
  estimatedCostCents: number;
  budgetCents: number;
  /** How many pieces the budget pays for at the unit cost (null without a unit cost). */
  budgetCovers: number | null;
  /** When the entries go on to be mailed (ISO 8601, UTC), or null: at once on acceptance. */
  sendAt: string | null;
}

const usd = (cents: number) =>
  `${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;
const n = (x: number) => x.toLocaleString("en-US");

/** `price` gives a piece's price to a destination country (null: no approved printer). */
export async function goLiveEntryPreview(
  db: Db,
  campaign: Campaign,
  price: ((country: string | null) => number) | null,
  now: Date,
): Promise<GoLiveEntryPreview> {
  const members = campaign.audienceId
    ? await db.audienceMember.findMany({
        where: { audienceId: campaign.audienceId, workspaceId: campaign.workspaceId },
        select: { contact: { select: { id: true, accountId: true, country: true } } },
      })
    : [];
  const accountIds = members.flatMap((m) => (m.contact.accountId ? [m.contact.accountId] : []));
  // The draw going live makes: accounts other campaigns hold out or mail are not drawn.
  const taken = await accountsTakenElsewhere(db, {
    workspaceId: campaign.workspaceId,
    campaignId: campaign.id,
    accountIds: [...new Set(accountIds)],
    now,
  });
  const programme = await programmeHeldOut(db, {
    workspaceId: campaign.workspaceId,
    accountIds,
    now,
    preview: true,
  });
  const held = chooseHoldoutAccounts(
    accountIds,
    campaign.holdoutShare,
    campaign.id,
    new Set([...taken.heldOut, ...taken.mailed, ...programme]),
  );
  const isHeld = (a: string | null) => !!a && held.has(a);
  const isHeldByProgramme = (a: string | null) => !!a && !held.has(a) && programme.has(a);
  const isHeldByOthers = (a: string | null) => !!a && !held.has(a) && !programme.has(a) && taken.heldOut.has(a);
  const enters = campaign.entryPolicy !== "none";
  const enterNow = enters ? members.length : 0;
  const heldOut = enters ? members.filter((m) => isHeld(m.contact.accountId)).length : 0;
  const heldOutByOthers = enters ? members.filter((m) => isHeldByOthers(m.contact.accountId)).length : 0;
  const heldOutByProgramme = enters ? members.filter((m) => isHeldByProgramme(m.contact.accountId)).length : 0;
  const toMail = enterNow - heldOut - heldOutByOthers - heldOutByProgramme;
  const mailed = enters
    ? members.filter(
        (m) =>
          !isHeld(m.contact.accountId) &&
          !isHeldByOthers(m.contact.accountId) &&
          !isHeldByProgramme(m.contact.accountId),
      )
    : [];
  const waits = await frequencyWaits(db, {
    campaign,
    contacts: mailed.map((m) => ({ id: m.contact.id, accountId: m.contact.accountId })),
    now,
  });
  const estimatedCostCents = price ? mailed.reduce((sum, m) => sum + price(m.contact.country), 0) : 0;
  const unitCostCents = !price ? 0 : toMail > 0 ? Math.round(estimatedCostCents / toMail) : price(null);
  const unitCostVaries = price ? new Set(mailed.map((m) => price(m.contact.country))).size > 1 : false;
  return {
    entryPolicy: campaign.entryPolicy,
    acceptsApiEvents: campaign.acceptsApiEvents,
    audienceContacts: members.length,
    enterNow,
    heldOut,
    heldOutByOthers,
    heldOutByProgramme,
    toMail,
    frequencyWaiting: waits.waiting,
    frequencyWaitUntil: waits.until?.toISOString() ?? null,
    unitCostCents,
    unitCostVaries,
    estimatedCostCents,
    budgetCents: campaign.budgetCents,
    budgetCovers: unitCostCents > 0 ? Math.floor(campaign.budgetCents / unitCostCents) : null,
    sendAt: campaign.sendAt && campaign.sendAt > now ? campaign.sendAt.toISOString() : null,
  };
}

/** The card's sentences about who enters, what is held out, what it costs and when. */
export function goLiveEntrySentences(p: GoLiveEntryPreview): string {
  const when = p.sendAt ? `on ${p.sendAt.slice(0, 16).replace("T", " ")} UTC` : "as soon as you accept";
  const api = p.acceptsApiEvents ? " Entry events posted with an API key also admit contacts." : "";
  if (p.entryPolicy === "none") {
    return `Who gets it: ${ENTRY_POLICY_WORDS.none.toLowerCase()}. Nobody enters when you accept.${api}`;
  }
  const joins =
    p.entryPolicy === "audience_joins"
      ? " Contacts added to the audience later enter when added, until the campaign ends."
      : "";
  // Each piece is charged its recipient's country's price: when those differ, the price said is their average.
  const perPiece = p.unitCostVaries
    ? `an average of about ${usd(p.unitCostCents)} a piece (each at its recipient's country's price)`
    : `${usd(p.unitCostCents)} a piece`;
  const cost =
    p.unitCostCents > 0
      ? ` At ${perPiece}, mailing all ${n(p.toMail)} would cost about ${usd(p.estimatedCostCents)} against a budget of ${usd(p.budgetCents)}${
          p.budgetCovers !== null && p.budgetCovers < p.toMail
            ? `, which pays for ${p.unitCostVaries ? "about " : ""}${n(p.budgetCovers)} of them: the rest are skipped (budget exhausted) unless it is raised`
            : ""
        }.`
      : "";
  const others =
    p.heldOutByOthers > 0
      ? `, ${n(p.heldOutByOthers)} held out because other live campaigns hold their accounts out (never mailed while those measure)`
      : "";
  const programmeHeld =
    p.heldOutByProgramme > 0
      ? `, ${n(p.heldOutByProgramme)} in accounts the workspace's programme holdout keeps from every campaign (never mailed)`
      : "";
  const waiting =
    p.frequencyWaiting > 0 && p.frequencyWaitUntil
      ? ` Of those, ${n(p.frequencyWaiting)} wait for the frequency cap (other campaigns' pieces count), until ${p.frequencyWaitUntil.slice(0, 10)} at the latest.`
      : "";
  return `When you accept, all ${n(p.enterNow)} contacts of the audience enter: ${n(p.heldOut)} of them in held-out accounts (never mailed, measured)${others}${programmeHeld}, ${n(p.toMail)} to be mailed ${when}, each if it passes the checks (suppression, address, frequency).${waiting}${cost}${joins}${api}`;
}

/**
 * The owner's go-live dialog: the preview the agent's card gives (who enters when the person
 * confirms, who is held out, what mailing them costs at each recipient's country's price, and
 * when), for a campaign of the workspace, with its sentences.
 */
export async function ownerGoLivePreview(
  db: Db,
  p: { workspaceId: string; campaignId: string; now?: Date },
): Promise<GoLiveEntryPreview & { sentence: string }> {
  const campaign = await db.campaign.findFirst({ where: { id: p.campaignId, workspaceId: p.workspaceId } });
  if (!campaign) throw new AppError("not_found", "No such campaign.");
  const contract = campaign.fulfilmentContractId
    ? await db.fulfilmentContract.findFirst({
        where: { id: campaign.fulfilmentContractId, workspaceId: p.workspaceId, status: "approved" },
      })
    : null;
  const preview = await goLiveEntryPreview(
    db,
    campaign,
    contract ? (country) => pricePerPiece(contract, country) : null,
    p.now ?? new Date(),
  );
  return { ...preview, sentence: goLiveEntrySentences(preview) };
}
