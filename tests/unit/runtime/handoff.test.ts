// The handOff effect (spec 4 redirect flows) with the real API client against a local server: a
// product without a host goes to the configuration error page without asking for a token; the parent
// application's address gets its host, the keyelement and a cache-busting value; a failed token
// request throws (the error shows) and nothing navigates. Also navigate's and download's rule values.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DeclarationSet, Effect } from '../../../src/engine/types';
import { createApiClient } from '../../../src/api/client';
import { createEffectRunner, PRODUCT_HOST_MISSING, type EffectDeps } from '../../../src/runtime/effects';
import { defaultSession } from '../../../src/state/session';

const set = {
  schemas: {},
  screens: {},
  rules: {
    'x.pending': { logic: { if: [{ '===': [{ var: ['item.blocked', false] }, true] }, 1, 0] } },
    'x.reportType': { logic: { upper: { var: ['item.enrollmentOption', ''] } } },
  },
} as unknown as DeclarationSet;

let app: FastifyInstance;
let base = '';
const received: { url: string; body: unknown }[] = [];
let tokenFails = false;

beforeAll(async () => {
  app = Fastify();
  app.get('/api/Customer/product', async (req) => {
    received.push({ url: req.url, body: undefined });
    const name = (req.query as { productname: string }).productname;
    return name === 'parentapplication' ? { productname: name, iisName: name, path: '/parentapplication/', host: 'https://apps.example.org' } : { productname: name, iisName: name, path: `/${name}/`, host: null };
  });
  app.post('/api/Registration/program/redirection-url', async (req) => {
    received.push({ url: req.url, body: req.body });
    return { parentApplicationUrl: '{{applicationHost}}/parentapplication/?appName=brightpath&programPeriodID=12&destination=INSTRUCTION' };
  });
  app.post('/api/Registration/program/application-token', async (req, reply) => {
    received.push({ url: req.url, body: req.body });
    if (tokenFails) return reply.code(409).send({ statusCode: 409, message: 'This service is not set up for your program yet.' });
    return { keyelement: 'k'.repeat(43), expiresAt: new Date().toISOString() };
  });
  app.get('/api/Registration/programperiods/report/download', async (req, reply) => {
    received.push({ url: req.url, body: undefined });
    return reply.header('content-type', 'application/pdf').send(Buffer.from('%PDF-1.4'));
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());
beforeEach(() => {
  received.length = 0;
  tokenFails = false;
});

function harness(item: Record<string, unknown> = {}) {
  const calls: string[] = [];
  const session = { ...defaultSession, appName: 'brightpath', accountID: 7, customerID: 1001, userName: 'maria.garcia@example.com', locale: 'es', releaseVersion: '9.9.9' };
  const api = createApiClient({ getToken: () => 't', getLocale: () => 'es', releaseVersion: '1', baseUrl: base, onError: (e) => calls.push(`onError:${e.status}`) });
  const deps: EffectDeps = {
    set,
    api: { ...api, download: async (op, args) => void calls.push(`download:${op}:${JSON.stringify(args.query)}`) },
    engine: null,
    getCtx: () => ({ query: {}, session: session as unknown as Record<string, unknown>, provider: {}, data: {}, form: {}, flow: {}, item }),
    forms: () => [],
    navigate: (to, query) => calls.push(`navigate:${to}:${JSON.stringify(query)}`),
    openModal: () => undefined,
    closeModal: () => undefined,
    signOut: () => undefined,
    reload: () => undefined,
    updateSession: () => undefined,
    setPageError: () => undefined,
    pickFile: async () => null,
    setUpload: () => undefined,
    setUploadError: () => undefined,
    assignLocation: (url) => calls.push(`location:${url}`),
    origin: 'https://portal.example',
  };
  return { calls, runner: createEffectRunner(deps) };
}

const register: Effect = { type: 'handOff', product: 'parentapplication', programPeriodID: '$item.programPeriodID', source: 'PROGRAMLIST', destination: 'INSTRUCTION', returnTo: '/programlist' };

describe('handOff', () => {
  it('a product without a host goes to the configuration error page and asks for no token', async () => {
    const { calls, runner } = harness({ programPeriodID: 12 });
    await runner.run({ ...register, product: 'calendar' } as Effect);
    expect(calls).toEqual([`navigate:/configurationerror:${JSON.stringify({ errorcode: PRODUCT_HOST_MISSING, productname: 'calendar' })}`]);
    expect(received.map((r) => r.url)).toEqual(['/api/Customer/product?productname=calendar']);
  });

  it('the punch pass of a provider without it: the configuration error page with its kind', async () => {
    const { calls, runner } = harness({ programPeriodID: 12 });
    await runner.run({ ...register, product: 'punchpass', destination: 'ENROLL' } as Effect);
    expect(calls).toEqual([`navigate:/configurationerror:${JSON.stringify({ errorcode: PRODUCT_HOST_MISSING, productname: 'punchpass' })}`]);
    expect(received.map((r) => r.url)).toEqual(['/api/Customer/product?productname=punchpass']);
  });

  it('the parent application: its host in the address, then the token, then the keyelement and a cache-busting value', async () => {
    const { calls, runner } = harness({ programPeriodID: 12 });
    await runner.run(register);
    expect(received.map((r) => r.url)).toEqual(['/api/Customer/product?productname=parentapplication', '/api/Registration/program/redirection-url', '/api/Registration/program/application-token']);
    expect(received[1].body).toEqual({ programPeriodID: 12, user: 'maria.garcia@example.com', userType: 'PARENT', source: 'PROGRAMLIST', destination: 'INSTRUCTION', accountID: 7, applicationName: 'brightpath' });
    const tokenBody = received[2].body as { product: string; programPeriodID: number; accountID: number; ApplicationTokenString: string };
    expect(tokenBody).toMatchObject({ product: 'parentapplication', programPeriodID: 12, accountID: 7 });
    expect(JSON.parse(tokenBody.ApplicationTokenString)).toMatchObject({ applicationName: 'brightpath', locale: 'es', programPeriodID: 12, returnUrl: 'https://portal.example/parentportal/programlist', menu: '/programlist', accountID: 7, customerID: 1001 });
    // the portal's own session token never goes to the product
    expect(JSON.parse(tokenBody.ApplicationTokenString).token).toBeUndefined();
    expect(calls).toHaveLength(1);
    const url = new URL(calls[0].slice('location:'.length));
    expect(url.origin + url.pathname).toBe('https://apps.example.org/parentapplication/');
    expect(url.searchParams.get('keyelement')).toBe('k'.repeat(43));
    expect(url.searchParams.get('_')).toMatch(/^\d+$/);
  });

  it('a failed token request throws and nothing navigates', async () => {
    tokenFails = true;
    const { calls, runner } = harness({ programPeriodID: 12 });
    await expect(runner.run(register)).rejects.toThrow();
    expect(calls.filter((c) => c.startsWith('location:') || c.startsWith('navigate:'))).toEqual([]);
  });

  it('navigate and download take values from rules (the pending flag, the report type)', async () => {
    const { calls, runner } = harness({ programPeriodID: 12, blocked: true, enrollmentOption: 't' });
    await runner.run({ type: 'navigate', to: '/viewenrollment', query: { programPeriodID: '$item.programPeriodID' }, queryRules: { IsPending: 'x.pending' } });
    await runner.run({ type: 'download', op: 'Registration.programReport', params: { programPeriodID: '$item.programPeriodID' }, paramRules: { reportType: 'x.reportType' } });
    expect(calls).toEqual(['navigate:/viewenrollment:{"programPeriodID":12,"IsPending":1}', 'download:Registration.programReport:{"programPeriodID":12,"reportType":"T"}']);
  });
});
