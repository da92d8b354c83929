// What an operator and a load balancer see: /health (alive, no database), /ready (database, migrations,
// readiness checks; 503 from the first moment of a shutdown), the graceful shutdown itself, refusal with
// a translated 503 under overload, and the metrics endpoint (off unless switched on).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { BACKENDS, createTestApp, createTestDb, login, testAppOptions, MARIA, type Backend, type TestApp } from './helpers';
import { buildApp, type App } from '../../server/app';
import { openDb } from '../../server/db/index';
import { onShutdownSignals, shutDown } from '../../server/shutdown';
import { countJobRun } from '../../server/metrics';

/** Resolves when `cond` holds, checking on every turn of the event loop (fails the test after 10 s). */
async function until(cond: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe.each(BACKENDS)('health and readiness on %s', (backend: Backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, {}, false);
  });
  afterAll(async () => t?.close());

  it('/health answers that the process is alive, and nothing else', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('/ready waits for the background jobs to run', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'not ready', checks: { database: 'ok', migrations: 'ok', jobs: 'failing' } });
    t.app.jobs.start();
  });

  it('/ready answers the database, the migrations and every readiness check, by name only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', jobs: 'ok' } });
  });

  it('a failing readiness check makes /ready answer 503 with its name', async () => {
    const check = { name: 'example', check: async () => false };
    t.app.operations.readinessChecks.push(check);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.example).toBe('failing');
      expect(res.json().checks.database).toBe('ok');
    } finally {
      t.app.operations.readinessChecks.splice(t.app.operations.readinessChecks.indexOf(check), 1);
    }
  });

  it('/health and /ready are not limited: a load balancer asks every few seconds from one address', async () => {
    for (let i = 0; i < 150; i++) {
      const res = await t.app.inject({ method: 'GET', url: i % 2 ? '/health' : '/ready', remoteAddress: '10.9.9.9' });
      expect(res.statusCode).toBe(200);
    }
  });

  it('a database missing a migration this code knows is not ready', async () => {
    const own = await createTestApp(backend, {}, false);
    own.app.jobs.start();
    try {
      // one in the middle: the newest applied is still the newest the code knows
      await own.db.handle.db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = ${1795900100000}`);
      const res = await own.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toMatchObject({ database: 'ok', migrations: 'failing' });
    } finally {
      await own.close();
    }
  });

  it('without its database, the process is alive but not ready', async () => {
    const db = await createTestDb(backend);
    // a connection of its own, closed under the app (PostgreSQL: a pool of its own)
    const lost = db.url ? await openDb({ databaseUrl: db.url }) : await openDb({ pgliteDir: ':memory:' });
    const app = await buildApp(testAppOptions(lost, {}));
    app.jobs.start();
    try {
      await lost.close();
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      const res = await app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toMatchObject({ database: 'failing' });
      // no error text, no address, no secret
      expect(res.body).not.toMatch(/postgres:|error|pool/i);
    } finally {
      await app.close();
      await db.dispose();
    }
  });
});

describe('graceful shutdown', () => {
  it('/ready answers 503 at once, the request in flight finishes, then the database closes', async () => {
    const t = await createTestApp('pglite', {}, false);
    let release!: () => void;
    let entered = false;
    const gate = new Promise<void>((r) => (release = r));
    t.app.get('/test-slow', async () => {
      entered = true;
      await gate;
      return { done: true };
    });
    const steps: string[] = [];
    const inFlight = t.app.inject({ method: 'GET', url: '/test-slow' });
    await until(() => entered, 'the slow request to start');
    const stopping = shutDown({
      app: t.app,
      stopJobs: () => void steps.push('jobs stopped'),
      closeDatabase: async () => {
        steps.push('database closed');
        await t.db.dispose();
      },
      // the load balancer's checks see /ready answer 503 before the listener closes
      drainDelayMs: 50,
    });
    expect(t.app.operations.draining).toBe(true);
    const ready = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'shutting down' });
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect(steps).toEqual([]);
    release();
    const res = await inFlight;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ done: true });
    await stopping;
    expect(steps).toEqual(['jobs stopped', 'database closed']);
  });

  it('SIGTERM shuts down; a second signal, or the timeout, exits at once', async () => {
    const exits: number[] = [];
    const lines: string[] = [];
    let finish!: () => void;
    const shutdown = () => new Promise<void>((r) => (finish = r));
    const off = onShutdownSignals(shutdown, { timeoutMs: 60_000, exit: (c) => void exits.push(c), log: (l) => void lines.push(l), signals: ['SIGUSR2'] });
    try {
      process.emit('SIGUSR2', 'SIGUSR2');
      expect(exits).toEqual([]);
      process.emit('SIGUSR2', 'SIGUSR2');
      expect(exits).toEqual([1]);
      finish();
      await until(() => exits.length === 2, 'the shutdown to end');
      expect(exits).toEqual([1, 0]);
    } finally {
      off();
    }
    const timedOut: number[] = [];
    const off2 = onShutdownSignals(() => new Promise(() => {}), { timeoutMs: 20, exit: (c) => void timedOut.push(c), log: () => {}, signals: ['SIGUSR2'] });
    try {
      process.emit('SIGUSR2', 'SIGUSR2');
      await until(() => timedOut.length > 0, 'the shutdown timeout');
      expect(timedOut).toEqual([1]);
    } finally {
      off2();
    }
  });
});

describe('refusal under overload', () => {
  it('a process over its heap limit answers 503 with a translated body and Retry-After; /health still answers', async () => {
    const t = await createTestApp('pglite', { underPressure: { maxHeapUsedBytes: 1, sampleInterval: 10, retryAfter: 7 } }, false);
    try {
      const app = t.app as App & { isUnderPressure(): boolean };
      await app.ready();
      await until(() => app.isUnderPressure(), 'the heap sample');
      const res = await login(app, ...MARIA);
      expect(res.statusCode).toBe(503);
      const pt = await app.inject({ method: 'POST', url: '/api/Authentication/login', headers: { 'accept-language': 'pt' }, payload: { appName: MARIA[0], email: MARIA[1], password: MARIA[2] } });
      expect(pt.statusCode).toBe(503);
      expect(pt.headers['retry-after']).toBe('7');
      expect(pt.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: app.deps.t('pt', 'errors.overloaded'), key: 'server.errors.overloaded' });
      expect(pt.json().message).not.toBe(res.json().message);
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('an event loop held up longer than maxEventLoopDelay answers 503', async () => {
    const t = await createTestApp('pglite', { underPressure: { maxEventLoopDelay: 1, sampleInterval: 10 } }, false);
    // keeps the event loop busy 30 ms of every turn while the request is sent
    const busy = setInterval(() => {
      const end = Date.now() + 30;
      while (Date.now() < end);
    }, 1);
    try {
      const app = t.app as App & { isUnderPressure(): boolean };
      await app.ready();
      await until(() => app.isUnderPressure(), 'the event loop sample');
      const res = await login(app, ...MARIA);
      expect(res.statusCode).toBe(503);
      expect(res.json().key).toBe('server.errors.overloaded');
    } finally {
      clearInterval(busy);
      await t.close();
    }
  });

  it('without the setting nothing is refused', async () => {
    const t = await createTestApp('pglite', {}, false);
    try {
      expect(t.app.hasDecorator('isUnderPressure')).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('metrics', () => {
  it('are off by default', async () => {
    const t = await createTestApp('pglite', {}, false);
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('when on: requests by operation and status, latency per operation, job runs and failures, in Prometheus text', async () => {
    const t = await createTestApp('pglite', { metrics: true });
    try {
      expect((await login(t.app, MARIA[0], MARIA[1], 'Wrong#Guess1x')).statusCode).toBe(401);
      expect((await login(t.app, ...MARIA)).statusCode).toBe(200);
      countJobRun('example-job');
      countJobRun('example-job', true);
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = res.body;
      expect(text).toMatch(/^portal_http_requests_total\{operation="Authentication.login",status="401"\} 1$/m);
      expect(text).toMatch(/^portal_http_requests_total\{operation="Authentication.login",status="200"\} 1$/m);
      expect(text).toMatch(/^portal_http_request_duration_seconds_count\{operation="Authentication.login"\} 2$/m);
      expect(text).toMatch(/^portal_http_request_duration_seconds_bucket\{le="\+Inf",operation="Authentication.login"\} 2$/m);
      expect(text).toMatch(/^portal_job_runs_total\{job="example-job"\} 2$/m);
      expect(text).toMatch(/^portal_job_failures_total\{job="example-job"\} 1$/m);
      expect(text).toMatch(/^portal_process_cpu_seconds_total /m);
    } finally {
      await t.close();
    }
  });

  it('with a token: only a scraper that sends it', async () => {
    const t = await createTestApp('pglite', { metrics: { token: 's3cret-metrics-token' } }, false);
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer s3cret-metrics-token' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('portal_http_requests_total');
    } finally {
      await t.close();
    }
  });
});

describe('the database pool in the metrics', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)('shows the PostgreSQL pool (TEST_DATABASE_URL)', async () => {
    const db = await createTestDb('postgres');
    const app = await buildApp(testAppOptions(db.handle, { metrics: true, poolStats: db.handle.poolStats }));
    try {
      const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(text).toMatch(/^portal_db_pool_connections\{state="max"\} 10$/m);
      expect(text).toMatch(/^portal_db_pool_connections\{state="total"\} \d+$/m);
    } finally {
      await app.close();
      await db.dispose();
    }
  });
});
