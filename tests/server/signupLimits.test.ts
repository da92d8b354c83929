// Spec 2.13, 7.3, 8.2 loose ends of the ways in: the sign-up e-mails for a parent portal that is not
// activated and for an inactive login (the answer never tells, the mail does), the sign-up and register
// limits per address and per client address, and Customer.feature scoped to the signed-in provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, freshIp, testClock, tokenFor, DAVID, KAREN, LINH, MARIA, type TestApp } from './helpers';
import { accounts, adults, logins, outbox, passwordTokens, providers } from '../../server/db/schema';
import { PER_ADDRESS_MAX, PER_ADDRESS_WINDOW_MS } from '../../server/domains/access/passwordFlows';
import { SIGNUP_DEMO } from '../../server/seed/auth';

const root = resolve(__dirname, '../..');
const providerFeatures = (appName: string) => JSON.parse(readFileSync(resolve(root, `providers/${appName}/provider.json`), 'utf8')).features as Record<string, boolean>;
const locale = (lang: string, ns: string) => JSON.parse(readFileSync(resolve(root, `locales/${lang}/${ns}.json`), 'utf8'));

const registration = (email: string, extra: Record<string, string> = {}) => ({
  appName: 'brightpath',
  firstName: 'Noor',
  lastName: 'Haddad',
  streetAddress: '12 Lake Shore Dr',
  city: 'Springfield',
  stateCode: 'IL',
  zip: '62701',
  cellPhone: '(217)555-0199',
  email,
  newPassword: 'Harvest#Moon77',
  retypePassword: 'Harvest#Moon77',
  ...extra,
});

