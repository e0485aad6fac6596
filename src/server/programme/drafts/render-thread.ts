/**
 * A drafts render thread (node:worker_threads, started by ./render-pool.ts): renders the drafts it
 * is sent with renderDraft, exactly as the calling thread would, and sends each one back. It loads
 * fonts, shapes words and keeps the renderer's caches once for as long as it lives. Compiled into
 * one module on first use (platform/thread-module.ts).
 */
import { parentPort } from "node:worker_threads";
import type { RecipientContact } from "@/server/programme/designs/recipient";
import { type CampaignRenderContext, renderDraft } from "./render-draft";
import type { TDraftBlocks } from "./schema";

/** How many campaign contexts a thread keeps (drafts jobs running at once in one process each have one). */
export const CONTEXTS_KEPT = 8;

export type ThreadRequest =
  | { type: "context"; key: number; ctx: CampaignRenderContext }
  | {
      type: "render";
      id: number;
      key: number;
      contact: RecipientContact;
      override: TDraftBlocks | null;
      codes?: { sid: string; responseCode: string };
    };

export type ThreadReply =
  | { id: number; ok: true; draft: Awaited<ReturnType<typeof renderDraft>> }
  | { id: number; ok: false; message: string };

/** Buffers come back from structured cloning as plain Uint8Arrays: make them Buffers again (an image asset's bytes). */
export function reviveBuffers<T>(value: T): T {
  if (value instanceof Uint8Array)
    return (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)) as T;
  if (Array.isArray(value)) return value.map(reviveBuffers) as T;
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = reviveBuffers(v);
    return out as T;
  }
  return value;
}

if (parentPort) {
  const port = parentPort;
  const contexts = new Map<number, CampaignRenderContext>();
  port.on("message", (m: ThreadRequest) => {
    if (m.type === "context") {
      // The pool keeps the same list (the last CONTEXTS_KEPT contexts sent) and sends one again once it fell out.
      contexts.set(m.key, reviveBuffers(m.ctx));
      if (contexts.size > CONTEXTS_KEPT) contexts.delete(contexts.keys().next().value!);
      return;
    }
    const ctx = contexts.get(m.key);
    if (!ctx) {
      port.postMessage({
        id: m.id,
        ok: false,
        message: "The render thread has no campaign context for this draft.",
      } satisfies ThreadReply);
      return;
    }
    renderDraft(ctx, m.contact, m.override, m.codes).then(
      (draft) => port.postMessage({ id: m.id, ok: true, draft } satisfies ThreadReply),
      (error: unknown) =>
        port.postMessage({
          id: m.id,
          ok: false,
          message: error instanceof Error ? error.message : String(error),
        } satisfies ThreadReply),
    );
  });
}
