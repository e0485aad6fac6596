/**
 * Where an import's file is read and checked (checked-batches.ts). In a process that serves web
 * requests a large file goes to a thread of its own, so that its event loop is never held; a
 * process that serves none (`npm run worker`) says so here at start, and there every file is
 * checked on the event loop a slice of rows at a time, without a thread's second V8 heap. Kept
 * apart from checked-batches.ts so that the worker can say it without loading the import's code.
 */
let onEventLoop = false;

/** Called by `npm run worker` (scripts/worker.ts) before it runs any job (and by tests, either way). */
export function checkImportsOnEventLoop(on = true): void {
  onEventLoop = on;
}

/** Whether this process checks every import's file on its event loop (it serves no web requests). */
export const importsCheckedOnEventLoop = (): boolean => onEventLoop;
