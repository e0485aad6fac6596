import "server-only";
import { type SessionUser } from "@/server/access/principals";
import { getSessionUser } from "./auth/session";
import { getDb } from "./db";
import type { TrpcContext } from "./trpc";

/** Context for a request from the owner's browser (cookie session read on demand). */
export function createRequestContext(headers: Headers): TrpcContext {
  let user: Promise<SessionUser | null> | undefined;
  return { db: getDb(), headers, getUser: () => (user ??= getSessionUser()) };
}
