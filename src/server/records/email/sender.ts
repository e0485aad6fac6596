import { randomUUID } from "node:crypto";
import type { EmailMessage, PrismaClient } from "@/generated/prisma/client";
import { type MailTransport, messageIdFor, SendFailure, smtpFailure } from "./transport";

/**
 * Sending the outbox: workers claim due messages from the database (FOR UPDATE SKIP LOCKED under a
 * lease, as webhook deliveries and jobs are claimed), hand each to the transport, and record the
 * answer. At least once: a worker that dies after the server took a message but before recording
 * it leaves its claim to run out, and the message goes again under the same Message-ID.
 */

/** Waits after the 1st, 2nd, ... failed attempt: 1 min, 5 min, 30 min, 2 h, 6 h, 12 h (about 21 hours in all). */
export const EMAIL_RETRY_SCHEDULE_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000];
export const MAX_EMAIL_ATTEMPTS = EMAIL_RETRY_SCHEDULE_MS.length + 1;
/** A claim lasts this long: more than one attempt's timeouts. */
export const EMAIL_LEASE_MS = 120_000;

/**
 * Single-use links (password reset, email verification, invitation) are cut from the stored bodies
 * once a message has left or failed for good: the outbox keeps a record, not a usable link.
 */
const SECRET_LINK = /(\/(?:reset-password|verify-email|invite)\/)[A-Za-z0-9_-]{16,}/g;
export const redactSecretLinks = (body: string) => body.replace(SECRET_LINK, "$1(removed once sent)");

export interface SendDeps {
  transport: MailTransport;
  /** The From of every message, and its address (for the Message-ID's domain). */
  from: string;
  fromAddress: string;
  clock: () => Date;
  log: (line: string) => void;
}

/** Which messages a claim may take: tests that run a worker beside others on one database narrow it. */
export interface ClaimScope {
  workspaceId?: string;
  ids?: string[];
}

/** Claims up to `limit` due messages (queued and due, or sending under a claim that ran out). */
export async function claimEmails(
  prisma: PrismaClient,
  p: { limit: number; now: Date; scope?: ClaimScope },
): Promise<{ token: string; ids: string[] }> {
  const token = randomUUID();
  const until = new Date(p.now.getTime() + EMAIL_LEASE_MS);
  const workspaceId = p.scope?.workspaceId ?? null;
  const ids = p.scope?.ids ?? null;
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE "EmailMessage"
       SET status = 'sending', "lockToken" = ${token}, "lockedUntil" = ${until}, attempts = attempts + 1, "updatedAt" = ${p.now}
     WHERE id IN (
       SELECT id FROM "EmailMessage"
        WHERE ((status = 'queued' AND "nextAttemptAt" <= ${p.now}) OR (status = 'sending' AND "lockedUntil" < ${p.now}))
          AND (${workspaceId}::text IS NULL OR "workspaceId" = ${workspaceId})
          AND (${ids}::text[] IS NULL OR id = ANY(${ids}::text[]))
        ORDER BY "nextAttemptAt"
        LIMIT ${p.limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  return { token, ids: rows.map((r) => r.id) };
}

export type SendOutcome = "sent" | "retry" | "failed" | "lost";

/**
 * One attempt of each claimed message, all at once (the transport's pool bounds the connections),
 * each recorded as soon as its answer comes. Never throws for a server's refusal; a message whose
 * claim ran out meanwhile is left to the worker that took it over.
 */
export async function sendClaimed(
  prisma: PrismaClient,
  ids: string[],
  token: string,
  deps: SendDeps,
): Promise<{ id: string; outcome: SendOutcome }[]> {
  if (ids.length === 0) return [];
  const rows = await prisma.emailMessage.findMany({ where: { id: { in: ids }, lockToken: token } });
  return Promise.all(rows.map(async (row) => ({ id: row.id, outcome: await sendOne(prisma, row, token, deps) })));
}

async function sendOne(prisma: PrismaClient, row: EmailMessage, token: string, deps: SendDeps): Promise<SendOutcome> {
  const messageId = row.providerMessageId ?? messageIdFor(row.id, deps.fromAddress);
  try {
    const sent = await deps.transport.send({
      id: row.id,
      from: deps.from,
      to: row.to,
      subject: row.subject,
      text: row.text,
      html: row.html,
      headers: (row.headers ?? {}) as Record<string, string>,
      messageId,
    });
    const now = deps.clock();
    const done = await prisma.emailMessage.updateMany({
      where: { id: row.id, lockToken: token },
      data: {
        status: "sent",
        sentAt: now,
        providerMessageId: sent.messageId,
        providerResponse: sent.response,
        deliveredVia: deps.transport.kind,
        lastError: null,
        lockToken: null,
        lockedUntil: null,
        text: redactSecretLinks(row.text),
        html: redactSecretLinks(row.html),
      },
    });
    return done.count ? "sent" : "lost";
  } catch (error) {
    const failure = error instanceof SendFailure ? error : smtpFailure(error);
    const givingUp = failure.permanent || row.attempts >= MAX_EMAIL_ATTEMPTS;
    const now = deps.clock();
    deps.log(
      `[email] ${row.id} to ${row.to}: attempt ${row.attempts} failed${givingUp ? ", giving up" : ""}: ${failure.message}`,
    );
    const done = await prisma.emailMessage.updateMany({
      where: { id: row.id, lockToken: token },
      data: {
        lastError: failure.message.slice(0, 1000),
        providerMessageId: messageId,
        lockToken: null,
        lockedUntil: null,
        ...(givingUp
          ? { status: "failed", text: redactSecretLinks(row.text), html: redactSecretLinks(row.html) }
          : {
              status: "queued",
              nextAttemptAt: new Date(now.getTime() + EMAIL_RETRY_SCHEDULE_MS[row.attempts - 1]),
            }),
      },
    });
    return done.count ? (givingUp ? "failed" : "retry") : "lost";
  }
}

/** Messages kept this long after they were sent or given up (the outbox page's reach). */
export const EMAIL_RETENTION_MS = 30 * 24 * 3600_000;

export function pruneSentEmails(prisma: PrismaClient, now: Date) {
  return prisma.emailMessage.deleteMany({
    where: { status: { in: ["sent", "failed"] }, updatedAt: { lt: new Date(now.getTime() - EMAIL_RETENTION_MS) } },
  });
}
