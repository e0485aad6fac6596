/** Compiles a TypeScript entry point of ours into ES modules (the entry file and its chunks) run by plain Node (scripts/bundle.mjs). */
export function bundle(entry: string, outfile: string): Promise<void>;
/** The Node flags a compiled worker runs with (see bundle.mjs). */
export declare const WORKER_NODE_FLAGS: string[];
/** The malloc settings a compiled worker runs with, each from the environment when set there (see bundle.mjs). */
export function workerMallocEnv(env?: NodeJS.ProcessEnv): { MALLOC_ARENA_MAX: string; MALLOC_MMAP_THRESHOLD_: string };
