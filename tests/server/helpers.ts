// Test harness for the API: the app over in-memory PGlite, and over a fresh PostgreSQL database
// (CREATE DATABASE pp_test_<random>, dropped afterwards) when TEST_DATABASE_URL is set.
import { fileURLToPath } from 'node:url';
import { openDb, type DbHandle } from '../../server/db/index';
import { freshDatabase } from './freshDatabase';
import { buildApp, type App, type BuildAppOptions } from '../../server/app';
import { seedDemo } from '../../server/seed/index';
import type { Argon2Options } from '../../server/auth';
import { contractOperations, readContract } from '../../server/contract';
import type { OperationId, Operations } from '../../src/engine/contract.gen';
// a port nobody listens on (the sandbox gateway and a listening portal need real ones)
export { freePort } from '../../scripts/lib/portal';

export const FAST_ARGON2: Argon2Options = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export type Backend = 'pglite' | 'postgres';
export const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDb {
  handle: DbHandle;
  /** PostgreSQL: the database's address, for more connections to it */
  url?: string;
  dispose(): Promise<void>;
}

export async function createTestDb(backend: Backend): Promise<TestDb> {
  if (backend === 'pglite') {
    const handle = await openDb({ pgliteDir: ':memory:' });
    return { handle, dispose: () => handle.close() };
  }
  const fresh = await freshDatabase();
  const handle = await openDb({ databaseUrl: fresh.url });
  return {
    handle,
    url: fresh.url,
    async dispose() {
      await handle.close();
      await fresh.drop();
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

/** The options the test apps are built with (fast argon2, a short sign-in slow-down), over a database. */
export function testAppOptions(handle: DbHandle, opts: Partial<BuildAppOptions>): BuildAppOptions {
  return { db: handle.db, argon2: FAST_ARGON2, releaseVersion: '9.9.9', production: false, devRoutes: true, ...opts,
    // the sign-in slow-down runs, in milliseconds rather than seconds
    signin: { slowDownBaseMs: 5, slowDownMaxMs: 40, ...opts.signin },
  };
}

export async function createTestApp(backend: Backend, opts: Partial<BuildAppOptions> = {}, seed = true): Promise<TestApp> {
  const db = await createTestDb(backend);
  const app = await buildApp(testAppOptions(db.handle, opts));
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

/**
 * More instances of the portal over one test database, as a provider runs behind a load balancer:
 * on PostgreSQL each with its own pool, on PGlite (one process's database) over the same one.
 */
export async function createInstances(backend: Backend, count: number, opts: Partial<BuildAppOptions> = {}): Promise<{ apps: App[]; close(): Promise<void> }> {
  const first = await createTestApp(backend, opts);
  const apps = [first.app];
  const handles: DbHandle[] = [];
  try {
    for (let i = 1; i < count; i++) {
      const handle = first.db.url ? await openDb({ databaseUrl: first.db.url }) : first.db.handle;
      if (handle !== first.db.handle) handles.push(handle);
      apps.push(await buildApp(testAppOptions(handle, opts)));
    }
  } catch (err) {
    for (const app of apps.slice(1)) await app.close();
    for (const h of handles) await h.close();
    await first.close();
    throw err;
  }
  return {
    apps,
    async close() {
      for (const app of apps.slice(1)) await app.close();
      for (const h of handles) await h.close();
      await first.close();
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


const CONTRACT = new Map(contractOperations(readContract(fileURLToPath(new URL('../..', import.meta.url)))).map((op) => [op.id, op]));

type Op<K extends OperationId> = Operations[K];
type Given<T> = [T] extends [undefined] ? never : T;

/** One call of a contract operation: its path parameters, query and body as the contract types them. */
export interface CallOptions<K extends OperationId = OperationId> {
  /** the session token, sent as `Authorization: Bearer` */
  token?: string;
  params?: Given<Op<K>['params']>;
  query?: Given<Op<K>['query']>;
  body?: Given<Op<K>['body']>;
  /** Accept-Language */
  lang?: string;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

/** What the contract says operation K answers (on success; ApiErrorBody otherwise). */
export type ResponseOf<K extends OperationId> = Op<K>['response'];

/**
 * The answer. Its JSON is untyped as inject's is (tests read error bodies and loose shapes);
 * `json<ResponseOf<K>>()` reads it as the contract types it.
 */
export type CallResponse = Omit<Awaited<ReturnType<App['inject']>>, 'json'> & { json<T = any>(): T };

/** Calls the operation `id` of the contract (schemas/api/*.api.json) on the app, by its method and path. */
export async function callOperation<K extends OperationId>(app: App, id: K, opts: CallOptions<K> = {}): Promise<CallResponse> {
  const op = CONTRACT.get(id);
  if (!op) throw new Error(`no operation ${id} in the contract`);
  const params = (opts.params ?? {}) as Record<string, string | number>;
  const path = op.url.replace(/:(\w+)/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${id}: no value for :${name}`);
    return encodeURIComponent(String(params[name]));
  });
  const query = Object.entries((opts.query ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const search = query.length ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : '';
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  if (opts.lang !== undefined) headers['accept-language'] = opts.lang;
  return (await app.inject({
    method: op.method,
    url: path + search,
    headers,
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
  })) as CallResponse;
}

type CallDefaults = Omit<CallOptions, 'params' | 'query' | 'body'>;

/**
 * A client of the contract on an app (or on the app a suite builds in beforeAll) with defaults for
 * every call (a token, a language, headers; a function is asked at each call); each call's own
 * options win.
 */
export function apiClient(app: App | (() => App), defaults: CallDefaults | (() => CallDefaults) = {}) {
  return <K extends OperationId>(id: K, opts: CallOptions<K> = {}): Promise<CallResponse> => {
    const d = typeof defaults === 'function' ? defaults() : defaults;
    return callOperation(typeof app === 'function' ? app() : app, id, { ...d, ...opts, headers: { ...d.headers, ...opts.headers } } as CallOptions<K>);
  };
}
