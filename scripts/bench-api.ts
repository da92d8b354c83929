// API under load: fixed rates of 100, 300 and 500 requests/s arriving at random moments
// (scripts/lib/pacedLoad.ts, 127.0.0.1 only; latency from each request's due time) on two
// authenticated reads (Customer.parent, Billing.accountSummary, alternating) and on /version, against
// the built server on PostgreSQL and on the embedded database (PGlite), with a bare Fastify
// answering the same rates in the same run as the ceiling. Prints p50 and p99 and the ratio of p99
// to the ceiling's. The load generator shares the machine's cores with the server.
//   npm run bench:api                 PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL (skipped without)
//   BENCH_SECONDS=10 BENCH_RATES=100,300,500,800 npm run bench:api
//   BENCH_BACKENDS=postgresql npm run bench:api       one backend only (postgresql or pglite)
import { spawn } from 'node:child_process';
import { freePort, startPortal, stopper, waitFor, type Running } from './lib/portal';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pacedLoad, type PacedRequest } from './lib/pacedLoad';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS || 6);
const RATES = (process.env.BENCH_RATES || '100,300,500').split(',').map(Number);
const ADMIN_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || '';
const EMAIL = process.env.BENCH_EMAIL ?? 'maria.garcia@example.com';
const PASSWORD = process.env.BENCH_PASSWORD ?? 'Sunshine#2026';
const APP = process.env.BENCH_APP ?? 'brightpath';
const BACKENDS = (process.env.BENCH_BACKENDS || 'postgresql,pglite').toLowerCase().split(',');

/** A bare Fastify answering the same paths with a fixed small JSON: the machine's ceiling. */
async function startBare(): Promise<Running> {
  const port = await freePort();
  const code = `
    const app = require('fastify')();
    const body = { accountID: 1, firstName: 'Maria', lastName: 'Garcia', version: '1.0.0' };
    app.get('/api/*', async () => body);
    app.listen({ port: ${port}, host: '127.0.0.1' });`;
  let output = '';
  const child = spawn(process.execPath, ['-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/ping`, child, () => output);
  return { url, stop: stopper(child) };
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/Authentication/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ appName: APP, email: EMAIL, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

interface Row {
  target: string;
  what: string;
  rate: number;
  p50: number;
  p99: number;
  rps: number;
  max: number;
  errors: number;
}

function load(url: string, rate: number, requests: PacedRequest[]): Promise<Omit<Row, 'target' | 'what'>> {
  return pacedLoad(url, rate, SECONDS, requests);
}

const READS = ['/api/Customer/parent', '/api/Billing/account-summary'];
const VERSION = '/api/Customer/version?sourceApp=parentportal';

async function benchPortal(target: string, server: Running, rows: Row[]) {
  const token = await signIn(server.url);
  const auth = { authorization: `Bearer ${token}` };
  // warm-up: connections, caches and the JIT
  await load(server.url, 100, READS.map((p) => ({ path: p, headers: auth })));
  for (const rate of RATES) {
    rows.push({ target, what: 'authenticated reads', ...(await load(server.url, rate, READS.map((p) => ({ path: p, headers: auth })))) });
    rows.push({ target, what: '/version', ...(await load(server.url, rate, [{ path: VERSION }])) });
  }
}

const rows: Row[] = [];
const ceiling = new Map<number, Row>();

const bare = await startBare();
try {
  await load(bare.url, 100, [{ path: '/api/ping' }]);
  for (const rate of RATES) {
    const row: Row = { target: 'bare Fastify', what: 'fixed JSON', ...(await load(bare.url, rate, [{ path: '/api/ping' }])) };
    rows.push(row);
    ceiling.set(rate, row);
  }
} finally {
  await bare.stop();
}

if (!BACKENDS.includes('postgresql')) {
  // not asked for
} else if (ADMIN_URL) {
  const name = `pp_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${name}`;
  const server = await startPortal({ DATABASE_URL: dbUrl.toString() }, async () => {
    const c = new pg.Client({ connectionString: ADMIN_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  try {
    await benchPortal('PostgreSQL', server, rows);
  } finally {
    await server.stop();
  }
} else {
  console.log('PostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to an admin connection');
}

if (BACKENDS.includes('pglite')) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-bench-'));
  const embedded = await startPortal({ DATABASE_URL: '', PGLITE_DIR: dataDir }, async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  try {
    await benchPortal('PGlite', embedded, rows);
  } finally {
    await embedded.stop();
  }
}

console.log(`\n${SECONDS} s per rate, ${os.cpus().length} cores shared by the load generator and the server\n`);
console.log('target        answer               rate/s  achieved/s   p50 ms   p99 ms   max ms  p99/ceiling  errors');
for (const r of rows) {
  const c = ceiling.get(r.rate);
  const ratio = c && r.target !== 'bare Fastify' ? `${(r.p99 / Math.max(c.p99, 1)).toFixed(1)}x` : '';
  console.log(
    `${r.target.padEnd(13)} ${r.what.padEnd(20)} ${String(r.rate).padStart(6)}  ${r.rps.toFixed(0).padStart(10)}  ${String(r.p50).padStart(7)}  ${String(r.p99).padStart(7)}  ${String(r.max).padStart(7)}  ${ratio.padStart(11)}  ${String(r.errors).padStart(6)}`,
  );
}
