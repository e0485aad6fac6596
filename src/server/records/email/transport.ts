import type { EmailSettings } from "./settings";

/** One message as it leaves: what the outbox row holds, with the From and a stable Message-ID. */
export interface OutgoingEmail {
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** The same on every attempt of the message: a receiver can tell a repeat after a crash for one message. */
  messageId: string;
}

export interface SentEmail {
  messageId: string;
  /** The server's answer (a 250 line, often naming its queue id), or where the log transport wrote it. */
  response: string;
}

/** An attempt that did not hand the message over; `permanent` when trying again cannot help. */
export class SendFailure extends Error {
  override name = "SendFailure";
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export interface MailTransport {
  kind: "smtp" | "log";
  send(email: OutgoingEmail): Promise<SentEmail>;
  close(): void;
}

/** The Message-ID of an outbox row: its id at the sender's domain. */
export function messageIdFor(id: string, fromAddress: string): string {
  return `<${id}@${fromAddress.split("@").pop() || "localhost"}>`;
}

/** The transport the settings describe: nodemailer over SMTP, or the server log. */
export function createTransport(settings: EmailSettings, log: (line: string) => void = console.log): MailTransport {
  return settings.transport === "smtp" ? smtpTransport(settings.url) : logTransport(log);
}

/**
 * Writes each message's subject, recipient and links to the server log: with no SMTP server a
 * developer still follows a reset or verification link, and reads the whole message in the outbox.
 */
function logTransport(log: (line: string) => void): MailTransport {
  return {
    kind: "log",
    async send(email) {
      const links = [...new Set(email.text.match(/https?:\/\/\S+/g) ?? [])].slice(0, 5);
      log(
        `[email] not sent (no SMTP_URL), kept in the outbox: “${email.subject}” to ${email.to} (${email.id})${links.map((l) => `\n  ${l}`).join("")}`,
      );
      return { messageId: email.messageId, response: "Written to the server log: no SMTP_URL is set." };
    },
    close() {},
  };
}

type Mailer = {
  sendMail(m: object): Promise<{ messageId: string; response: string }>;
  close(): void;
};

/**
 * Nodemailer on the SMTP_URL, pooled (a few connections reused for a batch of messages), loaded on
 * the first message so a worker that sends none never loads it. Timeouts bound a server that
 * accepts the connection and then says nothing.
 */
function smtpTransport(url: string): MailTransport {
  let mailer: Promise<Mailer> | null = null;
  const open = async (): Promise<Mailer> => {
    const [{ createTransport: nodemailerTransport }, { parseConnectionUrl }] = await Promise.all([
      import("nodemailer"),
      import("nodemailer/lib/shared"),
    ]);
    // nodemailer's pooled transporter, through the two methods used; its types vary by transport.
    return nodemailerTransport({
      ...parseConnectionUrl(url),
      pool: true,
      maxConnections: 2,
      maxMessages: 100,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    }) as unknown as Mailer;
  };
  return {
    kind: "smtp",
    async send(email) {
      if (!mailer) {
        mailer = open();
        // A failed load (nodemailer missing) is tried again at the next message.
        mailer.catch(() => {
          mailer = null;
        });
      }
      const transport = await mailer;
      try {
        const info = await transport.sendMail({
          from: email.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          headers: email.headers,
          messageId: email.messageId,
        });
        return { messageId: info.messageId || email.messageId, response: String(info.response ?? "").slice(0, 500) };
      } catch (error) {
        throw smtpFailure(error);
      }
    },
    close() {
      void mailer?.then((m) => m.close()).catch(() => {});
      mailer = null;
    },
  };
}

interface NodemailerError {
  code?: string;
  command?: string;
  response?: string;
  responseCode?: number;
  message?: string;
}

/**
 * A nodemailer error as one sentence for the outbox page, and whether to try again. Only a
 * refusal of this recipient or this message (a 5xx answer to RCPT TO or DATA) is final; a refused
 * sign-in, a network failure or a 4xx "try later" is retried on the schedule, so fixing SMTP_URL or
 * the server's coming back sends what waited.
 */
export function smtpFailure(error: unknown): SendFailure {
  const e = (error ?? {}) as NodemailerError;
  const answer = (e.response ?? e.message ?? String(error)).replace(/\s+/g, " ").trim().slice(0, 300);
  const code = e.responseCode;
  if (e.code === "EAUTH")
    return new SendFailure(
      `The SMTP server refused the user name and password in SMTP_URL (${answer}). Fix SMTP_URL; the message is tried again.`,
      false,
    );
  if (e.code === "ETLS")
    return new SendFailure(`TLS with the SMTP server failed (${answer}); the message is tried again.`, false);
  if (code && code >= 500 && (e.code === "EENVELOPE" || /^RCPT/i.test(e.command ?? "")))
    return new SendFailure(`The SMTP server refused the recipient's address for good: ${answer}`, true);
  if (code && code >= 500 && (e.code === "EMESSAGE" || /^DATA/i.test(e.command ?? "")))
    return new SendFailure(`The SMTP server refused the message for good: ${answer}`, true);
  if (code && code >= 400 && code < 500) return new SendFailure(`The SMTP server asked to try later: ${answer}`, false);
  if (["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ECONNREFUSED", "ENOTFOUND"].includes(e.code ?? ""))
    return new SendFailure(`Could not reach the SMTP server: ${answer}`, false);
  return new SendFailure(`Sending failed: ${answer}`, false);
}
