// One generic registrar: every operation of the API contract becomes a Fastify route
// (/api/<Service><path>) with the contract's schemas for querystring, params, body and response,
// and runs the same checks in the same order: release version, session, access type, special
// characters, form validation (engine, the browser's schema and rules, over the handler's
// facts), then the handler. The policy of each step is declared on the operation in
// schemas/api/*.api.json (releaseExempt, paymentOnly, temporaryAllowed, specialCharactersAllowed,
// rateLimit), not here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ContractOperation } from './contract';
import { isFileResponse } from './contract';
import type { AppDeps, FileResult, Handlers } from './context';
import { HttpError, INVALID_RELEASE_VERSION, TOKEN_EXPIRED, fail, httpError } from './errors';
import { resolveSession, type SessionInfo } from './auth';
import { programConfig, providerByAppName, ruleContextOf } from './domains/provider/provider';
import { pickLang } from './i18n';
import { findControlCharacter, findIllFormedText, findNonFiniteNumber, withInt4Bounds } from './inputChecks';
import { todayMdy } from './clock';
import { isRecord } from './json';

/**
 * A function whose parameter is compared both ways (a method's rule), so each operation's handler,
 * typed for its own request, fits the registrar's one shape.
 */
type EitherWay<C, R> = { call(c: C): R }['call'];

/**
 * A handler, called by the registrar alike for any operation: the contract's schemas have checked
 * the request's parts, so they are not typed per operation here.
 */
interface RouteHandler {
  facts?: EitherWay<Omit<RouteContext, 'form'>, Promise<Record<string, unknown>>>;
  ruleData?: EitherWay<Omit<RouteContext, 'form'>, Promise<Record<string, unknown>>>;
  ruleScreen?: EitherWay<Omit<RouteContext, 'form'>, Promise<{ flow?: Record<string, unknown>; query?: Record<string, unknown> }>>;
  handler: EitherWay<RouteContext, Promise<unknown>>;
}

interface RouteContext {
  req: FastifyRequest;
  reply: FastifyReply;
  deps: AppDeps;
  lang: string;
  session: SessionInfo | null;
  query: unknown;
  params: unknown;
  body: unknown;
  form: unknown;
}

function isFileResult(v: unknown): v is FileResult {
  return isRecord(v) && v.file instanceof Uint8Array && typeof v.fileName === 'string' && typeof v.contentType === 'string';
}

const SPECIAL = /[<>^]/;

export function findSpecialCharacter(value: unknown): string | null {
  if (typeof value === 'string') return SPECIAL.exec(value)?.[0] ?? null;
  if (Array.isArray(value)) {
    for (const v of value) {
      const c = findSpecialCharacter(v);
      if (c) return c;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) {
      const c = findSpecialCharacter(v);
      if (c) return c;
    }
  }
  return null;
}

