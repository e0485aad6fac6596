import { z } from "zod";
import { noteDraftChange } from "@/server/campaign-records/draft-version";
import { defineJobHandler, JobError } from "@/server/jobs/handler";
import { draftData, loadRenderContext } from "./render";
import { renderDrafts } from "./render-pool";
import type { TDraftBlocks } from "./schema";

const BATCH = 25;

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
    const campaign = await run.db.campaign.findFirst({ where: { id: run.input.campaignId, workspaceId }, include: { design: true } });
    if (!campaign) throw new JobError("The campaign no longer exists.");
    if (!campaign.audienceId) throw new JobError("The campaign has no audience: choose one, then generate drafts again.");
    const audienceId = campaign.audienceId;
    const ctx = await loadRenderContext(run.db, { workspaceId, campaign });
    const total = await run.db.audienceMember.count({ where: { audienceId, workspaceId } });
    const resume = (run.resumeFrom ?? {}) as { after?: string; done?: number };
    let after = resume.after ?? "";
    let done = resume.done ?? 0;
    await run.progress(done, total);
    for (;;) {
      const members = await run.db.audienceMember.findMany({
        where: { audienceId, workspaceId, contactId: { gt: after } },
        orderBy: { contactId: "asc" },
        take: BATCH,
        select: { contact: { include: { account: { select: { name: true, domain: true } } } } },
      });
      if (members.length === 0) break;
      const ids = members.map((m) => m.contact.id);
      const existing = new Map(
        (await run.db.draft.findMany({ where: { campaignId: campaign.id, workspaceId, contactId: { in: ids } }, select: { contactId: true, overrides: true, sid: true, responseCode: true } })).map((d) => [d.contactId, d]),
      );
      // The batch's drafts on the render threads (./render-pool.ts), in contact order.
      const drafts = await renderDrafts(
        ctx,
        members.map(({ contact }) => {
          const prior = existing.get(contact.id);
          return { contact, override: (prior?.overrides as TDraftBlocks | null) ?? null, codes: prior ? { sid: prior.sid, responseCode: prior.responseCode } : undefined };
        }),
      );
      const rendered = members.map(({ contact }, i) => ({ contact, draft: drafts[i] }));
      after = ids[ids.length - 1];
      done += members.length;
      const now = run.now();
      await run.db.$transaction(async (tx) => {
        // Under the campaign's lock: drafts change only while it is a draft, and each batch voids a
        // pending go-live card (going live also waits for this job to finish).
        const [locked] = await noteDraftChange(tx, { workspaceId, where: { id: campaign.id }, now });
        if (locked?.status !== "draft") throw new JobError(`“${campaign.name}” is no longer a draft, so its drafts cannot change; nothing more was rendered.`);
        for (const { contact, draft } of rendered) {
          const data = draftData(draft, now);
          await tx.draft.upsert({
            where: { campaignId_contactId: { campaignId: campaign.id, contactId: contact.id } },
            create: { workspaceId, campaignId: campaign.id, contactId: contact.id, designId: campaign.designId, ...data },
            update: { designId: campaign.designId, ...data },
          });
        }
        await run.checkpoint(tx, { after, done }, done, Math.max(total, done));
      });
    }
    await run.db.draft.deleteMany({ where: { campaignId: campaign.id, workspaceId, contact: { audienceMembers: { none: { audienceId } } } } });
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
