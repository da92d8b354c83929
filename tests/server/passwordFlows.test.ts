// The ways in besides sign-in: forgot password (also unlocks), reset links (hashed, single-use,
// expiring), sign up of existing parents, new parent registration, and the password policy of 5.2
// on the server (common passwords, history, revoked sessions).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, freshIp, login, testClock, tokenFor, KAREN, DAVID, type TestApp } from './helpers';
import { accounts, adults, logins, outbox, passwordTokens } from '../../server/db/schema';
import { hashToken } from '../../server/auth';
import { RESET_TTL_MS } from '../../server/domains/access/passwordFlows';
import { commonPasswordCount, isCommonPassword } from '../../server/passwordPolicy';
import { SIGNUP_DEMO } from '../../server/seed/auth';

const post = (t: TestApp, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/Authentication${url}`, payload: payload as object, headers, remoteAddress: freshIp() });

describe('common password list', () => {
  it('ships at least the 10,000 most common passwords and refuses them', () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(10000);
    expect(isCommonPassword('password')).toBe(true);
    expect(isCommonPassword('Password1!')).toBe(true);
    expect(isCommonPassword('Sunshine#2026')).toBe(false);
  });
});

describe.each(BACKENDS)('password flows on %s', (backend) => {
  let t: TestApp;
  const time = testClock();
  beforeAll(async () => {
    t = await createTestApp(backend, { clock: time.clock });
  });
  afterAll(async () => t?.close());

  const lastMail = async (to: string) => {
    const [m] = await t.db.handle.db.select().from(outbox).where(eq(outbox.toAddress, to)).orderBy(desc(outbox.id)).limit(1);
    return m;
  };
  const linkToken = (text: string, path: string) => {
    const m = new RegExp(`/parentportal/brightpath/parent\\?next=%2F${path}&token=([A-Za-z0-9_-]+)`).exec(text);
    if (!m) throw new Error(`no ${path} link in: ${text}`);
    return m[1];
  };

  it('forgot password: the same answer for known and unknown e-mails; a mail only to the known one', async () => {
    const before = (await t.db.handle.db.select().from(outbox)).length;
    const known = await post(t, '/forgot-password', { appName: 'brightpath', email: KAREN[1] });
    const unknown = await post(t, '/forgot-password', { appName: 'brightpath', email: 'nobody@example.com' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    const after = await t.db.handle.db.select().from(outbox);
    expect(after.length).toBe(before + 1);
    const mail = await lastMail(KAREN[1]);
    expect(mail.kind).toBe('password_reset');
    expect(mail.subject).toBe('Bright Path Kids Club: create a new password');
    expect(mail.textBody).toContain('help@brightpathkids.example');
    const token = linkToken(mail.textBody, 'resetpassword');
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    // only the hash is stored
    const rows = await t.db.handle.db.select().from(passwordTokens);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.some((r) => r.tokenHash === hashToken(token))).toBe(true);
  });

  it('a locked account unlocks by creating a new password with the link, once; other sessions end', async () => {
    const email = DAVID[1];
    const other = await tokenFor(t.app, ...DAVID);
    for (let i = 0; i < 5; i++) await login(t.app, 'brightpath', email, 'Wrong#Password1');
    expect((await login(t.app, ...DAVID)).statusCode).toBe(423);

    await post(t, '/forgot-password', { appName: 'brightpath', email }, { 'accept-language': 'es' });
    const mail = await lastMail(email);
    expect(mail.kind).toBe('password_reset');
    const token = linkToken(mail.textBody, 'resetpassword');

    const body = { appName: 'brightpath', token, mode: 'reset', newPassword: 'Harvest#Moon77', retypePassword: 'Harvest#Moon77' };
    // the declared rules run on the server too
    const weak = await post(t, '/reset-password', { ...body, newPassword: 'short', retypePassword: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors[0]).toMatchObject({ path: '/newPassword', key: 'errors.password.rules' });
    // the old password cannot come back
    const same = await post(t, '/reset-password', { ...body, newPassword: DAVID[2], retypePassword: DAVID[2] });
    expect(same.statusCode).toBe(400);
    expect(same.json().key).toBe('auth.errors.passwordUsedBefore');
    // common passwords are refused even when they meet the composition rules
    const common = await post(t, '/reset-password', { ...body, newPassword: 'Password1!', retypePassword: 'Password1!' });
    expect(common.statusCode).toBe(400);
    expect(common.json().key).toBe('auth.errors.commonPassword');

    const ok = await post(t, '/reset-password', body);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ changed: true, email });
    const again = await post(t, '/reset-password', body);
    expect(again.statusCode).toBe(400);
    expect(again.json().key).toBe('auth.errors.linkInvalid');

    const [l] = await t.db.handle.db.select().from(logins).where(eq(logins.email, email));
    expect(l.lockedAt).toBeNull();
    expect(l.failedCount).toBe(0);
    expect((await login(t.app, 'brightpath', email, 'Harvest#Moon77')).statusCode).toBe(200);
    // the session from before the reset is revoked
    const me = await t.app.inject({ method: 'POST', url: '/api/Authentication/logout', headers: { authorization: `Bearer ${other}` } });
    expect(me.statusCode).toBe(401);
  });

  it('reset links expire', async () => {
    await post(t, '/forgot-password', { appName: 'brightpath', email: KAREN[1] });
    const token = linkToken((await lastMail(KAREN[1])).textBody, 'resetpassword');
    time.advance(RESET_TTL_MS + 1000);
    const res = await post(t, '/reset-password', { appName: 'brightpath', token, mode: 'reset', newPassword: 'Harvest#Moon77', retypePassword: 'Harvest#Moon77' });
    expect(res.statusCode).toBe(400);
    expect(res.json().key).toBe('auth.errors.linkInvalid');
  });

  it('a reset link of one provider does not work at another', async () => {
    await post(t, '/forgot-password', { appName: 'brightpath', email: KAREN[1] });
    const token = linkToken((await lastMail(KAREN[1])).textBody, 'resetpassword');
    const res = await post(t, '/reset-password', { appName: 'northridge', token, mode: 'reset', newPassword: 'Harvest#Moon77', retypePassword: 'Harvest#Moon77' });
    expect(res.statusCode).toBe(400);
    expect(res.json().key).toBe('auth.errors.linkInvalid');
  });

  it('sign up: an enrolled parent without a login gets a create-password link; a signed-up one an "already signed up" mail', async () => {
    const res = await post(t, '/signup', { appName: 'brightpath', email: SIGNUP_DEMO.email });
    const unknown = await post(t, '/signup', { appName: 'brightpath', email: 'stranger@example.com' });
    const existing = await post(t, '/signup', { appName: 'brightpath', email: KAREN[1] });
    expect([res.body, unknown.body, existing.body]).toEqual([res.body, res.body, res.body]);
    expect((await lastMail(KAREN[1])).kind).toBe('signup_alreadySignedUp');
    expect(await lastMail('stranger@example.com')).toBeUndefined();

    const token = linkToken((await lastMail(SIGNUP_DEMO.email)).textBody, 'createpassword');
    // a sign-up link is not a reset link
    expect((await post(t, '/reset-password', { appName: 'brightpath', token, mode: 'reset', newPassword: 'Harvest#Moon77', retypePassword: 'Harvest#Moon77' })).statusCode).toBe(400);
    const created = await post(t, '/reset-password', { appName: 'brightpath', token, mode: 'create', newPassword: 'Harvest#Moon77', retypePassword: 'Harvest#Moon77' });
    expect(created.statusCode).toBe(200);
    const signedIn = await login(t.app, 'brightpath', SIGNUP_DEMO.email, 'Harvest#Moon77');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().session.accountNo).toBe('BP-10588');
  });

  it('registers a new parent with a real account and refuses a duplicate e-mail at the same provider', async () => {
    const form = {
      appName: 'brightpath',
      firstName: 'Noor',
      lastName: 'Haddad',
      streetAddress: '12 Lake Shore Dr',
      city: 'Springfield',
      stateCode: 'IL',
      zip: '62701',
      cellPhone: '(217)555-0199',
      email: 'noor.haddad@example.com',
      newPassword: 'Harvest#Moon77',
      retypePassword: 'Harvest#Moon77',
    };
    const missing = await post(t, '/parent-registration', { ...form, city: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { path: string }) => e.path)).toContain('/city');

    const res = await post(t, '/parent-registration', form);
    expect(res.statusCode).toBe(200);
    const { accountNo } = res.json();
    const [acc] = await t.db.handle.db.select().from(accounts).where(eq(accounts.accountNo, accountNo));
    const [adult] = await t.db.handle.db.select().from(adults).where(and(eq(adults.accountId, acc.id), eq(adults.accountHolder, 1)));
    expect(adult).toMatchObject({ firstName: 'Noor', cellPhone: '2175550199', email: 'noor.haddad@example.com' });
    expect((await login(t.app, 'brightpath', 'Noor.Haddad@example.com', 'Harvest#Moon77')).statusCode).toBe(200);

    const dup = await post(t, '/parent-registration', { ...form, firstName: 'Other' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toContain('already registered or signed up');
    // an enrolled parent's e-mail without a login is a duplicate too
    expect((await post(t, '/parent-registration', { ...form, email: KAREN[1] })).statusCode).toBe(409);
    // the same e-mail at another provider is a different parent
    const other = await post(t, '/parent-registration', { ...form, appName: 'northridge', stateCode: 'ON', zip: 'K1A 0B1' });
    expect(other.statusCode).toBe(200);
  });

  it('limits requests per address', async () => {
    const email = 'flood@example.com';
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await post(t, '/forgot-password', { appName: 'brightpath', email })).statusCode);
    expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(codes[6]).toBe(429);
  });
});
