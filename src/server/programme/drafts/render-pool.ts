import { availableParallelism } from "node:os";
import { SHARE_ENV, Worker } from "node:worker_threads";
import type { RecipientContact } from "@/server/programme/designs/recipient";
import { threadModule } from "@/server/ground/platform/thread-module";
import { type CampaignRenderContext, type RenderedDraft, renderDraft } from "./render-draft";
import { CONTEXTS_KEPT, reviveBuffers, type ThreadReply, type ThreadRequest } from "./render-thread";
import type { TDraftBlocks } from "./schema";

export interface DraftToRender {
  contact: RecipientContact;
  override: TDraftBlocks | null;
  codes?: { sid: string; responseCode: string };
}

/**
 * How many render threads the drafts job uses: DRAFT_RENDER_THREADS when set (0 renders on the
 * calling thread), else 2 on a machine with two or more cores, so one process renders on both.
 */
export function renderThreadCount(): number {
  const set = process.env.DRAFT_RENDER_THREADS?.trim();
  if (set) return Math.max(0, Math.min(16, Math.floor(Number(set)) || 0));
  return availableParallelism() >= 2 ? 2 : 0;
}

/**
 * Renders drafts of one campaign and returns them in the order given, each as renderDraft would on
 * the calling thread: the same PDF, blocks and issues. With render threads (renderThreadCount) the
 * drafts are shared out among them as each finishes one, so a batch takes about 1/threads of the
 * time on an otherwise idle machine. A draft a thread could not render (an error, or the thread
 * stopped) is rendered again on the calling thread, so an error is the one renderDraft throws there,
 * for the first failing draft in order, as when drafts are rendered one after another.
 */
export async function renderDrafts(
  ctx: CampaignRenderContext,
  drafts: DraftToRender[],
  o: { threads?: number } = {},
): Promise<RenderedDraft[]> {
  const threads = o.threads ?? renderThreadCount();
  if (threads === 0 || drafts.length < 2) return inOrder(ctx, drafts);
  const pool = await ensurePool(threads).catch(() => null);
  if (!pool) return inOrder(ctx, drafts);
  const settled = await pool.render(ctx, drafts);
  const out: RenderedDraft[] = [];
  for (const [i, r] of settled.entries())
    out.push(r ?? (await renderDraft(ctx, drafts[i].contact, drafts[i].override, drafts[i].codes)));
  return out;
}

async function inOrder(ctx: CampaignRenderContext, drafts: DraftToRender[]): Promise<RenderedDraft[]> {
  const out: RenderedDraft[] = [];
  for (const d of drafts) out.push(await renderDraft(ctx, d.contact, d.override, d.codes));
  return out;
}

/** Threads are stopped after this long without work, giving their memory back. */
const IDLE_MS = 30_000;
/** Drafts sent to a thread before it replies: one rendering, one waiting, so it never idles between two. */
const IN_FLIGHT = 2;

interface Slot {
  worker: Worker;
  busy: number;
  /** The context keys this thread holds, oldest first (its own list, kept the same way). */
  contexts: number[];
  pending: Map<number, (draft: RenderedDraft | null) => void>;
}

class Pool {
  private nextId = 0;
  private idle: NodeJS.Timeout | null = null;
  private active = 0;
  constructor(private readonly slots: Slot[]) {}

  get size() {
    return this.slots.length;
  }

  holds(slot: Slot): boolean {
    return this.slots.includes(slot);
  }

  /** Each draft rendered by a thread, or null where a thread failed it (the caller renders it itself). */
  async render(ctx: CampaignRenderContext, drafts: DraftToRender[]): Promise<(RenderedDraft | null)[]> {
    this.active++;
    if (this.idle) clearTimeout(this.idle);
    try {
      const key = contextKey(ctx);
      const results: (RenderedDraft | null)[] = new Array(drafts.length).fill(null);
      let next = 0;
      await new Promise<void>((resolve) => {
        let outstanding = 0;
        const pump = () => {
          for (const slot of this.slots) {
            while (slot.busy < IN_FLIGHT && next < drafts.length && !dead.has(slot)) {
              const index = next++;
              outstanding++;
              this.send(slot, key, ctx, drafts[index], (draft) => {
                results[index] = draft;
                outstanding--;
                pump();
              });
            }
          }
          if (outstanding === 0) resolve();
        };
        pump();
      });
      return results;
    } finally {
      if (--this.active === 0) this.idle = setTimeout(() => this.stop(), IDLE_MS).unref();
    }
  }

