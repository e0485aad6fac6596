import v8 from "node:v8";

/**
 * How far V8 lets its heap grow past what survived the last full collection before it collects
 * again. V8's own choice goes up to four times when a process allocates fast, so a worker streaming
 * a 100,000-row import held 590 MB of heap for about 170 MB of live objects; at 40 per cent it held
 * about 260 MB for a second more of collection (20 per cent: 220 MB and two seconds; measured on
 * 2026-11-25 with 5,000-row batches; at V8's own choice, with today's 2,000-row batches, the heap
 * still reaches 450 to 480 MB against 180 to 200 MB at 40 per cent). HEAP_GROWING_PERCENT changes it (0: V8's own choice). The worker and the production
 * server call this first; it imports nothing of ours, so the server can load it before anything else.
 */
export function tuneHeapGrowth(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.HEAP_GROWING_PERCENT?.trim();
  const percent = raw ? Number(raw) : 40;
  if (!Number.isInteger(percent) || percent < 0 || percent > 400) {
    throw new Error(`HEAP_GROWING_PERCENT must be a whole number from 0 to 400 (got "${raw?.slice(0, 20)}").`);
  }
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
