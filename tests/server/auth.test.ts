// Sign-in, lock-out, rate limits, token expiry and revocation, release version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, freshIp, login, testClock, tokenFor, MARIA, DAVID, ANA, type TestApp } from './helpers';
import { outbox, logins } from '../../server/db/schema';
import { IDLE_MS } from '../../server/auth';

describe.each(BACKENDS)('authentication on %s', (backend) => {
  let t: TestApp;
  const time = testClock();
  beforeAll(async () => {
    t = await createTestApp(backend, { clock: time.clock });
  });
  afterAll(async () => t?.close());

  it('signs in and answers the session fields of spec section 3', async () => {
    const res = await login(t.app, ...MARIA);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.session).toMatchObject({
      accessType: 'F',
      accountHolder: 1,
      countryCode: 'US',
      customerID: 1001,
      programName: 'Bright Path Kids Club',
      firstName: 'Maria',
      lastName: 'Garcia',
      userName: 'maria.garcia@example.com',
      accountNo: 'BP-10234',
      applicationName: 'brightpath',
      releaseVersion: '9.9.9',
      isSchoolDistrict: false,
      hasSmsLicense: true,
      isMultiLanguageSupport: true,
    });
    // the e-mail is case-insensitive
    expect((await login(t.app, 'brightpath', 'Maria.Garcia@Example.com', 'Sunshine#2026')).statusCode).toBe(200);
  });

  it('answers the same for a wrong password and an unknown e-mail', async () => {
    const wrong = await login(t.app, 'brightpath', 'david.garcia@example.com', 'Wrong#Password1');
    const unknown = await login(t.app, 'brightpath', 'nobody@example.com', 'Wrong#Password1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(unknown.json().message);
    expect(wrong.json().message).toBe('The e-mail or password is incorrect.');
    // a later good sign-in resets the failure count
    expect((await login(t.app, ...DAVID)).statusCode).toBe(200);
    const [l] = await t.db.handle.db.select().from(logins).where(eq(logins.email, 'david.garcia@example.com'));
    expect(l.failedCount).toBe(0);
  });

  it('translates the message by Accept-Language', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Authentication/login',
      headers: { 'accept-language': 'es-MX,es;q=0.9' },
      payload: { appName: 'brightpath', email: 'nobody2@example.com', password: 'Wrong#Password1' },
      remoteAddress: freshIp(),
    });
    expect(res.json().message).toBe('El correo electrónico o la contraseña son incorrectos.');
  });

  it('locks the login after 5 failed attempts and mails the parent in her language', async () => {
    for (let i = 1; i <= 4; i++) {
      expect((await login(t.app, 'brightpath', 'ana.silva@example.com', `Bad#Guess${i}x`)).statusCode).toBe(401);
    }
    const fifth = await login(t.app, 'brightpath', 'ana.silva@example.com', 'Bad#Guess5x');
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json().key).toBe('server.errors.accountLocked');
    // even the right password is refused now
    const right = await login(t.app, ...ANA);
    expect(right.statusCode).toBe(423);
    const mails = await t.db.handle.db.select().from(outbox).where(eq(outbox.toAddress, 'ana.silva@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0].kind).toBe('account_locked');
    // Ana's primary language is Portuguese
    expect(mails[0].subject).toBe('Bright Path Kids Club: sua conta está bloqueada');
    expect(mails[0].textBody).toContain('5 tentativas');
    // the dev route lists it
    const dev = await t.app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect(dev.json().some((m: { to: string; subject: string }) => m.to === 'ana.silva@example.com' && m.subject.includes('bloqueada'))).toBe(true);
  });

  it('answers the locked message for an unknown e-mail after 5 failures too', async () => {
    for (let i = 1; i <= 4; i++) expect((await login(t.app, 'brightpath', 'ghost@example.com', `Bad#Guess${i}x`)).statusCode).toBe(401);
    expect((await login(t.app, 'brightpath', 'ghost@example.com', 'Bad#Guess5x')).statusCode).toBe(423);
  });

  it('refuses an inactive login with the contact-the-provider message', async () => {
    await t.db.handle.db.update(logins).set({ active: false }).where(eq(logins.email, 'karen.johnson@example.com'));
    const res = await login(t.app, 'brightpath', 'karen.johnson@example.com', 'Sunshine#2026');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your sign-in is not active. Please contact Bright Path Kids Club.');
    await t.db.handle.db.update(logins).set({ active: true }).where(eq(logins.email, 'karen.johnson@example.com'));
  });

  it('never rate-limits successful sign-ins of one e-mail', async () => {
    for (let i = 0; i < 12; i++) expect((await login(t.app, ...MARIA)).statusCode).toBe(200);
  });

  it('rate-limits failed sign-in per e-mail', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await login(t.app, 'brightpath', 'limit.me@example.com', 'Bad#Guess1x')).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 401 || c === 423)).toBe(true);
    expect(codes[10]).toBe(429);
  });

  it('rate-limits sign-in per IP', async () => {
    const ip = freshIp();
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) codes.push((await login(t.app, 'brightpath', `ip${i}@example.com`, 'Bad#Guess1x', ip)).statusCode);
    expect(codes.slice(0, 20).every((c) => c === 401)).toBe(true);
    expect(codes[20]).toBe(429);
  });

  it('expires a token after 30 idle minutes, and renews the idle time on use', async () => {
    const token = await tokenFor(t.app, ...MARIA);
    const get = () => t.app.inject({ method: 'GET', url: '/api/Customer/parent', headers: { authorization: `Bearer ${token}` } });
    expect((await get()).statusCode).toBe(200);
    time.advance(IDLE_MS - 60_000);
    expect((await get()).statusCode).toBe(200); // renewed here
    time.advance(IDLE_MS - 60_000);
    expect((await get()).statusCode).toBe(200);
    time.advance(IDLE_MS + 1);
    const res = await get();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Token Expired' });
  });

  it('expires a token 12 hours after sign-in even when used', async () => {
    const token = await tokenFor(t.app, ...MARIA);
    const get = () => t.app.inject({ method: 'GET', url: '/api/Customer/parent', headers: { authorization: `Bearer ${token}` } });
    // used every 25 minutes for 11 h 40 min: never idle, yet still limited to 12 hours
    for (let i = 0; i < 28; i++) {
      time.advance(25 * 60 * 1000);
      expect((await get()).statusCode).toBe(200);
    }
    time.advance(19 * 60 * 1000); // 11 h 59 min
    expect((await get()).statusCode).toBe(200);
    time.advance(2 * 60 * 1000); // 12 h 01 min
    expect((await get()).json().message).toBe('Token Expired');
  });

  it('revokes the token at sign-out', async () => {
    const token = await tokenFor(t.app, ...MARIA);
    const auth = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ method: 'POST', url: '/api/Authentication/logout', headers: auth })).json()).toEqual({ signedOut: true });
    const res = await t.app.inject({ method: 'GET', url: '/api/Billing/account-summary', headers: auth });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Token Expired');
  });

  it('answers 401 for an unknown token and for no token', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/Customer/parent', headers: { authorization: 'Bearer not-a-real-token' } });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe('Token Expired');
    expect((await t.app.inject({ method: 'GET', url: '/api/Customer/parent' })).statusCode).toBe(401);
  });

  it('answers INVALID_RELEASE_VERSION when the client release differs', async () => {
    const token = await tokenFor(t.app, ...MARIA);
    const stale = await t.app.inject({ method: 'GET', url: '/api/Customer/parent', headers: { authorization: `Bearer ${token}`, 'x-release-version': '1.0.0' } });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe('INVALID_RELEASE_VERSION');
    const current = await t.app.inject({ method: 'GET', url: '/api/Customer/parent', headers: { authorization: `Bearer ${token}`, 'x-release-version': '9.9.9' } });
    expect(current.statusCode).toBe(200);
    // the version endpoint still answers a stale client, so it can learn the new release
    const v = await t.app.inject({ method: 'GET', url: '/api/Customer/version?sourceApp=parentportal', headers: { 'x-release-version': '1.0.0' } });
    expect(v.json()).toMatchObject({ releaseVersion: '9.9.9' });
  });

  it('changes the password with the current one, and signs out the other sessions', async () => {
    const other = await tokenFor(t.app, ...DAVID);
    const token = await tokenFor(t.app, ...DAVID);
    const change = (payload: Record<string, unknown>, tk = token) =>
      t.app.inject({ method: 'POST', url: '/api/Demographics/adults/Change-Password', headers: { authorization: `Bearer ${tk}` }, payload });
    const wrong = await change({ mode: 'change', currentPassword: 'Not#TheOne123', newPassword: 'Brand#New2027', retypePassword: 'Brand#New2027' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Password Change Failed. Wrong current password.');
    // the browser's rules run on the server: retype must match, and the rules of spec 5.2 hold
    const mismatch = await change({ mode: 'change', currentPassword: 'Sunshine#2026', newPassword: 'Brand#New2027', retypePassword: 'Brand#New2028' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors).toContainEqual(expect.objectContaining({ path: '/retypePassword', key: 'errors.password.mismatch' }));
    const weak = await change({ mode: 'change', currentPassword: 'Sunshine#2026', newPassword: 'short', retypePassword: 'short' });
    expect(weak.statusCode).toBe(400);
    const ok = await change({ mode: 'change', currentPassword: 'Sunshine#2026', newPassword: 'Brand#New2027', retypePassword: 'Brand#New2027' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await login(t.app, ...DAVID)).statusCode).toBe(401);
    expect((await login(t.app, 'brightpath', 'david.garcia@example.com', 'Brand#New2027')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/Customer/parent', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/Customer/parent', headers: { authorization: `Bearer ${other}` } })).json().message).toBe('Token Expired');
    // a temporary-password change from a full session is refused: the current password is required
    expect((await change({ mode: 'temporary', newPassword: 'Other#Pass2028', retypePassword: 'Other#Pass2028' })).statusCode).toBe(400);
  });

  it('lets a temporary-password session do nothing but change the password', async () => {
    await t.db.handle.db.update(logins).set({ isTemporaryPassword: true }).where(eq(logins.email, 'karen.johnson@example.com'));
    const res = await login(t.app, 'brightpath', 'karen.johnson@example.com', 'Sunshine#2026');
    expect(res.json().session.isTemporaryPassword).toBe(true);
    const auth = { authorization: `Bearer ${res.json().token}` };
    const blocked = await t.app.inject({ method: 'GET', url: '/api/Demographics/children', headers: auth });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().key).toBe('server.errors.temporaryOnly');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/Demographics/adults/Change-Password',
      headers: auth,
      payload: { mode: 'temporary', newPassword: 'Fresh#Start2027', retypePassword: 'Fresh#Start2027' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/Demographics/children', headers: auth })).statusCode).toBe(200);
  });
});
