// Sign-in lock and account limits set per provider (provider.json signIn and limits): a temporary
// lock instead of the spec's lock until a new password, the slow-down of repeated failures per
// submitted e-mail (the same for an e-mail without a login), and limits on contacts, absence notices
// and messages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, login, testClock, tokenFor, ANA, MARIA, type TestApp } from './helpers';
import { outbox } from '../../server/db/schema';
import { DEFAULT_SETTINGS, settingsOf } from '../../server/providerSettings';
import { formatProviderRecordError, providerRecordErrors } from '../../server/providerRecord';
import { ROOT } from '../../server/app';
import { slowDownMs } from '../../server/domains/access/authentication';
import { businessDate } from '../../src/engine/today';

describe('provider protection settings', () => {
  it('fills in defaults, and provider.json refuses unknown or out-of-range values on start', () => {
    expect(settingsOf({})).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.signIn.temporaryLockMinutes).toBe(0);
    expect(settingsOf({ signIn: { temporaryLockMinutes: 15 }, limits: { messagesPerHour: 3 } })).toMatchObject({
      signIn: { temporaryLockMinutes: 15 },
      limits: { messagesPerHour: 3, contactsPerAccount: DEFAULT_SETTINGS.limits.contactsPerAccount },
    });
    const base = JSON.parse(readFileSync(join(ROOT, 'providers', 'brightpath', 'provider.json'), 'utf8'));
    const errors = (over: object) => providerRecordErrors('brightpath', { ...base, ...over }).map(formatProviderRecordError);
    const where = 'providers/brightpath/provider.json: ';
    expect(errors({ signIn: { temporaryLockMinutes: -1 } })).toEqual([`${where}/signIn/temporaryLockMinutes: must be >= 0`]);
    expect(errors({ limits: { contacts: 3 } })).toEqual([`${where}/limits/contacts: unknown property (contactsPerAccount, absenceNoticesPerHour, messagesPerHour)`]);
    expect(errors({ limits: { messagesPerHour: 1.5 } })).toEqual([`${where}/limits/messagesPerHour: must be integer`]);
  });

  it('slows down from the set number of failures, doubling up to the maximum', () => {
    const cfg = { maxFailed: 5, perEmailMax: 10, perEmailWindowMs: 1, slowDownAfter: 3, slowDownBaseMs: 500, slowDownMaxMs: 8000 };
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 50].map((n) => slowDownMs(n, cfg))).toEqual([0, 0, 0, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });
});

