// The job runner (server/jobs) and the outbox's claims, on PGlite and on PostgreSQL: two runners on
// two connection pools to one database run each job once, a dead runner's job is run after its
// lease, failures back off then die, keys make enqueues idempotent, a recurring job is scheduled once,
// stop() gives claimed jobs back, and two outbox senders send each mail once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from './freshDatabase';
import nodemailer from 'nodemailer';
import { and, eq, inArray } from 'drizzle-orm';
import { openDb, type Db, type DbHandle } from '../../server/db/index';
import { jobs, outbox } from '../../server/db/schema';
import { JobRunner, backoffDelay, type JobKind } from '../../server/jobs/runner';
import { claimJobs, completeJob, enqueueJob, pruneJobs } from '../../server/jobs/queue';
import { nextSlot } from '../../server/jobs/schedule';
import { createOutboxSender, enqueueMail, OUTBOX_LEASE_MS } from '../../server/outbox';
import { BACKENDS, createTestApp, testClock, type Backend } from './helpers';

/** Two handles on one database: two pools on PostgreSQL; PGlite is one connection by nature. */
async function twoConnections(backend: Backend): Promise<{ a: Db; b: Db; dispose(): Promise<void> }> {
  if (backend === 'pglite') {
    const h = await openDb({ pgliteDir: ':memory:' });
    return { a: h.db, b: h.db, dispose: () => h.close() };
  }
  const fresh = await freshDatabase();
  const handles: DbHandle[] = [];
  handles.push(await openDb({ databaseUrl: fresh.url, poolSize: 4 }));
  handles.push(await openDb({ databaseUrl: fresh.url, poolSize: 4 }));
  return {
    a: handles[0].db,
    b: handles[1].db,
    async dispose() {
      for (const h of handles) await h.close();
      await fresh.drop();
    },
  };
}

function quietLog() {
  const errors: string[] = [];
  const warnings: string[] = [];
  return { errors, warnings, log: { warn: (_o: unknown, m: string) => void warnings.push(m), error: (_o: unknown, m: string) => void errors.push(m) } };
}

/** A promise the test settles: a job waits on it, so the test acts while the job is in hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  return { open, opened, entered, inside };
}

describe('schedules', () => {
  it('names the next slot after now, every N ms from the epoch or by a cron expression in UTC', () => {
    expect(nextSlot({ every: 30_000 }, new Date('2026-11-23T10:00:29.999Z')).toISOString()).toBe('2026-11-23T10:00:30.000Z');
    expect(nextSlot({ every: 30_000 }, new Date('2026-11-23T10:00:30.000Z')).toISOString()).toBe('2026-11-23T10:01:00.000Z');
    expect(nextSlot({ cron: '*/15 * * * *' }, new Date('2026-11-23T10:07:00Z')).toISOString()).toBe('2026-11-23T10:15:00.000Z');
    // 23 Nov 2026 is a Monday: the next weekday 06:00 after Friday evening is Monday
    expect(nextSlot({ cron: '0 6 * * 1-5' }, new Date('2026-11-27T18:00:00Z')).toISOString()).toBe('2026-11-30T06:00:00.000Z');
    expect(nextSlot({ cron: '30 2 1 * *' }, new Date('2026-11-23T00:00:00Z')).toISOString()).toBe('2026-12-01T02:30:00.000Z');
    expect(() => nextSlot({ cron: '61 * * * *' }, new Date())).toThrow(/minute/);
    expect(() => nextSlot({ cron: '* * *' }, new Date())).toThrow(/five fields/);
    expect(() => nextSlot({ every: 10 }, new Date())).toThrow();
  });

  it('backs off exponentially up to an hour', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(10_000, n))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(backoffDelay(10_000, 30)).toBe(60 * 60_000);
  });
});

