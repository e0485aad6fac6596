import "server-only";
import { getServerSession } from "next-auth";
import type { SessionUser } from "@/server/ground/access/principals";
import { authOptions } from "./options";

/** The signed-in person, or null. */
export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  const user = session?.user;
  if (!user?.id || !user.email) return null;
  return { id: user.id, email: user.email, name: user.name ?? user.email };
}
