import type { ConfirmationCard } from "@/generated/prisma/client";
import type { McpContext } from "./context";

export function cardRef(ctx: Pick<McpContext, "base" | "workspaceId">, card: ConfirmationCard) {
  return {
    cardId: card.id,
    kind: card.kind,
    title: card.title,
    status: card.status,
    expiresAt: card.expiresAt.toISOString(),
    url: `${ctx.base}/w/${ctx.workspaceId}/confirmations#card-${card.id}`,
  };
}

/** This agent's requests that still wait for a person. */
export async function awaitingCards(ctx: McpContext, now = new Date()) {
  const cards = await ctx.db.confirmationCard.findMany({
    where: {
      workspaceId: ctx.workspaceId,
      requestedByKind: "agent",
      requestedById: ctx.grantId,
      status: "pending",
      expiresAt: { gt: now },
    },
    orderBy: { createdAt: "asc" },
    take: 50,
  });
  return cards.map((c) => cardRef(ctx, c));
}
