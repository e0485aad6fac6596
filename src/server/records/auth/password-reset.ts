import type { PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { enqueueEmail } from "@/server/records/email/outbox";
import { passwordChangedEmail, passwordResetEmail } from "@/server/records/email/templates/account";
import { consumeAccountToken, issueAccountToken } from "./account-tokens";
import { hashPassword } from "./password";

export const RESET_REQUESTED_MESSAGE =
  "If an account uses this address, we emailed it a link to choose a new password. The link works for one hour.";
export const RESET_LINK_UNUSABLE_MESSAGE =
  "This password reset link has expired or was already used. Ask for a new one from the sign-in page.";

/**
 * Emails a reset link to the account using `email`, if there is one. The answer is the same either
 * way, so the form cannot tell who has an account. `quiet` (a limit reached for this address) sends
 * nothing but still answers the same.
 */
export async function requestPasswordReset(prisma: PrismaClient, email: string, opts: { quiet?: boolean } = {}) {
  const user = await prisma.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (user && !opts.quiet) {
    await prisma.$transaction(async (tx) => {
      const { token, expiresAt } = await issueAccountToken(tx, {
        userId: user.id,
        email: user.email,
        purpose: "password_reset",
      });
      await enqueueEmail(tx, {
        to: user.email,
        userId: user.id,
        ...passwordResetEmail({ name: user.name, token, expiresAt }),
      });
    });
  }
  return { message: RESET_REQUESTED_MESSAGE };
}

/**
 * Sets the password from a reset link: once, within its hour. It also proves the address (the link
 * was read there), ends every session signed in before (sessionEpoch), voids the person's other
 * reset links, and tells them by email. An unusable link changes nothing.
 */
export async function resetPassword(prisma: PrismaClient, token: string, password: string, now = new Date()) {
  const passwordHash = await hashPassword(password);
  return prisma.$transaction(async (tx) => {
    const used = await consumeAccountToken(tx, token, "password_reset", now);
    if (!used) throw new AppError("invalid_state", RESET_LINK_UNUSABLE_MESSAGE);
    const user = await tx.user.findUniqueOrThrow({ where: { id: used.userId } });
    await tx.user.update({
      where: { id: user.id },
      data: {
        passwordHash,
        sessionEpoch: { increment: 1 },
        ...(user.emailVerifiedAt == null && used.email === user.email ? { emailVerifiedAt: now } : {}),
      },
    });
    await voidTokens(tx, user.id, now);
    await enqueueEmail(tx, { to: user.email, userId: user.id, ...passwordChangedEmail({ name: user.name, at: now }) });
    return { email: user.email };
  });
}

/** The person's other reset links stop working once one was used. */
function voidTokens(db: Db, userId: string, now: Date) {
  return db.accountToken.updateMany({
    where: { userId, purpose: "password_reset", usedAt: null },
    data: { usedAt: now },
  });
}
