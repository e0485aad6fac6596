import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * The API doors that the production server (scripts/serve.ts) answers straight from node:http,
 * before Next.js routes the request. Next's instrumentation publishes them once the server has
 * booted (src/instrumentation.ts), from the same bundle as the rest of the server code; the
 * server waits for them here before it listens. Nothing else should depend on this hand-over.
 */
export interface DirectDoors {
  /** The prefixes answered directly, for the start-up log. */
  readonly prefixes: readonly string[];
  /** Answers the request and returns true, or returns false and leaves it to Next. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** The methods a path under one of the prefixes takes (for a 405's Allow), or null for other paths. */
  allow(path: string): string | null;
}

interface Slot {
  promise: Promise<DirectDoors>;
  resolve(doors: DirectDoors): void;
  reject(error: unknown): void;
}

const KEY = Symbol.for("direct-mail.direct-doors");
type Holder = { [KEY]?: Slot };

function slot(): Slot {
  const holder = globalThis as Holder;
  if (!holder[KEY]) {
    const parts: Partial<Slot> = {};
    parts.promise = new Promise<DirectDoors>((resolve, reject) => Object.assign(parts, { resolve, reject }));
    // `next start` and `next dev` never ask for the doors: a failed boot must not also be an unhandled rejection.
    parts.promise.catch(() => {});
    holder[KEY] = parts as Slot;
  }
  return holder[KEY];
}

export function publishDirectDoors(doors: DirectDoors): void {
  slot().resolve(doors);
}

/** The server could not boot: whoever waits for the doors gets the error. */
export function failDirectDoors(error: unknown): void {
  slot().reject(error);
}

/** The doors, once the server has booted; rejects if the boot failed. */
export function directDoorsReady(): Promise<DirectDoors> {
  return slot().promise;
}
