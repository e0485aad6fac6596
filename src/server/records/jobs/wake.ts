type Listener = () => void;
const listeners = new Set<Listener>();

/** In-process nudge for the job worker: a job was queued here, start it now rather than at the next poll. */
export function onJobQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function signalJobQueued(): void {
  for (const listener of listeners) listener();
}
