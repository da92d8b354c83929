// A saved card's expiry notice (methods.expiryNotices, daily): 30 days before the end of the card's
// expiry month its holder is e-mailed in the account's language, once per expiry, the mail kept in
// the account's Emails/Texts history; a card updated to a new expiry is told again when that one
// comes near; a card the bank made unusable, or one already expired, is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import type { AppDeps } from '../../server/context';
import { lastDayOfExpiry, sendExpiryNotices } from '../../server/domains/payments/expiryNotices';
import { BACKENDS, createTestApp, type TestApp } from './helpers';

describe('the last day of a card expiry', () => {
  it('is the end of the MM/YY month', () => {
    expect(lastDayOfExpiry('12/26')).toBe('2026-12-31');
    expect(lastDayOfExpiry('02/28')).toBe('2028-02-29');
    expect(lastDayOfExpiry('13/26')).toBeNull();
    expect(lastDayOfExpiry('12/2026')).toBeNull();
  });
});

describe.each(BACKENDS)('card expiry notices on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.db.handle.db;
  /** the portal's dependencies with the business day `day` (the job's today) */
  const on = (day: string): AppDeps => ({ ...t.app.deps, today: () => new Date(`${day}T09:00:00`) });
  const notices = () => db().select().from(s.outbox).where(eq(s.outbox.kind, 'card-expiry'));

  it('the job runs daily', () => {
    expect(t.app.jobs.recurring()).toContain('methods.expiryNotices');
  });

  it('tells the holder once, 30 days before the end of the expiry month, in the account\'s language', async () => {
    const [maria] = await db().select().from(s.adults).where(eq(s.adults.email, 'maria.garcia@example.com'));
    // the demo's saved methods are left to their own dates: only this card's notices are counted
    await db().update(s.paymentMethods).set({ status: 'INVALID' }).where(eq(s.paymentMethods.accountId, maria.accountId));
    const [card] = await db()
      .insert(s.paymentMethods)
      .values({ providerId: maria.providerId, accountId: maria.accountId, adultId: maria.id, paymentMethodCode: 'CCR', type: 'VISA', last4Digits: '4242', firstName: 'Maria', lastName: 'Garcia', expiry: '12/26', savedOn: '2026-01-10', token: 'tok_expiry_test', gatewayCode: 1 })
      .returning();
    const [invalid] = await db()
      .insert(s.paymentMethods)
      .values({ providerId: maria.providerId, accountId: maria.accountId, adultId: maria.id, paymentMethodCode: 'CCR', type: 'MASTERCARD', last4Digits: '5454', firstName: 'Maria', lastName: 'Garcia', expiry: '12/26', savedOn: '2026-01-10', token: 'tok_expiry_invalid', gatewayCode: 1, status: 'BLOCKED' })
      .returning();
    const before = (await notices()).length;
    // 38 days before the end of December: not yet
    expect(await sendExpiryNotices(on('2026-11-23'))).toBe(0);
    // 30 days before: told, in Spanish (Maria's account)
    expect(await sendExpiryNotices(on('2026-12-01'))).toBe(1);
    const mails = (await notices()).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].toAddress).toBe('maria.garcia@example.com');
    expect(mails[0].subject).toContain('4242');
    expect(mails[0].subject).toContain('vence pronto');
    expect(mails[0].textBody).toContain('12/26');
    expect(mails[0].textBody).toContain('30');
    const [row] = await db().select().from(s.paymentMethods).where(eq(s.paymentMethods.id, card.id));
    expect(row.expiryNoticeFor).toBe('12/26');
    const history = await db().select().from(s.communications).where(and(eq(s.communications.accountId, maria.accountId), eq(s.communications.subject, mails[0].subject)));
    expect(history).toHaveLength(1);
    // the next days, and two runs at once: no second mail for that expiry
    expect(await sendExpiryNotices(on('2026-12-02'))).toBe(0);
    await Promise.all([sendExpiryNotices(on('2026-12-03')), sendExpiryNotices(on('2026-12-03'))]);
    expect((await notices()).length).toBe(before + 1);
    // expired: never told
    expect(await sendExpiryNotices(on('2027-01-02'))).toBe(0);
    // the card updated to a new expiry is told again when that one comes near
    await db().update(s.paymentMethods).set({ expiry: '01/28' }).where(eq(s.paymentMethods.id, card.id));
    expect(await sendExpiryNotices(on('2027-12-15'))).toBe(0);
    expect(await sendExpiryNotices(on('2028-01-05'))).toBe(1);
    expect((await notices()).length).toBe(before + 2);
    // the blocked card was never told
    const [blocked] = await db().select().from(s.paymentMethods).where(inArray(s.paymentMethods.id, [invalid.id]));
    expect(blocked.expiryNoticeFor).toBeNull();
  });
});
