// Graceful shutdown (SIGTERM from an orchestrator, SIGINT from a terminal): /ready answers 503 at once
// so the load balancer sends nothing new, the requests in flight finish (Fastify's close stops the
// listener and waits for them), background loops and jobs stop, and the database closes last. A second
// signal, or a shutdown longer than its timeout, ends the process at once.

export interface ShutdownSteps {
  app: { operations: { drain(): void }; close(): PromiseLike<unknown> };
  /** the background jobs' stop (the job in hand finishes; the app's own loops stop in app.close()) */
  stopJobs?: () => Promise<void> | void;
  closeDatabase: () => Promise<void>;
  /** how long /ready answers 503 before the listener closes, so the load balancer's checks see it (ms) */
  drainDelayMs?: number;
}

export async function shutDown(steps: ShutdownSteps): Promise<void> {
  steps.app.operations.drain();
  if (steps.drainDelayMs) await new Promise((r) => setTimeout(r, steps.drainDelayMs));
  await Promise.all([steps.app.close(), steps.stopJobs?.()]);
  await steps.closeDatabase();
}

export interface SignalOptions {
  /** ms after the first signal at which the process ends whatever is still running */
  timeoutMs: number;
  exit: (code: number) => void;
  log: (line: string) => void;
  signals?: NodeJS.Signals[];
}

/** Runs `shutdown` on the first signal; the second, or the timeout, exits with 1. Answers the listeners' removal. */
export function onShutdownSignals(shutdown: () => Promise<void>, opts: SignalOptions): () => void {
  let started = false;
  const handler = (signal: NodeJS.Signals) => {
    if (started) {
      opts.log(`${signal} again: stopping now.`);
      opts.exit(1);
      return;
    }
    started = true;
    opts.log(`${signal}: finishing the requests in flight, then stopping (${signal} again stops at once).`);
    const timer = setTimeout(() => {
      opts.log(`Shutdown took longer than ${Math.round(opts.timeoutMs / 1000)} s: stopping now.`);
      opts.exit(1);
    }, opts.timeoutMs);
    timer.unref();
    shutdown().then(
      () => {
        clearTimeout(timer);
        opts.exit(0);
      },
      (err: Error) => {
        clearTimeout(timer);
        opts.log(`Shutdown failed: ${err.message}`);
        opts.exit(1);
      },
    );
  };
  const signals = opts.signals ?? ['SIGTERM', 'SIGINT'];
  for (const s of signals) process.on(s, handler);
  return () => {
    for (const s of signals) process.off(s, handler);
  };
}
