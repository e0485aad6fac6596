import { z } from "zod";
import { noteDraftChange } from "@/server/records/campaign-records/draft-version";
import { defineJobHandler, JobError } from "@/server/records/jobs/handler";
import { draftData, loadRenderContext } from "./render";
import { renderDrafts, renderThreadCount } from "./render-pool";
import type { TDraftBlocks } from "./schema";

const BATCH = 25;
/** Drafts a job must have left to render before it uses render threads (DRAFT_RENDER_THREADS_FROM, default 200). */
const threadsFrom = () => {
  const set = Number(process.env.DRAFT_RENDER_THREADS_FROM);
  return Number.isInteger(set) && set > 0 ? set : 200;
};

/**
 * drafts_generate: renders one draft per contact of the campaign's audience, in contact-id order,
 * 25 at a time; each batch is written with its checkpoint in one transaction, so a crashed run
 * resumes after the last written batch. A recipient's own copy (an edit) and response codes are
 * kept when their draft is rendered again; drafts of contacts who left the audience are removed.
 */
export const draftsGenerateJob = defineJobHandler({
  kind: "drafts_generate",
  input: z.object({ campaignId: z.string().min(1).max(64) }),
  async run(run) {
    const workspaceId = run.job.workspaceId;
    const campaign = await run.db.campaign.findFirst({
      where: { id: run.input.campaignId, workspaceId },
      include: { design: true },
    });
    if (!campaign) throw new JobError("The campaign no longer exists.");
    if (!campaign.audienceId)
      throw new JobError("The campaign has no audience: choose one, then generate drafts again.");
    const audienceId = campaign.audienceId;
    const ctx = await loadRenderContext(run.db, { workspaceId, campaign });
    const total = await run.db.audienceMember.count({ where: { audienceId, workspaceId } });
    const resume = (run.resumeFrom ?? {}) as { after?: string; done?: number };
    let after = resume.after ?? "";
    let done = resume.done ?? 0;
    await run.progress(done, total);
    // Threads pay for themselves only on a job of some size (starting one costs about as much CPU
    // as rendering 150 drafts): a small job renders on the calling thread.
    const threads = total - done >= threadsFrom() ? renderThreadCount() : 0;
    /** Reads and renders the batch after `from` (the render threads work while the batch before is written). */
    const renderBatch = async (from: string) => {
      const members = await run.db.audienceMember.findMany({
        where: { audienceId, workspaceId, contactId: { gt: from } },
        orderBy: { contactId: "asc" },
        take: BATCH,
        select: { contact: { include: { account: { select: { name: true, domain: true } } } } },
      });
      if (members.length === 0) return null;
      const ids = members.map((m) => m.contact.id);
      const existing = new Map(
        (
          await run.db.draft.findMany({
            where: { campaignId: campaign.id, workspaceId, contactId: { in: ids } },
            select: { contactId: true, overrides: true, sid: true, responseCode: true },
          })
        ).map((d) => [d.contactId, d]),
      );
      // In contact order, on the render threads (./render-pool.ts) when the job has them.
      const drafts = await renderDrafts(
        ctx,
        members.map(({ contact }) => {
          const prior = existing.get(contact.id);
          return {
            contact,
            override: (prior?.overrides as TDraftBlocks | null) ?? null,
            codes: prior ? { sid: prior.sid, responseCode: prior.responseCode } : undefined,
          };
        }),
        { threads },
      );
      return { last: ids[ids.length - 1], rendered: members.map(({ contact }, i) => ({ contact, draft: drafts[i] })) };
    };
    const settle = <T>(p: Promise<T>) => (p.catch(() => {}), p); // awaited in turn; never an unhandled rejection meanwhile
    let next = settle(renderBatch(after));
    for (;;) {
      const batch = await next;
      if (!batch) break;
      const { rendered } = batch;
      after = batch.last;
      done += rendered.length;
      // With threads, the next batch renders while this one is written.
      if (threads > 0) next = settle(renderBatch(after));
      const now = run.now();
      await run.db.$transaction(async (tx) => {
        // Under the campaign's lock: drafts change only while it is a draft, and each batch voids a
        // pending go-live card (going live also waits for this job to finish).
        const [locked] = await noteDraftChange(tx, { workspaceId, where: { id: campaign.id }, now });
        if (locked?.status !== "draft")
          throw new JobError(
            `“${campaign.name}” is no longer a draft, so its drafts cannot change; nothing more was rendered.`,
          );
        for (const { contact, draft } of rendered) {
          const data = draftData(draft, now);
          await tx.draft.upsert({
            where: { campaignId_contactId: { campaignId: campaign.id, contactId: contact.id } },
            create: {
              workspaceId,
              campaignId: campaign.id,
              contactId: contact.id,
              designId: campaign.designId,
              ...data,
            },
            update: { designId: campaign.designId, ...data },
          });
        }
        await run.checkpoint(tx, { after, done }, done, Math.max(total, done));
      });
      if (threads === 0) next = renderBatch(after);
    }
    await run.db.draft.deleteMany({
      where: { campaignId: campaign.id, workspaceId, contact: { audienceMembers: { none: { audienceId } } } },
    });
    const where = { campaignId: campaign.id, workspaceId };
    const [drafts, overflowing, missingData, edited] = await Promise.all([
      run.db.draft.count({ where }),
      run.db.draft.count({ where: { ...where, overflowing: true } }),
      run.db.draft.count({ where: { ...where, missingData: true } }),
      run.db.draft.count({ where: { ...where, editedAt: { not: null } } }),
    ]);
    return { campaignId: campaign.id, drafts, overflowing, missingData, edited };
  },
});
