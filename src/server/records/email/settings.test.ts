import { describe, expect, it } from "vitest";
import { ConfigError } from "@/server/ground/platform/config";
import { describeEmailSettings, emailSettings } from "./settings";

describe("email settings", () => {
  it("with no SMTP_URL, mail goes to the log, from no-reply at the service's host", () => {
    expect(emailSettings({})).toEqual({
      transport: "log",
      from: '"Direct Mail Programme" <no-reply@localhost.localdomain>',
      fromAddress: "no-reply@localhost.localdomain",
    });
    expect(emailSettings({ NEXTAUTH_URL: "https://mail.acme.example" })).toMatchObject({
      fromAddress: "no-reply@mail.acme.example",
    });
    expect(emailSettings({ EMAIL_FROM: "Acme <mail@acme.example>" })).toEqual({
      transport: "log",
      from: "Acme <mail@acme.example>",
      fromAddress: "mail@acme.example",
    });
    expect(describeEmailSettings(emailSettings({}))).toBe(
      'no SMTP_URL: messages are kept in the outbox (Settings → Email) and written to the server log, from "Direct Mail Programme" <no-reply@localhost.localdomain>',
    );
  });

  it("takes smtp:// and smtps:// with credentials, and describes them without the password", () => {
    const smtp = emailSettings({
      SMTP_URL: "smtp://apikey:SG.secret@smtp.example.com:587",
      EMAIL_FROM: "mail@acme.example",
    });
    expect(smtp).toEqual({
      transport: "smtp",
      url: "smtp://apikey:SG.secret@smtp.example.com:587",
      from: "mail@acme.example",
      fromAddress: "mail@acme.example",
    });
    expect(describeEmailSettings(smtp)).toBe(
      "SMTP with STARTTLS when offered at smtp.example.com:587 as apikey, from mail@acme.example",
    );
    const smtps = emailSettings({
      SMTP_URL: "smtps://a%40b.example:x@mail.example.com",
      EMAIL_FROM: "mail@acme.example",
    });
    expect(describeEmailSettings(smtps)).toBe(
      "SMTP over TLS at mail.example.com:465 as a@b.example, from mail@acme.example",
    );
    expect(describeEmailSettings(smtps)).not.toContain(":x@");
  });

  it("refuses a bad setting with one sentence, never printing the password", () => {
    const refusal = (env: Record<string, string>) => {
      try {
        emailSettings(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refusal({ SMTP_URL: "http://user:hunter2@mail.example.com", EMAIL_FROM: "a@b.example" })).toBe(
      'SMTP_URL must start with smtp:// or smtps:// (got "http://user:***@mail.example.com/"); unset it to keep mail in the outbox.',
    );
    expect(refusal({ SMTP_URL: "smtp://", EMAIL_FROM: "a@b.example" })).toMatch(
      /^SMTP_URL (is not a valid URL|names no server)/,
    );
    expect(refusal({ SMTP_URL: "smtp://u:hunter2@mail.example.com" })).toMatch(/^EMAIL_FROM is required with SMTP_URL/);
    expect(refusal({ EMAIL_FROM: "not an address" })).toBe(
      'EMAIL_FROM must be one email address, optionally with a name: "Acme Mail <mail@acme.example>" (got "not an address").',
    );
    expect(refusal({ EMAIL_FROM: "a@b.example, c@d.example" })).toMatch(/^EMAIL_FROM must be one email address/);
  });
});