describe.each(BACKENDS)('jobs on %s', (backend) => {
  let conn: { a: Db; b: Db; dispose(): Promise<void> };
  beforeAll(async () => {
    conn = await twoConnections(backend);
  });
  afterAll(async () => {
    await conn?.dispose();
  });

  const rowsOf = (name: string) => conn.a.select().from(jobs).where(eq(jobs.name, name)).orderBy(jobs.id);

  it('two runners racing for 200 jobs run each exactly once', async () => {
    const { clock } = testClock();
    const runs = new Map<string, string[]>();
    const kind = (): JobKind<{ n: number }> => ({
      name: 'race',
      async run(p, { job }) {
        await new Promise((r) => setImmediate(r));
        runs.set(String(p.n), [...(runs.get(String(p.n)) ?? []), job.lockedBy!]);
      },
    });
    const a = new JobRunner(conn.a, { clock, id: 'runner-a', batch: 5 }).register(kind());
    const b = new JobRunner(conn.b, { clock, id: 'runner-b', batch: 5 }).register(kind());
    for (let n = 0; n < 200; n++) await a.enqueue('race', { n }, { key: `job-${n}` });
    const [ranA, ranB] = await Promise.all([a.tick(), b.tick()]);
    expect(ranA + ranB).toBe(200);
    expect(ranA).toBeGreaterThan(0);
    expect(ranB).toBeGreaterThan(0);
    expect(runs.size).toBe(200);
    expect([...runs.values()].filter((r) => r.length !== 1)).toEqual([]);
    const rows = await rowsOf('race');
    expect(rows.every((r) => r.state === 'done' && r.attempts === 1 && r.lockedBy === null)).toBe(true);
  });

  it("a job whose runner died is run by another once its lease has passed, and only then", async () => {
    const c = testClock();
    const ran: number[] = [];
    const b = new JobRunner(conn.b, { clock: c.clock, id: 'runner-b', leaseMs: 60_000 }).register({ name: 'orphan', run: async (_p, { job }) => void ran.push(job.id) });
    const { id } = await enqueueJob(conn.a, c.clock(), 'orphan', {});
    // a runner claims it and dies (its process ends before it finishes)
    const [claimed] = await claimJobs(conn.a, c.clock(), 'runner-dead', ['orphan'], 60_000, 1);
    expect(claimed.id).toBe(id);
    expect(await b.tick()).toBe(0);
    c.advance(59_000);
    expect(await b.tick()).toBe(0);
    c.advance(2_000);
    expect(await b.tick()).toBe(1);
    expect(ran).toEqual([id]);
    const [row] = await rowsOf('orphan');
    expect(row).toMatchObject({ state: 'done', attempts: 2 });
    // the dead runner's late word changes nothing
    expect(await completeJob(conn.a, c.clock(), id, 'runner-dead')).toBe(false);
  });

  it('a long job keeps its lease while it runs: no other runner takes it', async () => {
    const c = testClock();
    const g = gate();
    let runs = 0;
    const long: JobKind = {
      name: 'long',
      async run() {
        runs++;
        g.entered();
        await g.opened;
      },
    };
    const a = new JobRunner(conn.a, { clock: c.clock, id: 'runner-a', leaseMs: 60_000 }).register(long);
    const b = new JobRunner(conn.b, { clock: c.clock, id: 'runner-b', leaseMs: 60_000 }).register({ ...long });
    await a.enqueue('long', {}, { key: 'the-long-one' });
    const ticking = a.tick();
    await g.inside;
    for (let i = 0; i < 3; i++) {
      c.advance(50_000);
      expect(await a.renew()).toBe(1);
      expect(await b.tick()).toBe(0);
    }
    g.open();
    expect(await ticking).toBe(1);
    expect(runs).toBe(1);
    const [row] = await rowsOf('long');
    expect(row).toMatchObject({ state: 'done', attempts: 1 });
  });

  it('a runner that stalled past its lease is told (its signal aborts) and its late finish changes nothing', async () => {
    const c = testClock();
    const g = gate();
    const { log, warnings } = quietLog();
    let aborted: AbortSignal | undefined;
    const byB: number[] = [];
    const a = new JobRunner(conn.a, { clock: c.clock, log, id: 'runner-a', leaseMs: 60_000 }).register({
      name: 'stalled',
      async run(_p, { signal }) {
        aborted = signal;
        g.entered();
        await g.opened;
      },
    });
    const b = new JobRunner(conn.b, { clock: c.clock, id: 'runner-b', leaseMs: 60_000 }).register({ name: 'stalled', run: async (_p, { job }) => void byB.push(job.id) });
    const { id } = await a.enqueue('stalled', {}, { key: 'stall' });
    const ticking = a.tick();
    await g.inside;
    // runner-a renews nothing for longer than its lease (a stalled process): runner-b takes the job
    c.advance(61_000);
    expect(await b.tick()).toBe(1);
    expect(await a.renew()).toBe(0);
    expect(aborted?.aborted).toBe(true);
    g.open();
    await ticking;
    expect(byB).toEqual([id]);
    const [row] = await rowsOf('stalled');
    expect(row).toMatchObject({ state: 'done', attempts: 2, lockedBy: null });
    expect(warnings).toEqual(['jobs: the lease of a running job was lost', 'jobs: a job finished after its lease had passed to another runner']);
  });

  it('retries a failing job with exponential backoff, then it is dead, visible and logged', async () => {
    const c = testClock();
    const { log, errors, warnings } = quietLog();
    let calls = 0;
    const r = new JobRunner(conn.a, { clock: c.clock, log, id: 'runner-a' }).register({
      name: 'flaky',
      maxAttempts: 3,
      backoffMs: 1000,
      async run() {
        calls++;
        throw new Error(`refused ${calls}`);
      },
    });
    await r.enqueue('flaky', {}, { key: 'k' });
    expect(await r.tick()).toBe(1);
    let [row] = await rowsOf('flaky');
    expect(row).toMatchObject({ state: 'pending', attempts: 1, lastError: 'refused 1', lockedBy: null });
    expect(row.runAt.getTime() - c.clock().getTime()).toBe(1000);
    c.advance(999);
    expect(await r.tick()).toBe(0);
    c.advance(1);
    expect(await r.tick()).toBe(1);
    [row] = await rowsOf('flaky');
    expect(row).toMatchObject({ state: 'pending', attempts: 2 });
    expect(row.runAt.getTime() - c.clock().getTime()).toBe(2000);
    c.advance(1999);
    expect(await r.tick()).toBe(0);
    c.advance(1);
    expect(await r.tick()).toBe(1);
    [row] = await rowsOf('flaky');
    expect(row).toMatchObject({ state: 'dead', attempts: 3, lastError: 'refused 3' });
    expect(row.finishedAt).not.toBeNull();
    expect(warnings.filter((m) => /retried/.test(m))).toHaveLength(2);
    expect(errors.filter((m) => /dead/.test(m))).toHaveLength(1);
    c.advance(24 * 60 * 60_000);
    expect(await r.tick()).toBe(0);
    expect(calls).toBe(3);
  });

  it('a job whose runner dies every time ends dead after its attempts', async () => {
    const c = testClock();
    const { log, errors } = quietLog();
    let calls = 0;
    const r = new JobRunner(conn.b, { clock: c.clock, log, id: 'runner-b', leaseMs: 1000 }).register({ name: 'killer', maxAttempts: 2, run: async () => void calls++ });
    await r.enqueue('killer', {}, { key: 'k' });
    for (let i = 0; i < 2; i++) {
      await claimJobs(conn.a, c.clock(), `runner-dead-${i}`, ['killer'], 1000, 1);
      c.advance(1001);
    }
    expect(await r.tick()).toBe(1);
    expect(calls).toBe(0);
    const [row] = await rowsOf('killer');
    expect(row.state).toBe('dead');
    expect(errors).toHaveLength(1);
  });

  it('enqueuing by the same key gives one job, and it does not run again', async () => {
    const c = testClock();
    let runs = 0;
    const r = new JobRunner(conn.a, { clock: c.clock, id: 'runner-a' }).register({ name: 'once', run: async () => void runs++ });
    const later = new Date(c.clock().getTime() + 10 * 60_000);
    const first = await r.enqueue('once', { invoice: 7 }, { key: 'invoice-7', runAt: later });
    const second = await r.enqueue('once', { invoice: 7 }, { key: 'invoice-7', runAt: later });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    expect(await r.tick()).toBe(0);
    c.advance(10 * 60_000);
    expect(await r.tick()).toBe(1);
    expect((await r.enqueue('once', { invoice: 7 }, { key: 'invoice-7' })).created).toBe(false);
    expect(await r.tick()).toBe(0);
    expect(runs).toBe(1);
    expect(await rowsOf('once')).toHaveLength(1);
    // another key is another job
    expect((await r.enqueue('once', {}, { key: 'invoice-8' })).created).toBe(true);
  });

  it('a slow job of one kind does not hold up the jobs of another: each kind has its own lane', async () => {
    const c = testClock();
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    const r = new JobRunner(conn.a, { clock: c.clock, id: 'runner-a' })
      .register({ name: 'lane.slow', run: async () => void (await slow, order.push('slow')) })
      .register({ name: 'lane.mail', run: async () => void order.push('mail') });
    await r.enqueue('lane.slow', {}, { key: 'slow-1' });
    for (let i = 0; i < 3; i++) await r.enqueue('lane.mail', {}, { key: `mail-${i}` });
    const pass = r.tick();
    // the mail runs while the slow job is still in hand, not after it
    await expect.poll(() => order.length, { timeout: 10_000 }).toBe(3);
    expect(order).toEqual(['mail', 'mail', 'mail']);
    release();
    expect(await pass).toBe(4);
    expect(order.at(-1)).toBe('slow');
  });

  it("pruning forgets a recurring job's old runs and keeps one-off jobs, whose rows make their keys run once", async () => {
    const c = testClock(new Date('2026-11-23T10:00:05Z'));
    const r = new JobRunner(conn.a, { clock: c.clock, id: 'runner-a' })
      .register({ name: 'tidy-every', schedule: { every: 60_000 }, maxAttempts: 1, run: async () => undefined })
      .register({ name: 'tidy-once', run: async () => undefined });
    await r.tick();
    await r.enqueue('tidy-once', {}, { key: 'one-off' });
    c.advance(55_000);
    expect(await r.tick()).toBe(2);
    const hour = 60 * 60_000;
    c.advance(hour + 1);
    expect(await pruneJobs(conn.a, c.clock(), r.recurring(), hour, 30 * 24 * hour)).toBe(1);
    expect((await rowsOf('tidy-every')).map((x) => x.state)).toEqual(['pending']);
    expect((await rowsOf('tidy-once')).map((x) => [x.key, x.state])).toEqual([['one-off', 'done']]);
  });

  it('two runners schedule a recurring job once per slot and run it once', async () => {
    const c = testClock(new Date('2026-11-23T10:00:05Z'));
    let runs = 0;
    const kind = (): JobKind => ({ name: 'every-minute', schedule: { every: 60_000 }, maxAttempts: 1, run: async () => void runs++ });
    const a = new JobRunner(conn.a, { clock: c.clock, id: 'runner-a' }).register(kind());
    const b = new JobRunner(conn.b, { clock: c.clock, id: 'runner-b' }).register(kind());
    await Promise.all([a.tick(), b.tick()]);
    let rows = await rowsOf('every-minute');
    expect(rows.map((r) => [r.key, r.state])).toEqual([['2026-11-23T10:01:00.000Z', 'pending']]);
    c.advance(55_000);
    const [ranA, ranB] = await Promise.all([a.tick(), b.tick()]);
    expect(ranA + ranB).toBe(1);
    expect(runs).toBe(1);
    await Promise.all([a.tick(), b.tick()]);
    rows = await rowsOf('every-minute');
    expect(rows.map((r) => [r.key, r.state])).toEqual([
      ['2026-11-23T10:01:00.000Z', 'done'],
      ['2026-11-23T10:02:00.000Z', 'pending'],
    ]);
    expect(runs).toBe(1);
  });

  it('stop() lets the job in hand finish and gives back the jobs claimed but not started', async () => {
    const c = testClock();
    const g = gate();
    const done: string[] = [];
    const r = new JobRunner(conn.a, { clock: c.clock, id: 'runner-a', batch: 3 }).register({
      name: 'stopping',
      async run(_p, { job }) {
        g.entered();
        await g.opened;
        done.push(job.key);
      },
    });
    for (const k of ['1', '2', '3']) await r.enqueue('stopping', {}, { key: k, runAt: new Date(c.clock().getTime() - 10 + Number(k)) });
    r.start();
    expect(r.isRunning()).toBe(true);
    await g.inside;
    const stopped = r.stop();
    expect(r.isRunning()).toBe(false);
    g.open();
    await stopped;
    expect(done).toEqual(['1']);
    const rows = await rowsOf('stopping');
    expect(rows.map((x) => [x.key, x.state, x.attempts, x.lockedBy])).toEqual([
      ['1', 'done', 1, null],
      ['2', 'pending', 0, null],
      ['3', 'pending', 0, null],
    ]);
    expect(r.lastTickAt()).not.toBeNull();
  });

  describe('the outbox', () => {
    /** A nodemailer transport that records every message it is given, after a turn of the event loop. */
    function countingTransport(sent: string[], fail?: (to: string) => boolean) {
      return nodemailer.createTransport({
        name: 'counting',
        version: '1',
        send(mail: { data: { to?: unknown; subject?: unknown } }, done: (err: Error | null, info?: unknown) => void) {
          setImmediate(() => {
            const to = String(mail.data.to);
            if (fail?.(to)) return done(new Error(`mailbox ${to} unavailable`));
            sent.push(String(mail.data.subject));
            done(null, { envelope: { from: 'x', to: [to] }, messageId: `<${sent.length}@test>` });
          });
        },
      } as never);
    }

    it('two senders racing send each pending mail exactly once', async () => {
      const c = testClock();
      const sent: string[] = [];
      const log = quietLog().log;
      for (let i = 0; i < 120; i++) {
        await enqueueMail(conn.a, c.clock, { providerId: null, kind: 'race', to: `p${i}@example.com`, from: 'portal@example.com', subject: `race ${i}`, text: 'Once.' });
      }
      const a = createOutboxSender(conn.a, c.clock, countingTransport(sent), log, { id: 'sender-a' });
      const b = createOutboxSender(conn.b, c.clock, countingTransport(sent), log, { id: 'sender-b' });
      const [sentA, sentB] = await Promise.all([a.flush(), b.flush()]);
      expect(sentA + sentB).toBe(120);
      expect(sent).toHaveLength(120);
      expect(new Set(sent).size).toBe(120);
      const rows = await conn.a.select().from(outbox).where(eq(outbox.kind, 'race'));
      expect(rows.every((r) => r.sentAt && r.attempts === 1 && r.claimedBy === null)).toBe(true);
      expect(await Promise.all([a.flush(), b.flush()])).toEqual([0, 0]);
      await a.stop();
      await b.stop();
    });

    it("a mail claimed by a sender that died is sent by another after the claim's end", async () => {
      const c = testClock();
      const sent: string[] = [];
      const id = await enqueueMail(conn.a, c.clock, { providerId: null, kind: 'orphan', to: 'o@example.com', from: 'portal@example.com', subject: 'orphan mail', text: 'x' });
      await conn.a.update(outbox).set({ claimedBy: 'sender-dead', leaseUntil: new Date(c.clock().getTime() + OUTBOX_LEASE_MS) }).where(eq(outbox.id, id));
      const b = createOutboxSender(conn.b, c.clock, countingTransport(sent), quietLog().log, { id: 'sender-b' });
      expect(await b.flush()).toBe(0);
      c.advance(OUTBOX_LEASE_MS + 1);
      expect(await b.flush()).toBe(1);
      expect(sent).toEqual(['orphan mail']);
      await b.stop();
    });

    it('a mail whose SMTP server is slow keeps its claim while it is being sent', async () => {
      const c = testClock();
      const sent: string[] = [];
      const g = gate();
      const id = await enqueueMail(conn.a, c.clock, { providerId: null, kind: 'slow', to: 's@example.com', from: 'portal@example.com', subject: 'slow mail', text: 'x' });
      const slow = nodemailer.createTransport({
        name: 'slow',
        version: '1',
        send(mail: { data: { subject?: unknown } }, done: (err: Error | null, info?: unknown) => void) {
          g.entered();
          void g.opened.then(() => {
            sent.push(String(mail.data.subject));
            done(null, { envelope: { from: 'x', to: ['s@example.com'] }, messageId: '<slow@test>' });
          });
        },
      } as never);
      const leaseMs = 300;
      const a = createOutboxSender(conn.a, c.clock, slow, quietLog().log, { id: 'sender-a', leaseMs });
      const b = createOutboxSender(conn.b, c.clock, countingTransport(sent), quietLog().log, { id: 'sender-b', leaseMs });
      const sending = a.flush();
      await g.inside;
      const leaseOf = async () => (await conn.a.select().from(outbox).where(eq(outbox.id, id)))[0].leaseUntil!.getTime();
      const first = await leaseOf();
      c.advance(leaseMs - 50);
      // the sender renews its claim on its own while the SMTP server has not answered
      await expect.poll(leaseOf, { timeout: 5000, interval: 20 }).toBeGreaterThan(first);
      c.advance(100);
      expect(c.clock().getTime()).toBeGreaterThan(first);
      expect(await b.flush()).toBe(0);
      g.open();
      expect(await sending).toBe(1);
      expect(sent).toEqual(['slow mail']);
      await a.stop();
      await b.stop();
    });

    it('a stopping sender finishes the mail in hand and gives back the others it claimed', async () => {
      const c = testClock();
      const g = gate();
      const sent: string[] = [];
      const ids: number[] = [];
      for (const n of [1, 2, 3]) ids.push(await enqueueMail(conn.a, c.clock, { providerId: null, kind: 'stop', to: `s${n}@example.com`, from: 'portal@example.com', subject: `stop ${n}`, text: 'x' }));
      const held = nodemailer.createTransport({
        name: 'held',
        version: '1',
        send(mail: { data: { subject?: unknown } }, done: (err: Error | null, info?: unknown) => void) {
          g.entered();
          void g.opened.then(() => {
            sent.push(String(mail.data.subject));
            done(null, { envelope: { from: 'x', to: ['s@example.com'] }, messageId: `<${sent.length}@held>` });
          });
        },
      } as never);
      // one mail at a time: the first is in hand, the two others are claimed and not started
      const s = createOutboxSender(conn.a, c.clock, held, quietLog().log, { id: 'sender-a', connections: 1 });
      const sending = s.flush();
      await g.inside;
      const stopped = s.stop();
      g.open();
      await stopped;
      expect(await sending).toBe(1);
      expect(sent).toEqual(['stop 1']);
      const rows = await conn.a.select().from(outbox).where(inArray(outbox.id, ids)).orderBy(outbox.id);
      expect(rows.map((r) => [Boolean(r.sentAt), r.claimedBy, r.leaseUntil, r.attempts])).toEqual([
        [true, null, null, 1],
        [false, null, null, 0],
        [false, null, null, 0],
      ]);
      // the other tests' senders would send them
      await conn.a.delete(outbox).where(inArray(outbox.id, ids));
    });

    it('a mail the SMTP server refuses is tried again later, with backoff, five times at most', async () => {
      const c = testClock();
      const sent: string[] = [];
      const { log, errors } = quietLog();
      const id = await enqueueMail(conn.a, c.clock, { providerId: null, kind: 'refused', to: 'full@example.com', from: 'portal@example.com', subject: 'refused mail', text: 'x' });
      const s = createOutboxSender(conn.a, c.clock, countingTransport(sent, (to) => to === 'full@example.com'), log, { id: 'sender-a' });
      const waits: number[] = [];
      for (let attempt = 1; attempt <= 5; attempt++) {
        expect(await s.flush()).toBe(0);
        const [row] = await conn.a.select().from(outbox).where(eq(outbox.id, id));
        expect(row).toMatchObject({ attempts: attempt, claimedBy: null, lastError: 'mailbox full@example.com unavailable' });
        waits.push(row.leaseUntil!.getTime() - c.clock().getTime());
        // not before its time
        expect(await s.flush()).toBe(0);
        expect((await conn.a.select().from(outbox).where(eq(outbox.id, id)))[0].attempts).toBe(attempt);
        c.advance(waits.at(-1)! + 1);
      }
      expect(waits).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
      expect(await s.flush()).toBe(0);
      expect((await conn.a.select().from(outbox).where(eq(outbox.id, id)))[0].attempts).toBe(5);
      expect(errors).toHaveLength(5);
      expect(sent).toEqual([]);
      await s.stop();
    });
  });
});

