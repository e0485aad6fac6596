import type { Prisma } from "@/generated/prisma/client";
import { randomBase62 } from "./random";

/**
 * A secret the service makes for itself once and keeps in its database, so every instance on
 * one PostgreSQL agrees on it. Two instances starting at once agree too (insert-or-keep).
 */
export async function serviceSecret(db: Prisma.TransactionClient, name: string): Promise<string> {
  const existing = await db.serviceSecret.findUnique({ where: { name } });
  if (existing) return existing.value;
  await db.serviceSecret.createMany({ data: [{ name, value: randomBase62(48) }], skipDuplicates: true });
  return (await db.serviceSecret.findUniqueOrThrow({ where: { name } })).value;
}
