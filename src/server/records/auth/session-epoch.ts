import type { Db } from "@/server/ground/db";

/**
 * Whether a session signed in under `epoch` still stands: the person exists and no password reset
 * has raised their sessionEpoch since.
 */
export async function sessionIsCurrent(db: Db, userId: string, epoch: number): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { sessionEpoch: true } });
  return user != null && user.sessionEpoch === epoch;
}
