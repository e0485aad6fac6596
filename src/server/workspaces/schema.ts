import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/server/auth/password";

export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "An email address has at most 254 characters.")
  .pipe(z.email("Enter a valid email address, like ada@example.com."));

export const ZWorkspaceName = z
  .string()
  .trim()
  .min(2, "A workspace name has at least 2 characters.")
  .max(80, "A workspace name has at most 80 characters.");

export const ZSignUpInput = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(120, "A name has at most 120 characters."),
  email: ZEmail,
  password: z
    .string()
    .min(PASSWORD_MIN, `A password has at least ${PASSWORD_MIN} characters.`)
    .max(PASSWORD_MAX, `A password has at most ${PASSWORD_MAX} characters.`),
  workspaceName: ZWorkspaceName,
});
export type TSignUpInput = z.infer<typeof ZSignUpInput>;

export const ZCreateWorkspaceInput = z.object({ name: ZWorkspaceName });
