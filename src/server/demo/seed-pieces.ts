import type { Campaign } from "@/generated/prisma/client";
import type { Db } from "@/server/db";
import { addressBlock } from "@/server/designs/recipient";
import { loadRenderContext, renderDraft } from "@/server/drafts/render";

const DAY = 86_400_000;

/**
 * Pieces the demo's live API-entry campaign already sent to treatment-arm contacts a week ago
 * (so their sids can be reported against, and the frequency cap has something to count). On the
 * audit plan they are drafts: rendered, never mailed. Sids and codes come from `derive`, so the
 * seed prints the same ones on every run.
 */
export async function seedPieces(
  db: Db,
  p: { workspaceId: string; plan: "audit" | "paid"; campaign: Campaign; candidates: string[]; count: number; derive: (label: string, length: number) => string },
) {
  const treatment = await db.holdoutAssignment.findMany({ where: { campaignId: p.campaign.id, arm: "treatment" }, select: { accountId: true } });
  const contacts = await db.contact.findMany({
    where: { id: { in: p.candidates }, accountId: { in: treatment.map((t) => t.accountId) } },
    include: { account: true },
    orderBy: { crmId: "asc" },
    take: p.count,
  });
  const ctx = await loadRenderContext(db, { workspaceId: p.workspaceId, campaign: p.campaign });
  const contract = p.campaign.fulfilmentContractId ? await db.fulfilmentContract.findUnique({ where: { id: p.campaign.fulfilmentContractId } }) : null;
  const mailedAt = new Date(Date.now() - 7 * DAY);
  const pieces: { contactId: string; sid: string; responseCode: string }[] = [];
  for (const contact of contacts) {
    const sid = p.derive(`sid:${contact.crmId}`, 16);
    const responseCode = p.derive(`code:${contact.crmId}`, 10);
    pieces.push({ contactId: contact.id, sid, responseCode });
    if (await db.mailPiece.findUnique({ where: { sid }, select: { id: true } })) continue;
    const recipient = { ...contact, company: contact.account?.name ?? null };
    const lines = addressBlock(recipient);
    const draft = await renderDraft(ctx, contact, null, { sid, responseCode });
    const copy = { headline: draft.blocks.headline, body: draft.blocks.body, signOff: draft.blocks.signOff };
    const pdf = draft.pdf;
    const mailed = p.plan === "paid";
    await db.mailPiece.create({
      data: {
        workspaceId: p.workspaceId,
        campaignId: p.campaign.id,
        contactId: contact.id,
        sid,
        responseCode,
        status: mailed ? "mailed" : "rendered",
        costCents: contract?.unitCostCents ?? 0,
        recipient: { name: `${contact.firstName} ${contact.lastName}`, lines },
        copy: { ...copy },
        proofPdf: new Uint8Array(pdf),
        renderedAt: mailedAt,
        printedAt: mailed ? mailedAt : null,
        mailedAt: mailed ? mailedAt : null,
        createdAt: mailedAt,
      },
    });
    if (mailed) {
      await db.$executeRaw`UPDATE "Campaign" SET "spentCents" = "spentCents" + ${contract?.unitCostCents ?? 0} WHERE id = ${p.campaign.id}`;
    }
  }
  return pieces;
}
