import "server-only";
import type { SessionUser } from "@/server/ground/access/principals";
import { getSessionUser } from "../records/auth/session";
import { getDb } from "../ground/db";
import type { TrpcContext } from "../ground/trpc";

/** Context for a request from the owner's browser (cookie session read on demand). */
export function createRequestContext(headers: Headers): TrpcContext {
  let user: Promise<SessionUser | null> | undefined;
  return { db: getDb(), headers, getUser: () => (user ??= getSessionUser()) };
}
