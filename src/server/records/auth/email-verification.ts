import type { PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { enqueueEmail } from "@/server/records/email/outbox";
import { emailVerificationEmail } from "@/server/records/email/templates/account";
import { consumeAccountToken, issueAccountToken } from "./account-tokens";

export const VERIFY_LINK_UNUSABLE_MESSAGE =
  "This verification link has expired or was already used. Ask for a new one from the banner in your workspace.";
export const ALREADY_VERIFIED_MESSAGE = "Your email address is already verified.";

/** Queues a verification link for the person's current address, in the caller's transaction (a sign-up's). */
export async function sendVerificationEmail(db: Db, user: { id: string; email: string; name: string }) {
  const { token, expiresAt } = await issueAccountToken(db, {
    userId: user.id,
    email: user.email,
    purpose: "email_verification",
  });
  await enqueueEmail(db, {
    to: user.email,
    userId: user.id,
    ...emailVerificationEmail({ name: user.name, token, expiresAt }),
  });
}

/** A new link for a signed-in person whose address is not verified yet; earlier links stop working. */
export async function resendVerificationEmail(prisma: PrismaClient, userId: string) {
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId } });
    if (user.emailVerifiedAt) throw new AppError("invalid_state", ALREADY_VERIFIED_MESSAGE);
    await tx.accountToken.updateMany({
      where: { userId, purpose: "email_verification", usedAt: null },
      data: { usedAt: new Date() },
    });
    await sendVerificationEmail(tx, user);
    return { email: user.email };
  });
}

/**
 * Marks the address verified from a link, once. The link proves the address it was sent to: if the
 * account's address changed since, it verifies nothing.
 */
export async function verifyEmail(prisma: PrismaClient, token: string, now = new Date()) {
  return prisma.$transaction(async (tx) => {
    const used = await consumeAccountToken(tx, token, "email_verification", now);
    if (!used) throw new AppError("invalid_state", VERIFY_LINK_UNUSABLE_MESSAGE);
    const user = await tx.user.findUniqueOrThrow({ where: { id: used.userId } });
    if (user.email !== used.email) throw new AppError("invalid_state", VERIFY_LINK_UNUSABLE_MESSAGE);
    if (!user.emailVerifiedAt) await tx.user.update({ where: { id: user.id }, data: { emailVerifiedAt: now } });
    return { email: user.email };
  });
}
