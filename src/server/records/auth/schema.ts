import { z } from "zod";
import { ZInviteToken } from "@/server/records/team/schema";
import { ZEmail, ZWorkspaceName } from "@/server/records/workspaces/schema";
import { PASSWORD_MAX, PASSWORD_MIN } from "./password";

/**
 * Sign-up: the person, their password and their first workspace; or, through an invitation
 * (`inviteToken`), the person joining the invited workspace and no workspace of their own.
 */
export const ZSignUpInput = z
  .object({
    name: z.string().trim().min(1, "Enter your name.").max(120, "A name has at most 120 characters."),
    email: ZEmail,
    password: z
      .string()
      .min(PASSWORD_MIN, `A password has at least ${PASSWORD_MIN} characters.`)
      .max(PASSWORD_MAX, `A password has at most ${PASSWORD_MAX} characters.`),
    workspaceName: ZWorkspaceName.optional(),
    inviteToken: ZInviteToken.optional(),
  })
  .refine((v) => v.inviteToken || v.workspaceName, {
    message: "Name your workspace.",
    path: ["workspaceName"],
  });
export type TSignUpInput = z.infer<typeof ZSignUpInput>;

/** A single-use link's token as it appears in the link (base64url). */
export const ZAccountToken = z
  .string()
  .trim()
  .min(16, "This link is not complete. Open it again from the email.")
  .max(128, "This link is not complete. Open it again from the email.")
  .regex(/^[A-Za-z0-9_-]+$/, "This link is not complete. Open it again from the email.");

export const ZRequestPasswordResetInput = z.object({ email: ZEmail });

export const ZResetPasswordInput = z.object({
  token: ZAccountToken,
  password: z
    .string()
    .min(PASSWORD_MIN, `A password has at least ${PASSWORD_MIN} characters.`)
    .max(PASSWORD_MAX, `A password has at most ${PASSWORD_MAX} characters.`),
});

export const ZVerifyEmailInput = z.object({ token: ZAccountToken });
