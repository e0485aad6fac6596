/**
 * In-process nudge for the delivery worker (a redelivery or test event made in this process);
 * deliveries made by the database's triggers, or in another process, are found by polling.
 */
const listeners = new Set<() => void>();

export function onWebhookQueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function wakeWebhookDelivery() {
  for (const listener of listeners) listener();
}
