import addressparser from "nodemailer/lib/addressparser";
import { baseUrl } from "@/server/ground/platform/base-url";
import { ConfigError, type Env, redactUrl } from "@/server/ground/platform/config";
import { SERVICE_NAME } from "@/server/ground/platform/version";

/**
 * How the service sends email, from the environment:
 * - `SMTP_URL` (smtp://user:pass@host:587 or smtps://user:pass@host:465): every message goes to
 *   that SMTP server. smtp:// upgrades to TLS with STARTTLS when the server offers it; smtps:// is
 *   TLS from the first byte. Nodemailer's query options are honoured (`?tls.rejectUnauthorized=false`
 *   for a server with a self-signed certificate on a private network).
 * - `EMAIL_FROM` ("Acme Mail <mail@acme.example>"): the From of every message; required with
 *   SMTP_URL, since a server accepts only senders it knows.
 * - Neither: the log transport. Messages are kept in the outbox (Settings → Email) and written to
 *   the server log, so `npm start` works offline and a developer can follow a reset link.
 */
export type EmailSettings =
  | { transport: "smtp"; url: string; from: string; fromAddress: string }
  | { transport: "log"; from: string; fromAddress: string };

export function emailSettings(env: Env = process.env): EmailSettings {
  const url = env.SMTP_URL?.trim();
  const fromSetting = env.EMAIL_FROM?.trim();
  const from = fromSetting ? parseFrom(fromSetting) : null;
  if (!url) {
    if (from) return { transport: "log", ...from };
    const host = new URL(baseUrl(env)).hostname;
    const fromAddress = `no-reply@${host.includes(".") ? host : `${host}.localdomain`}`;
    return { transport: "log", from: `"${SERVICE_NAME}" <${fromAddress}>`, fromAddress };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`SMTP_URL is not a valid URL ("${redactUrl(url)}").`);
  }
  if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:")
    throw new ConfigError(
      `SMTP_URL must start with smtp:// or smtps:// (got "${redactUrl(url)}"); unset it to keep mail in the outbox.`,
    );
  if (!parsed.hostname) throw new ConfigError(`SMTP_URL names no server ("${redactUrl(url)}").`);
  if (!from)
    throw new ConfigError(
      'EMAIL_FROM is required with SMTP_URL: the address messages come from, such as "Acme Mail <mail@acme.example>", one your SMTP server accepts as a sender.',
    );
  return { transport: "smtp", url, ...from };
}

/** One mailbox, with or without a display name; a ConfigError names what is wrong. */
function parseFrom(value: string): { from: string; fromAddress: string } {
  const parsed = addressparser(value, { flatten: true });
  const mailbox = parsed.length === 1 ? parsed[0] : null;
  const address = mailbox && "address" in mailbox ? mailbox.address : "";
  if (!address || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address))
    throw new ConfigError(
      `EMAIL_FROM must be one email address, optionally with a name: "Acme Mail <mail@acme.example>" (got "${value.slice(0, 80)}").`,
    );
  return { from: value, fromAddress: address };
}

/** Where mail goes, in one line for the boot log and the outbox page (the password never shown). */
export function describeEmailSettings(settings: EmailSettings): string {
  if (settings.transport === "log")
    return `no SMTP_URL: messages are kept in the outbox (Settings → Email) and written to the server log, from ${settings.from}`;
  const u = new URL(settings.url);
  const port = u.port || (u.protocol === "smtps:" ? "465" : "587");
  return `SMTP ${u.protocol === "smtps:" ? "over TLS" : "with STARTTLS when offered"} at ${u.hostname}:${port}${u.username ? ` as ${decodeURIComponent(u.username)}` : ""}, from ${settings.from}`;
}
