// The hand-off to the provider's other products (spec 4 redirect flows, 7.3; amendment 4): products and
// their hosts, the parent application's address, and the one-time keyelement: random, stored only as
// its SHA-256, single use, expiring within a minute, redeemed only by its own provider and only with
// the portal session that asked for it (no other browser is signed in by it); every id is checked
// against the signed-in account and provider. Also the programs list's report download.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, createTestApp, testClock, tokenFor, ANA, KAREN, LINH, MARIA, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { hashKeyelement, TOKEN_TTL_MS } from '../../server/domains/enrolment/handoff';

describe.each(BACKENDS)('hand-off on %s', (backend) => {
  let t: TestApp;
  const clock = testClock(new Date('2026-11-23T15:00:00Z'));
  const tokens = { maria: '', karen: '', linh: '', ana: '' };
  let maria = { account: 0, programPeriod: 0 };
  let linhProgram = 0;
  let linhAccount = 0;
  let karenAccount = 0;

  beforeAll(async () => {
    t = await createTestApp(backend, { clock: clock.clock });
    tokens.maria = await tokenFor(t.app, ...MARIA);
    tokens.karen = await tokenFor(t.app, ...KAREN);
    tokens.linh = await tokenFor(t.app, ...LINH);
    tokens.ana = await tokenFor(t.app, ...ANA);
    const db = t.db.handle.db;
    const [m] = await db.select().from(s.adults).where(eq(s.adults.email, MARIA[1]));
    const [k] = await db.select().from(s.adults).where(eq(s.adults.email, KAREN[1]));
    const [l] = await db.select().from(s.adults).where(eq(s.adults.email, LINH[1]));
    const [pp] = await db.select().from(s.programPeriods).where(and(eq(s.programPeriods.providerId, m.providerId), eq(s.programPeriods.programPeriod, 'Summer Adventure Camp')));
    const [lpp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.providerId, l.providerId)).orderBy(asc(s.programPeriods.id)).limit(1);
    maria = { account: m.accountId, programPeriod: pp.id };
    karenAccount = k.accountId;
    linhProgram = lpp.id;
    linhAccount = l.accountId;
  });
  afterAll(async () => t?.close());

  const as = (token: string | null) => (token ? { authorization: `Bearer ${token}` } : {});
  const tokenString = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ applicationName: 'brightpath', locale: 'es', programPeriodID: maria.programPeriod, accountID: maria.account, returnUrl: 'http://localhost/parentportal/programlist', menu: '/programlist', userName: MARIA[1], version: '9.9.9', ...extra });
  const issue = (token: string, body: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/Registration/program/application-token',
      headers: as(token),
      payload: { product: 'parentapplication', programPeriodID: maria.programPeriod, accountID: maria.account, ApplicationTokenString: tokenString(), ...body },
    });
  // a punch pass keyelement Linh asks for: Northridge has no punch pass product
  const issueLinhPunchPass = () =>
    issue(tokens.linh, { product: 'punchpass', programPeriodID: linhProgram, accountID: linhAccount, ApplicationTokenString: tokenString({ applicationName: 'northridge', programPeriodID: linhProgram, accountID: linhAccount, userName: LINH[1] }) });
  // the browser that asked for the keyelement redeems it with the session it asked with (maria's unless given)
  const redeem = (keyelement: string, appName = 'brightpath', lang = 'en', token: string | null = tokens.maria, product = 'parentapplication') =>
    t.app.inject({ method: 'POST', url: '/api/Registration/program/application-token/details', headers: { 'accept-language': lang, ...as(token) }, payload: { appName, keyelement, product } });

  it('tells where each product is served: the parent application, the one-time enrolment, the calendar and the punch pass here; a product a provider does not name not configured', async () => {
    const get = async (productname: string, token = tokens.maria) => (await t.app.inject({ method: 'GET', url: `/api/Customer/product?productname=${productname}`, headers: as(token) })).json();
    expect(await get('parentapplication')).toEqual({ productname: 'parentapplication', iisName: 'parentapplication', path: '/parentapplication/', host: t.app.deps.linkBase });
    expect(await get('onetimeenrollment')).toEqual({ productname: 'onetimeenrollment', iisName: 'onetimeenrollment', path: '/onetimeenrollment/', host: t.app.deps.linkBase });
    // the calendar product's own path is never the portal's /calendar events screen
    expect(await get('calendar')).toEqual({ productname: 'calendar', iisName: 'flexcalendar', path: '/flexcalendar/', host: t.app.deps.linkBase });
    expect(await get('punchpass')).toEqual({ productname: 'punchpass', iisName: 'punchpass', path: '/punchpass/', host: t.app.deps.linkBase });
    // Northridge has no punch pass product
    expect((await get('punchpass', tokens.linh)).host).toBeNull();
    const anon = await t.app.inject({ method: 'GET', url: '/api/Customer/product?productname=calendar' });
    expect(anon.statusCode).toBe(401);
  });

  it('answers the parent application address with the host placeholder; ids are checked', async () => {
    const body = { programPeriodID: maria.programPeriod, user: MARIA[1], userType: 'PARENT', source: 'PROGRAMLIST', destination: 'INSTRUCTION', accountID: maria.account, applicationName: 'brightpath' };
    const ok = await t.app.inject({ method: 'POST', url: '/api/Registration/program/redirection-url', headers: { ...as(tokens.maria), 'accept-language': 'es' }, payload: body });
    expect(ok.statusCode, ok.body).toBe(200);
    const url = ok.json().parentApplicationUrl as string;
    expect(url.startsWith('{{applicationHost}}/parentapplication/?')).toBe(true);
    expect(new URLSearchParams(url.split('?')[1]).get('destination')).toBe('INSTRUCTION');
    expect(new URLSearchParams(url.split('?')[1]).get('lang')).toBe('es');
    for (const [token, payload] of [
      [tokens.maria, { ...body, accountID: karenAccount }],
      [tokens.maria, { ...body, programPeriodID: linhProgram }],
      [tokens.karen, body],
      [tokens.linh, body],
      [tokens.maria, { ...body, applicationName: 'northridge' }],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/Registration/program/redirection-url', headers: as(token), payload });
      expect(res.statusCode).toBe(404);
    }
    const bad = await t.app.inject({ method: 'POST', url: '/api/Registration/program/redirection-url', headers: as(tokens.maria), payload: { ...body, destination: 'ELSEWHERE' } });
    expect(bad.statusCode).toBe(400);
  });

  it('a keyelement is redeemed once, and only its SHA-256 is stored', async () => {
    const res = await issue(tokens.maria);
    expect(res.statusCode, res.body).toBe(200);
    const { keyelement, expiresAt } = res.json();
    // 256 random bits, base64url
    expect(keyelement).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(expiresAt).getTime() - clock.clock().getTime()).toBeLessThanOrEqual(60_000);
    const rows = await t.db.handle.db.select().from(s.applicationTokens);
    expect(JSON.stringify(rows)).not.toContain(keyelement);
    expect(rows.some((r) => r.tokenHash === hashKeyelement(keyelement))).toBe(true);

    const first = await redeem(keyelement);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ product: 'parentapplication', programPeriodID: maria.programPeriod, accountID: maria.account, applicationName: 'brightpath', userName: MARIA[1], locale: 'es', menu: '/programlist' });
    // redeemed into the product's own session: a new token for the same login, not the portal's
    const { token: productToken, session } = first.json() as { token: string; session: Record<string, unknown> };
    expect(productToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(productToken).not.toBe(tokens.maria);
    expect(session).toMatchObject({ accountID: maria.account, userName: MARIA[1], applicationName: 'brightpath', locale: 'es' });
    const children = await t.app.inject({ method: 'GET', url: '/api/Demographics/children', headers: as(productToken) });
    expect(children.statusCode, children.body).toBe(200);
    expect(children.json().length).toBeGreaterThan(0);
    const again = await redeem(keyelement, 'brightpath', 'es');
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe('Este enlace ya se usó. Ábralo de nuevo desde el portal para padres.');
  });

  it('a keyelement asked for by one parent does not sign another browser in (login CSRF)', async () => {
    // karen asks for a keyelement for her own account, then lures maria's browser to open it
    const karenBody = {
      accountID: karenAccount,
      ApplicationTokenString: tokenString({ accountID: karenAccount, userName: KAREN[1] }),
    };
    const res = await issue(tokens.karen, karenBody);
    expect(res.statusCode, res.body).toBe(200);
    const { keyelement } = res.json();
    const karenSessions = async () => (await t.db.handle.db.select().from(s.sessions).where(eq(s.sessions.accountId, karenAccount))).length;
    const before = await karenSessions();
    const refusals = [
      // maria's browser, signed in to her own account: nothing switches to karen's
      await redeem(keyelement, 'brightpath', 'es', tokens.maria),
      // a browser signed in nowhere is not signed in to karen's account either
      await redeem(keyelement, 'brightpath', 'en', null),
      // another session of the same login is not the one that asked for it
      await redeem(keyelement, 'brightpath', 'en', await tokenFor(t.app, ...KAREN)),
    ];
    expect(refusals.map((r) => r.statusCode)).toEqual([403, 403, 403]);
    for (const r of refusals) {
      expect(r.json().key).toBe('programs.errors.tokenOtherSession');
      expect(r.json().token).toBeUndefined();
    }
    expect(refusals[0].json().message).toBe('Este enlace pertenece a otra sesión, así que no se abrió y nada cambió. Inicie sesión en el portal para padres en este navegador y ábralo de nuevo desde allí.');
    // no session of karen's account was made for the browsers it was refused to (the one more is the sign-in above)
    expect(await karenSessions()).toBe(before + 1);
    // the refusals did not use it up: the session that asked for it still redeems it, once
    const own = await redeem(keyelement, 'brightpath', 'en', tokens.karen);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ accountID: karenAccount, userName: KAREN[1] });
    expect((await redeem(keyelement, 'brightpath', 'en', tokens.karen)).statusCode).toBe(410);
  });

  it('two redeems at the same time: exactly one succeeds', async () => {
    const { keyelement } = (await issue(tokens.maria)).json();
    const answers = await Promise.all([redeem(keyelement), redeem(keyelement), redeem(keyelement)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 410, 410]);
  });

  it('expires within a minute (the clock is the server’s)', async () => {
    const { keyelement } = (await issue(tokens.maria)).json();
    clock.advance(TOKEN_TTL_MS + 1);
    const late = await redeem(keyelement);
    expect(late.statusCode).toBe(410);
    expect(late.json().key).toBe('programs.errors.tokenExpired');
    const { keyelement: k2 } = (await issue(tokens.maria)).json();
    clock.advance(TOKEN_TTL_MS - 1000);
    expect((await redeem(k2)).statusCode).toBe(200);
  });

  it('another provider cannot redeem it (and learns nothing), nor can a made-up keyelement', async () => {
    const { keyelement } = (await issue(tokens.maria)).json();
    const foreign = await redeem(keyelement, 'northridge');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().key).toBe('programs.errors.tokenInvalid');
    // still good for its own provider
    expect((await redeem(keyelement)).statusCode).toBe(200);
    expect((await redeem('A'.repeat(43))).statusCode).toBe(404);
  });

  it('is redeemed only by the product it was issued for, and scoped to the account that asked', async () => {
    // a product not configured for the provider (Northridge's punch pass) is issued nothing
    const punch = await issueLinhPunchPass();
    expect(punch.statusCode).toBe(409);
    expect(punch.json().key).toBe('programs.errors.productNotConfigured');
    // Bright Path's punch pass keyelement opens the punch pass only
    const pass = (await issue(tokens.maria, { product: 'punchpass' })).json().keyelement as string;
    expect((await redeem(pass, 'brightpath', 'en', tokens.maria, 'calendar')).statusCode).toBe(403);
    const passOwn = await redeem(pass, 'brightpath', 'en', tokens.maria, 'punchpass');
    expect(passOwn.statusCode, passOwn.body).toBe(200);
    expect(passOwn.json()).toMatchObject({ product: 'punchpass', accountID: maria.account, programPeriodID: maria.programPeriod });
    const res = await issue(tokens.maria, { product: 'onetimeenrollment' });
    expect(res.statusCode, res.body).toBe(200);
    const { keyelement } = res.json();
    // the parent application cannot open it, and the refusal does not use it up
    const other = await redeem(keyelement, 'brightpath', 'en', tokens.maria, 'parentapplication');
    expect(other.statusCode).toBe(403);
    expect(other.json().key).toBe('programs.errors.tokenOtherProduct');
    // nor can another account's browser, even for the right product
    expect((await redeem(keyelement, 'brightpath', 'en', tokens.karen, 'onetimeenrollment')).statusCode).toBe(403);
    const own = await redeem(keyelement, 'brightpath', 'en', tokens.maria, 'onetimeenrollment');
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ product: 'onetimeenrollment', accountID: maria.account, programPeriodID: maria.programPeriod });
    expect((await redeem(keyelement, 'brightpath', 'en', tokens.maria, 'onetimeenrollment')).statusCode).toBe(410);
    // a product name the contract does not know is refused before anything is looked up
    expect((await redeem(keyelement, 'brightpath', 'en', tokens.maria, 'parentportal')).statusCode).toBe(400);
  });

  it('a keyelement of a session signed out since is refused', async () => {
    const own = await tokenFor(t.app, ...MARIA);
    const { keyelement } = (await issue(own)).json();
    await t.app.inject({ method: 'POST', url: '/api/Authentication/logout', headers: as(own) });
    const res = await redeem(keyelement, 'brightpath', 'en', own);
    expect(res.statusCode).toBe(410);
  });

  it('checks every id against the signed-in account and provider, and the token string', async () => {
    const before = (await t.db.handle.db.select().from(s.applicationTokens)).length;
    const refused = [
      await issue(tokens.maria, { accountID: karenAccount }),
      await issue(tokens.maria, { programPeriodID: linhProgram }),
      await issue(tokens.karen),
      await issue(tokens.linh),
      await issue(tokens.maria, { ApplicationTokenString: tokenString({ accountID: karenAccount }) }),
      await issue(tokens.maria, { ApplicationTokenString: tokenString({ programPeriodID: linhProgram }) }),
      await issue(tokens.maria, { ApplicationTokenString: tokenString({ customerID: 2002 }) }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    // the payment-only login may not hand off, nor may anyone signed out
    expect((await issue(tokens.ana)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/Registration/program/application-token', payload: { product: 'parentapplication', programPeriodID: maria.programPeriod, accountID: maria.account, ApplicationTokenString: tokenString() } })).statusCode).toBe(401);
    // unknown fields, the portal's own token, and a string that is not an object are refused
    for (const str of [tokenString({ password: 'x' }), tokenString({ token: tokens.maria }), '[1,2]', 'not json']) {
      const res = await issue(tokens.maria, { ApplicationTokenString: str });
      expect(res.statusCode, str).toBe(400);
    }
    // a product without a host gets no token
    const cal = await issueLinhPunchPass();
    expect(cal.statusCode).toBe(409);
    expect(cal.json().key).toBe('programs.errors.productNotConfigured');
    expect((await t.app.inject({ method: 'POST', url: '/api/Registration/program/application-token', headers: as(tokens.maria), payload: { product: 'parentapplication', programPeriodID: maria.programPeriod, accountID: maria.account } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/Registration/program/application-token', headers: as(tokens.maria), payload: { product: 'parentapplication', programPeriodID: maria.programPeriod, accountID: maria.account, ApplicationTokenString: tokenString(), extra: 1 } })).statusCode).toBe(400);
    expect((await t.db.handle.db.select().from(s.applicationTokens)).length).toBe(before);
  });
});

describe.each(BACKENDS)('program report on %s', (backend) => {
  let t: TestApp;
  let maria = '';
  let linh = '';
  let school = 0;
  let linhProgram = 0;

  beforeAll(async () => {
    t = await createTestApp(backend);
    maria = await tokenFor(t.app, ...MARIA);
    linh = await tokenFor(t.app, ...LINH);
    const db = t.db.handle.db;
    [{ id: school }] = await db.select({ id: s.programPeriods.id }).from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'School Year Before & After Care'));
    [{ id: linhProgram }] = await db.select({ id: s.programPeriods.id }).from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Extended Day Before & After School'));
  });
  afterAll(async () => t?.close());

  const get = (token: string, q: string, lang = 'en') => t.app.inject({ method: 'GET', url: `/api/Registration/programperiods/report/download?${q}`, headers: { authorization: `Bearer ${token}`, 'accept-language': lang } });

  it('is a PDF of the program and the account’s children, in the request’s language', async () => {
    const res = await get(maria, `programPeriodID=${school}&PRAccountID=0&reportType=T`, 'es');
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const dir = mkdtempSync(join(tmpdir(), 'program-report-'));
    writeFileSync(join(dir, 'r.pdf'), res.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'r.pdf'), '-'], { encoding: 'utf8' });
    expect(text).toContain('Informe del programa');
    expect(text).toContain('Cuidado antes y después de clases');
    expect(text).toContain('Sofia Garcia');
    expect(text).toContain('Lucas Garcia');
    expect(text).toContain('BP-10234');
    // the report's kind in words, not its code
    expect(text).toContain('Tipo de informe: Inscripción');
    expect(text).not.toMatch(/Tipo de informe: T\b/);
    expect(text).not.toContain('Tyler');
  });

  it('refuses another account, another provider’s program, a wrong report type, and Canada', async () => {
    expect((await get(maria, `programPeriodID=${school}&PRAccountID=999999&reportType=T`)).statusCode).toBe(404);
    expect((await get(maria, `programPeriodID=${linhProgram}&reportType=T`)).statusCode).toBe(404);
    expect((await get(maria, `programPeriodID=${school}&reportType=W`)).statusCode).toBe(400);
    expect((await get(linh, `programPeriodID=${linhProgram}&reportType=T`)).statusCode).toBe(403);
  });
});
