import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { noteDraftChange } from "@/server/records/campaign-records/draft-version";
import { proofUrl } from "@/server/programme/designs/proof-links";
import { AppError } from "@/server/ground/errors";
import { enqueueJob, getJob, jobView } from "@/server/records/jobs/service";
import { layoutPiece, piecePngAsync } from "@/server/ground/render";
import { composePiece } from "@/server/programme/designs/compose";
import {
  draftMailabilityJudge,
  draftRecipients,
  DRAFT_RECIPIENT_FIELDS,
  scanDraftRecipients,
  type TDraftMailability,
  type TDraftsCampaign,
} from "./mailability";
import { draftData, loadRenderContext, renderDraft } from "./render";
import { recipientChangedSentence, recipientChangedSince } from "./recipient-changes";
import { responseLink } from "./response-link";
import type { TDraftBlocks } from "./schema";

const campaignNotFound = () =>
  new AppError("not_found", "No such campaign in this workspace; campaigns_list shows the campaigns.");

async function requireCampaign(db: Db, p: { workspaceId: string; campaignId: string }) {
  const campaign = await db.campaign.findFirst({
    where: { id: p.campaignId, workspaceId: p.workspaceId },
    include: { design: true },
  });
  if (!campaign) throw campaignNotFound();
  return campaign;
}

const draftsEditable = (c: { status: string; name: string }) => {
  if (c.status !== "draft") {
    throw new AppError(
      "invalid_state",
      `“${c.name}” is ${c.status}: its drafts were approved when it went live and cannot change. A recipient who enters now gets a draft rendered then.`,
    );
  }
};

/** The unfinished drafts_generate job of a campaign, if one is queued or running. */
async function openJob(db: Db, p: { workspaceId: string; campaignId: string }) {
  return db.job.findFirst({
    where: {
      workspaceId: p.workspaceId,
      kind: "drafts_generate",
      status: { in: ["queued", "running"] },
      input: { path: ["campaignId"], equals: p.campaignId },
    },
    orderBy: { createdAt: "desc" },
  });
}

/**
 * Queues the rendering of one draft per recipient of a draft campaign (a job). A job already
 * queued or running for the campaign is returned instead of a second one.
 */
export async function requestDraftGeneration(db: Db, p: { workspaceId: string; campaignId: string; actor: Actor }) {
  const campaign = await requireCampaign(db, p);
  draftsEditable(campaign);
  if (!campaign.audienceId)
    throw new AppError(
      "invalid_state",
      "The campaign has no audience yet: set audienceId (campaigns_update_draft), then generate drafts.",
    );
  const running = await openJob(db, p);
  if (running) return { job: running, created: false };
  const total = await db.audienceMember.count({
    where: { audienceId: campaign.audienceId, workspaceId: p.workspaceId },
  });
  const job = await enqueueJob(db, {
    workspaceId: p.workspaceId,
    kind: "drafts_generate",
    title: `Drafts for “${campaign.name}”`,
    input: { campaignId: campaign.id },
    unit: "drafts",
    total,
    requestedBy: p.actor,
  });
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "drafts.generate_requested",
    { type: "campaign", id: campaign.id },
    { jobId: job.id, recipients: total },
  );
  return { job, created: true };
}

/** A drafts_generate job with its result once done. */
export async function draftsJobStatus(db: Db, p: { workspaceId: string; jobId: string }) {
  const job = await getJob(db, { workspaceId: p.workspaceId, jobId: p.jobId, kind: "drafts_generate" });
  const result =
    job.status === "succeeded"
      ? (job.result as { campaignId: string; drafts: number; overflowing: number; missingData: number; edited: number })
      : null;
  // Whether the drafts' recipients can be mailed is judged now (an address fixed since counts), not when the job ran.
  const campaign = result
    ? await db.campaign.findFirst({
        where: { id: result.campaignId, workspaceId: p.workspaceId },
        include: { design: true },
      })
    : null;
  const mailability = campaign
    ? await draftRecipients(db, { workspaceId: p.workspaceId, campaign: judgedCampaign(campaign) })
    : null;
  return { job, view: jobView(job), result, mailability };
}

/** What judging the drafts' recipients reads of a campaign row (with its design). */
const judgedCampaign = (c: {
  id: string;
  audienceId: string | null;
  format: TDraftsCampaign["format"];
  fulfilmentContractId: string | null;
  design: { size: string } | null;
}): TDraftsCampaign => ({
  id: c.id,
  audienceId: c.audienceId,
  format: c.format,
  fulfilmentContractId: c.fulfilmentContractId,
  design: c.design ? { size: c.design.size } : null,
});