describe.each(BACKENDS)('sign-in lock and account limits on %s', (backend) => {
  let t: TestApp;
  const time = testClock();
  beforeAll(async () => {
    t = await createTestApp(backend, {
      clock: time.clock,
      providerSettings: { brightpath: { signIn: { temporaryLockMinutes: 15 }, limits: { contactsPerAccount: 8, absenceNoticesPerHour: 1, messagesPerHour: 2 } } },
      signin: { slowDownAfter: 2, slowDownBaseMs: 300, slowDownMaxMs: 300 },
    });
  });
  afterAll(async () => t?.close());

  const timed = async (email: string, password: string) => {
    const started = performance.now();
    const res = await login(t.app, 'brightpath', email, password);
    return { res, ms: performance.now() - started };
  };

  it('slows repeated failures of an e-mail down the same whether a login has it or not', async () => {
    for (const email of ['david.garcia@example.com', 'nobody.here@example.com']) {
      for (let i = 0; i < 2; i++) {
        const { res } = await timed(email, `Bad#Guess${i}x`);
        expect(res.statusCode).toBe(401);
      }
      // the third attempt waits first, whatever its password
      const third = await timed(email, 'Bad#Guess9x');
      expect(third.res.statusCode).toBe(401);
      expect(third.ms).toBeGreaterThanOrEqual(290);
    }
    time.advance(16 * 60 * 1000);
  });

  it('locks for the provider’s minutes instead of until a new password, and unlocks by itself', async () => {
    const answers: number[] = [];
    for (let i = 1; i <= 5; i++) answers.push((await login(t.app, ...ANA.slice(0, 2) as [string, string], `Bad#Guess${i}x`)).statusCode);
    expect(answers).toEqual([401, 401, 401, 401, 423]);
    const right = await login(t.app, ...ANA);
    expect(right.statusCode).toBe(423);
    expect(right.json().key).toBe('server.errors.accountLockedTemporarily');
    expect(right.json().message).toContain('15');
    const [mail] = await t.db.handle.db.select().from(outbox).where(eq(outbox.toAddress, ANA[1])).orderBy(desc(outbox.id)).limit(1);
    expect(mail.kind).toBe('account_locked');
    // Ana reads Portuguese: the mail says the lock ends by itself
    expect(mail.textBody).toContain('15 minutos');
    // an e-mail without a login answers the same sequence
    const ghost: number[] = [];
    for (let i = 1; i <= 6; i++) ghost.push((await login(t.app, 'brightpath', 'ghost.parent@example.com', `Bad#Guess${i}x`)).statusCode);
    expect(ghost).toEqual([401, 401, 401, 401, 423, 423]);
    time.advance(15 * 60 * 1000 + 1000);
    expect((await login(t.app, ...ANA)).statusCode).toBe(200);
  });

  it('limits contacts per account, absence notices and messages per hour, with a clear message', async () => {
    const headers = { authorization: `Bearer ${await tokenFor(t.app, ...MARIA)}` };
    const send = () => t.app.inject({ method: 'POST', url: '/api/Communication/sendmail', headers, payload: { subjectID: '1', message: 'A question' } });
    expect((await send()).statusCode).toBe(200);
    expect((await send()).statusCode).toBe(200);
    const third = await send();
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ key: 'server.errors.limit.messages' });
    expect(third.json().message).toContain('2');
    time.advance(61 * 60 * 1000);
    // (the session ended while idle: sign in again)
    headers.authorization = `Bearer ${await tokenFor(t.app, ...MARIA)}`;
    expect((await send()).statusCode).toBe(200);

    // Maria's account holds 7 adults; the limit is 8
    const blank = (await t.app.inject({ method: 'GET', url: '/api/Demographics/adults/details/0', headers })).json();
    const contact = {
      ...blank,
      firstName: 'Zed',
      lastName: 'Zed',
      homePhone: '2175550999',
      cellPhone: '',
      relationships: blank.relationships.map((r: object, i: number) => ({ ...r, relationshipId: i === 0 ? 1 : 0, isLivesWith: i === 0 })),
      userDefinedFields: blank.userDefinedFields.map((u: { fieldName: string }) => ({ ...u, value: u.fieldName.startsWith('UDDro') ? 1 : u.fieldName.startsWith('UDRad') ? true : 'answer' })),
    };
    const first = await t.app.inject({ method: 'POST', url: '/api/Demographics/adults/0', headers, payload: contact });
    expect(first.statusCode, first.body).toBe(200);
    const over = await t.app.inject({ method: 'POST', url: '/api/Demographics/adults/0', headers, payload: { ...contact, firstName: 'Yan' } });
    expect(over.statusCode).toBe(429);
    expect(over.json().key).toBe('server.errors.limit.contacts');

    const kids = (await t.app.inject({ method: 'GET', url: '/api/Demographics/children', headers })).json() as { childID: number }[];
    // an absence may not start before the business 'today' (PORTAL_TODAY), not the clock's day
    const d = businessDate(time.clock());
    d.setDate(d.getDate() + 2);
    const startDate = `${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}/${d.getFullYear()}`;
    const notice = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/Attendance/absence',
        headers,
        payload: { childIDs: [kids[0].childID], reasonID: 0, otherReason: 'Visiting', startDate, multiDay: false, timeOffered: 'fullday', additionalInfo: 'x' },
      });
    const ok = await notice();
    expect(ok.statusCode, ok.body).toBe(200);
    const again = await notice();
    expect(again.statusCode).toBe(429);
    expect(again.json().key).toBe('server.errors.limit.absenceNotices');
  });
});
