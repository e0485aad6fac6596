import type { EmailMessage } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import type { TEmailDetail, TEmailSummary } from "./schema";
import { signalEmailQueued } from "./wake";

/**
 * The workspace's outbox as its admins see it (Settings → Email): every message about the
 * workspace, newest first. Account mail (password resets, verification links) belongs to one
 * person and is never listed here; with no SMTP server it is in the server log.
 */
export async function listOutbox(
  db: Db,
  p: { workspaceId: string; status?: EmailMessage["status"]; cursor?: string | null; take: number },
): Promise<{ messages: TEmailSummary[]; nextCursor: string | null }> {
  if (p.cursor && !(await db.emailMessage.findFirst({ where: { id: p.cursor, workspaceId: p.workspaceId } })))
    throw new AppError("not_found", "The cursor does not name a message of this workspace; start again without it.");
  const rows = await db.emailMessage.findMany({
    where: { workspaceId: p.workspaceId, ...(p.status ? { status: p.status } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, p.take);
  return { messages: page.map(summary), nextCursor: rows.length > p.take ? page[page.length - 1].id : null };
}

export async function getOutboxMessage(db: Db, p: { workspaceId: string; messageId: string }): Promise<TEmailDetail> {
  const row = await db.emailMessage.findFirst({ where: { id: p.messageId, workspaceId: p.workspaceId } });
  if (!row) throw new AppError("not_found", "No such message in this workspace's outbox.");
  return {
    ...summary(row),
    text: row.text,
    html: row.html,
    headers: (row.headers ?? {}) as Record<string, string>,
    providerMessageId: row.providerMessageId,
  };
}

/** Counts of the workspace's messages by status, for the page's filter. */
export async function outboxCounts(db: Db, p: { workspaceId: string }) {
  const groups = await db.emailMessage.groupBy({
    by: ["status"],
    where: { workspaceId: p.workspaceId },
    _count: { _all: true },
  });
  const count = (s: EmailMessage["status"]) => groups.find((g) => g.status === s)?._count._all ?? 0;
  return { queued: count("queued"), sending: count("sending"), sent: count("sent"), failed: count("failed") };
}

/**
 * Sends a failed message again, or a queued one now instead of at its next retry. A message whose
 * single-use link was cut when it failed cannot go again: what it offered must be asked for anew.
 */
export async function retryOutboxMessage(
  db: Db,
  p: { workspaceId: string; messageId: string; actor: Actor; now?: Date },
): Promise<TEmailSummary> {
  const now = p.now ?? new Date();
  const row = await db.emailMessage.findFirst({ where: { id: p.messageId, workspaceId: p.workspaceId } });
  if (!row) throw new AppError("not_found", "No such message in this workspace's outbox.");
  if (row.status === "sent" || row.status === "sending")
    throw new AppError(
      "invalid_state",
      row.status === "sent" ? "This message was already sent." : "This message is being sent right now.",
    );
  if (row.text.includes("(removed once sent)"))
    throw new AppError(
      "invalid_state",
      "This message held a single-use link, removed when it failed; send a new one instead (for an invitation, invite again).",
    );
  const updated = await db.emailMessage.updateMany({
    where: { id: row.id, workspaceId: p.workspaceId, status: row.status },
    data: { status: "queued", nextAttemptAt: now, ...(row.status === "failed" ? { attempts: 0 } : {}) },
  });
  if (updated.count === 0) throw new AppError("conflict", "The message changed at this moment; look again.");
  await recordAudit(db, p.workspaceId, p.actor, "email.retried", { type: "email", id: row.id }, { to: row.to });
  setTimeout(signalEmailQueued, 25);
  return summary((await db.emailMessage.findUniqueOrThrow({ where: { id: row.id } })) as EmailMessage);
}

function summary(row: EmailMessage): TEmailSummary {
  return {
    messageId: row.id,
    to: row.to,
    kind: row.kind,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "queued" ? row.nextAttemptAt : null,
    lastError: row.lastError,
    deliveredVia: row.deliveredVia,
    providerResponse: row.providerResponse,
    sentAt: row.sentAt,
    createdAt: row.createdAt,
  };
}
