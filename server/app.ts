// buildApp: the Fastify server (API from the contract, built portal, validators) over a database.
// main.ts starts it; tests build it over in-memory PGlite or a fresh PostgreSQL database.
import { isIP } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyInstance, type FastifyError } from 'fastify';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import swagger from '@fastify/swagger';
import fastifyStatic from '@fastify/static';
import QRCode from 'qrcode';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from './db/index';
import { applicationDrafts, providers, outbox } from './db/schema';
import { businessClock, isoDay, systemClock, type Clock } from './clock';
import { PunchPassError, recordCheckIn } from './domains/enrolment/punchPass';
import { fixedToday } from '../src/engine/today';
import { Passwords, PRODUCTION_ARGON2, type Argon2Options } from './auth';
import { createTranslator, pickLang } from './i18n';
import { DeclarationStore } from './declarations';
import { readContract, contractOperations } from './contract';
import { registerContract } from './registrar';
import { checkLinkedScreens, DEFAULT_HOST, defaultPublicUrl } from './links';
import { handlers as defaultHandlers } from './handlers/index';
import type { AppDeps, Handlers } from './context';
import { HttpError, KeyedError, errorBody } from './errors';
import { readProviderRecords, syncProviders } from './providers';
import { formatProviderRecordError, providerRecordErrors, type ProviderRecord } from './providerRecord';
import { createOutboxSender, type OutboxSender } from './outbox';
import { jsonDepth, MAX_BODY_DEPTH } from './inputChecks';
import { providerRollup } from './gradeRollup';
import { PRODUCT_BASES } from '../src/engine/screen';
import type { PaymentGateway } from './gateways/adapter';
import { RETURN_ROUTES } from './gateways/registry';
import { handleNotification } from './domains/payments/payments';
import { sweepHolds } from './domains/enrolment/applicationPayment';
import { portalJobs } from './jobs/registry';
import type { JobRunner } from './jobs/runner';
import { DEFAULT_SETTINGS, settingsOf, type AccountLimits, type ProviderSettings, type SignInSettings } from './providerSettings';
import { installCompression, secretRoutes } from './compression';
import { UPLOAD_LIMITS } from './photos';
import { bootData, cookieAppName, entryAppName, signInLoads, withBootData } from './boot';
import { databaseRateLimitStore } from './rateLimitStore';
import { registerOperations, type Operations, type UnderPressureOptions } from './operations';
import type { PoolStats } from './metrics';
import { isRecord } from './json';

declare module 'fastify' {
  interface FastifyRequest {
    /** a gateway's notification unparsed, for its signature check (set for NOTIFICATION_PATH only) */
    rawBody?: string;
  }
}

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * TRUST_PROXY: a number of proxy hops, or addresses and CIDR ranges, comma-separated; unset or empty:
 * undefined. Anything else stops the start (a typo must not silently trust every X-Forwarded-For).
 */
export function trustProxySetting(value: string | undefined): string[] | number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v.split(',').map((a) => a.trim()).filter(Boolean);
  const bad = list.filter((a) => {
    const [ip, bits, ...rest] = a.split('/');
    const kind = isIP(ip);
    return !kind || rest.length > 0 || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128)));
  });
  if (bad.length) throw new Error(`TRUST_PROXY: not an address or range: ${bad.join(', ')} (give the load balancers' addresses, e.g. 10.0.0.0/8, or a number of hops)`);
  return list;
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

