// The job queue's SQL over the `jobs` table: enqueue by (name, key), claim with FOR UPDATE SKIP LOCKED
// under a lease, finish, retry or bury, release, renew. Every time comes from the caller's clock, so
// tests move time instead of waiting; instances' clocks must agree to well within a lease (NTP).
import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/index';
import { jobs } from '../db/schema';

export type JobRow = typeof jobs.$inferSelect;

export interface EnqueueOptions {
  /** when it may run (default: now) */
  runAt?: Date;
  /** its idempotency key: (name, key) is one job whatever the number of enqueues (default: a fresh key) */
  key?: string;
}

/** Adds a job unless one of that name and key exists; answers the job's id and whether this call added it. */
export async function enqueueJob(db: Db, now: Date, name: string, payload: unknown, opts: EnqueueOptions = {}): Promise<{ id: number; created: boolean }> {
  const key = opts.key ?? `${now.getTime()}-${crypto.randomUUID()}`;
  const [added] = await db
    .insert(jobs)
    .values({ name, key, payload: payload ?? {}, runAt: opts.runAt ?? now, createdAt: now })
    .onConflictDoNothing({ target: [jobs.name, jobs.key] })
    .returning({ id: jobs.id });
  if (added) return { id: added.id, created: true };
  const [existing] = await db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.name, name), eq(jobs.key, key)));
  return { id: existing.id, created: false };
}

/**
 * Claims up to `limit` jobs of the given names that are due, or whose runner's lease has ended (it
 * died or hung): one UPDATE whose rows were locked with SKIP LOCKED, so two runners never claim one
 * job. A claim is an attempt, so a job that kills its runner every time ends dead too.
 */
export async function claimJobs(db: Db, now: Date, by: string, names: string[], leaseMs: number, limit: number): Promise<JobRow[]> {
  if (!names.length || limit < 1) return [];
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.name, names),
        or(and(eq(jobs.state, 'pending'), lte(jobs.runAt, now)), and(eq(jobs.state, 'running'), lt(jobs.leaseUntil, now))),
      ),
    )
    .orderBy(asc(jobs.runAt), asc(jobs.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(jobs)
    .set({ state: 'running', lockedBy: by, leaseUntil: new Date(now.getTime() + leaseMs), attempts: sql`${jobs.attempts} + 1` })
    .where(inArray(jobs.id, due))
    .returning();
  return claimed.sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
}

/** Conditions on the claim: a runner whose lease another took over changes nothing. */
const held = (id: number, by: string) => and(eq(jobs.id, id), eq(jobs.state, 'running'), eq(jobs.lockedBy, by));

/** The job ran: done. Answers false when this runner no longer held it (its lease had ended). */
export async function completeJob(db: Db, now: Date, id: number, by: string): Promise<boolean> {
  const rows = await db.update(jobs).set({ state: 'done', finishedAt: now, lockedBy: null, leaseUntil: null, lastError: null }).where(held(id, by)).returning({ id: jobs.id });
  return rows.length > 0;
}

/** The job failed: pending again at `retryAt`, or dead (kept, with its error) when retryAt is null. */
export async function failJob(db: Db, now: Date, id: number, by: string, error: string, retryAt: Date | null): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set(
      retryAt
        ? { state: 'pending', runAt: retryAt, lockedBy: null, leaseUntil: null, lastError: error }
        : { state: 'dead', finishedAt: now, lockedBy: null, leaseUntil: null, lastError: error },
    )
    .where(held(id, by))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Claimed but not started (a stopping runner): back to pending, the claim not counted among its attempts. */
export async function releaseJobs(db: Db, ids: number[], by: string): Promise<number> {
  if (!ids.length) return 0;
  const rows = await db
    .update(jobs)
    .set({ state: 'pending', lockedBy: null, leaseUntil: null, attempts: sql`greatest(${jobs.attempts} - 1, 0)` })
    .where(and(inArray(jobs.id, ids), eq(jobs.state, 'running'), eq(jobs.lockedBy, by)))
    .returning({ id: jobs.id });
  return rows.length;
}

/** Extends the leases of these jobs that this runner still holds (a long job keeps it); answers their ids. */
export async function renewLeases(db: Db, now: Date, by: string, ids: number[], leaseMs: number): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .update(jobs)
    .set({ leaseUntil: new Date(now.getTime() + leaseMs) })
    .where(and(inArray(jobs.id, ids), eq(jobs.state, 'running'), eq(jobs.lockedBy, by)))
    .returning({ id: jobs.id });
  return rows.map((r) => r.id);
}

/**
 * Forgets finished runs of recurring jobs (`names`): done ones after `doneMs`, dead ones after
 * `deadMs`. A one-off job's row stays: it is what makes its key run once.
 */
export async function pruneJobs(db: Db, now: Date, names: string[], doneMs: number, deadMs: number): Promise<number> {
  if (!names.length) return 0;
  const rows = await db
    .delete(jobs)
    .where(
      and(
        inArray(jobs.name, names),
        or(
          and(eq(jobs.state, 'done'), lt(jobs.finishedAt, new Date(now.getTime() - doneMs))),
          and(eq(jobs.state, 'dead'), lt(jobs.finishedAt, new Date(now.getTime() - deadMs))),
        ),
      ),
    )
    .returning({ id: jobs.id });
  return rows.length;
}