const rowSelect = {
  id: true,
  contactId: true,
  blocks: true,
  editedAt: true,
  overflowing: true,
  missingData: true,
  missingFields: true,
  specimen: true,
  pages: true,
  pdfBytes: true,
  renderedAt: true,
  contact: { select: DRAFT_RECIPIENT_FIELDS },
} satisfies Prisma.DraftSelect;

const MAILABLE: TDraftMailability = { mailable: true, reasons: [], detail: null };

function row(
  d: Omit<Prisma.DraftGetPayload<{ select: typeof rowSelect }>, "contact"> & {
    contact: { firstName: string; lastName: string; account: { name: string } | null };
  },
  m: TDraftMailability = MAILABLE,
) {
  return {
    id: d.id,
    contactId: d.contactId,
    contactName: `${d.contact.firstName} ${d.contact.lastName}`.trim(),
    company: d.contact.account?.name ?? null,
    headline: ((d.blocks as Record<string, string>).headline ?? "").slice(0, 300),
    edited: d.editedAt !== null,
    overflowing: d.overflowing,
    missingData: d.missingData,
    missingFields: d.missingFields,
    specimen: d.specimen,
    pages: d.pages,
    pdfBytes: d.pdfBytes,
    renderedAt: d.renderedAt,
    mailable: m.mailable,
    unmailableReasons: m.reasons,
    unmailableDetail: m.detail,
  };
}

/**
 * One page of a campaign's drafts (by contact), optionally only those overflowing, missing data,
 * edited, or whose recipient cannot be mailed (unmailable: judged now, as the lifecycle's gates
 * would, so this filter looks through the drafts a few hundred at a time). Each row says whether
 * its recipient can be mailed and why not.
 */
export async function listDrafts(
  db: Db,
  p: {
    workspaceId: string;
    campaignId: string;
    filter?: "overflowing" | "missing_data" | "edited" | "unmailable" | null;
    cursor?: string | null;
    take: number;
  },
) {
  const campaign = await requireCampaign(db, p);
  if (
    p.cursor &&
    !(await db.draft.findFirst({
      where: { id: p.cursor, campaignId: p.campaignId, workspaceId: p.workspaceId },
      select: { id: true },
    }))
  ) {
    throw new AppError("not_found", "The cursor names no draft of this campaign; start again without a cursor.");
  }
  const judge = await draftMailabilityJudge(db, { workspaceId: p.workspaceId, campaign: judgedCampaign(campaign) });
  if (p.filter === "unmailable") {
    const found: { id: string; mailability: TDraftMailability }[] = [];
    await scanDraftRecipients(
      db,
      { workspaceId: p.workspaceId, campaignId: campaign.id, after: p.cursor, judge },
      (round) => {
        for (const r of round)
          if (!r.mailability.mailable && found.length <= p.take) found.push({ id: r.id, mailability: r.mailability });
        return found.length <= p.take;
      },
    );
    const page = found.slice(0, p.take);
    const rows = new Map(
      (
        await db.draft.findMany({
          where: { id: { in: page.map((f) => f.id) }, workspaceId: p.workspaceId },
          select: rowSelect,
        })
      ).map((d) => [d.id, d]),
    );
    return {
      drafts: page.filter((f) => rows.has(f.id)).map((f) => row(rows.get(f.id)!, f.mailability)),
      nextCursor: found.length > p.take ? page[page.length - 1].id : null,
    };
  }
  const where: Prisma.DraftWhereInput = {
    campaignId: p.campaignId,
    workspaceId: p.workspaceId,
    ...(p.filter === "overflowing"
      ? { overflowing: true }
      : p.filter === "missing_data"
        ? { missingData: true }
        : p.filter === "edited"
          ? { editedAt: { not: null } }
          : {}),
  };
  const rows = await db.draft.findMany({
    where,
    orderBy: { id: "asc" },
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
    select: rowSelect,
  });
  const page = rows.slice(0, p.take);
  const verdicts = await judge(page.map((d) => ({ id: d.id, contact: d.contact })));
  return {
    drafts: page.map((d) => row(d, verdicts.get(d.id))),
    nextCursor: rows.length > p.take ? page[page.length - 1].id : null,
  };
}

async function requireDraft(db: Db, p: { workspaceId: string; draftId: string }) {
  const draft = await db.draft.findFirst({
    where: { id: p.draftId, workspaceId: p.workspaceId },
    include: {
      campaign: { include: { design: true } },
      contact: { include: { account: { select: { name: true, domain: true, updatedAt: true } } } },
    },
  });
  if (!draft)
    throw new AppError("not_found", "No such draft in this workspace; drafts_list shows a campaign's drafts.");
  return draft;
}

