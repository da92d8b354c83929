// What an operator and a load balancer see of an instance, outside /api: GET /health (the process
// answers), GET /ready (it can serve: database reachable, migrations applied, every readiness check
// passing, not shutting down), GET /metrics when switched on, and refusal with 503 under overload.
// None of them is rate limited or refused under pressure, and none answers more than names and states.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { sql } from 'drizzle-orm';
import type { Db } from './db/index';
import { queryRows } from './db/rows';
import { isRecord } from './json';
import { errorBody } from './errors';
import { pickLang } from './i18n';
import { collectProcessMetrics, httpDuration, httpRequests, metricsRegistry, watchPool, type PoolStats } from './metrics';

/** One thing /ready asks: its name is shown, never its error. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<boolean> | boolean;
}

export interface UnderPressureOptions {
  /** milliseconds of event loop delay beyond which requests are refused (0: not checked) */
  maxEventLoopDelay?: number;
  /** heap in use beyond which requests are refused (0: not checked) */
  maxHeapUsedBytes?: number;
  maxRssBytes?: number;
  /** how often the process is sampled (ms; default 1000) */
  sampleInterval?: number;
  /** seconds a refused client is told to wait */
  retryAfter?: number;
}

export interface OperationsOptions {
  db: Db;
  t: (lang: string, key: string, params?: Record<string, unknown>) => string;
  /** serve GET /metrics: true, or { token } to ask for `Authorization: Bearer <token>` */
  metrics?: boolean | { token?: string };
  underPressure?: UnderPressureOptions | false;
  poolStats?: () => PoolStats | null;
}

export interface Operations {
  /** readiness checks: what /ready asks besides the database and migrations (the job runner adds its own) */
  readinessChecks: ReadinessCheck[];
  /** shutting down: /ready answers 503 from now on, so the load balancer sends nothing new */
  drain(): void;
  readonly draining: boolean;
}

const MIGRATIONS_JOURNAL = join(dirname(fileURLToPath(import.meta.url)), 'db', 'migrations', 'meta', '_journal.json');

/**
 * Every migration the code knows, by its journal time (the created_at the migrator records): each
 * must be recorded, not only the newest (a database another version migrated may lack one).
 */
function knownMigrations(): number[] {
  const journal: unknown = JSON.parse(readFileSync(MIGRATIONS_JOURNAL, 'utf8'));
  const entries = isRecord(journal) ? journal.entries : undefined;
  if (!Array.isArray(entries)) throw new Error(`${MIGRATIONS_JOURNAL}: no entries`);
  return entries.map((e: unknown) => (isRecord(e) ? Number(e.when) : NaN));
}

/** Outside the limits and under-pressure: a load balancer and a scraper must always get an answer. */
const OPERATIONS_ROUTE = { rateLimit: false, pressureHandler: () => undefined } as const;

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export async function registerOperations(app: FastifyInstance, opts: OperationsOptions): Promise<Operations> {
  const known = knownMigrations();
  let draining = false;
  const ops: Operations = {
    readinessChecks: [],
    drain: () => {
      draining = true;
    },
    get draining() {
      return draining;
    },
  };

  if (opts.underPressure) {
    const u = opts.underPressure;
    // the error body of every other answer, in the client's language, with when to come back
    // (what the handler returns, the plugin sends; its types say nothing is returned, which a
    // function typed to return void may still do)
    const overloaded: (req: FastifyRequest, reply: FastifyReply) => void = (req, reply) => {
      const lang = pickLang(req.headers['accept-language']);
      reply.status(503).header('retry-after', String(u.retryAfter ?? 10));
      return errorBody(503, opts.t(lang, 'errors.overloaded'), { key: 'server.errors.overloaded' });
    };
    await app.register(underPressure, {
      maxEventLoopDelay: u.maxEventLoopDelay ?? 0,
      maxHeapUsedBytes: u.maxHeapUsedBytes ?? 0,
      maxRssBytes: u.maxRssBytes ?? 0,
      ...(u.sampleInterval ? { sampleInterval: u.sampleInterval } : {}),
      pressureHandler: overloaded,
    });
  }

  app.get('/health', { schema: { hide: true }, config: OPERATIONS_ROUTE }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/ready', { schema: { hide: true }, config: OPERATIONS_ROUTE }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    if (draining) return reply.status(503).send({ status: 'shutting down' });
    const checks: Record<string, 'ok' | 'failing'> = {};
    try {
      // one query: the database answers, and has every migration this code knows
      const rows = await queryRows<{ created_at: string | number }>(opts.db, sql`SELECT created_at FROM drizzle.__drizzle_migrations`);
      const applied = new Set(rows.map((r) => Number(r.created_at)));
      checks.database = 'ok';
      checks.migrations = known.every((when) => applied.has(when)) ? 'ok' : 'failing';
    } catch {
      checks.database = 'failing';
      checks.migrations = 'failing';
    }
    for (const c of ops.readinessChecks) {
      checks[c.name] = await Promise.resolve()
        .then(c.check)
        .then((ok) => (ok ? 'ok' : 'failing'), () => 'failing' as const);
    }
    const ready = Object.values(checks).every((s) => s === 'ok');
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });

  if (opts.metrics) {
    const token = typeof opts.metrics === 'object' ? opts.metrics.token : undefined;
    collectProcessMetrics();
    watchPool(opts.poolStats ?? null);
    app.addHook('onResponse', async (req, reply) => {
      const schema: unknown = req.routeOptions.schema;
      const id = isRecord(schema) ? schema.operationId : undefined;
      const operation = typeof id === 'string' ? id : (req.routeOptions.url ?? 'unmatched');
      httpRequests.inc({ operation, status: String(reply.statusCode) });
      httpDuration.observe({ operation }, reply.elapsedTime / 1000);
    });
    app.get('/metrics', { schema: { hide: true }, config: OPERATIONS_ROUTE }, async (req, reply) => {
      if (token) {
        const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
        if (!m || !sameSecret(m[1], token)) {
          return reply.status(401).header('www-authenticate', 'Bearer').send(errorBody(401, 'Unauthorized', { key: 'server.errors.unauthorized' }));
        }
      }
      reply.header('cache-control', 'no-store').type(metricsRegistry.contentType);
      return metricsRegistry.metrics();
    });
  }
  return ops;
}
