import type { PrismaClient } from "@/generated/prisma/client";
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import type { TSignUpInput } from "@/server/records/auth/schema";
import { acceptInvitationIn } from "@/server/records/team/invitations";
import { createWorkspace } from "@/server/records/workspaces/service";
import { sendVerificationEmail } from "./email-verification";
import { hashPassword, verifyPassword } from "./password";

export const DUPLICATE_EMAIL_MESSAGE = "An account already uses this email address. Sign in instead.";
export const WRONG_CREDENTIALS_MESSAGE = "The email or the password is not right. Check both and try again.";

/**
 * Creates a person, their workspace on the free audit plan, their owner membership and the email
 * with their verification link, in one transaction; or, through an invitation (`inviteToken`), a
 * person who joins the invited workspace (the link proved their address) and has none of their own.
 * A duplicate email changes nothing.
 */
export async function signUp(prisma: PrismaClient, input: TSignUpInput) {
  const passwordHash = await hashPassword(input.password);
  try {
    return await prisma.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { email: input.email, name: input.name, passwordHash } });
      if (input.inviteToken) {
        const joined = await acceptInvitationIn(tx, { token: input.inviteToken, user });
        return { userId: user.id, workspaceId: joined.workspaceId };
      }
      const workspace = await createWorkspace(tx, {
        name: input.workspaceName ?? "",
        ownerId: user.id,
        actor: { kind: "user", id: user.id, label: user.email },
      });
      await sendVerificationEmail(tx, user);
      return { userId: user.id, workspaceId: workspace.id };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("conflict", DUPLICATE_EMAIL_MESSAGE, {
        errors: [{ pointer: "/email", detail: DUPLICATE_EMAIL_MESSAGE }],
      });
    }
    throw error;
  }
}

/** The user whose email and password match, or null. Takes the same time whether or not the email exists. */
export async function verifyCredentials(db: Db, email: string, password: string) {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !ok) return null;
  await db.user.update({ where: { id: user.id }, data: { lastSignInAt: new Date() } });
  return { id: user.id, email: user.email, name: user.name, epoch: user.sessionEpoch };
}