export interface BuildAppOptions {
  db: Db;
  root?: string;
  clock?: Clock;
  /** tests lower the argon2 cost; production uses PRODUCTION_ARGON2 */
  argon2?: Argon2Options;
  releaseVersion?: string;
  production?: boolean;
  /** the built portal (default <root>/dist) */
  distDir?: string;
  /** smtp://host:port — deliver the outbox through SMTP */
  smtpUrl?: string;
  /** rebuild declarations when files change (development) */
  watchDeclarations?: boolean;
  logger?: boolean | Record<string, unknown>;
  /** a log line for every request and answer (Fastify's request logging); off by default */
  logRequests?: boolean;
  /** the payment gateways by provider code (server/gateways/); none: paying answers 503 */
  gateways?: Record<number, PaymentGateway>;
  /** development routes (GET /api/dev/outbox): off unless switched on, never in production */
  devRoutes?: boolean;
  /** the portal's public address for links in e-mails (PUBLIC_URL) */
  publicUrl?: string;
  /** tests: a provider's settings over its provider.json */
  providerSettings?: Record<string, { signIn?: Partial<SignInSettings>; limits?: Partial<AccountLimits>; payments?: ProviderRecord['payments']; billing?: ProviderRecord['billing']; taxDocuments?: ProviderRecord['taxDocuments']; stateCode?: string }>;
  /** tests: a provider's year-end grade roll-up window over its provider.json (null: none) */
  gradeRollup?: Record<string, import('./gradeRollup').RollupWindow | null>;
  /** where the server listens: without a public address links go to http://<host>:<port> (127.0.0.1, 8080) */
  host?: string;
  port?: number;
  signin?: Partial<AppDeps['signin']>;
  handlers?: Handlers;
  /**
   * client addresses the per-address limits do not count (RATE_LIMIT_ALLOW_LIST): a load test's own
   * machine (npm run bench:checkout), never parents' addresses
   */
  rateLimitAllowList?: string[];
  /**
   * The load balancers or proxies in front of the portal (addresses or CIDR ranges, or a number of
   * hops): their X-Forwarded-For names the parent's address, which the per-address limits, the
   * sign-in audit and the logs then use. Without it the header is ignored (anyone could write it).
   */
  trustProxy?: string[] | number;
  /**
   * redis://… (REDIS_URL): the per-address limits are counted in Redis; without it in the database.
   * Either way every instance on the same database (or Redis) counts together.
   */
  redisUrl?: string;
  /** refuse requests with 503 while the process is overloaded (event loop delay, heap); off unless given */
  underPressure?: UnderPressureOptions | false;
  /** GET /metrics (Prometheus): off by default; true (METRICS=1), or a bearer token it asks for (METRICS_TOKEN) */
  metrics?: boolean | { token?: string };
  /** the database pool's use, for the metrics (PostgreSQL) */
  poolStats?: () => PoolStats | null;
  /** the payment reconciler: asks about attempts open longer than afterMs, every everyMs (5 min, 1 min) */
  reconcile?: { afterMs?: number; everyMs?: number };
}

export interface App extends FastifyInstance {
  deps: AppDeps;
  declarations: DeclarationStore;
  outboxSender: OutboxSender | null;
  /** the background jobs (server/jobs): main.ts starts them; app.close() stops them */
  jobs: JobRunner;
  /** /health, /ready (its readiness checks, drain() on shutdown) and /metrics (server/operations.ts) */
  operations: Operations;
}

/** The Content Security Policy: no inline or eval'd scripts (validators are a served module). */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Where links in e-mails, the social sign-in return address, the hand-off to the parent application
 * and the payment gateway's return point: the public address, or outside production the address the
 * server listens at and prints (http://<HOST>:<PORT>); never the request's Host header (a forged host
 * would receive the token). Production without a public address has none (main.ts refuses to start).
 */
/** The Redis the limits are counted in, connected, and quit when the app closes. */
async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', (err) => app.log.error({ err: err.message }, 'redis'));
  // a start without its Redis stops with where it looked (never the URL: it may hold a password)
  await redis.connect().catch((err: Error) => {
    redis.disconnect();
    throw new Error(`REDIS_URL: no Redis answers at ${new URL(url).host} (${err.message})`);
  });
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}

function linkBase(opts: BuildAppOptions, production: boolean): string | null {
  const configured = (opts.publicUrl ?? process.env.PUBLIC_URL ?? '').replace(/\/+$/, '');
  if (configured) return configured;
  return production ? null : defaultPublicUrl(opts.host || process.env.HOST || DEFAULT_HOST, opts.port ?? Number(process.env.PORT || 8080));
}

function packageVersion(root: string): string {
  const pkg: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (!isRecord(pkg) || typeof pkg.version !== 'string') throw new Error(`${join(root, 'package.json')}: no version`);
  return pkg.version;
}

