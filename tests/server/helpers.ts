// Test harness for the API: the app over in-memory PGlite, and over a fresh PostgreSQL database
// (CREATE DATABASE pp_test_<random>, dropped afterwards) when TEST_DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb, type DbHandle } from '../../server/db/index';
import { buildApp, type App, type BuildAppOptions } from '../../server/app';
import { seedDemo } from '../../server/seed/index';
import type { Argon2Options } from '../../server/auth';
// a port nobody listens on (the sandbox gateway and a listening portal need real ones)
export { freePort } from '../../scripts/lib/portal';

export const FAST_ARGON2: Argon2Options = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export type Backend = 'pglite' | 'postgres';
export const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDb {
  handle: DbHandle;
  dispose(): Promise<void>;
}

export async function createTestDb(backend: Backend): Promise<TestDb> {
  if (backend === 'pglite') {
    const handle = await openDb({ pgliteDir: ':memory:' });
    return { handle, dispose: () => handle.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `pp_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDb({ databaseUrl: url.toString() });
  return {
    handle,
    async dispose() {
      await handle.close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A clock tests can move. */
export function testClock(start = notLateEvening()) {
  let now = start.getTime();
  return {
    clock: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

/**
 * Now, or four hours earlier late in the evening: with PORTAL_TODAY the business clock is a fixed day
 * at the clock's time of day, so a test that moves the clock an hour on must not cross midnight.
 */
function notLateEvening(): Date {
  const d = new Date();
  if (d.getHours() >= 20) d.setHours(d.getHours() - 4);
  return d;
}

export interface TestApp {
  app: App;
  db: TestDb;
  close(): Promise<void>;
}

export async function createTestApp(backend: Backend, opts: Partial<BuildAppOptions> = {}, seed = true): Promise<TestApp> {
  const db = await createTestDb(backend);
  const app = await buildApp({ db: db.handle.db, argon2: FAST_ARGON2, releaseVersion: '9.9.9', production: false, devRoutes: true, ...opts,
    // the sign-in slow-down runs, in milliseconds rather than seconds
    signin: { slowDownBaseMs: 5, slowDownMaxMs: 40, ...opts.signin },
  });
  if (seed) await seedDemo(db.handle.db, { root: app.deps.root, passwords: app.deps.passwords, clock: app.deps.clock });
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.dispose();
    },
  };
}

let ipCounter = 1;
/** a fresh client address, so per-IP rate limits of one test do not leak into another */
export function freshIp(): string {
  ipCounter++;
  return `10.1.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

export async function login(app: App, appName: string, email: string, password: string, ip = freshIp()) {
  const res = await app.inject({ method: 'POST', url: '/api/Authentication/login', payload: { appName, email, password }, remoteAddress: ip });
  return res;
}

export async function tokenFor(app: App, appName: string, email: string, password: string): Promise<string> {
  const res = await login(app, appName, email, password);
  if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

export const MARIA = ['brightpath', 'maria.garcia@example.com', 'Sunshine#2026'] as const;
export const DAVID = ['brightpath', 'david.garcia@example.com', 'Sunshine#2026'] as const;
export const ANA = ['brightpath', 'ana.silva@example.com', 'Sunshine#2026'] as const;
export const KAREN = ['brightpath', 'karen.johnson@example.com', 'Sunshine#2026'] as const;
export const LINH = ['northridge', 'linh.nguyen@example.ca', 'Maple#Leaf2026'] as const;

