/**
 * A worker loop's pause: `nap(ms)` waits that long, or until `wake()` is called (new work was
 * signalled, or the worker is stopping), whichever comes first. A wake while not napping is a no-op.
 */
export function napper() {
  let wakeUp: (() => void) | null = null;
  return {
    nap(ms: number): Promise<void> {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wakeUp = null;
          resolve();
        }
        wakeUp = done;
      });
    },
    wake() {
      wakeUp?.();
    },
  };
}
