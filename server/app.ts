// buildApp: the Fastify server (API from the contract, built portal, validators) over a database.
// main.ts starts it; tests build it over in-memory PGlite or a fresh PostgreSQL database.
import { existsSync, readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import fastifyStatic from '@fastify/static';
import { asc, desc } from 'drizzle-orm';
import type { Db } from './db/index';
import { providers, outbox } from './db/schema';
import { systemClock, type Clock } from './clock';
import { Passwords, PRODUCTION_ARGON2, type Argon2Options } from './auth';
import { createTranslator, pickLang } from './i18n';
import { DeclarationStore } from './declarations';
import { readContract, contractOperations } from './contract';
import { registerContract } from './registrar';
import { handlers as defaultHandlers } from './services/index';
import type { AppDeps, ServiceHandlers } from './context';
import { HttpError, errorBody } from './errors';
import { readProviderRecords, syncProviders } from './providers';
import { createOutboxSender, type OutboxSender } from './outbox';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

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
  signin?: Partial<AppDeps['signin']>;
  handlers?: ServiceHandlers;
}

export interface App extends FastifyInstance {
  deps: AppDeps;
  declarations: DeclarationStore;
  outboxSender: OutboxSender | null;
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

function packageVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

export async function buildApp(opts: BuildAppOptions): Promise<App> {
  const root = opts.root ?? ROOT;
  const production = opts.production ?? process.env.NODE_ENV === 'production';
  const version = packageVersion(root);
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 1024 * 1024,
    // query strings: booleans and numbers are coerced by the contract's schemas
    ajv: { customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: true } },
  }) as unknown as App;
  const clock = opts.clock ?? systemClock;
  // photo uploads: the raw multipart body, read by server/photos.ts (one file, checked by content)
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: 6 * 1024 * 1024 }, (_req, body, done) => done(null, body));

  await syncProviders(opts.db, readProviderRecords(root));

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
    t: createTranslator(root),
    passwords: new Passwords(opts.argon2 ?? PRODUCTION_ARGON2),
    declarations,
    releaseVersion: opts.releaseVersion ?? process.env.RELEASE_VERSION ?? version,
    version,
    production,
    signin: { maxFailed: 5, perEmailMax: 10, perEmailWindowMs: 15 * 60 * 1000, ...opts.signin },
    mailQueued: () => void outboxSender?.flush().catch((err) => app.log.error({ err }, 'outbox flush failed')),
  };
  app.decorate('deps', deps);
  app.decorate('declarations', declarations);
  app.decorate('outboxSender', outboxSender);
  if (outboxSender) outboxSender.start();

  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (production) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });

  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => {
    const lang = pickLang(req.headers['accept-language']);
    if (err instanceof HttpError) return reply.status(err.statusCode).send(errorBody(err.statusCode, err.message, err.extra));
    const fe = err as FastifyError;
    if (fe.validation) {
      const errors = fe.validation.map((v) => {
        const missing = (v.params as { missingProperty?: string }).missingProperty;
        return {
          path: missing ? `${v.instancePath}/${missing}` : v.instancePath,
          key: `errors.${v.keyword}`,
          params: v.params as Record<string, unknown>,
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

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => ({ statusCode: ctx.statusCode, error: 'Too Many Requests', message: 'Too Many Requests' }),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Parent portal customer API', version },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });

  const ops = contractOperations(readContract(root));
  registerContract(app, ops, opts.handlers ?? defaultHandlers, deps);

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  if (!production) {
    // development only: the mails that would have gone out
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
  }

  // compiled validators of a provider's declaration set: /parentportal/validators/<appName>/<version>.js
  app.get<{ Params: { appName: string; file: string } }>('/parentportal/validators/:appName/:file', { schema: { hide: true } }, async (req, reply) => {
    const m = /^([A-Za-z0-9_-]+)\.js$/.exec(req.params.file);
    const code = m ? declarations.validatorModule(req.params.appName, m[1]) : undefined;
    if (!code) throw new HttpError(404, 'Not Found');
    return reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(code);
  });

  const distDir = opts.distDir ?? join(root, 'dist');
  const hasDist = existsSync(join(distDir, 'index.html'));
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/parentportal/',
      wildcard: true,
      index: false,
      setHeaders: (res, path) => {
        res.header('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/parentportal/'));
  if (hasDist) {
    const sendIndex = (_req: unknown, reply: import('fastify').FastifyReply) =>
      reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
    app.get('/parentportal', { schema: { hide: true } }, sendIndex);
    app.get('/parentportal/', { schema: { hide: true } }, sendIndex);
  }

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    // history fallback: any deep link of the portal (not a missing asset) gets the app
    const isPortal = path === '/parentportal' || path.startsWith('/parentportal/');
    const isAsset = /\.[a-z0-9]+$/i.test(path) && !path.endsWith('.html');
    if (req.method === 'GET' && isPortal && !isAsset && hasDist) {
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply.status(404).send(errorBody(404, 'Not Found'));
  });

  app.addHook('onClose', async () => {
    declarations.close();
    await outboxSender?.stop();
  });

  return app;
}
