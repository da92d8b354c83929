// Starts the server: database (PGlite in .data/pglite, or PostgreSQL with DATABASE_URL), migrations,
// demo data on an empty database, then the API and the built portal on HOST:PORT.
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { openDb } from './db/index';
import { buildApp, ROOT, trustProxySetting } from './app';
import { isEmptyDatabase, seedDemo, DEMO_SIGNINS } from './seed/index';
import { systemClock } from './clock';
import { gatewaysFromEnv, type GatewaysFromEnv } from './gateways/fromEnv';
import { DEFAULT_HOST, defaultPublicUrl, isLoopback } from './links';
import { onShutdownSignals, shutDown } from './shutdown';
import { errorMessage } from './json';

const port = Number(process.env.PORT || 8080);
const host = process.env.HOST || DEFAULT_HOST;
const production = process.env.NODE_ENV === 'production';
const publicUrl = process.env.PUBLIC_URL || undefined;

// links in e-mails never come from the Host header: a server others can reach must know its address
// (without it, links go to where the server listens, http://<HOST>:<PORT>, which it prints)
const loopback = isLoopback(host);
if (!publicUrl && (production || !loopback)) {
  console.error(`PUBLIC_URL is required ${production ? 'in production' : `to listen on ${host}`} (the address links in e-mails point to).`);
  process.exit(1);
}

/** A number setting, its default when unset (0 is a value: it switches a check off). */
function envNumber(name: string, fallback: number): number {
  const v = process.env[name];
  return v === undefined || v === '' || !Number.isFinite(Number(v)) ? fallback : Number(v);
}

let trustProxy: ReturnType<typeof trustProxySetting>;
try {
  trustProxy = trustProxySetting(process.env.TRUST_PROXY);
} catch (e) {
  console.error(errorMessage(e));
  process.exit(1);
}

const pgliteDir = process.env.PGLITE_DIR || join(ROOT, '.data', 'pglite');

// payments: a configured gateway, or the built-in sandbox beside the portal (never by default in production)
let payments: GatewaysFromEnv;
try {
  payments = await gatewaysFromEnv({ root: ROOT, host, port, pgliteDir, production, log: (line) => console.log(line) });
} catch (err) {
  console.error(errorMessage(err));
  process.exit(1);
}
const { gateways, sandboxUrl } = payments;

const handle = await openDb({
  databaseUrl: process.env.DATABASE_URL || undefined,
  pgliteDir,
  poolSize: Number(process.env.DATABASE_POOL_SIZE) || undefined,
});
const app = await buildApp({
  db: handle.db,
  production,
  publicUrl,
  host,
  port,
  // the development outbox shows reset links: only when switched on (the tests do)
  devRoutes: process.env.DEV_ROUTES === '1',
  smtpUrl: process.env.SMTP_URL || undefined,
  watchDeclarations: !production && process.env.NODE_ENV !== 'test',
  logger: { level: process.env.LOG_LEVEL || (production ? 'info' : 'warn') },
  // one line per request only when asked for (LOG_REQUESTS=1): errors and slow starts are still logged
  logRequests: process.env.LOG_REQUESTS === '1',
  // a load test's own address, which the per-address limits do not count (never parents' addresses)
  rateLimitAllowList: process.env.RATE_LIMIT_ALLOW_LIST?.split(',').map((a) => a.trim()).filter(Boolean),
  // behind a load balancer: whose X-Forwarded-For to believe (addresses or ranges, or a hop count)
  trustProxy,
  // the limits counted in Redis when there is one; in the database otherwise (both shared by instances)
  redisUrl: process.env.REDIS_URL || undefined,
  // refuse with 503 rather than answer late: event loop held up over MAX_EVENT_LOOP_DELAY_MS (1000),
  // heap over MAX_HEAP_USED_MB (90% of the heap's limit); 0 switches a check off
  underPressure: {
    maxEventLoopDelay: envNumber('MAX_EVENT_LOOP_DELAY_MS', 1000),
    maxHeapUsedBytes: envNumber('MAX_HEAP_USED_MB', Math.floor((getHeapStatistics().heap_size_limit * 0.9) / 2 ** 20)) * 2 ** 20,
  },
  // GET /metrics: off unless METRICS=1 or METRICS_TOKEN (then a scraper sends that token in its Authorization header)
  metrics: process.env.METRICS_TOKEN ? { token: process.env.METRICS_TOKEN } : process.env.METRICS === '1',
  poolStats: handle.poolStats,
  gateways,
  // how soon the reconciler asks a gateway about a payment left open (a benchmark shortens it)
  reconcile: {
    afterMs: Number(process.env.PAYMENT_RECONCILE_AFTER_SECONDS) * 1000 || undefined,
    everyMs: Number(process.env.PAYMENT_RECONCILE_EVERY_SECONDS) * 1000 || undefined,
  },
});

if (await isEmptyDatabase(handle.db)) {
  await seedDemo(handle.db, { root: ROOT, passwords: app.deps.passwords, clock: systemClock });
  console.log('Empty database: demo data written.');
}

// a registration opening brings thousands of connections at once: queue them rather than refuse them
await app.listen({ port, host, backlog: Number(process.env.LISTEN_BACKLOG) || 2048 });
// background jobs (the outbox, seat holds, the reconciler) once the demo data is in
app.jobs.start();
// the address printed is the one links, the hand-off and the gateway's return use (app.deps.linkBase)
const address = app.deps.linkBase ?? `http://${host}:${port}`;
const listening = defaultPublicUrl(host, port);
console.log(`Parent portal: ${address}/parentportal/  (API: /api, OpenAPI: /api/openapi.json, database: ${handle.kind})${address === listening ? '' : `; listening on ${listening}`}`);
console.log(sandboxUrl ? `Sandbox payment gateway: ${sandboxUrl}  (test cards: README, Payments)` : Object.keys(gateways).length ? 'Payment gateways: configured' : 'Payment gateways: none (paying is unavailable)');
console.log('Demo sign-ins:');
for (const s of DEMO_SIGNINS) console.log(`  ${s.appName.padEnd(11)} ${s.email.padEnd(26)} ${s.password.padEnd(15)} ${s.role}`);

// SIGTERM / SIGINT: /ready answers 503, the requests in flight finish, jobs stop, the database closes;
// a second signal or SHUTDOWN_TIMEOUT_SECONDS (30) ends the process at once
onShutdownSignals(
  () =>
    shutDown({
      app,
      stopJobs: () => app.jobs.stop(),
      closeDatabase: () => handle.close(),
      drainDelayMs: Number(process.env.SHUTDOWN_DRAIN_SECONDS) * 1000 || 0,
    }),
  { timeoutMs: Number(process.env.SHUTDOWN_TIMEOUT_SECONDS) * 1000 || 30_000, exit: (code) => process.exit(code), log: (line) => console.log(line) },
);