describe.each(BACKENDS)('the portal jobs on %s', (backend) => {
  it('the hold sweeper, the reconciler (PAYMENT_RECONCILE_EVERY_SECONDS) and the outbox run as jobs', async () => {
    const c = testClock(new Date('2026-11-23T10:00:01Z'));
    const t = await createTestApp(backend, { clock: c.clock, smtpUrl: 'smtp://127.0.0.1:9', reconcile: { everyMs: 5000 } });
    try {
      const names = ['outbox.send', 'holds.sweep', 'payments.reconcile', 'jobs.prune'];
      await t.app.jobs.tick();
      const scheduled = await t.db.handle.db.select().from(jobs).where(inArray(jobs.name, names));
      expect(Object.fromEntries(scheduled.map((r) => [r.name, r.key]))).toEqual({
        'outbox.send': '2026-11-23T10:00:05.000Z',
        'holds.sweep': '2026-11-23T10:00:30.000Z',
        'payments.reconcile': '2026-11-23T10:00:05.000Z',
        'jobs.prune': '2026-11-23T11:00:00.000Z',
      });
      c.advance(4000);
      // nothing is pending in the outbox: the send job and the reconciler run and are done
      expect(await t.app.jobs.tick()).toBe(2);
      c.advance(25_000);
      expect(await t.app.jobs.tick()).toBeGreaterThanOrEqual(1);
      const done = await t.db.handle.db.select().from(jobs).where(and(inArray(jobs.name, names), eq(jobs.state, 'done')));
      expect(new Set(done.map((r) => r.name))).toEqual(new Set(['outbox.send', 'holds.sweep', 'payments.reconcile']));
      expect(await t.db.handle.db.select().from(jobs).where(eq(jobs.state, 'dead'))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
