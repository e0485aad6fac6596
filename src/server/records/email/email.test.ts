import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace, uniq } from "@/test/factories";
import { type TestSmtpServer, startSmtpServer } from "@/test/smtp-server";
import { enqueueEmail } from "./outbox";
import { claimEmails, EMAIL_RETRY_SCHEDULE_MS, MAX_EMAIL_ATTEMPTS, type SendDeps, sendClaimed } from "./sender";
import { emailSettings } from "./settings";
import { invitationEmail } from "./templates/invitation";
import { testEmail } from "./templates/test-email";
import { createTransport, type MailTransport } from "./transport";
import { startEmailWorker } from "./worker";

let prisma: PrismaClient;
let smtp: TestSmtpServer;
let smtps: TestSmtpServer;
const transports: MailTransport[] = [];

beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  smtp = await startSmtpServer({ user: "mailer@acme.test", pass: "p@ss:w/ord" });
  smtps = await startSmtpServer({ secure: true, user: "tls-user", pass: "tls pass" });
});
afterAll(async () => {
  for (const t of transports) t.close();
  await Promise.all([smtp.close(), smtps.close()]);
});

const FROM = '"Acme Mail" <mail@acme.test>';

/** Everything a worker needs to send, over this SMTP_URL (or the log with none), at the clock's time. */
function sender(url: string | null, clock = testClock(), lines: string[] = []): SendDeps & { lines: string[] } {
  const settings = emailSettings({ SMTP_URL: url ?? "", EMAIL_FROM: FROM });
  const transport = createTransport(settings, (line) => lines.push(line));
  transports.push(transport);
  return {
    transport,
    from: settings.from,
    fromAddress: settings.fromAddress,
    clock: clock.now,
    log: (line) => lines.push(line),
    lines,
  };
}

/** Messages are stamped with the database's time when queued: the clock starts after that. */
function testClock() {
  let at = Date.now() + 1000;
  return {
    now: () => new Date(at),
    advance: (ms: number) => {
      at += ms;
    },
  };
}

/** One attempt of these messages, as the worker makes it. */
async function attempt(ids: string[], deps: SendDeps) {
  const { token, ids: claimed } = await claimEmails(prisma, { limit: 50, now: deps.clock(), scope: { ids } });
  return sendClaimed(prisma, claimed, token, deps);
}

async function queueInvitation(p: { to?: string; workspaceId?: string } = {}) {
  const to = p.to ?? `${uniq()}@example.test`;
  const token = `inv_${uniq()}${uniq()}${uniq()}`;
  const message = await enqueueEmail(prisma, {
    to,
    workspaceId: p.workspaceId,
    ...invitationEmail({
      workspaceName: "Acme Revenue",
      invitedBy: { name: "Ada Okafor", email: "ada@acme.test" },
      role: "approver",
      approvalLimitCents: 50_000,
      token,
      expiresAt: new Date("2030-01-08T12:00:00Z"),
      base: "https://mail.acme.test",
    }),
  });
  return { message: message!, to, token };
}

const row = (id: string) => prisma.emailMessage.findUniqueOrThrow({ where: { id } });

