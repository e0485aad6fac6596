import { baseUrl } from "@/server/ground/platform/base-url";
import { SERVICE_NAME } from "@/server/ground/platform/version";
import { formatDateTimeUtc } from "./format";
import { type RenderedEmail, rendered } from "./rendered";

/** A link to choose a new password: `{base_url}/reset-password/{token}`, single use, until `expiresAt`. */
export function passwordResetEmail(p: { name: string; token: string; expiresAt: Date; base?: string }): RenderedEmail {
  const base = p.base ?? baseUrl();
  return rendered("password_reset", `Choose a new password for ${SERVICE_NAME}`, {
    preview: "A link to choose a new password, for one hour.",
    heading: "Choose a new password",
    paragraphs: [
      `Hello ${p.name}, someone (we hope you) asked to reset the password of the ${SERVICE_NAME} account that uses this address.`,
    ],
    action: { label: "Choose a new password", url: `${base}/reset-password/${p.token}` },
    after: [
      `The link works once, until ${formatDateTimeUtc(p.expiresAt)}. Choosing a new password signs you out everywhere else.`,
    ],
    footer: [
      "You get this email because a password reset was asked for this address. If it was not you, ignore it: your password stays as it is.",
    ],
  });
}

/** Says the password was just changed, so a change the person did not make is noticed. */
export function passwordChangedEmail(p: { name: string; at: Date; base?: string }): RenderedEmail {
  const base = p.base ?? baseUrl();
  return rendered("password_changed", `Your ${SERVICE_NAME} password was changed`, {
    preview: "Your password was changed and your other sessions were signed out.",
    heading: "Your password was changed",
    paragraphs: [
      `Hello ${p.name}, the password of your ${SERVICE_NAME} account was changed on ${formatDateTimeUtc(p.at)} through a reset link, and every other session was signed out.`,
      "If you did not do this, reset your password again at once and tell your workspace's owner.",
    ],
    action: { label: "Sign in", url: `${base}/sign-in` },
    footer: ["You get this email because the password of the account using this address changed."],
  });
}

/** A link proving the person receives mail here: `{base_url}/verify-email/{token}`, single use, until `expiresAt`. */
export function emailVerificationEmail(p: {
  name: string;
  token: string;
  expiresAt: Date;
  base?: string;
}): RenderedEmail {
  const base = p.base ?? baseUrl();
  return rendered("email_verification", `Verify your email address for ${SERVICE_NAME}`, {
    preview: "Confirm this is your address to invite your team.",
    heading: "Verify your email address",
    paragraphs: [
      `Hello ${p.name}, confirm that this address is yours. Until you do, you can use your workspace but not invite anyone to it.`,
    ],
    action: { label: "Verify my address", url: `${base}/verify-email/${p.token}` },
    after: [`The link works once, until ${formatDateTimeUtc(p.expiresAt)}.`],
    footer: [
      `You get this email because an account on ${SERVICE_NAME} was created with this address. If it was not you, ignore it.`,
    ],
  });
}
