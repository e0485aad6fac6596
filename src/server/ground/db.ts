import "server-only";
import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { getDatabase } from "./platform/process-database";

export type { PrismaClient };

/**
 * The Prisma client or an open transaction of it: services take this first. A service that must
 * open its own transaction takes a PrismaClient instead.
 */
export type Db = Prisma.TransactionClient;

export function getDb(): PrismaClient {
  return getDatabase().prisma;
}
