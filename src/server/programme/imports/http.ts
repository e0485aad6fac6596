import "server-only";
import type { Actor } from "@/server/ground/audit/service";
import { getSessionUser } from "@/server/records/auth/session";
import { getDb } from "@/server/ground/db";
import { AppError, isAppError, problemTable } from "@/server/ground/errors";
import { isIdShaped } from "@/server/ground/platform/stored-text";
import { requireMembership } from "@/server/ground/access/membership";
import { requireRole, type TAction } from "@/server/ground/access/roles";

/** A failure as the owner's browser reads it from these routes: JSON with one sentence. */
export function errorResponse(error: unknown): Response {
  if (isAppError(error))
    return Response.json(
      { code: error.code, message: error.message, errors: error.errors ?? null },
      { status: error.status },
    );
  console.error("[imports] request failed", error);
  return Response.json({ code: "internal", message: problemTable.internal.explanation }, { status: 500 });
}

/**
 * A signed-in person of the workspace the request names (`?workspaceId=`) whose role may take
 * `action` (a download reads, an upload prepares), as an actor.
 */
export async function requireOwner(req: Request, action: TAction): Promise<{ workspaceId: string; actor: Actor }> {
  const user = await getSessionUser();
  if (!user) throw new AppError("unauthenticated", "Sign in to continue.");
  const workspaceId = new URL(req.url).searchParams.get("workspaceId") ?? "";
  if (!isIdShaped(workspaceId)) throw new AppError("not_found", "No such workspace.");
  const membership = await requireMembership(getDb(), { userId: user.id, workspaceId });
  requireRole(membership, action);
  return { workspaceId, actor: { kind: "user", id: user.id, label: user.email } };
}

/** The chunks of a request body as they arrive. */
export async function* bodyChunks(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value?.byteLength) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** A streamed text response from an async generator (a CSV download). */
export function streamText(chunks: AsyncIterable<string>, headers: Record<string, string>): Response {
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        console.error("[imports] download failed", error);
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(stream, { headers });
}

/** A file name safe for Content-Disposition. */
export const attachment = (name: string) => `attachment; filename="${name.replace(/[^\w.-]+/g, "-").slice(0, 120)}"`;
