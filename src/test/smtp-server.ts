import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerAddress } from "smtp-server";

/** One message as the local SMTP server received it: the SMTP envelope and the parsed message. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The user name the client signed in with (null: no AUTH). */
  user: string | null;
  /** Whether the connection was TLS (smtps://, or upgraded with STARTTLS). */
  secure: boolean;
  parsed: ParsedMail;
  raw: string;
}

export interface SmtpServerOptions {
  /** TLS from the first byte (smtps://), with a self-signed certificate made for this server. */
  secure?: boolean;
  /** Offer STARTTLS on a plain connection (with the same certificate). */
  starttls?: boolean;
  user?: string;
  pass?: string;
  /** A recipient this returns a sentence for is refused with 550 and that sentence. */
  refuseRecipient?: (address: string) => string | null;
  /** While this returns true, DATA is answered 451 (try again later). */
  deferData?: () => boolean;
}

let certificate: { key: string; cert: string } | null = null;

/** A self-signed certificate for 127.0.0.1 and localhost, made once per test file with openssl. */
export function selfSignedCertificate(): { key: string; cert: string } {
  if (certificate) return certificate;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smtp-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    certificate = {
      key: fs.readFileSync(path.join(dir, "key.pem"), "utf8"),
      cert: fs.readFileSync(path.join(dir, "cert.pem"), "utf8"),
    };
    return certificate;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A real SMTP server on loopback (smtp-server, the library nodemailer's own tests use), requiring
 * AUTH with a user name and password, that parses every message it accepts (mailparser).
 */
export async function startSmtpServer(options: SmtpServerOptions = {}) {
  const user = options.user ?? "mailer";
  const pass = options.pass ?? "s3cret pass";
  const received: ReceivedMail[] = [];
  const authAttempts: { user: string; ok: boolean }[] = [];
  const tls = options.secure || options.starttls ? selfSignedCertificate() : null;
  const server = new SMTPServer({
    secure: options.secure ?? false,
    ...(tls ?? {}),
    name: "smtp.test",
    logger: false,
    disableReverseLookup: true,
    authMethods: ["PLAIN", "LOGIN"],
    // Sign-in over a plain connection is allowed only where no TLS is offered (a test of smtp:// itself).
    allowInsecureAuth: !tls,
    disabledCommands: tls && !options.secure && options.starttls ? [] : ["STARTTLS"],
    size: 1024 * 1024,
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      const ok = auth.username === user && auth.password === pass;
      authAttempts.push({ user: auth.username ?? "", ok });
      if (!ok) return callback(Object.assign(new Error("Authentication failed"), { responseCode: 535 }));
      callback(null, { user: auth.username });
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const refusal = options.refuseRecipient?.(address.address);
      if (refusal) return callback(Object.assign(new Error(refusal), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (options.deferData?.()) return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              user: (session.user as string | undefined) ?? null,
              secure: session.secure,
              parsed,
              raw,
            });
            callback(null, `Queued as Q${received.length}`);
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  const scheme = options.secure ? "smtps" : "smtp";
  const credentials = `${encodeURIComponent(user)}:${encodeURIComponent(pass)}`;
  return {
    port,
    /** The SMTP_URL for this server, with its credentials. */
    url: `${scheme}://${credentials}@127.0.0.1:${port}`,
    received,
    authAttempts,
    /** Waits until `n` messages have arrived (or fails after `ms`). */
    async waitFor(n: number, ms = 30_000) {
      const until = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`The SMTP server received ${received.length} of ${n} messages.`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;
