import { z } from "zod";
import { ZEmail, ZWorkspaceName } from "@/server/records/workspaces/schema";
import { PASSWORD_MAX, PASSWORD_MIN } from "./password";

/** Sign-up: the person, their password and their first workspace. */
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