/** Contract operations without a handler (or handlers without an operation) stop the start. */
export function checkHandlers(ops: ContractOperation[], handlers: Partial<Record<string, unknown>>): void {
  const missing = ops.filter((op) => !handlers[op.id]).map((op) => op.id);
  const extra = Object.keys(handlers).filter((id) => !ops.some((op) => op.id === id));
  if (missing.length || extra.length) {
    throw new Error(
      [
        missing.length ? `contract operations without a handler: ${missing.join(', ')}` : '',
        extra.length ? `handlers without a contract operation: ${extra.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; '),
    );
  }
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

/**
 * Outside production every answer is checked against the contract's response schema, so a handler
 * that drifts from the contract (and from the client types generated from it) fails its tests loudly
 * instead of being silently reshaped by the serializer.
 */
let responseAjv: Ajv | undefined;
function responseValidator(op: ContractOperation): ValidateFunction | null {
  if (isFileResponse(op)) return null;
  if (!responseAjv) {
    responseAjv = new Ajv({ allErrors: true, strict: false });
    addFormats(responseAjv);
  }
  return responseAjv.compile(op.response);
}

export function registerContract(app: FastifyInstance, ops: ContractOperation[], handlers: Handlers, deps: AppDeps): void {
  // the table is typed per operation; here every operation goes through the same steps
  const table: Record<string, RouteHandler> = handlers;
  checkHandlers(ops, table);
  for (const op of ops) {
    if (op.form && op.auth === 'public' && !requiresAppName(op)) {
      throw new Error(`${op.id}: a public operation with a form must require appName in its body (the provider whose declarations validate it)`);
    }
    const checkResponse = deps.production ? null : responseValidator(op);
    const def = table[op.id];
    // the query's lists: one value, the name repeated (the schemas' coercion makes both a list), or
    // one empty value for an empty list (what the browser's client sends for one)
    const properties = op.query?.properties;
    const lists = Object.entries(isRecord(properties) ? properties : {})
      .filter(([, p]) => isRecord(p) && p.type === 'array')
      .map(([name]) => name);
    const schema: Record<string, unknown> = { operationId: op.id, tags: [op.service] };
    if (op.summary) schema.summary = op.summary;
    // an integer without a declared range is an int4 column's value
    if (op.query) schema.querystring = withInt4Bounds(op.query);
    if (op.params) schema.params = withInt4Bounds(op.params);
    if (op.body) schema.body = withInt4Bounds(op.body);
    if (!isFileResponse(op)) schema.response = { 200: op.response };
    if (op.auth !== 'public') schema.security = [{ bearer: [] }];

    app.route({
      method: op.method,
      url: op.url,
      schema,
      config: op.rateLimit ? { rateLimit: op.rateLimit } : { rateLimit: false },
      // text that is not well-formed Unicode (a lone surrogate) is bad input everywhere, before the
      // schemas look at it: PostgreSQL's text and jsonb refuse it
      preValidation: async (req) => {
        const query = isRecord(req.query) ? req.query : {};
        for (const name of lists) {
          const v = query[name];
          if (v === '' || (Array.isArray(v) && v.every((x) => x === ''))) query[name] = [];
        }
        for (const part of [req.params, req.query, req.body]) {
          if (findIllFormedText(part) !== null) {
            fail({ deps, lang: pickLang(req.headers['accept-language']) }, 400, 'server.errors.invalidText');
          }
        }
      },
      // what the schemas let through: a number that is not finite is what coercion made of
      // "Infinity" or "1e999", which ajv's range checks skip
      preHandler: async (req) => {
        for (const part of [req.params, req.query, req.body]) {
          const at = findNonFiniteNumber(part);
          if (at !== null) {
            fail({ deps, lang: pickLang(req.headers['accept-language']) }, 400, 'server.errors.validation', undefined, { errors: [{ path: at, key: 'errors.type' }] });
          }
        }
      },
      handler: async (req, reply) => {
        const lang = pickLang(req.headers['accept-language']);
        const release = req.headers['x-release-version'];
        if (release !== undefined && release !== '' && release !== deps.releaseVersion && !op.releaseExempt) {
          throw new HttpError(401, INVALID_RELEASE_VERSION);
        }

        let session: SessionInfo | null = null;
        const token = bearer(req);
        if (op.auth !== 'public' || token) {
          session = token ? await resolveSession(deps.db, deps.clock, token) : null;
          if (op.auth !== 'public') {
            if (!token) throw new HttpError(401, 'Unauthorized', { key: 'server.errors.unauthorized' });
            if (!session) throw new HttpError(401, TOKEN_EXPIRED);
            // a temporary-password session may only change its password
            if (op.auth === 'session' && session.isTemporaryPassword && !op.temporaryAllowed) {
              throw httpError({ deps, lang }, 403, 'server.errors.temporaryOnly');
            }
            if (session.accessType === 'P' && !op.paymentOnly) {
              throw httpError({ deps, lang }, 403, 'server.errors.forbidden');
            }
          }
        }

        const body = req.body;
        // NUL and other control characters are bad input everywhere (PostgreSQL refuses 0x00 in text)
        const control = findControlCharacter([req.query, req.params, body]);
        if (control) throw httpError({ deps, lang }, 422, 'server.errors.controlCharacter', { character: control });
        if (body !== undefined && op.method !== 'GET' && !op.specialCharactersAllowed) {
          const c = findSpecialCharacter(body);
          if (c) throw httpError({ deps, lang }, 422, 'server.errors.specialCharacter', { character: c });
        }

        const ctx: RouteContext = { req, reply, deps, lang, session, query: req.query, params: req.params, body, form: undefined };
        if (op.form) {
          // the same context the browser's rules see: provider configuration and session fields
          const rc = session ? await ruleContextOf(deps.db, session, deps.releaseVersion) : await publicRuleContext(deps, body);
          const decl = deps.declarations.get(rc.appName);
          // no good declaration set was ever built: the server cannot validate, so it refuses writes
          if (!decl) throw httpError({ deps, lang }, 503, 'server.errors.declarationsUnavailable');
          // the server's facts win over whatever the client sent for the same fields
          const facts = def.facts ? await def.facts(ctx) : {};
          const values = { ...(isRecord(body) ? body : {}), ...facts };
          const data = def.ruleData ? await def.ruleData(ctx) : undefined;
          const screen = def.ruleScreen ? await def.ruleScreen(ctx) : {};
          const result = decl.engine.validate(op.form, values, {
            ...(screen.flow !== undefined ? { flow: screen.flow } : {}),
            ...(screen.query ? { query: screen.query } : {}),
            session: rc.session,
            provider: rc.provider,
            today: todayMdy(deps.today),
            ...(data ? { data } : {}),
          });
          if (!result.valid) {
            fail({ deps, lang }, 400, 'server.errors.validation', undefined, { errors: result.errors.map((e) => ({ path: e.path, key: e.key, params: e.params })) });
          }
          ctx.form = result;
        }

        const result = await def.handler(ctx);
        if (isFileResponse(op)) {
          if (!isFileResult(result)) throw new Error(`${op.id}: the answer is not a file`);
          const f = result;
          const safeName = f.fileName.replace(/["\\\r\n]/g, '_');
          reply
            .header('content-type', f.contentType)
            .header('content-disposition', `attachment; filename="${safeName}"; filename*=UTF-8''${encodeURIComponent(f.fileName)}`)
            .header('cache-control', 'private, no-store');
          return reply.send(Buffer.from(f.file));
        }
        if (checkResponse && reply.statusCode === 200 && !checkResponse(result)) {
          const detail = (checkResponse.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
          throw new Error(`${op.id}: the answer does not match the contract's response schema: ${detail}`);
        }
        return result;
      },
    });
  }
}

/** A public write names its provider in the body (appName): its declarations validate the form. */
async function publicRuleContext(deps: AppDeps, body: unknown) {
  const p = await providerByAppName(deps.db, String((isRecord(body) ? body.appName : undefined) ?? ''));
  return { appName: p.appName, provider: programConfig(p), session: {} };
}

function requiresAppName(op: ContractOperation): boolean {
  const required = op.body?.required;
  return Array.isArray(required) && required.includes('appName');
}