  private send(
    slot: Slot,
    key: number,
    ctx: CampaignRenderContext,
    d: DraftToRender,
    done: (draft: RenderedDraft | null) => void,
  ) {
    const id = ++this.nextId;
    slot.busy++;
    slot.pending.set(id, (draft) => {
      slot.busy--;
      done(draft);
    });
    try {
      if (!slot.contexts.includes(key)) {
        slot.worker.postMessage({ type: "context", key, ctx: sendable(ctx) } satisfies ThreadRequest);
        slot.contexts.push(key);
        if (slot.contexts.length > CONTEXTS_KEPT) slot.contexts.shift();
      }
      slot.worker.postMessage({
        type: "render",
        id,
        key,
        contact: plainContact(d.contact),
        override: d.override,
        ...(d.codes ? { codes: d.codes } : {}),
      } satisfies ThreadRequest);
    } catch {
      // Something that cannot be sent to a thread (structured cloning refused it): the calling thread renders this draft.
      const settle = slot.pending.get(id);
      slot.pending.delete(id);
      queueMicrotask(() => settle?.(null));
    }
  }

  stop() {
    if (pool === this) pool = null;
    for (const slot of this.slots) void slot.worker.terminate();
  }
}

let renderedOnThreads = 0;
/** How many drafts this process's render threads have rendered (tests and bench:render read it). */
export const draftsRenderedOnThreads = () => renderedOnThreads;

/** Threads that stopped: what they had in hand is handed back as not rendered. */
const dead = new WeakSet<Slot>();
let pool: Pool | null = null;
let starting: Promise<Pool> | null = null;

async function ensurePool(threads: number): Promise<Pool> {
  if (pool && pool.size === threads) return pool;
  if (starting) return starting;
  starting = (async () => {
    pool?.stop();
    const file = await threadModule("src/server/programme/drafts/render-thread.ts", "drafts-render-thread");
    const slots = Array.from({ length: threads }, (): Slot => {
      const worker = new Worker(file, { env: SHARE_ENV, stdout: false, stderr: false });
      worker.unref();
      const slot: Slot = { worker, busy: 0, contexts: [], pending: new Map() };
      worker.on("message", (reply: ThreadReply) => {
        const settle = slot.pending.get(reply.id);
        slot.pending.delete(reply.id);
        if (reply.ok) renderedOnThreads++;
        settle?.(reply.ok ? { ...reply.draft, pdf: reviveBuffers(reply.draft.pdf) } : null);
      });
      const fail = () => {
        dead.add(slot);
        if (pool?.holds(slot)) pool = null;
        for (const settle of slot.pending.values()) settle(null);
        slot.pending.clear();
      };
      worker.on("error", fail);
      worker.on("exit", fail);
      return slot;
    });
    pool = new Pool(slots);
    return pool;
  })().finally(() => {
    starting = null;
  });
  return starting;
}

const keys = new WeakMap<CampaignRenderContext, number>();
let lastKey = 0;
function contextKey(ctx: CampaignRenderContext): number {
  let key = keys.get(ctx);
  if (key === undefined) keys.set(ctx, (key = ++lastKey));
  return key;
}

/** What a thread needs of the context: the campaign's copy fields rather than its whole row. */
function sendable(ctx: CampaignRenderContext): CampaignRenderContext {
  const c = ctx.campaign;
  return {
    ...ctx,
    campaign: {
      id: c.id,
      name: c.name,
      format: c.format,
      headline: c.headline,
      bodyTemplate: c.bodyTemplate,
      signOff: c.signOff,
      designId: c.designId,
    },
  };
}

/** The recipient's fields the piece uses, custom fields included (a contact row carries more, such as dates). */
function plainContact(c: RecipientContact): RecipientContact {
  const custom = (c as { customFields?: unknown }).customFields;
  return {
    ...(custom !== undefined ? { customFields: custom } : {}),
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    title: c.title,
    email: c.email,
    addressLine1: c.addressLine1,
    addressLine2: c.addressLine2,
    city: c.city,
    region: c.region,
    postalCode: c.postalCode,
    country: c.country,
    account: c.account ? { name: c.account.name, domain: c.account.domain } : null,
  };
}