const NOTIFICATION_PATH = '/api/Billing/payment/notification/';
/**
 * The gateways' notifications per address: a gateway sends every parent's from a few addresses and
 * retries a failed delivery, so the limit is sized for a registration rush, not for one parent.
 */
export const NOTIFICATION_RATE_LIMIT = { max: 1200, timeWindow: 60_000 };

export async function buildApp(opts: BuildAppOptions): Promise<App> {
  const root = opts.root ?? ROOT;
  const production = opts.production ?? process.env.NODE_ENV === 'production';
  const version = packageVersion(root);
  const app = Fastify({
    logger: opts.logger ?? false,
    // request lines only when asked for (Fastify 5's log controller; the top-level option is deprecated)
    logController: new LogController({ disableRequestLogging: !opts.logRequests }),
    bodyLimit: 1024 * 1024,
    // a hop count trusts that many proxies nearest the portal, whatever their address
    ...(opts.trustProxy === undefined ? {} : { trustProxy: typeof opts.trustProxy === 'number' ? trustHops(opts.trustProxy) : opts.trustProxy }),
    // query strings: booleans and numbers are coerced by the contract's schemas
    ajv: {
      customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: true },
      // the contract's annotation of what an id names (tests/server/access.test.ts reads it)
      plugins: [(ajv: import('ajv').default) => ajv.addKeyword({ keyword: 'x-idKind', schemaType: 'string' })],
    },
  });
  const clock = opts.clock ?? systemClock;
  // photo uploads: read by server/photos.ts (one file, checked by content)
  await app.register(multipart, { limits: UPLOAD_LIMITS });

  const records = readProviderRecords(root);
  await syncProviders(opts.db, records);
  // protection settings by provider (appName), tests' overrides over provider.json
  const settingsByApp = new Map<string, ProviderSettings>();
  for (const rec of records) {
    const over = opts.providerSettings?.[rec.appName];
    const merged = { ...rec, signIn: { ...rec.signIn, ...over?.signIn }, limits: { ...rec.limits, ...over?.limits }, payments: over?.payments ?? rec.payments, billing: over?.billing ?? rec.billing, taxDocuments: over?.taxDocuments ?? rec.taxDocuments, stateCode: over?.stateCode ?? rec.stateCode };
    // the tests' overrides are checked by the file's schema
    const errors = over ? providerRecordErrors(rec.appName, merged) : [];
    if (errors.length) throw new Error(errors.map(formatProviderRecordError).join('\n'));
    settingsByApp.set(rec.appName, settingsOf(merged));
  }

  const declarations = new DeclarationStore(
    root,
    async () => {
      const rows = await opts.db.select({ appName: providers.appName, countryCode: providers.countryCode }).from(providers);
      return Object.fromEntries(rows.map((r) => [r.appName, r.countryCode as 'US' | 'CA']));
    },
    app.log,
  );
  await declarations.reload();
  if (opts.watchDeclarations) declarations.watch();

  const outboxSender = opts.smtpUrl ? createOutboxSender(opts.db, clock, opts.smtpUrl, app.log) : null;
  const deps: AppDeps = {
    root,
    db: opts.db,
    clock,
    today: businessClock(clock),
    t: createTranslator(root),
    passwords: new Passwords(opts.argon2 ?? PRODUCTION_ARGON2),
    declarations,
    releaseVersion: opts.releaseVersion ?? process.env.RELEASE_VERSION ?? version,
    version,
    production,
    linkBase: linkBase(opts, production),
    signin: { maxFailed: 5, perEmailMax: 10, perEmailWindowMs: 15 * 60 * 1000, slowDownAfter: 3, slowDownBaseMs: 500, slowDownMaxMs: 8000, ...opts.signin },
    settings: (appName) => settingsByApp.get(appName) ?? DEFAULT_SETTINGS,
    gradeRollup: (appName) => (opts.gradeRollup && appName in opts.gradeRollup ? opts.gradeRollup[appName] : providerRollup(root, appName)),
    mailQueued: () => void outboxSender?.flush().catch((err) => app.log.error({ err }, 'outbox flush failed')),
    gateways: (code) => opts.gateways?.[code],
    log: app.log,
  };
  // every JSON body is bounded in depth before it is parsed, so no check recurses without end
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser<string>('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonDepth(body, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
      const lang = pickLang(req.headers['accept-language']);
      return done(new HttpError(400, deps.t(lang, 'errors.tooDeep', { max: MAX_BODY_DEPTH }), { key: 'server.errors.tooDeep' }), undefined);
    }
    // a gateway's notification is checked against its signature over the raw body
    if (req.url.startsWith(NOTIFICATION_PATH)) req.rawBody = body;
    parseJson(req, body, done);
  });
  app.decorate('deps', deps);
  app.decorate('declarations', declarations);
  app.decorate('outboxSender', outboxSender);
  // the outbox's sender, the seat-hold sweeper and the payment reconciler, once across instances
  const jobs = portalJobs(deps, { outboxSender, reconcile: opts.reconcile });
  app.decorate('jobs', jobs);
  app.addHook('onClose', async () => {
    await jobs.stop();
  });

  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    reply.header('cross-origin-opener-policy', 'same-origin');
    // API answers hold tokens and personal data: no cache keeps them unless a route says otherwise
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (production) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
  // after the headers above: API answers and validator modules compressed (not those carrying a
  // token or secret), GET answers revalidated
  const ops = contractOperations(readContract(root));
  const opsById = new Map(ops.map((o) => [o.id, o]));
  installCompression(app, secretRoutes(ops));

  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => {
    const lang = pickLang(req.headers['accept-language']);
    if (err instanceof KeyedError) return reply.status(err.statusCode).send(errorBody(err.statusCode, deps.t(lang, err.key, err.params), err.extra));
    if (err instanceof HttpError) return reply.status(err.statusCode).send(errorBody(err.statusCode, err.message, err.extra));
    const fe = err;
    if (fe.validation) {
      const errors = fe.validation.map((v) => {
        const missing = v.params.missingProperty;
        return {
          path: typeof missing === 'string' && missing ? `${v.instancePath}/${missing}` : v.instancePath,
          key: `errors.${v.keyword}`,
          params: v.params,
        };
      });
      return reply.status(400).send(errorBody(400, deps.t(lang, 'errors.validation'), { key: 'server.errors.validation', errors }));
    }
    const status = fe.statusCode ?? 500;
    if (status === 429) return reply.status(429).send(errorBody(429, deps.t(lang, 'errors.tooManyRequests'), { key: 'server.errors.tooManyRequests' }));
    if (status < 500) return reply.status(status).send(errorBody(status, fe.message));
    req.log.error({ err }, 'request failed');
    return reply.status(500).send(errorBody(500, deps.t(lang, 'errors.internal'), { key: 'server.errors.internal' }));
  });

  // the limits are counted where every instance counts: Redis when given, the database otherwise
  const redis = opts.redisUrl ? await connectRedis(app, opts.redisUrl) : null;
  await app.register(rateLimit, {
    global: false,
    ...(redis
      ? // while Redis does not answer, requests are not counted rather than refused (the sign-in lock is
        // counted in the database still; /ready answers 503)
        { redis, nameSpace: 'portal-limit-', skipOnError: true }
      : { store: databaseRateLimitStore(opts.db, clock, (err) => app.log.error({ err }, 'request counts purge failed')) }),
    ...(opts.rateLimitAllowList?.length ? { allowList: opts.rateLimitAllowList } : {}),
    errorResponseBuilder: (_req, ctx) => ({ statusCode: ctx.statusCode, error: 'Too Many Requests', message: 'Too Many Requests' }),
  });

  const operations = await registerOperations(app, { db: opts.db, t: deps.t, metrics: opts.metrics, underPressure: opts.underPressure, poolStats: opts.poolStats });
  app.decorate('operations', operations);
  // Redis, when the limits are counted there, is needed to serve
  if (redis) operations.readinessChecks.push({ name: 'redis', check: () => redis.status === 'ready' });
  // an instance whose background jobs are not running (not started, or stopped) is not ready
  operations.readinessChecks.push({ name: 'jobs', check: () => jobs.isRunning() });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Parent portal customer API', version },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });

  // links in e-mails open screens by id: each must be declared, in the base and every provider's set
  checkLinkedScreens(root, declarations, records.map((r) => r.appName));
  registerContract(app, ops, opts.handlers ?? defaultHandlers, deps);

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // the gateways' server-to-server notifications (outside the contract: no session, a signature instead)
  app.post<{ Params: { code: string } }>(`${NOTIFICATION_PATH}:code`, { schema: { hide: true }, config: { rateLimit: NOTIFICATION_RATE_LIMIT } }, async (req, reply) => {
    const code = Number(req.params.code);
    const raw = req.rawBody;
    if (!Number.isInteger(code) || raw === undefined) return reply.status(400).send({ ok: false });
    const status = await handleNotification(deps, code, req.headers, raw);
    return reply.status(status).send({ ok: status === 200 });
  });

  if (opts.devRoutes && !production) {
    // development only, switched on explicitly (tests, DEV_ROUTES=1): it holds password reset links: the mails that would have gone out
    app.get('/api/dev/outbox', { schema: { hide: true } }, async () => {
      const rows = await opts.db.select().from(outbox).orderBy(desc(outbox.id));
      return rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        to: r.toAddress,
        from: r.fromAddress,
        subject: r.subject,
        text: r.textBody,
        html: r.htmlBody,
        createdAt: r.createdAt.toISOString(),
        sentAt: r.sentAt ? r.sentAt.toISOString() : null,
      }));
    });
    // a seat hold's end moved to `secondsLeft` from now, then one sweep (its warning, its release):
    // the browser tests see a 15-minute hold end without waiting for it
    app.post<{ Body: { key?: string; secondsLeft?: number } }>('/api/dev/application-hold', { schema: { hide: true } }, async (req) => {
      const { key, secondsLeft } = req.body ?? {};
      if (typeof key !== 'string' || typeof secondsLeft !== 'number') throw new KeyedError(400, 'server.errors.badRequest');
      await opts.db
        .update(applicationDrafts)
        .set({ holdUntil: new Date(deps.clock().getTime() + secondsLeft * 1000) })
        .where(and(eq(applicationDrafts.key, key), eq(applicationDrafts.paymentStatus, 'AWAITING')));
      await sweepHolds(deps);
      const [d] = await opts.db.select({ paymentStatus: applicationDrafts.paymentStatus }).from(applicationDrafts).where(eq(applicationDrafts.key, key));
      return { paymentStatus: d?.paymentStatus ?? null };
    });
    // a check-in recorded in attendance (as npm run provider -- punchpass checkin records it), with
    // the punch it uses: the browser tests see a visit without stopping the server
    app.post<{ Body: { appName?: string; childID?: number; programPeriodID?: number; date?: string } }>('/api/dev/punchpass-checkin', { schema: { hide: true } }, async (req) => {
      const { appName, childID, programPeriodID, date } = req.body ?? {};
      if (typeof appName !== 'string' || !Number.isInteger(childID) || !Number.isInteger(programPeriodID)) throw new KeyedError(400, 'server.errors.badRequest');
      try {
        return await recordCheckIn(deps, appName, childID!, programPeriodID!, typeof date === 'string' ? date : isoDay(deps.today()));
      } catch (e) {
        if (e instanceof PunchPassError) throw new KeyedError(400, 'server.errors.badRequest');
        throw e;
      }
    });
  }

  // compiled validators of a provider's declaration set: /parentportal/validators/<appName>/<version>.js
  app.get<{ Params: { appName: string; file: string } }>('/parentportal/validators/:appName/:file', { schema: { hide: true } }, async (req, reply) => {
    const m = /^([A-Za-z0-9_-]+)\.js$/.exec(req.params.file);
    const code = m ? declarations.validatorModule(req.params.appName, m[1]) : undefined;
    if (!code) throw new KeyedError(404, 'server.errors.notFound');
    return reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(code);
  });

  // the footer's app QR code (spec 2.5), an SVG image, so the sign-in page loads no QR encoder
  app.get<{ Querystring: { text?: string } }>('/parentportal/qr.svg', { schema: { hide: true } }, async (req, reply) => {
    const text = typeof req.query.text === 'string' ? req.query.text : '';
    if (!/^https:\/\/[^\s]{1,500}$/.test(text)) throw new KeyedError(400, 'server.errors.badRequest');
    const svg = await QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } });
    return reply.header('content-type', 'image/svg+xml; charset=utf-8').header('cache-control', 'public, max-age=86400').send(svg);
  });

  const distDir = opts.distDir ?? join(root, 'dist');
  const hasDist = existsSync(join(distDir, 'index.html'));
  // the portal page; with a fixed day (PORTAL_TODAY) it names that day for the browser's 'today'; a
  // provider's entry page carries its first screen's data (server/boot.ts)
  const appNames = new Set(records.map((r) => r.appName.toLowerCase()));
  const sendPortal = async (req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
    const day = fixedToday();
    // the provider's entry (sign-in drawn ahead), or another page of the provider the browser chose
    // last (the shell's header drawn ahead, the provider and declarations carried)
    const entry = entryAppName(req.url.split('?')[0], appNames);
    const appName = entry ?? cookieAppName(req.headers.cookie, appNames);
    const boot = appName ? await bootData(opts.db, declarations, appName, req.headers['accept-language'], req.headers.cookie).catch(() => null) : null;
    if (boot) boot.releaseVersion = deps.releaseVersion;
    if (boot && entry) {
      const get = (url: string) => app.inject({ method: 'GET', url, headers: { 'accept-language': boot.lang } });
      const screens = boot.declarations.screens;
      boot.loads = await signInLoads(isRecord(screens) ? screens : {}, opsById, boot.program.appName, get).catch(() => []);
    }
    if (!day && !boot) return reply.sendFile('index.html');
    let html = readFileSync(join(distDir, 'index.html'), 'utf8');
    if (day) html = html.replace('<head>', `<head><meta name="portal-today" content="${day}">`);
    if (boot) {
      html = withBootData(html, boot, { signIn: Boolean(entry), path: req.url.split('?')[0] });
      reply.header('vary', 'Accept-Language, Cookie');
    }
    return reply.send(html);
  };
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/parentportal/',
      wildcard: true,
      index: false,
      // the build writes .br and .gz beside every file; the best one the browser accepts is sent
      preCompressed: true,
      setHeaders: (res, path) => {
        res.header('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/parentportal/'));
  if (hasDist) {
    const sendIndex = (req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => sendPortal(req, reply);
    app.get('/parentportal', { schema: { hide: true } }, sendIndex);
    app.get('/parentportal/', { schema: { hide: true } }, sendIndex);
    // each gateway's return route in each product (server/gateways/registry.ts): the parent's way back
    for (const route of new Set(Object.values(RETURN_ROUTES))) {
      for (const base of Object.values(PRODUCT_BASES)) app.get(`${base}${route}`, { schema: { hide: true } }, sendIndex);
    }
  }

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    // history fallback: any deep link of the portal or of the parent application this deployment
    // serves under its own base path (not a missing asset) gets the app
    const isPortal = Object.values(PRODUCT_BASES).some((base) => path === base || path.startsWith(`${base}/`));
    const isAsset = /\.[a-z0-9]+$/i.test(path) && !path.endsWith('.html');
    if (req.method === 'GET' && isPortal && !isAsset && hasDist) {
      return sendPortal(req, reply);
    }
    return reply.status(404).send(errorBody(404, 'Not Found'));
  });

  app.addHook('onClose', async () => {
    declarations.close();
    await outboxSender?.stop();
  });

  return decorated(app);
}

/** The server, once buildApp has decorated it with everything App names. */
function decorated(app: FastifyInstance): App {
  if (!isApp(app)) throw new Error('the server lacks one of its decorations');
  return app;
}

function isApp(app: FastifyInstance): app is App {
  return (['deps', 'declarations', 'outboxSender', 'jobs', 'operations'] as const).every((k) => app.hasDecorator(k));
}
