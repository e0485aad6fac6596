/**
 * Runs `tick` every `intervalMs` in this process, and once at once, never two at a time; a failed
 * tick is logged under `name` and the next one runs as planned. The state a tick works on lives in
 * the database, so every process may tick and a stopped one loses nothing.
 */
export function startTicker(name: string, tick: () => Promise<unknown>, intervalMs: number) {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await tick();
    } catch (error) {
      console.error(`[${name}] a scheduled run failed`, error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  void run();
  return {
    async stop() {
      clearInterval(timer);
    },
  };
}
