// The job runner: each instance polls the `jobs` table, schedules the next run of every recurring job
// (one row per slot, by key), claims due jobs under a lease, runs them (one at a time per kind, the
// kinds side by side, so a slow reconcile never holds up the mail) and records the outcome: done,
// pending again after an exponential backoff, or dead after the kind's last attempt.
// Correct with one instance or ten, on PostgreSQL and on PGlite (the same SQL; PGlite is one process).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../db/index';
import type { Clock } from '../clock';
import { claimJobs, completeJob, enqueueJob, failJob, releaseJobs, renewLeases, type EnqueueOptions, type JobRow } from './queue';
import { nextSlot, type Schedule } from './schedule';
import { countJobRun } from '../metrics';
import { errorMessage } from '../json';

export interface JobContext {
  job: JobRow;
  /** aborted when the runner lost the job's lease (another runner may be running it) */
  signal: AbortSignal;
}

export interface JobKind<P = unknown> {
  name: string;
  /** must be idempotent: a job can run again after a crash between its effect and being marked done */
  run(payload: P, ctx: JobContext): Promise<void>;
  /** attempts before it is dead (default 5) */
  maxAttempts?: number;
  /** the first retry's delay; each next one doubles, up to an hour (default 10 s) */
  backoffMs?: number;
  /** a recurring job: the runner keeps its next run scheduled */
  schedule?: Schedule;
}

export interface JobLog {
  info?: (o: unknown, m: string) => void;
  warn: (o: unknown, m: string) => void;
  error: (o: unknown, m: string) => void;
}

export interface JobRunnerOptions {
  clock: Clock;
  log?: JobLog;
  /** this runner's name in locked_by (default host, process id and a random part) */
  id?: string;
  /** how often it looks for due jobs (1 s) */
  pollMs?: number;
  /** a claim's length; renewed every third of it while the runner holds the job (60 s) */
  leaseMs?: number;
  /** jobs claimed at once (5) */
  batch?: number;
}

export const MAX_BACKOFF_MS = 60 * 60_000;

