import "server-only";
import { TRPCError } from "@trpc/server";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { createRequestContext } from "@/server/doors/context";
import { createAppCaller } from "@/server/doors/routers";

/** The tRPC caller for server components: the same procedures, checks and errors as the browser's. */
export async function serverCaller() {
  return createAppCaller(createRequestContext(await headers()));
}

/**
 * Loads a page's data through the caller. Next renders a page beside its layout, so a page must
 * turn "not signed in" and "not found" into the same redirect and 404 that the layout gives. An id
 * from the address that the procedure's input refuses (`/contacts/a.b`, a campaign id of 65
 * characters) names nothing either: 404, never a 500.
 */
export async function loadPage<T>(load: (caller: Awaited<ReturnType<typeof serverCaller>>) => Promise<T>): Promise<T> {
  try {
    return await load(await serverCaller());
  } catch (error) {
    if (error instanceof TRPCError && error.code === "UNAUTHORIZED") redirect("/sign-in");
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    if (error instanceof TRPCError && error.code === "BAD_REQUEST" && isInputRefusal(error.cause)) notFound();
    throw error;
  }
}

/** Whether a procedure's input validation refused its input (zod and other Standard Schema validators list their issues). */
function isInputRefusal(cause: unknown): boolean {
  return typeof cause === "object" && cause !== null && Array.isArray((cause as { issues?: unknown }).issues);
}