/** When the campaign's copy, its design or the brand kit last changed (not its budget or audience): drafts rendered before that are out of date. */
async function inputsChangedAt(
  db: Db,
  p: {
    workspaceId: string;
    campaign: { createdAt: Date; copyChangedAt: Date | null; design: { updatedAt: Date } | null };
  },
) {
  const kit = await db.brandKit.findUnique({ where: { workspaceId: p.workspaceId }, select: { updatedAt: true } });
  const copy = p.campaign.copyChangedAt ?? p.campaign.createdAt;
  return new Date(Math.max(copy.getTime(), p.campaign.design?.updatedAt.getTime() ?? 0, kit?.updatedAt.getTime() ?? 0));
}

/**
 * One draft: each block's text as printed, the recipient's own copy, what the renderer reported, and a proof link.
 * Out of date when rendered before the campaign's copy, design or brand kit last changed, or when
 * its recipient changed since (recipientChanged: their address, name or merge fields now print differently).
 */
export async function getDraft(db: Db, p: { workspaceId: string; draftId: string }) {
  const d = await requireDraft(db, p);
  const changedAt = await inputsChangedAt(db, { workspaceId: p.workspaceId, campaign: d.campaign });
  const judge = await draftMailabilityJudge(db, { workspaceId: p.workspaceId, campaign: judgedCampaign(d.campaign) });
  const mailability = (await judge([{ id: d.id, contact: d.contact }])).get(d.id);
  const recipientChanged = recipientChangedSince(d, d.contact);
  return {
    ...row(
      { ...d, contact: { firstName: d.contact.firstName, lastName: d.contact.lastName, account: d.contact.account } },
      mailability,
    ),
    campaignId: d.campaignId,
    blocks: d.blocks as Record<"headline" | "body" | "signOff" | "cta", string>,
    overrides: (d.overrides as TDraftBlocks | null) ?? null,
    issues: d.issues as { block: string; kind: string; message: string }[],
    responseLink: responseLink(d.responseCode),
    outOfDate: d.renderedAt < changedAt || recipientChanged,
    recipientChanged,
    editable: d.campaign.status === "draft",
    proofUrl: await proofUrl(db, { kind: "draft", id: d.id, workspaceId: p.workspaceId }),
  };
}

