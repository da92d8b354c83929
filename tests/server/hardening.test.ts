// The defects an attack from outside found, each kept fixed: development routes off unless
// switched on, links never from the Host header, control characters and deep bodies refused as bad
// input, ids beyond int4 refused, no-store on answers with tokens, header fields on one line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, FAST_ARGON2, freshIp, login, tokenFor, MARIA, KAREN, type TestApp } from './helpers';
import { buildApp } from '../../server/app';
import { communications, masterItems, outbox, providers } from '../../server/db/schema';
import { jsonDepth, MAX_BODY_DEPTH } from '../../server/inputChecks';

describe('json depth scan', () => {
  it('counts nesting outside strings only', () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[["}]}')).toBe(3);
    expect(jsonDepth('"{{{{"')).toBe(0);
    expect(jsonDepth('{"a":"\\"{{"}')).toBe(1);
    expect(jsonDepth('['.repeat(100_000), MAX_BODY_DEPTH)).toBe(MAX_BODY_DEPTH + 1);
  });
});

describe.each(BACKENDS)('hardening on %s', (backend) => {
  let t: TestApp;
  let maria: string;
  beforeAll(async () => {
    t = await createTestApp(backend, { port: 8123, publicUrl: '' });
    maria = await tokenFor(t.app, ...MARIA);
  });
  afterAll(async () => t?.close());

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  it('has no development routes unless they are switched on', async () => {
    const plain = await buildApp({ db: t.db.handle.db, argon2: FAST_ARGON2, production: false });
    try {
      expect((await plain.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
      // nor a check-in recorded by anyone (attendance's, the provider's)
      expect((await plain.inject({ method: 'POST', url: '/api/dev/punchpass-checkin', payload: { appName: 'brightpath', childID: 1, programPeriodID: 1 } })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(200);
  });

  it('never builds links from the Host header', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Authentication/forgot-password',
      headers: { host: 'evil.example' },
      payload: { appName: KAREN[0], email: KAREN[1] },
      remoteAddress: freshIp(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await t.db.handle.db.select().from(outbox).where(eq(outbox.toAddress, KAREN[1])).orderBy(desc(outbox.id)).limit(1);
    expect(mail.textBody).not.toContain('evil.example');
    // without a public address: where the server listens (HOST, 127.0.0.1 by default), as it prints
    expect(mail.textBody).toContain('http://127.0.0.1:8123/parentportal/brightpath/parent?next=');
  });

  it('refuses NUL and other control characters in bodies, queries and paths as bad input', async () => {
    const body = await t.app.inject({ method: 'POST', url: '/api/Communication/sendmail', headers: auth(maria), payload: { subjectID: 'Hi\u0000there', message: 'x' } });
    expect(body.statusCode, body.body).toBe(422);
    expect(body.json().key).toBe('server.errors.controlCharacter');
    expect(body.json().message).toContain('U+0000');
    // even where < > ^ are allowed (diagnostic records)
    const log = await t.app.inject({ method: 'POST', url: '/api/Customer/errorlog', payload: { appName: 'brightpath', PageName: 'home', Url: '/x', Source: 'PARENT PORTAL', Message: 'a\u0000b', StackTrace: '<x>' }, remoteAddress: freshIp() });
    expect(log.statusCode).toBe(422);
    const query = await t.app.inject({ method: 'GET', url: '/api/Customer/program?appName=bright%00path', remoteAddress: freshIp() });
    expect(query.statusCode).toBe(422);
    const login = await t.app.inject({ method: 'POST', url: '/api/Authentication/login', payload: { appName: 'brightpath', email: 'a\u0000@example.com', password: 'x' }, remoteAddress: freshIp() });
    expect(login.statusCode).toBeLessThan(500);
    expect(login.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('refuses ids beyond the int4 column as bad input', async () => {
    for (const url of ['/api/Demographics/adults/details/2147483648', '/api/Demographics/adults?AdultID=2147483648', '/api/Communication/bulletin/99999999999']) {
      const res = await t.app.inject({ method: 'GET', url, headers: auth(maria) });
      expect(res.statusCode, url).toBe(400);
    }
    const body = await t.app.inject({ method: 'POST', url: '/api/Demographics/adults/pin', headers: auth(maria), payload: { mode: 'edit', pin: '1234', adultIDs: [2 ** 31] } });
    expect(body.statusCode, body.body).toBe(400);
    // the largest int4 is a well-formed id that names nothing of this account
    const max = await t.app.inject({ method: 'GET', url: '/api/Demographics/adults/details/2147483647', headers: auth(maria) });
    expect([403, 404]).toContain(max.statusCode);
  });

  it('bounds the depth of every body, signed in or not', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    for (const url of ['/api/Authentication/login', '/api/Communication/sendmail']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { ...auth(maria), 'content-type': 'application/json' }, payload: deep, remoteAddress: freshIp() });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().key).toBe('server.errors.tooDeep');
    }
    const nested = (n: number): unknown => (n === 0 ? 'x' : { a: nested(n - 1) });
    const ok = await t.app.inject({ method: 'POST', url: '/api/Customer/errorlog', payload: { appName: 'brightpath', Message: 'm', Source: nested(MAX_BODY_DEPTH - 1) } as object, remoteAddress: freshIp() });
    // within the bound the body is parsed and answered by validation (Source is a fixed text)
    expect(ok.statusCode).toBe(400);
    expect(ok.json().key).toBe('server.errors.validation');
  });

  it('lets no cache store an answer with a token or personal data', async () => {
    const res = await login(t.app, ...MARIA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const adults = await t.app.inject({ method: 'GET', url: '/api/Demographics/adults', headers: auth(maria) });
    expect(adults.headers['cache-control']).toBe('no-store');
    const refused = await login(t.app, 'brightpath', MARIA[1], 'Wrong#Password1');
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('stores and sends the contact-us subject on one line', async () => {
    const send = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/Communication/sendmail', headers: auth(maria), payload });
    // a parent cannot write the subject: it is one of the provider's
    const free = await send({ subjectID: 'Hi\r\nBcc: v@e.example', message: 'x' });
    expect(free.statusCode).toBe(400);
    expect(free.json().errors).toEqual([{ path: '/subjectID', key: 'errors.enum' }]);
    // and a provider's subject text with a line break still goes out on one line
    const [subject] = await t.db.handle.db.insert(masterItems).values({ providerId: (await t.db.handle.db.select().from(providers).where(eq(providers.appName, 'brightpath')))[0].id, list: 'contact-subject', code: '77', text: 'Pick-up\r\nBcc: victim@example.com', sortOrder: 77 }).returning();
    const res = await send({ subjectID: subject.code, message: 'Line one\nLine two' });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.db.handle.db.select().from(communications).where(eq(communications.id, res.json().communicationID));
    expect(row.subject).toBe('Pick-up Bcc: victim@example.com');
    const [mail] = await t.db.handle.db.select().from(outbox).where(eq(outbox.kind, 'contact_us')).orderBy(desc(outbox.id)).limit(1);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.textBody).toContain('Line one\nLine two');
  });
});
