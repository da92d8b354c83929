// One generic registrar: every operation of the API contract becomes a Fastify route
// (/api/<Service><path>) with the contract's schemas for querystring, params, body and response,
// and runs the same checks in the same order: release version, session, access type, special
// characters, form validation (engine, same schema and rules as the browser), then the handler.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ContractOperation } from './contract';
import { isFileResponse } from './contract';
import type { AppDeps, FileResult, HandlerContext, HandlerDef, ServiceHandlers } from './context';
import { HttpError, INVALID_RELEASE_VERSION, TOKEN_EXPIRED } from './errors';
import { resolveSession, type SessionInfo } from './auth';
import { programConfig, providerByAppName, ruleContextOf } from './services/common';
import { pickLang } from './i18n';

/** Operations that must answer even to a stale client. */
const RELEASE_EXEMPT = new Set(['Customer.version', 'Customer.errorlog', 'Customer.serverDate']);
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
export function checkHandlers(ops: ContractOperation[], handlers: ServiceHandlers): void {
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

function mdy(d: Date): string {
  return `${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}/${d.getFullYear()}`;
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

export function registerContract(app: FastifyInstance, ops: ContractOperation[], handlers: ServiceHandlers, deps: AppDeps): void {
  checkHandlers(ops, handlers);
  for (const op of ops) {
    const checkResponse = deps.production ? null : responseValidator(op);
    const def: HandlerDef = handlers[op.id];
    const schema: Record<string, unknown> = { operationId: op.id, tags: [op.service] };
    if (op.summary) schema.summary = op.summary;
    if (op.query) schema.querystring = op.query;
    if (op.params) schema.params = op.params;
    if (op.body) schema.body = op.body;
    if (!isFileResponse(op)) schema.response = { 200: op.response };
    if (op.auth !== 'public') schema.security = [{ bearer: [] }];

    app.route({
      method: op.method,
      url: op.url,
      schema,
      config: def.rateLimit ? { rateLimit: def.rateLimit } : { rateLimit: false },
      handler: async (req, reply) => {
        const lang = pickLang(req.headers['accept-language']);
        const release = req.headers['x-release-version'];
        if (release !== undefined && release !== '' && release !== deps.releaseVersion && !RELEASE_EXEMPT.has(op.id)) {
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
            if (op.auth === 'session' && session.isTemporaryPassword && !def.temporaryAllowed) {
              throw new HttpError(403, deps.t(lang, 'errors.temporaryOnly'), { key: 'server.errors.temporaryOnly' });
            }
            if (session.accessType === 'P' && !def.paymentOnly) {
              throw new HttpError(403, deps.t(lang, 'errors.forbidden'), { key: 'server.errors.forbidden' });
            }
          }
        }

        const body = req.body;
        if (body !== undefined && op.method !== 'GET' && !def.allowSpecialCharacters) {
          const c = findSpecialCharacter(body);
          if (c) throw new HttpError(422, deps.t(lang, 'errors.specialCharacter', { character: c }), { key: 'server.errors.specialCharacter' });
        }

        let form: HandlerContext['form'];
        if (op.form) {
          // the same context the browser's rules see: provider configuration and session fields
          const rc = session ? await ruleContextOf(deps.db, session, deps.releaseVersion) : await publicRuleContext(deps, def, body);
          const decl = deps.declarations.get(rc.appName);
          // no good declaration set was ever built: the server cannot validate, so it refuses writes
          if (!decl) throw new HttpError(503, deps.t(lang, 'errors.declarationsUnavailable'), { key: 'server.errors.declarationsUnavailable' });
          const result = decl.engine.validate(op.form, body, { session: rc.session, provider: rc.provider, today: mdy(deps.clock()) });
          if (!result.valid) {
            throw new HttpError(400, deps.t(lang, 'errors.validation'), {
              key: 'server.errors.validation',
              errors: result.errors.map((e) => ({ path: e.path, key: e.key, params: e.params })),
            });
          }
          form = result;
        }

        const result = await def.handler({ req, reply, deps, lang, session, query: req.query, params: req.params, body, form });
        if (isFileResponse(op)) {
          const f = result as FileResult;
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

async function publicRuleContext(deps: AppDeps, def: HandlerDef, body: unknown) {
  if (def.providerFrom !== 'body.appName') throw new Error('a public operation with a form must name its provider (providerFrom)');
  const p = await providerByAppName(deps.db, String((body as { appName?: unknown })?.appName ?? ''));
  return { appName: p.appName, provider: programConfig(p), session: {} };
}
