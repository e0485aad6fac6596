import type { EmailMessage } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import type { RenderedEmail } from "./templates/rendered";
import { signalEmailQueued } from "./wake";

export interface NewEmail extends RenderedEmail {
  to: string;
  /** The workspace it is about (its outbox page lists it); omitted for account mail. */
  workspaceId?: string | null;
  /** The person it is for, when they have an account. */
  userId?: string | null;
  /** One message per subject: a second message with the same key is not queued (returns null). */
  dedupeKey?: string;
}

/** Longest address accepted (RFC 5321's path limit). */
const MAX_ADDRESS = 254;

/**
 * Queues a message for the email worker, in the caller's transaction when given one, so the
 * message exists exactly when what caused it does (a sign-up and its verification link, a card and
 * the emails saying it waits). Nothing is sent inside the request: the worker picks it up, at once
 * in this process. Returns the queued message, or null when its dedupeKey was already used.
 */
export async function enqueueEmail(db: Db, email: NewEmail): Promise<EmailMessage | null> {
  const to = email.to.trim();
  if (!to || to.length > MAX_ADDRESS || /[\s<>,;"]/.test(to) || !to.includes("@"))
    throw new Error(`Not an email address to send to: ${JSON.stringify(to.slice(0, 80))}`);
  const [created] = await db.emailMessage.createManyAndReturn({
    data: [
      {
        workspaceId: email.workspaceId ?? null,
        userId: email.userId ?? null,
        to,
        kind: email.kind,
        subject: email.subject,
        text: email.text,
        html: email.html,
        headers: email.headers ?? {},
        dedupeKey: email.dedupeKey ?? null,
      },
    ],
    skipDuplicates: true,
  });
  // After the caller's transaction has most likely committed; if not, the next poll finds it.
  if (created) setTimeout(signalEmailQueued, 25);
  return created ?? null;
}
