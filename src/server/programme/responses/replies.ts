import { z } from "zod";
import type { PrismaClient } from "@/generated/prisma/client";
import { resolveLink } from "./page-model";

export const REPLY_MAX_CHARS = 2000;
export const REPLY_TO_MAX_CHARS = 200;

/** The landing page's reply form, bounded. */
export const ZReplyInput = z.object({
  message: z
    .string()
    .trim()
    .min(1, "Write a few words before sending.")
    .max(REPLY_MAX_CHARS, `A reply has at most ${REPLY_MAX_CHARS.toLocaleString("en-US")} characters.`),
  replyTo: z
    .string()
    .trim()
    .max(REPLY_TO_MAX_CHARS, `At most ${REPLY_TO_MAX_CHARS} characters.`)
    .transform((v) => v || null),
});
export type TReplyInput = z.infer<typeof ZReplyInput>;

export type ReplyResult = { kind: "sent"; duplicate: boolean } | { kind: "gone" };

/**
 * Records the recipient's reply from their landing page, once per rendered form: the form's
 * one-time nonce is the occurrence, so sending the same form twice (a double tap, a reload that
 * posts again) records one reply. A new page view gives a new form, and another reply counts.
 */
export async function sendReply(
  prisma: PrismaClient,
  p: { code: string; nonce: string; input: TReplyInput; userAgent: string | null; now?: Date },
): Promise<ReplyResult> {
  const now = p.now ?? new Date();
  const target = await resolveLink(prisma, p.code, now);
  if (target?.kind !== "page" || target.page.kind !== "landing_page" || target.page.callToAction !== "reply")
    return { kind: "gone" };
  const piece = target.page.piece;
  const { count } = await prisma.responseEvent.createMany({
    data: [
      {
        workspaceId: piece.workspaceId,
        campaignId: piece.campaignId,
        pieceId: piece.id,
        kind: "reply",
        occurredAt: now,
        userAgent: p.userAgent?.slice(0, 500) ?? null,
        occurrenceKey: `form:${p.nonce}`,
        data: { text: p.input.message, replyTo: p.input.replyTo },
      },
    ],
    skipDuplicates: true,
  });
  return { kind: "sent", duplicate: count === 0 };
}
