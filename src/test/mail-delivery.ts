import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { claimEmails, sendClaimed } from "@/server/records/email/sender";
import { emailSettings } from "@/server/records/email/settings";
import { createTransport } from "@/server/records/email/transport";
import type { TestSmtpServer } from "./smtp-server";

const FROM = '"Direct Mail Programme" <no-reply@mail.test>';

/**
 * Sends the queued messages matching `where` through the real SMTP server, as the email worker
 * would (claim, send, record), and returns how many left. Narrowed so tests sharing a database never
 * send each other's mail.
 */
export async function deliverQueued(prisma: PrismaClient, smtp: TestSmtpServer, where: Prisma.EmailMessageWhereInput) {
  const queued = await prisma.emailMessage.findMany({ where: { ...where, status: "queued" }, select: { id: true } });
  if (queued.length === 0) return 0;
  const settings = emailSettings({ SMTP_URL: smtp.url, EMAIL_FROM: FROM });
  const transport = createTransport(settings, () => undefined);
  try {
    const now = new Date(Date.now() + 1000);
    const { token, ids } = await claimEmails(prisma, { limit: 100, now, scope: { ids: queued.map((m) => m.id) } });
    await sendClaimed(prisma, ids, token, {
      transport,
      from: settings.from,
      fromAddress: settings.fromAddress,
      clock: () => now,
      log: () => undefined,
    });
    return ids.length;
  } finally {
    transport.close();
  }
}

/** Messages the SMTP server received for one address. */
export const mailTo = (smtp: TestSmtpServer, address: string) =>
  smtp.received.filter((m) => m.envelope.to.includes(address));

/** The first link in a message's plain-text part under `path` (e.g. "/reset-password/"). */
export function linkIn(text: string, path: string): URL {
  const match = text.match(new RegExp(`https?://\\S+${path.replace(/[/]/g, "\\/")}[A-Za-z0-9_-]+`));
  if (!match) throw new Error(`No ${path} link in:\n${text}`);
  return new URL(match[0]);
}
