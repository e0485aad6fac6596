import "server-only";
import { getServerSession } from "next-auth";
import type { SessionUser } from "@/server/ground/access/principals";
import { getDb } from "@/server/ground/db";
import { sessionIsCurrent } from "./session-epoch";
import { authOptions } from "./options";

/** The signed-in person, or null (also when a password reset since sign-in ended the session). */
export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  const user = session?.user;
  if (!user?.id || !user.email) return null;
  if (!(await sessionIsCurrent(getDb(), user.id, user.epoch ?? 0))) return null;
  return { id: user.id, email: user.email, name: user.name ?? user.email };
}