/** The draft's pages as PNGs, laid out by the same renderer from the draft's own text. */
export async function draftImages(db: Db, p: { workspaceId: string; draftId: string; widthPx: number; page?: number }) {
  const d = await requireDraft(db, p);
  const ctx = await loadRenderContext(db, { workspaceId: p.workspaceId, campaign: d.campaign });
  const text = d.blocks as Record<"headline" | "body" | "signOff" | "cta", string>;
  const url = responseLink(d.responseCode);
  const composed = composePiece({
    title: d.campaign.name,
    brand: ctx.brand,
    design: ctx.design,
    contact: d.contact,
    response: { url: `${url}?via=qr`, label: url.replace(/^https?:\/\//, "") },
    specimen: d.specimen,
    addressPrintedBy: ctx.addressPrintedBy,
  });
  const rendered = layoutPiece({ ...composed.input, text });
  const pages =
    p.page !== undefined
      ? [Math.min(Math.max(0, p.page), rendered.scene.pages.length - 1)]
      : rendered.scene.pages.map((_, i) => i);
  return Promise.all(
    pages.map(async (i) => ({
      label: rendered.scene.pages[i].label,
      png: await piecePngAsync(rendered, i, { widthPx: p.widthPx, crop: "trim" }),
    })),
  );
}

/** The stored print PDF of a draft. */
export async function draftPdf(db: Db, p: { workspaceId: string; draftId: string }) {
  const d = await db.draft.findFirst({
    where: { id: p.draftId, workspaceId: p.workspaceId },
    select: { id: true, pdf: true },
  });
  if (!d) throw new AppError("not_found", "No such draft in this workspace.");
  return { id: d.id, pdf: Buffer.from(d.pdf) };
}

/**
 * Writes one recipient's own copy beside the template (an empty string returns a block to the
 * campaign's text) and renders their draft again, keeping its response link.
 */
export async function updateDraftBlocks(
  prisma: PrismaClient,
  p: { workspaceId: string; draftId: string; blocks: TDraftBlocks; actor: Actor; now?: Date },
) {
  const now = p.now ?? new Date();
  // The render (fonts, layout, a PDF: the slow part) runs before the transaction, never inside it:
  // a transaction holds the campaign's lock only to check and write. If the draft's own copy changed
  // in between (another edit), it is rendered again from the new copy. Inputs of the campaign
  // (copy, design, brand kit) changed meanwhile make the draft out of date (rendered at `now`, before them).
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = await requireDraft(prisma, p);
    draftsEditable({ name: before.campaign.name, status: before.campaign.status });
    const merged = { ...((before.overrides as TDraftBlocks | null) ?? {}), ...p.blocks };
    const overrides = Object.fromEntries(
      Object.entries(merged).filter(([, v]) => v !== undefined && v.trim() !== ""),
    ) as TDraftBlocks;
    const edited = Object.keys(overrides).length > 0;
    const ctx = await loadRenderContext(prisma, { workspaceId: p.workspaceId, campaign: before.campaign });
    const rendered = await renderDraft(ctx, before.contact, edited ? overrides : null, {
      sid: before.sid,
      responseCode: before.responseCode,
    });
    const written = await prisma.$transaction(async (tx) => {
      const found = await requireDraft(tx, p);
      // The campaign's lock, as going live takes it: the edit lands on a draft and voids its pending
      // go-live card, or the campaign went live first and the edit is refused.
      const [campaign] = await noteDraftChange(tx, {
        workspaceId: p.workspaceId,
        where: { id: found.campaignId },
        now,
      });
      draftsEditable({ name: campaign.name, status: campaign.status });
      const d = await requireDraft(tx, p);
      if (
        JSON.stringify(d.overrides ?? null) !== JSON.stringify(before.overrides ?? null) ||
        d.contact.updatedAt.getTime() !== before.contact.updatedAt.getTime()
      )
        return false;
      await tx.draft.update({
        where: { id: d.id, workspaceId: p.workspaceId },
        data: {
          ...draftData(rendered, now),
          overrides: edited ? overrides : (null as never),
          editedAt: edited ? now : null,
          editedBy: edited ? p.actor.label : null,
        },
      });
      await recordAudit(
        tx,
        p.workspaceId,
        p.actor,
        edited ? "draft.edited" : "draft.edit_removed",
        { type: "draft", id: d.id },
        { blocks: Object.keys(p.blocks), contactId: d.contactId },
      );
      return true;
    });
    if (written) return getDraft(prisma, p);
  }
  throw new AppError(
    "conflict",
    "The draft was changed by someone else three times while it was being rendered, so nothing was written. Try again.",
  );
}

/**
 * Counts for the campaign page and the go-live card, with the latest generation job. `outOfDate`
 * counts each draft to generate again once: rendered before the copy, design or brand kit last
 * changed (`inputsChanged`), or for a recipient who changed since (`recipientChanged`, with the
 * sentence the owner reads, `recipientChangedSentence`). `recipients` (the default) looks through
 * every draft's recipient for that and for whether they can be mailed, in one read of the
 * campaign's drafts (mailability.ts draftRecipients), for what people are told. The owner's go-live leaves them out (false): neither decides
 * whether it may go live.
 */
export async function draftSummary(
  db: Db,
  p: { workspaceId: string; campaignId: string },
  opts: { recipients?: boolean } = {},
) {
  const judge = opts.recipients ?? true;
  const campaign = await requireCampaign(db, p);
  const where = { campaignId: campaign.id, workspaceId: p.workspaceId };
  const changedAt = await inputsChangedAt(db, { workspaceId: p.workspaceId, campaign });
  // One read after another: going live asks this inside its transaction (one connection).
  const total = await db.draft.count({ where });
  const edited = await db.draft.count({ where: { ...where, editedAt: { not: null } } });
  const overflowing = await db.draft.count({ where: { ...where, overflowing: true } });
  const missingData = await db.draft.count({ where: { ...where, missingData: true } });
  const inputsChanged = await db.draft.count({ where: { ...where, renderedAt: { lt: changedAt } } });
  // Rendered on the free audit plan, the workspace paid since: each carries the specimen mark.
  const plan = (await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true } })).plan;
  const specimenMarked = plan === "paid" ? await db.draft.count({ where: { ...where, specimen: true } }) : 0;
  const audience = campaign.audienceId
    ? await db.audienceMember.count({ where: { audienceId: campaign.audienceId, workspaceId: p.workspaceId } })
    : 0;
  const job = await db.job.findFirst({
    where: {
      workspaceId: p.workspaceId,
      kind: "drafts_generate",
      input: { path: ["campaignId"], equals: campaign.id },
    },
    orderBy: { createdAt: "desc" },
  });
  const mailability =
    total && judge
      ? await draftRecipients(db, {
          workspaceId: p.workspaceId,
          campaign: judgedCampaign(campaign),
          inputsChangedAt: changedAt,
        })
      : { mailable: total, unmailable: 0, recipients: [], sentence: null, changes: { changed: 0, changedOnly: 0 } };
  const recipients = mailability.changes;
  return {
    total,
    edited,
    overflowing,
    missingData,
    outOfDate: inputsChanged + recipients.changedOnly,
    inputsChanged,
    recipientChanged: recipients.changed,
    recipientChangedSentence: recipientChangedSentence(recipients.changed, campaign.status === "draft"),
    specimenMarked,
    specimenSentence: specimenSentence(specimenMarked, campaign.status === "draft"),
    audience,
    mailable: mailability.mailable,
    unmailable: mailability.unmailable,
    unmailableRecipients: mailability.recipients,
    mailabilitySentence: mailability.sentence,
    job: job ? jobView(job) : null,
  };
}