describe.each(BACKENDS)('sign-up messages and Customer.feature on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => t?.close());

  const signUp = (appName: string, email: string) =>
    t.app.inject({ method: 'POST', url: '/api/Authentication/signup', payload: { appName, email }, remoteAddress: freshIp() });
  const mailsTo = (to: string) => t.db.handle.db.select().from(outbox).where(eq(outbox.toAddress, to)).orderBy(desc(outbox.id));
  const setFeatures = (appName: string, features: Record<string, boolean>) =>
    t.db.handle.db.update(providers).set({ features }).where(eq(providers.appName, appName));
  const signupTokens = async (email: string) =>
    (await t.db.handle.db.select().from(passwordTokens).where(and(eq(passwordTokens.email, email), eq(passwordTokens.purpose, 'signup')))).length;

  it("a parent of a provider whose portal is not activated gets the 'not activated' e-mail, not a link; the answer does not tell", async () => {
    const features = providerFeatures('brightpath');
    await setFeatures('brightpath', { ...features, parentPortal: false });
    try {
      const enrolled = await signUp('brightpath', SIGNUP_DEMO.email);
      const signedUp = await signUp('brightpath', KAREN[1]);
      const stranger = await signUp('brightpath', 'nobody.here@example.com');
      expect(enrolled.statusCode).toBe(200);
      expect([signedUp.body, stranger.body]).toEqual([enrolled.body, enrolled.body]);
      const en = locale('en', 'auth').mail.notActivated;
      for (const [email, firstName] of [[SIGNUP_DEMO.email, 'Grace'], [KAREN[1], 'Karen']]) {
        const [mail] = await mailsTo(email);
        expect(mail.kind).toBe('signup_not_activated');
        expect(mail.subject).toBe(en.subject.replace('{{programName}}', 'Bright Path Kids Club'));
        expect(mail.textBody).toContain(`Hello ${firstName},`);
        expect(mail.textBody).toContain('The parent portal is not activated for your account with Bright Path Kids Club yet. Please contact the program.');
        expect(mail.textBody).toContain('help@brightpathkids.example');
        expect(mail.textBody).not.toContain('token=');
      }
      expect(await signupTokens(SIGNUP_DEMO.email)).toBe(0);
      expect(await mailsTo('nobody.here@example.com')).toEqual([]);
    } finally {
      await setFeatures('brightpath', features);
    }
    // activated again: the same parent gets the create-password link
    await signUp('brightpath', SIGNUP_DEMO.email);
    expect((await mailsTo(SIGNUP_DEMO.email))[0].kind).toBe('signup');
    expect(await signupTokens(SIGNUP_DEMO.email)).toBe(1);
  });

  it("an inactive login gets the 'inactive' e-mail in the parent's language; an active one 'already signed up'", async () => {
    await t.db.handle.db.update(logins).set({ active: false }).where(eq(logins.email, MARIA[1]));
    try {
      const inactive = await signUp('brightpath', MARIA[1]);
      const active = await signUp('brightpath', DAVID[1]);
      expect(inactive.statusCode).toBe(200);
      expect(active.body).toBe(inactive.body);
      const [mail] = await mailsTo(MARIA[1]);
      const es = locale('es', 'auth').mail.inactive;
      expect(mail.kind).toBe('signup_inactive');
      // Maria reads Spanish (her primary language), whatever the request's language
      expect(mail.subject).toBe(es.subject.replace('{{programName}}', 'Bright Path Kids Club'));
      expect(mail.textBody).toContain('Hola, Maria:');
      expect(mail.textBody).toContain(es.body.replace('{{programName}}', 'Bright Path Kids Club'));
      expect(mail.textBody).not.toContain('token=');
      expect((await mailsTo(DAVID[1]))[0].kind).toBe('signup_alreadySignedUp');
    } finally {
      await t.db.handle.db.update(logins).set({ active: true }).where(eq(logins.email, MARIA[1]));
    }
  });

  it("signing in: an inactive login is told to contact the provider, a portal not activated says so; both only after the right password", async () => {
    const signIn = (email: string, password: string, lang: string, appName = 'brightpath') =>
      t.app.inject({ method: 'POST', url: '/api/Authentication/login', payload: { appName, email, password }, headers: { 'accept-language': lang }, remoteAddress: freshIp() });
    const server = (lang: string) => locale(lang, 'server').errors;
    await t.db.handle.db.update(logins).set({ active: false }).where(eq(logins.email, DAVID[1]));
    try {
      const res = await signIn(DAVID[1], DAVID[2], 'es');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ key: 'server.errors.inactiveLogin', message: server('es').inactiveLogin.replace('{{programName}}', 'Bright Path Kids Club') });
      // a wrong password learns nothing about the login
      expect((await signIn(DAVID[1], 'Wrong#Password1', 'es')).statusCode).toBe(401);
    } finally {
      await t.db.handle.db.update(logins).set({ active: true }).where(eq(logins.email, DAVID[1]));
    }
    const features = providerFeatures('brightpath');
    await setFeatures('brightpath', { ...features, parentPortal: false });
    try {
      const res = await signIn(DAVID[1], DAVID[2], 'vi');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ key: 'server.errors.portalNotActivated', message: server('vi').portalNotActivated.replaceAll('{{programName}}', 'Bright Path Kids Club') });
      expect((await signIn(DAVID[1], 'Wrong#Password1', 'vi')).statusCode).toBe(401);
      // the other provider is not affected
      expect((await signIn(LINH[1], LINH[2], 'en', LINH[0])).statusCode).toBe(200);
    } finally {
      await setFeatures('brightpath', features);
    }
    expect((await signIn(DAVID[1], DAVID[2], 'en')).statusCode).toBe(200);
  });

  it('Customer.feature answers the features of the signed-in provider only, as they are now', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/Customer/feature' });
    expect(anonymous.statusCode).toBe(401);

    const get = (token: string) => t.app.inject({ method: 'GET', url: '/api/Customer/feature', headers: { authorization: `Bearer ${token}` } });
    const maria = await tokenFor(t.app, ...MARIA);
    const linh = await tokenFor(t.app, ...LINH);
    const bright = await get(maria);
    expect(bright.statusCode).toBe(200);
    expect(bright.json()).toEqual({ features: providerFeatures('brightpath') });
    expect((await get(linh)).json()).toEqual({ features: providerFeatures('northridge') });
    // the two providers differ, so an answer from the wrong one would show
    expect(providerFeatures('brightpath')).not.toEqual(providerFeatures('northridge'));

    // a query naming the other provider changes nothing: the session decides
    const other = await t.app.inject({ method: 'GET', url: '/api/Customer/feature?appName=northridge', headers: { authorization: `Bearer ${maria}` } });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual({ features: providerFeatures('brightpath') });

    const features = providerFeatures('brightpath');
    await setFeatures('brightpath', { ...features, attendance: false });
    try {
      expect((await get(maria)).json().features).toEqual({ ...features, attendance: false });
      expect((await get(linh)).json().features.attendance).toBe(true);
    } finally {
      await setFeatures('brightpath', features);
    }
  });
});