/** The delay before the retry that follows attempt `attempts` (1, 2, …). */
export function backoffDelay(baseMs: number, attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

export class JobRunner {
  readonly id: string;
  // run is a method, so a kind of any payload fits JobKind (the payload is the one it enqueued)
  private readonly kinds = new Map<string, JobKind>();
  private readonly clock: Clock;
  private readonly log?: JobLog;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly batch: number;
  private timer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private running = false;
  private stopping = false;
  private ticking: Promise<number> | undefined;
  /** claimed by this runner and not started yet (released on stop) */
  private waiting = new Set<number>();
  /** the jobs running here, one per kind at most */
  private current = new Map<number, AbortController>();
  /** the slot each recurring job was last scheduled for here (saves an INSERT per poll) */
  private scheduled = new Map<string, number>();
  private lastTick: Date | null = null;

  constructor(
    private readonly db: Db,
    opts: JobRunnerOptions,
  ) {
    this.clock = opts.clock;
    this.log = opts.log;
    this.pollMs = opts.pollMs ?? 1000;
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.batch = opts.batch ?? 5;
    this.id = opts.id ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  }

  register<P>(kind: JobKind<P>): this {
    if (this.kinds.has(kind.name)) throw new Error(`job ${kind.name} registered twice`);
    // a bad schedule stops the start rather than every pass
    if (kind.schedule) nextSlot(kind.schedule, this.clock());
    this.kinds.set(kind.name, kind);
    return this;
  }

  /** The recurring kinds' names. */
  recurring(): string[] {
    return [...this.kinds.values()].filter((k) => k.schedule).map((k) => k.name);
  }

  /** A one-off job; the same name and key twice is one job. */
  enqueue(name: string, payload: unknown = {}, opts: EnqueueOptions = {}): Promise<{ id: number; created: boolean }> {
    if (!this.kinds.has(name)) throw new Error(`job ${name} is not registered`);
    return enqueueJob(this.db, this.clock(), name, payload, opts);
  }

  /** Looks for due jobs every pollMs until stop(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    const loop = () => {
      if (!this.running) return;
      void this.tick()
        .catch((err) => this.log?.error({ err }, 'jobs: a runner pass failed'))
        .finally(() => {
          if (this.running) {
            this.timer = setTimeout(loop, this.pollMs);
            this.timer.unref();
          }
        });
    };
    loop();
    this.renewTimer = setInterval(() => void this.renew().catch((err) => this.log?.error({ err }, 'jobs: renewing leases failed')), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.renewTimer.unref();
  }

  isRunning(): boolean {
    return this.running;
  }

  /** When the last pass over the queue ended (null before the first): a readiness check can read it. */
  lastTickAt(): Date | null {
    return this.lastTick;
  }

  /** Stops claiming, lets the job in hand finish, gives back the jobs claimed but not started. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking?.catch(() => undefined);
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.stopping = false;
  }

  /** Extends the leases this runner holds (also on a timer while it runs). */
  async renew(): Promise<number> {
    const running = [...this.current.keys()];
    if (!running.length && !this.waiting.size) return 0;
    const kept = await renewLeases(this.db, this.clock(), this.id, [...running, ...this.waiting], this.leaseMs);
    // another runner took it over (this process stalled past the lease): this one should stop
    for (const id of running) {
      if (kept.includes(id)) continue;
      this.log?.warn({ job: id }, 'jobs: the lease of a running job was lost');
      this.current.get(id)?.abort(new Error('lease lost'));
    }
    return kept.length;
  }

  /** One pass: schedules recurring jobs, then claims and runs due jobs until none is due. Answers how many ran. */
  tick(): Promise<number> {
    if (!this.ticking) this.ticking = this.pass().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async pass(): Promise<number> {
    await this.scheduleRecurring();
    let ran = 0;
    try {
      // one lane per kind: each claims and runs its own due jobs until none is due
      const lanes = [...this.kinds.values()].map(async (kind) => {
        while (!this.stopping) {
          const claimed = await claimJobs(this.db, this.clock(), this.id, [kind.name], this.leaseMs, this.batch);
          if (!claimed.length) break;
          for (const job of claimed) this.waiting.add(job.id);
          for (const job of claimed) {
            if (this.stopping) break;
            this.waiting.delete(job.id);
            await this.runOne(job, kind);
            ran++;
          }
        }
      });
      const failed = (await Promise.allSettled(lanes)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    } finally {
      // claimed and not started (stopping, or the database failed mid-pass): given back at once
      if (this.waiting.size) {
        const ids = [...this.waiting];
        this.waiting.clear();
        await releaseJobs(this.db, ids, this.id).catch((err) => this.log?.error({ err }, 'jobs: giving back claimed jobs failed (their lease will end)'));
      }
    }
    this.lastTick = this.clock();
    return ran;
  }

  private async scheduleRecurring(): Promise<void> {
    const now = this.clock();
    for (const kind of this.kinds.values()) {
      if (!kind.schedule) continue;
      const slot = nextSlot(kind.schedule, now);
      if (this.scheduled.get(kind.name) === slot.getTime()) continue;
      await enqueueJob(this.db, now, kind.name, {}, { key: slot.toISOString(), runAt: slot });
      this.scheduled.set(kind.name, slot.getTime());
    }
  }

  /** Runs a job its kind's lane claimed. */
  private async runOne(job: JobRow, kind: JobKind): Promise<void> {
    const maxAttempts = kind.maxAttempts ?? 5;
    // a job whose runners died with it every time: its attempts are used up without a result
    if (job.attempts > maxAttempts) {
      await failJob(this.db, this.clock(), job.id, this.id, job.lastError ?? 'its runner stopped before it finished', null);
      this.log?.error({ job: job.id, name: job.name, key: job.key, attempts: job.attempts - 1 }, 'jobs: a job is dead (its runner stopped every time)');
      return;
    }
    const abort = new AbortController();
    this.current.set(job.id, abort);
    try {
      await kind.run(job.payload, { job, signal: abort.signal });
      countJobRun(job.name);
      if (!(await completeJob(this.db, this.clock(), job.id, this.id))) {
        this.log?.warn({ job: job.id, name: job.name }, 'jobs: a job finished after its lease had passed to another runner');
      }
    } catch (err) {
      countJobRun(job.name, true);
      const message = errorMessage(err).slice(0, 2000);
      const dead = job.attempts >= maxAttempts;
      const now = this.clock();
      const retryAt = dead ? null : new Date(now.getTime() + backoffDelay(kind.backoffMs ?? 10_000, job.attempts));
      await failJob(this.db, now, job.id, this.id, message, retryAt);
      if (dead) this.log?.error({ err, job: job.id, name: job.name, key: job.key, attempts: job.attempts }, 'jobs: a job is dead after its last attempt');
      else this.log?.warn({ err: message, job: job.id, name: job.name, attempts: job.attempts, retryAt }, 'jobs: a job failed and will be retried');
    } finally {
      this.current.delete(job.id);
    }
  }
}