describe("sending through a real SMTP server", () => {
  it("signs in with SMTP_URL's credentials and delivers both parts, the From, the link and a stable Message-ID", async () => {
    const { message, to, token } = await queueInvitation();
    expect(message).toMatchObject({ status: "queued", attempts: 0, kind: "invitation" });
    const before = smtp.received.length;
    expect(await attempt([message.id], sender(smtp.url))).toEqual([{ id: message.id, outcome: "sent" }]);

    const [mail] = smtp.received.slice(before);
    expect(mail.user).toBe("mailer@acme.test");
    expect(smtp.authAttempts.at(-1)).toEqual({ user: "mailer@acme.test", ok: true });
    expect(mail.envelope).toEqual({ from: "mail@acme.test", to: [to] });
    expect(mail.parsed.from?.value).toEqual([{ name: "Acme Mail", address: "mail@acme.test" }]);
    expect(mail.parsed.subject).toBe("Ada Okafor invited you to Acme Revenue");
    expect(mail.parsed.messageId).toBe(`<${message.id}@acme.test>`);
    const link = `https://mail.acme.test/invite/${token}`;
    expect(mail.parsed.text).toContain(link);
    expect(mail.parsed.text).toContain("Direct Mail Programme");
    expect(mail.parsed.text).toContain("as an approver: you may prepare campaigns and accept confirmation cards");
    expect(mail.parsed.text).toContain("(cards of up to $500.00 each)");
    expect(mail.parsed.html).toContain(`href="${link}"`);

    const sent = await row(message.id);
    expect(sent).toMatchObject({
      status: "sent",
      attempts: 1,
      deliveredVia: "smtp",
      providerMessageId: `<${message.id}@acme.test>`,
      lastError: null,
      lockToken: null,
    });
    expect(sent.providerResponse).toMatch(/^250 .*Queued as Q\d+/);
    expect(sent.sentAt).toBeInstanceOf(Date);
    // The single-use link is not kept once the message has left.
    expect(sent.text).not.toContain(token);
    expect(sent.html).not.toContain(token);
    expect(sent.text).toContain("https://mail.acme.test/invite/(removed once sent)");
  });

  it("sends over smtps:// (TLS from the first byte) to a server with a self-signed certificate the URL allows", async () => {
    const { message, to } = await queueInvitation();
    const before = smtps.received.length;
    const url = `${smtps.url}?tls.rejectUnauthorized=false`;
    expect(await attempt([message.id], sender(url))).toEqual([{ id: message.id, outcome: "sent" }]);
    const [mail] = smtps.received.slice(before);
    expect(mail).toMatchObject({ secure: true, user: "tls-user", envelope: { to: [to] } });
    expect(await row(message.id)).toMatchObject({ status: "sent", deliveredVia: "smtp" });
  });

  it("upgrades smtp:// with STARTTLS when the server offers it", async () => {
    const server = await startSmtpServer({ starttls: true });
    try {
      const { message } = await queueInvitation();
      expect(await attempt([message.id], sender(`${server.url}?tls.rejectUnauthorized=false`))).toEqual([
        { id: message.id, outcome: "sent" },
      ]);
      expect(server.received).toHaveLength(1);
      expect(server.received[0]).toMatchObject({ secure: true, user: "mailer" });
    } finally {
      await server.close();
    }
  });

  it("a certificate the transport does not trust fails the attempt visibly, and it is sent once the setting is fixed", async () => {
    const { message } = await queueInvitation();
    const clock = testClock();
    const before = smtps.received.length;
    expect(await attempt([message.id], sender(smtps.url, clock))).toEqual([{ id: message.id, outcome: "retry" }]);
    const failed = await row(message.id);
    expect(failed).toMatchObject({ status: "queued", attempts: 1, sentAt: null });
    expect(failed.lastError).toMatch(/self[- ]signed certificate/i);
    expect(failed.nextAttemptAt.getTime()).toBe(clock.now().getTime() + EMAIL_RETRY_SCHEDULE_MS[0]);
    expect(smtps.received.length).toBe(before);

    // Not due yet: a worker leaves it alone.
    expect(await attempt([message.id], sender(`${smtps.url}?tls.rejectUnauthorized=false`, clock))).toEqual([]);
    clock.advance(EMAIL_RETRY_SCHEDULE_MS[0]);
    expect(await attempt([message.id], sender(`${smtps.url}?tls.rejectUnauthorized=false`, clock))).toEqual([
      { id: message.id, outcome: "sent" },
    ]);
    expect(await row(message.id)).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(smtps.received.length).toBe(before + 1);
  });

  it("a wrong password is an error naming SMTP_URL (never the password), retried; a 451 is retried too", async () => {
    const { message } = await queueInvitation();
    const wrong = smtp.url.replace(encodeURIComponent("p@ss:w/ord"), "not-it");
    const deps = sender(wrong);
    expect(await attempt([message.id], deps)).toEqual([{ id: message.id, outcome: "retry" }]);
    const failed = await row(message.id);
    expect(failed.lastError).toMatch(/^The SMTP server refused the user name and password in SMTP_URL \(.*535/);
    expect(failed.lastError).not.toContain("not-it");
    expect(deps.lines.join("\n")).toContain(`${message.id} to ${failed.to}: attempt 1 failed`);

    let defer = true;
    const busy = await startSmtpServer({ deferData: () => defer });
    try {
      const clock = testClock();
      const { message: later } = await queueInvitation();
      expect(await attempt([later.id], sender(busy.url, clock))).toEqual([{ id: later.id, outcome: "retry" }]);
      expect((await row(later.id)).lastError).toMatch(/^The SMTP server asked to try later: 451/);
      defer = false;
      clock.advance(EMAIL_RETRY_SCHEDULE_MS[0]);
      expect(await attempt([later.id], sender(busy.url, clock))).toEqual([{ id: later.id, outcome: "sent" }]);
      expect(busy.received).toHaveLength(1);
    } finally {
      await busy.close();
    }
  });

  it("a recipient the server refuses for good fails at once, with the server's answer, and loses its link", async () => {
    const server = await startSmtpServer({
      refuseRecipient: (a) => (a.startsWith("gone-") ? "No such user here" : null),
    });
    try {
      const { message, token } = await queueInvitation({ to: `gone-${uniq()}@example.test` });
      expect(await attempt([message.id], sender(server.url))).toEqual([{ id: message.id, outcome: "failed" }]);
      const failed = await row(message.id);
      expect(failed).toMatchObject({ status: "failed", attempts: 1, sentAt: null });
      expect(failed.lastError).toMatch(
        /^The SMTP server refused the recipient's address for good: 550 No such user here/,
      );
      expect(failed.text).not.toContain(token);
      expect(server.received).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it("a server that cannot be reached is retried on the schedule, then the message fails, kept with its last error", async () => {
    const closed = await startSmtpServer();
    const url = closed.url;
    await closed.close();
    const { message } = await queueInvitation();
    const clock = testClock();
    const deps = sender(url, clock);
    for (let n = 1; n < MAX_EMAIL_ATTEMPTS; n++) {
      expect(await attempt([message.id], deps)).toEqual([{ id: message.id, outcome: "retry" }]);
      const queued = await row(message.id);
      expect(queued).toMatchObject({ status: "queued", attempts: n });
      expect(queued.nextAttemptAt.getTime()).toBe(clock.now().getTime() + EMAIL_RETRY_SCHEDULE_MS[n - 1]);
      clock.advance(EMAIL_RETRY_SCHEDULE_MS[n - 1]);
    }
    expect(await attempt([message.id], deps)).toEqual([{ id: message.id, outcome: "failed" }]);
    const failed = await row(message.id);
    expect(failed).toMatchObject({ status: "failed", attempts: MAX_EMAIL_ATTEMPTS });
    expect(failed.lastError).toMatch(/^Could not reach the SMTP server: .*ECONNREFUSED/);
  });

  it("a message whose worker died mid-send is taken over when its claim runs out, under the same Message-ID", async () => {
    const { message } = await queueInvitation();
    const clock = testClock();
    const first = await claimEmails(prisma, { limit: 5, now: clock.now(), scope: { ids: [message.id] } });
    expect(first.ids).toEqual([message.id]);
    expect(await row(message.id)).toMatchObject({ status: "sending", attempts: 1 });
    // Still claimed: nobody else takes it.
    expect((await claimEmails(prisma, { limit: 5, now: clock.now(), scope: { ids: [message.id] } })).ids).toEqual([]);
    clock.advance(121_000);
    const before = smtp.received.length;
    expect(await attempt([message.id], sender(smtp.url, clock))).toEqual([{ id: message.id, outcome: "sent" }]);
    expect(smtp.received[before].parsed.messageId).toBe(`<${message.id}@acme.test>`);
    // The first worker's late answer changes nothing.
    expect(await sendClaimed(prisma, first.ids, first.token, sender(smtp.url, clock))).toEqual([]);
    expect(await row(message.id)).toMatchObject({ status: "sent", attempts: 2 });
  });
});

describe("the outbox", () => {
  it("is written in the caller's transaction: a rolled-back cause leaves no message", async () => {
    const to = `${uniq()}@example.test`;
    await expect(
      prisma.$transaction(async (tx) => {
        await enqueueEmail(tx, { to, ...testEmailFor() });
        throw new Error("the cause failed");
      }),
    ).rejects.toThrow("the cause failed");
    expect(await prisma.emailMessage.count({ where: { to } })).toBe(0);
  });

  it("queues one message per dedupe key", async () => {
    const key = `test:${uniq()}`;
    const to = `${uniq()}@example.test`;
    expect(await enqueueEmail(prisma, { to, dedupeKey: key, ...testEmailFor() })).toMatchObject({ to });
    expect(await enqueueEmail(prisma, { to, dedupeKey: key, ...testEmailFor() })).toBeNull();
    expect(await prisma.emailMessage.count({ where: { to } })).toBe(1);
  });

  it("refuses an address no server could take, writing nothing", async () => {
    for (const to of [
      "",
      "no-at-sign",
      "two@a.test, three@b.test",
      `${"x".repeat(250)}@e.test`,
      "a\r\nBcc: x@y.test",
    ]) {
      await expect(enqueueEmail(prisma, { to, ...testEmailFor() })).rejects.toThrow("Not an email address to send to");
    }
    expect(await prisma.emailMessage.count({ where: { to: { contains: "Bcc" } } })).toBe(0);
  });

  it("with no SMTP_URL, a message is written to the server log with its links and kept in the outbox", async () => {
    const { workspaceId } = await createOwnerWorkspace(prisma);
    const { message, token } = await queueInvitation({ workspaceId });
    const deps = sender(null);
    expect(await attempt([message.id], deps)).toEqual([{ id: message.id, outcome: "sent" }]);
    expect(deps.lines).toEqual([
      `[email] not sent (no SMTP_URL), kept in the outbox: “Ada Okafor invited you to Acme Revenue” to ${message.to} (${message.id})\n  https://mail.acme.test/invite/${token}`,
    ]);
    expect(await row(message.id)).toMatchObject({
      status: "sent",
      deliveredVia: "log",
      providerResponse: "Written to the server log: no SMTP_URL is set.",
    });
  });

  it("the worker sends what is queued at once, without waiting for its poll", async () => {
    const server = await startSmtpServer();
    const { workspaceId } = await createOwnerWorkspace(prisma);
    const worker = startEmailWorker(prisma, {
      settings: emailSettings({ SMTP_URL: server.url, EMAIL_FROM: FROM }),
      pollMs: 60_000,
      scope: { workspaceId },
      deps: { log: () => {} },
    });
    try {
      // The worker's first look finds nothing; the enqueue wakes it.
      await new Promise((r) => setTimeout(r, 200));
      const { message } = await queueInvitation({ workspaceId });
      const [mail] = await server.waitFor(1, 20_000);
      expect(mail.parsed.messageId).toBe(`<${message.id}@acme.test>`);
      await expect.poll(async () => (await row(message.id)).status, { timeout: 10_000 }).toBe("sent");
    } finally {
      await worker.stop();
      await server.close();
    }
  });
});

function testEmailFor() {
  return testEmail({
    workspaceId: "ws_test",
    workspaceName: "Acme",
    requestedBy: "Ada",
    setup: "the log",
    base: "https://mail.acme.test",
  });
}
