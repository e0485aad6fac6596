import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";

/**
 * Whether the person has proved they receive mail at their account's address (a verification link,
 * or a password reset). Until then they may use their workspaces but not invite anyone.
 */
export async function isEmailVerified(db: Db, userId: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { emailVerifiedAt: true } });
  return user?.emailVerifiedAt != null;
}

export const VERIFY_EMAIL_FIRST_MESSAGE =
  "Verify your email address before you invite anyone: open the verification link we emailed you.";

/** Refuses (403) what needs a verified address, such as inviting someone, with the sentence above. */
export async function requireVerifiedEmail(db: Db, userId: string): Promise<void> {
  if (!(await isEmailVerified(db, userId))) throw new AppError("forbidden", VERIFY_EMAIL_FIRST_MESSAGE);
}
