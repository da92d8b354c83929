// The API client against a real HTTP server: URL building, headers, error mapping, downloads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { ApiError, createApiClient, fileNameFromDisposition, firstMessagePart, splitParams, type ApiClient } from '../../../src/api/client';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

let app: FastifyInstance;
let base = '';
const seen: Seen[] = [];
const errors: ApiError[] = [];

beforeAll(async () => {
  app = Fastify();
  app.addHook('onRequest', async (req) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers, body: undefined });
  });
  app.get('/api/Communication/history', async (req) => ({ items: [], echo: req.query }));
  app.post('/api/Authentication/login', async (req, reply) => {
    seen[seen.length - 1].body = req.body;
    const b = req.body as { password?: string };
    if (b.password !== 'right') return reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'Wrong e-mail or password|||attempt 3 of 5' });
    return { token: 'tok' };
  });
  app.get('/api/Communication/forms/download/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    if (id === '404') return reply.code(404).send('not here');
    reply.header('content-type', 'application/pdf');
    reply.header('content-disposition', `attachment; filename="form-${id}.pdf"; filename*=UTF-8''formul%C3%A1rio-${id}.pdf`);
    return reply.send(Buffer.from('%PDF-1.4 test'));
  });
  app.get('/api/Customer/program', async (_req, reply) => reply.code(500).send({ statusCode: 500, error: 'Internal Server Error', message: 'There is no configuration data for brightx|||trace-id 9' }));
  app.get('/api/Communication/bulletin', async (_req, reply) => reply.code(204).send());
  app.get('/api/ParentApplication/application/status', async () => ({ ok: true }));
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
});

function client(token: string | null = 'abc123', extra: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  return createApiClient({
    getToken: () => token,
    getLocale: () => 'es',
    releaseVersion: '2026.11.1',
    onError: (e) => errors.push(e),
    baseUrl: base,
    ...extra,
  });
}

describe('API client', () => {
  it('sends token, language and release version to /api/<Service><path> with the query', async () => {
    seen.length = 0;
    const res = await client().call('Communication.history', { query: { StartDate: '01/01/2026', ShowAutoMail: true, EndDate: undefined } });
    expect(res).toMatchObject({ items: [], echo: { StartDate: '01/01/2026', ShowAutoMail: 'true' } });
    const h = seen[0].headers;
    expect(seen[0].method).toBe('GET');
    expect(seen[0].url).toBe('/api/Communication/history?StartDate=01%2F01%2F2026&ShowAutoMail=true');
    expect(h.authorization).toBe('Bearer abc123');
    expect(h['accept-language']).toBe('es');
    expect(h['x-release-version']).toBe('2026.11.1');
  });

  it('sends no Authorization header when signed out, and JSON bodies on writes', async () => {
    seen.length = 0;
    const res = await client(null).call('Authentication.login', { body: { appName: 'brightpath', email: 'a@b.c', password: 'right' } });
    expect(res).toEqual({ token: 'tok' });
    expect(seen[0].headers.authorization).toBeUndefined();
    expect(seen[0].headers['content-type']).toContain('application/json');
    expect(seen[0].body).toEqual({ appName: 'brightpath', email: 'a@b.c', password: 'right' });
  });

  it("maps an error body to ApiError with the message before '|||' and calls onError", async () => {
    errors.length = 0;
    const err = await client(null)
      .call('Authentication.login', { body: { appName: 'x', email: 'a@b.c', password: 'wrong' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, message: 'Wrong e-mail or password', op: 'Authentication.login' });
    expect((err as ApiError).data).toMatchObject({ error: 'Unauthorized' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBe(err);
  });

  it('keeps the no-configuration message for the shell and skips onError for silent calls', async () => {
    errors.length = 0;
    const err = (await client().call('Customer.program', { query: { appName: 'brightx' }, silent: true }).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(500);
    expect(err.message).toBe('There is no configuration data for brightx');
    expect(errors).toHaveLength(0);
  });

  it('uses the status text when the body has no message (404 with a text body keeps the text)', async () => {
    const err = (await client().fetchFile('Communication.formDownload', { params: { id: 404 }, silent: true }).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(404);
    expect(err.message).toBe('not here');
    expect(err.url).toContain('/api/Communication/forms/download/404');
  });

  it('answers undefined for 204', async () => {
    await expect(client().call('Communication.bulletins')).resolves.toBeUndefined();
  });

  it('turns a refused connection into a network ApiError', async () => {
    errors.length = 0;
    const err = (await client('t', { baseUrl: 'http://127.0.0.1:9' }).call('Communication.bulletins').catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, message: 'Network Error', network: true });
    expect(errors).toEqual([err]);
  });

  it('fills path parameters and reads the file name of downloads', async () => {
    seen.length = 0;
    const file = await client().fetchFile('Communication.formDownload', { params: { id: 7 } });
    expect(seen[0].url).toBe('/api/Communication/forms/download/7');
    expect(file.type).toBe('application/pdf');
    expect(file.fileName).toBe('formulário-7.pdf');
    expect(await file.blob.text()).toBe('%PDF-1.4 test');
  });

  it('refuses a call with a missing path parameter before sending', async () => {
    seen.length = 0;
    // @ts-expect-error the contract requires the form's id: a call without it does not compile either
    await expect(client().fetchFile('Communication.formDownload', {})).rejects.toThrow('Missing path parameter id');
    expect(seen).toHaveLength(0);
  });

  it('adds prAccountID and programPeriodID of the stored application for keyed ParentApplication calls', async () => {
    seen.length = 0;
    const c = client('t', { getApplication: (key) => (key === 'abcdef0123456789' ? { prAccountID: 31, programPeriodID: 4 } : undefined) });
    await c.call('ParentApplication.status', { query: { key: 'abcdef0123456789' } });
    expect(seen[0].headers.praccountid).toBe('31');
    expect(seen[0].headers.programperiodid).toBe('4');
    seen.length = 0;
    await c.call('ParentApplication.status', { query: { key: 'ffff0000ffff0000' } });
    expect(seen[0].headers.praccountid).toBeUndefined();
  });
});

describe('loading counter hooks', () => {
  it('raises and lowers per request, also on failures, unless ignored', async () => {
    const events: string[] = [];
    const c = client('t', { onRequest: (op) => events.push(`+${op}`), onSettled: (op) => events.push(`-${op}`) });
    await c.call('Communication.history', { query: {} });
    await c.call('Customer.program', { query: { appName: 'x' }, silent: true }).catch(() => undefined);
    await c.call('Communication.history', { query: {}, ignoreLoading: true });
    await createApiClient({ getToken: () => null, getLocale: () => 'en', releaseVersion: '', baseUrl: 'http://127.0.0.1:9', onRequest: () => events.push('+net'), onSettled: () => events.push('-net') })
      .call('Communication.bulletins')
      .catch(() => undefined);
    expect(events).toEqual(['+Communication.history', '-Communication.history', '+Customer.program', '-Customer.program', '+net', '-net']);
  });
});

describe('client helpers', () => {
  it("splits '|||' messages", () => {
    expect(firstMessagePart('A|||B|||C')).toBe('A');
    expect(firstMessagePart('plain')).toBe('plain');
  });
  it('splits flat screen params into path params and query', () => {
    expect(splitParams('Communication.formDownload', { id: 3, x: 'y' })).toEqual({ params: { id: 3 }, query: { x: 'y' } });
  });
  it('reads Content-Disposition file names', () => {
    expect(fileNameFromDisposition('attachment; filename="a b.pdf"')).toBe('a b.pdf');
    expect(fileNameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameFromDisposition(null)).toBeUndefined();
  });
});