/**
 * "3 drafts carry the free audit plan's specimen mark: …". A piece never prints the mark on the
 * paid plan (the lifecycle renders such a draft again without it, with the same copy and codes),
 * so it does not hold the campaign back; the person is told what they review is not the print.
 */
export function specimenSentence(marked: number, campaignIsDraft: boolean): string | null {
  if (marked === 0) return null;
  const what = `${marked.toLocaleString("en-US")} draft${marked === 1 ? " carries" : "s carry"} the free audit plan's specimen mark, made before the workspace chose the paid plan`;
  const then =
    marked === 1
      ? "its piece is rendered again without the mark when its recipient enters"
      : "their pieces are rendered again without the mark when their recipients enter";
  return campaignIsDraft
    ? `${what}: generate again to review them as they print; otherwise ${then}.`
    : `${what}: ${then}.`;
}

/** Up to `take` edited drafts (recipient and their own headline), for the go-live card. */
export async function editedSample(db: Db, p: { workspaceId: string; campaignId: string; take?: number }) {
  const rows = await db.draft.findMany({
    where: { campaignId: p.campaignId, workspaceId: p.workspaceId, editedAt: { not: null } },
    orderBy: { editedAt: "desc" },
    take: p.take ?? 3,
    select: { id: true, overrides: true, blocks: true, contact: { select: { firstName: true, lastName: true } } },
  });
  return rows.map((r) => ({
    draftId: r.id,
    recipient: `${r.contact.firstName} ${r.contact.lastName}`.trim(),
    headline: (r.blocks as Record<string, string>).headline ?? "",
    editedBlocks: (["headline", "body", "signOff"] as const).filter((b) =>
      Object.hasOwn((r.overrides as object) ?? {}, b),
    ),
  }));
}

/** What the go-live card says about the campaign's drafts: how many, how many edited (with a sample), and problems. */
export async function draftsCardSentence(db: Db, p: { workspaceId: string; campaignId: string }): Promise<string> {
  const campaign = await requireCampaign(db, p);
  const where = { campaignId: p.campaignId, workspaceId: p.workspaceId };
  const [total, edited, overflowing, missingData] = await Promise.all([
    db.draft.count({ where }),
    db.draft.count({ where: { ...where, editedAt: { not: null } } }),
    db.draft.count({ where: { ...where, overflowing: true } }),
    db.draft.count({ where: { ...where, missingData: true } }),
  ]);
  if (total === 0) return " No drafts were generated: each recipient's piece is rendered when they enter.";
  const sample = edited ? await editedSample(db, { ...p, take: 3 }) : [];
  const parts = [` ${total} draft${total === 1 ? " is" : "s are"} approved with it`];
  parts.push(
    edited
      ? `${edited} rewritten for their recipient (${sample.map((s) => `${s.recipient}: “${s.headline.slice(0, 80)}”`).join("; ")}${edited > sample.length ? "; …" : ""})`
      : "none rewritten for its recipient",
  );
  if (overflowing) parts.push(`${overflowing} with text that does not fit its box`);
  if (missingData) parts.push(`${missingData} missing merge data`);
  const mailability = await draftRecipients(db, { workspaceId: p.workspaceId, campaign: judgedCampaign(campaign) });
  // A recipient corrected since their draft was made: the piece is rendered again for them as they are, not as reviewed.
  const { changed } = mailability.changes;
  if (changed)
    parts.push(
      `${changed} whose recipient changed since ${changed === 1 ? "it was" : "they were"} made (generate again to review ${changed === 1 ? "it" : "them"})`,
    );
  return `${parts.join(", ")}.${mailability.sentence ? ` ${mailability.sentence}` : ""}`;
}
