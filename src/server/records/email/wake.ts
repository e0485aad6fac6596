/**
 * In-process nudge for the email worker: a message was queued in this process, send it now rather
 * than at the next poll. A message queued by another process is found by polling.
 */
const listeners = new Set<() => void>();

export function onEmailQueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function signalEmailQueued(): void {
  for (const listener of listeners) listener();
}
