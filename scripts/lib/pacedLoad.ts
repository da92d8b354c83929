// An open-loop load at a fixed rate: requests are due at random moments, as independent parents make
// them (a Poisson process: exponential gaps averaging 1 / rate, from a fixed seed, so runs are alike),
// whether or not earlier answers have come back, and a latency runs from when its request was due (so
// a server or a load generator that stalls shows up as latency, not as fewer requests). Keep-alive connections,
// at most `connections` at once; a request that finds them all busy waits for one, and that wait
// counts. (autocannon's rate limit sends each second's requests in a burst at the start of the second
// and corrects its histogram for a 1 ms interval, so its p99 measured the burst, not the rate.)
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface PacedRequest {
  path: string;
  headers?: Record<string, string>;
}

export interface PacedResult {
  rate: number;
  /** answers per second over the run */
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** non-2xx answers, connection errors and timeouts */
  errors: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

export async function pacedLoad(base: string, rate: number, seconds: number, requests: PacedRequest[], connections = 64): Promise<PacedResult> {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * seconds);
  // the due times, in ms from the start: exponential gaps of mean 1000 / rate (mulberry32, fixed seed)
  let seed = 0x9e3779b9;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const dueAt: number[] = [];
  for (let i = 0, t = 0; i < total; i++) dueAt.push((t += (-Math.log(1 - random()) * 1000) / rate));
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const pending: Promise<void>[] = [];

  const send = (i: number, due: number) =>
    new Promise<void>((resolve) => {
      const r = requests[i % requests.length];
      const req = http.request(
        { host: url.hostname, port: url.port, path: r.path, method: 'GET', agent, timeout: 10_000, headers: { 'accept-encoding': 'br, gzip', ...r.headers } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) errors++;
            resolve();
          });
          res.on('error', () => {
            errors++;
            resolve();
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors++;
        latencies.push(performance.now() - due);
        resolve();
      });
      req.end();
    });

  const start = performance.now();
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      // every request due by now goes out, each stamped with its own due time
      while (sent < total && start + dueAt[sent] <= now) {
        pending.push(send(sent, start + dueAt[sent]));
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + dueAt[sent] - performance.now()));
      else done();
    };
    tick();
  });
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { rate, rps: latencies.length / elapsed, p50: round(pct(sorted, 50)), p99: round(pct(sorted, 99)), max: round(sorted.at(-1) ?? 0), errors };
}