describe.each(BACKENDS)('sign-up and register limits on %s', (backend) => {
  let t: TestApp;
  const time = testClock();
  beforeAll(async () => {
    t = await createTestApp(backend, { clock: time.clock });
  });
  afterAll(async () => t?.close());

  const post = (path: string, payload: object, ip = freshIp(), lang = 'en') =>
    t.app.inject({ method: 'POST', url: `/api/Authentication/${path}`, payload, remoteAddress: ip, headers: { 'accept-language': lang } });

  it(`sign up: ${PER_ADDRESS_MAX} requests per address and provider within the window, from any client address`, async () => {
    const email = 'flood.signup@example.com';
    const codes: number[] = [];
    // the address is counted whatever its letter case
    for (let i = 0; i < PER_ADDRESS_MAX; i++) codes.push((await post('signup', { appName: 'brightpath', email: i % 2 ? email.toUpperCase() : email })).statusCode);
    expect(codes).toEqual(Array(PER_ADDRESS_MAX).fill(200));
    const refused = await post('signup', { appName: 'brightpath', email: 'Flood.Signup@Example.com' }, freshIp(), 'es');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ key: 'server.errors.tooManyRequests', message: locale('es', 'server').errors.tooManyRequests });
    // other addresses, the same address at another provider, and forgot password are counted apart
    expect((await post('signup', { appName: 'brightpath', email: 'calm.signup@example.com' })).statusCode).toBe(200);
    expect((await post('signup', { appName: 'northridge', email })).statusCode).toBe(200);
    expect((await post('forgot-password', { appName: 'brightpath', email })).statusCode).toBe(200);
    // the window passes
    time.advance(PER_ADDRESS_WINDOW_MS + 1000);
    expect((await post('signup', { appName: 'brightpath', email })).statusCode).toBe(200);
  });

  it(`register: ${PER_ADDRESS_MAX} requests per address within the window, refused ones counted too`, async () => {
    const email = 'flood.register@example.com';
    const codes: number[] = [];
    for (let i = 0; i < PER_ADDRESS_MAX; i++) codes.push((await post('parent-registration', registration(i % 2 ? email.toUpperCase() : email))).statusCode);
    // the first registers, the next are duplicates; each one counts
    expect(codes).toEqual([200, ...Array(PER_ADDRESS_MAX - 1).fill(409)]);
    const refused = await post('parent-registration', registration(email), freshIp(), 'vi');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ key: 'server.errors.tooManyRequests', message: locale('vi', 'server').errors.tooManyRequests });
    time.advance(PER_ADDRESS_WINDOW_MS + 1000);
    expect((await post('parent-registration', registration(email))).statusCode).toBe(409);
  });

  it('sign up: 10 requests a minute per client address, whatever the e-mail', async () => {
    const ip = freshIp();
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await post('signup', { appName: 'brightpath', email: `ip.signup.${i}@example.com` }, ip)).statusCode);
    expect(codes).toEqual(Array(10).fill(200));
    const refused = await post('signup', { appName: 'brightpath', email: SIGNUP_DEMO.email }, ip, 'pt');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json()).toMatchObject({ key: 'server.errors.tooManyRequests', message: locale('pt', 'server').errors.tooManyRequests });
    // nothing was sent for the refused request
    expect(await t.db.handle.db.select().from(outbox).where(eq(outbox.toAddress, SIGNUP_DEMO.email))).toEqual([]);
    expect((await post('signup', { appName: 'brightpath', email: 'ip.signup.other@example.com' })).statusCode).toBe(200);
  });

  it('register: 5 requests a minute per client address, invalid ones counted too', async () => {
    const ip = freshIp();
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await post('parent-registration', registration(`ip.register.${i}@example.com`, { city: '' }), ip)).statusCode);
    expect(codes).toEqual(Array(5).fill(400));
    const email = 'ip.register.valid@example.com';
    const refused = await post('parent-registration', registration(email), ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().key).toBe('server.errors.tooManyRequests');
    expect(await t.db.handle.db.select().from(adults).where(eq(adults.email, email))).toEqual([]);
    // from another client address the same registration goes through
    const ok = await post('parent-registration', registration(email));
    expect(ok.statusCode).toBe(200);
    expect(await t.db.handle.db.select().from(accounts).where(eq(accounts.accountNo, ok.json().accountNo))).toHaveLength(1);
  });
});
