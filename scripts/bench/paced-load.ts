/**
 * An open-loop load at a fixed rate with evenly spaced arrivals, for the latency phases of
 * `npm run bench:api`. autocannon's rate option gives each connection a budget per second that it
 * spends at once, so every second starts with a burst of the whole second's requests and the
 * latencies it reports are mostly the time to drain that burst. Here request i is due at
 * start + i / rate and its latency is counted from that due time, not from when it could be sent,
 * so a server (or client) that falls behind shows up in the figures (no coordinated omission).
 */
import http from "node:http";

export interface PacedResult {
  /** Responses per second over the phase. */
  rps: number;
  p50: number;
  p99: number;
  /** Responses outside 2xx, and requests that failed. */
  failures: number;
  /** How many responses had each status. */
  statuses: Map<number, number>;
}

export interface PacedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export async function pacedLoad(opts: {
  port: number;
  rate: number;
  seconds: number;
  request: (n: number) => PacedRequest;
}): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(opts.rate * opts.seconds);
  const latencies: number[] = [];
  let failures = 0;
  const statuses = new Map<number, number>();
  let sent = 0;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();

  const send = (n: number, due: number) => {
    const { path, headers, body } = opts.request(n);
    const done = new Promise<void>((resolve) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: opts.port,
          method: "POST",
          path,
          headers: { ...headers, "content-length": Buffer.byteLength(body) },
          agent,
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            latencies.push(performance.now() - due);
            statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
            if (!res.statusCode || res.statusCode >= 300) failures++;
            resolve();
          });
        },
      );
      req.on("error", () => {
        failures++;
        resolve();
      });
      req.end(body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  while (sent < total) {
    const now = performance.now();
    // Send everything that is due (the timer may wake late), then sleep until the next one.
    while (sent < total && start + (sent * 1000) / opts.rate <= now) {
      send(sent, start + (sent * 1000) / opts.rate);
      sent++;
    }
    const next = start + (sent * 1000) / opts.rate;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  // To a tenth of a millisecond: at 500 requests a second both tails stand at a few milliseconds, where whole ones would decide a comparison by rounding.
  const at = (q: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 10) / 10;
  return { rps: Math.round(latencies.length / elapsed), p50: at(0.5), p99: at(0.99), failures, statuses };
}
