// The autopay run (server/domains/payments/autopay.ts) on both databases, over a gateway that charges
// a saved token once per key (as the real ones do) with the outcome the test gives each token: the
// charge day (business days before the due date, weekends and holidays skipped); the run twice on a
// day, two runs at once on one database and two app instances at once charge once, posting the
// payment, the discount credit and the receipt once; the parent's maximum per charge; card soft
// declines tried again on the schedule over a month of days and hard declines never; bank returns R01
// and R09 presented again at most twice, other codes never; each failure an autopay error and an
// e-mail in the parent's language; the final ones listed for the provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { AUTOPAY_DEFAULTS, type BillingSettings } from '../../server/billingSettings';
import { chargeDateOf, failedAutopays, runAutopay, type AutopayContext, type AutopayRunResult } from '../../server/domains/payments/autopay';
import { applySettlementNotice } from '../../server/domains/payments/settlement';
import { accountMoney } from '../../server/domains/billing/ledger';
import { addDays } from '../../src/engine/billing';
import { GatewayUnavailable, type PaymentGateway } from '../../server/gateways/adapter';
import { reconcilePayments } from '../../server/domains/payments/payments';
import type { GatewayTransaction } from '../../sandbox-gateway/protocol';
import type { App } from '../../server/app';
import { isTrue } from '../../src/engine/logic';
import { BACKENDS, KAREN, MARIA, apiClient, createInstances, createTestApp, tokenFor, type TestApp } from './helpers';

const BILLING: BillingSettings = {
  from: '2026-09-01',
  invoiceDaysBefore: 0,
  dueDays: 10,
  prorate: true,
  lateFeeGraceDays: 2,
  autopayDiscountPercent: { M: 2 },
  // Thanksgiving and the day after
  holidays: [{ date: '2026-11-26', name: { en: 'Thanksgiving' } }, { date: '2026-11-27', name: { en: 'Day after Thanksgiving' } }],
  autopay: AUTOPAY_DEFAULTS,
};

/** A gateway that charges a token once per idempotency key, each token's tries answered by its plan (then approved). */
function planGateway(code: number) {
  const plans = new Map<string, string[]>();
  const byKey = new Map<string, GatewayTransaction>();
  const tries = new Map<string, number>();
  let charges = 0;
  /** when set, the next charge is made and its answer lost (the portal sees the gateway unavailable) */
  const lose = { next: false };
  const gateway = {
    code,
    chargeToken: async (req: { idempotencyKey: string; token: string; amountCents: number; reference: string }) => {
      const earlier = byKey.get(req.idempotencyKey);
      if (earlier) return earlier;
      const n = tries.get(req.token) ?? 0;
      tries.set(req.token, n + 1);
      charges++;
      const outcome = plans.get(req.token)?.[n] ?? 'APPROVED';
      const approved = outcome === 'APPROVED';
      const tx: GatewayTransaction = {
        transactionId: `txn-${code}-${charges}`,
        checkoutId: '',
        reference: req.reference,
        status: approved ? 'APPROVED' : 'DECLINED',
        amountCents: req.amountCents,
        method: code === 2 ? 'BANK' : 'CARD',
        reasonCode: approved ? '' : outcome,
        authCode: approved ? 'A1B2C3' : '',
        brand: code === 2 ? 'CHECKING' : 'VISA',
        last4: '4242',
        holderName: 'Test Parent',
        expiry: code === 2 ? '' : '12/30',
        createdAt: new Date().toISOString(),
        savedMethod: null,
        settlement: code === 2 && approved ? 'PENDING' : 'SETTLED',
      };
      byKey.set(req.idempotencyKey, tx);
      if (lose.next) {
        lose.next = false;
        throw new GatewayUnavailable('the answer was lost');
      }
      return tx;
    },
  } as unknown as PaymentGateway;
  return { gateway, plans, lose, charged: () => charges, triesOf: (token: string) => tries.get(token) ?? 0 };
}

describe('the charge day', () => {
  it('is the provider\'s number of business days before the due date, weekends and holidays skipped', () => {
    const c = { billing: BILLING };
    // due Monday 30 November: Friday 27 and Thursday 26 are holidays, so Wednesday 25 and Tuesday 24
    expect(chargeDateOf(c, '2026-11-30')).toBe('2026-11-24');
    // due Wednesday 11 November: Monday 9
    expect(chargeDateOf(c, '2026-11-11')).toBe('2026-11-09');
    // due on a Sunday: counted from the Friday before
    expect(chargeDateOf(c, '2026-11-15')).toBe('2026-11-11');
    expect(chargeDateOf({ billing: { ...BILLING, autopay: { ...AUTOPAY_DEFAULTS, businessDaysBefore: 0 } } }, '2026-11-15')).toBe('2026-11-13');
  });
});

describe.each(BACKENDS)('the autopay run on %s', (backend) => {
  let t: TestApp;
  let providerId = 0;
  let spd = 90_000;
  const card = planGateway(1);
  const bank = planGateway(2);
  const db = () => t.db.handle.db;
  const ctx = (today: string, app: App = t.app, billing = BILLING): AutopayContext => ({ deps: app.deps, providerId, appName: 'brightpath', billing, rules: app.deps.declarations.get('brightpath')!.set.rules, today });

  /** A new account on autopay with its saved method (a token of the card or bank gateway) and an invoice charged to its ledger. */
  async function enrolled(name: string, opts: { bank?: boolean; amountCents?: number; discountCents?: number; dueDate?: string; maxChargeCents?: number; lang?: string } = {}, on = db(), pid = providerId) {
    const providerId = pid;
    const db = () => on;
    const [acc] = await db().insert(s.accounts).values({ providerId, accountNo: `AP-${name}-${backend}` }).returning();
    const [adult] = await db()
      .insert(s.adults)
      .values({ providerId, accountId: acc.id, accountHolder: 1, firstName: name, lastName: 'Parent', email: `${name.toLowerCase()}@example.com`, primaryLanguage: opts.lang ?? 'en' })
      .returning();
    const [reg] = await db()
      .insert(s.autopayRegistrations)
      .values({ providerId, accountId: acc.id, adultId: adult.id, paymentMethodCode: opts.bank ? 'ECH' : 'CCD', frequency: 'M', startDate: '2026-09-01', maxChargeCents: opts.maxChargeCents ?? null })
      .returning();
    const token = `tok-${name}-${backend}`;
    await db()
      .insert(s.paymentMethods)
      .values({ providerId, accountId: acc.id, adultId: adult.id, automaticPaymentRegistrationId: reg.id, paymentMethodCode: opts.bank ? 'ECR' : 'CCR', type: opts.bank ? 'CHECKING' : 'VISA', last4Digits: '4242', firstName: name, lastName: 'Parent', expiry: opts.bank ? null : '12/30', savedOn: '2026-09-01', usedForAutoPay: true, token, gatewayCode: opts.bank ? 2 : 1, validated: true });
    const dueDate = opts.dueDate ?? '2026-12-10';
    const amountCents = opts.amountCents ?? 500_00;
    const [inv] = await db()
      .insert(s.invoices)
      .values({ providerId, accountId: acc.id, servicePeriodDetailID: ++spd, servicePeriod: 'December', invoiceDate: addDays(dueDate, -10), paymentDueDate: dueDate, amountCents, autoPayDiscountValueCents: opts.discountCents ?? 10_00 })
      .returning();
    await db().insert(s.ledgerEntries).values({ providerId, accountId: acc.id, kind: 'CHARGE', amountCents, entryDate: inv.invoiceDate, dueDate, invoiceId: inv.id, description: 'Tuition', createdAt: new Date() });
    return { account: acc.id, adult: adult.id, token, invoice: inv, registration: reg.id };
  }

  const chargesOf = (account: number) => db().select().from(s.autopayCharges).where(eq(s.autopayCharges.accountId, account)).orderBy(asc(s.autopayCharges.attempt));
  const paymentsOf = (account: number) => db().select().from(s.payments).where(eq(s.payments.accountId, account));
  const errorsOf = (account: number) => db().select().from(s.autopayErrors).where(eq(s.autopayErrors.accountId, account)).orderBy(asc(s.autopayErrors.id));
  const mailsTo = async (address: string) => (await db().select().from(s.outbox).where(eq(s.outbox.toAddress, address))).sort((a, b) => a.id - b.id);
  const balance = async (account: number) => (await accountMoney(db(), providerId, account, '2026-12-31')).balanceCents;

  /** Runs every day from `from` to `to` (the run's own day injected); answers the days with a try. */
  async function month(from: string, to: string, only: (day: string) => boolean = () => true): Promise<Map<string, AutopayRunResult>> {
    const days = new Map<string, AutopayRunResult>();
    for (let day = from; day <= to; day = addDays(day, 1)) if (only(day)) days.set(day, await runAutopay(ctx(day)));
    return days;
  }

  beforeAll(async () => {
    t = await createTestApp(backend, { gateways: { 1: card.gateway, 2: bank.gateway } });
    const [bp] = await db().select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
    providerId = bp.id;
    // the demo's autopay (a card without a token) is not this test's
    await db().update(s.autopayRegistrations).set({ active: false }).where(eq(s.autopayRegistrations.providerId, providerId));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('runs every day as a job', () => {
    expect(t.app.jobs.recurring()).toContain('autopay.run');
  });

  it('charges nothing before the charge day, then the amount due less the discount once, run twice and twice at once', async () => {
    const a = await enrolled('Olivia');
    // due Thursday 10 December: charged Tuesday 8
    expect((await runAutopay(ctx('2026-12-07'))).charged).toBe(0);
    expect(await chargesOf(a.account)).toHaveLength(0);
    const before = card.charged();
    const runs = await Promise.all([runAutopay(ctx('2026-12-08')), runAutopay(ctx('2026-12-08'))]);
    expect(runs[0].charged + runs[1].charged).toBe(1);
    await runAutopay(ctx('2026-12-08'));
    await runAutopay(ctx('2026-12-09'));
    expect(card.charged() - before).toBe(1);
    const [charge] = await chargesOf(a.account);
    expect(charge).toMatchObject({ attempt: 1, chargeDate: '2026-12-08', status: 'APPROVED', amountDueCents: 490_00, discountCents: 10_00, amountCents: 490_00 });
    const pays = await paymentsOf(a.account);
    expect(pays).toHaveLength(1);
    expect(pays[0]).toMatchObject({ amountCents: 490_00, paymentMethodCode: 'CCR', status: 'APPROVED' });
    const ledger = await db().select().from(s.ledgerEntries).where(eq(s.ledgerEntries.accountId, a.account));
    expect(ledger.filter((e) => e.kind === 'PAYMENT').map((e) => e.amountCents)).toEqual([490_00]);
    expect(ledger.filter((e) => e.kind === 'CREDIT').map((e) => e.amountCents)).toEqual([10_00]);
    expect(await balance(a.account)).toBe(0);
    // the receipt, once
    const mails = await mailsTo('olivia@example.com');
    expect(mails.filter((m) => m.kind === 'payment-receipt')).toHaveLength(1);
    expect(await errorsOf(a.account)).toHaveLength(0);
  });

  it('charges once when two app instances run it at once', async () => {
    const two = await createInstances(backend, 2, { gateways: { 1: card.gateway, 2: bank.gateway } });
    try {
      const on = two.apps[0].deps.db;
      const [bp] = await on.select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
      await on.update(s.autopayRegistrations).set({ active: false }).where(eq(s.autopayRegistrations.providerId, bp.id));
      const a = await enrolled('Noah', { dueDate: '2026-12-11' }, on, bp.id);
      const before = card.charged();
      const at = (app: App): AutopayContext => ({ ...ctx('2026-12-09', app), providerId: bp.id });
      const runs = await Promise.all(two.apps.map((app) => runAutopay(at(app))));
      expect(runs.map((r) => r.charged).sort()).toEqual([0, 1]);
      expect(card.charged() - before).toBe(1);
      expect(await on.select().from(s.payments).where(eq(s.payments.accountId, a.account))).toHaveLength(1);
      const receipts = await on.select().from(s.outbox).where(and(eq(s.outbox.toAddress, 'noah@example.com'), eq(s.outbox.kind, 'payment-receipt')));
      expect(receipts).toHaveLength(1);
    } finally {
      await two.close();
    }
  });

  it('charges at most the parent\'s maximum, tells her what stays due, and leaves it due', async () => {
    const a = await enrolled('Emma', { maxChargeCents: 300_00 });
    await runAutopay(ctx('2026-12-08'));
    const [charge] = await chargesOf(a.account);
    expect(charge).toMatchObject({ status: 'APPROVED', amountDueCents: 490_00, amountCents: 300_00 });
    expect(await balance(a.account)).toBe(190_00);
    const told = (await mailsTo('emma@example.com')).filter((m) => m.kind === 'autopay-above-max');
    expect(told).toHaveLength(1);
    expect(told[0].textBody).toContain('$190.00');
    await runAutopay(ctx('2026-12-09'));
    expect(await paymentsOf(a.account)).toHaveLength(1);
  });

  for (const reason of ['INSUFFICIENT_FUNDS', 'ISSUER_UNAVAILABLE', 'TRY_AGAIN_LATER']) {
    it(`tries a card declined for ${reason} again on days 1, 3 and 5, four tries at most, over a month of days`, async () => {
      const a = await enrolled(`Soft${reason.replace(/_/g, '')}`, { dueDate: '2026-12-16' });
      card.plans.set(a.token, [reason, reason, reason, reason, reason]);
      const days = await month('2026-12-01', '2026-12-31');
      const tried = [...days].filter(([, r]) => r.charged > 0).map(([d]) => d);
      // charged Monday 14 December, then 15, 17 and 19
      expect(tried).toEqual(['2026-12-14', '2026-12-15', '2026-12-17', '2026-12-19']);
      expect(card.triesOf(a.token)).toBe(4);
      const charges = await chargesOf(a.account);
      expect(charges.map((c) => [c.attempt, c.status, c.declineClass, c.final])).toEqual([
        [1, 'DECLINED', 'SOFT', false],
        [2, 'DECLINED', 'SOFT', false],
        [3, 'DECLINED', 'SOFT', false],
        [4, 'DECLINED', 'SOFT', true],
      ]);
      const errors = await errorsOf(a.account);
      expect(errors).toHaveLength(4);
      expect(errors.every((e) => e.transactionStatusCode === 'PAYMENT FAILED' && e.resolvedAt === null)).toBe(true);
      const failed = (await mailsTo(`soft${reason.replace(/_/g, '').toLowerCase()}@example.com`)).filter((m) => m.kind === 'autopay-failed');
      expect(failed).toHaveLength(4);
      expect(failed[0].textBody).toContain('We will try again on');
      expect(failed[3].textBody).toContain('We will not try this payment again');
      expect(failed[3].textBody).toContain('next=%2Fpaynow');
      expect((await failedAutopays(db(), 'brightpath')).filter((f) => f.accountNo === `AP-Soft${reason.replace(/_/g, '')}-${backend}`)).toHaveLength(1);
    });
  }

  it('takes a soft-declined card that goes through on its second retry, and resolves the errors', async () => {
    const a = await enrolled('Mia', { dueDate: '2026-12-16' });
    card.plans.set(a.token, ['INSUFFICIENT_FUNDS', 'INSUFFICIENT_FUNDS', 'APPROVED']);
    await month('2026-12-10', '2026-12-31');
    const charges = await chargesOf(a.account);
    expect(charges.map((c) => [c.attempt, c.chargeDate, c.status])).toEqual([
      [1, '2026-12-14', 'DECLINED'],
      [2, '2026-12-15', 'DECLINED'],
      [3, '2026-12-17', 'APPROVED'],
    ]);
    expect(await paymentsOf(a.account)).toHaveLength(1);
    expect(await balance(a.account)).toBe(0);
    expect((await errorsOf(a.account)).every((e) => e.resolvedAt !== null)).toBe(true);
  });

  for (const reason of ['STOLEN', 'LOST', 'CLOSED', 'INVALID_NUMBER', 'DO_NOT_HONOR']) {
    it(`never tries a card again after a hard decline (${reason})`, async () => {
      const a = await enrolled(`Hard${reason.replace(/_/g, '')}`, { dueDate: '2026-12-16', lang: 'es' });
      card.plans.set(a.token, [reason, 'APPROVED']);
      await month('2026-12-01', '2026-12-31');
      expect(card.triesOf(a.token)).toBe(1);
      const charges = await chargesOf(a.account);
      expect(charges.map((c) => [c.attempt, c.status, c.declineClass, c.final, c.nextTryDate])).toEqual([[1, 'DECLINED', 'HARD', true, null]]);
      const failed = (await mailsTo(`hard${reason.replace(/_/g, '').toLowerCase()}@example.com`)).filter((m) => m.kind === 'autopay-failed');
      expect(failed).toHaveLength(1);
      // in her language, with the way to pay and to change the card
      expect(failed[0].subject).toContain('no se realizó');
      expect(failed[0].textBody).toContain('No volveremos a intentar este pago');
      expect(failed[0].textBody).toContain('Si su tarjeta ha cambiado');
    });
  }

  /** The bank sends the debit of a try back with `code` (the gateway's transaction.returned). */
  async function bankReturns(paymentId: number, code: string) {
    const [pay] = await db().select().from(s.payments).where(eq(s.payments.id, paymentId));
    const tx = { transactionId: pay.gatewayTransactionId!, checkoutId: '', reference: '', status: 'APPROVED', amountCents: pay.amountCents, method: 'BANK', reasonCode: '', authCode: '', brand: 'CHECKING', last4: '4242', holderName: '', expiry: '', createdAt: new Date().toISOString(), settlement: 'RETURNED', returnCode: code } as GatewayTransaction;
    await applySettlementNotice(t.app.deps, 2, { eventId: `ret-${paymentId}`, type: 'transaction.returned', merchant: '2', transaction: tx, returnCode: code });
  }

  for (const code of ['R01', 'R09']) {
    it(`presents a bank debit returned ${code} again at most twice, for the same amount`, async () => {
      const a = await enrolled(`Bank${code}`, { bank: true, dueDate: '2026-12-16' });
      // each presentation comes back
      for (let day = '2026-12-01'; day <= '2026-12-31'; day = addDays(day, 1)) {
        await runAutopay(ctx(day));
        for (const c of await chargesOf(a.account)) if (c.status === 'APPROVED' && c.paymentId && c.chargeDate < day) await bankReturns(c.paymentId, code);
      }
      const charges = await chargesOf(a.account);
      expect(charges.map((c) => [c.attempt, c.status, c.declineClass, c.amountCents, c.final])).toEqual([
        [1, 'RETURNED', 'RETURN', 490_00, false],
        [2, 'RETURNED', 'RETURN', 490_00, false],
        [3, 'RETURNED', 'RETURN', 490_00, true],
      ]);
      expect(bank.triesOf(a.token)).toBe(3);
      // every discount went back with its returned payment: the whole invoice is owed again
      expect(await balance(a.account)).toBe(500_00);
      expect(await errorsOf(a.account)).toHaveLength(3);
    });
  }

  for (const code of ['R02', 'R03', 'R08', 'R10', 'R16', 'R20', 'R29']) {
    it(`never presents a bank debit returned ${code} again`, async () => {
      const a = await enrolled(`Bank${code}`, { bank: true, dueDate: '2026-12-16' });
      for (let day = '2026-12-10'; day <= '2026-12-31'; day = addDays(day, 1)) {
        await runAutopay(ctx(day));
        for (const c of await chargesOf(a.account)) if (c.status === 'APPROVED' && c.paymentId && c.chargeDate < day) await bankReturns(c.paymentId, code);
      }
      const charges = await chargesOf(a.account);
      expect(charges.map((c) => [c.attempt, c.status, c.final])).toEqual([[1, 'RETURNED', true]]);
      expect(bank.triesOf(a.token)).toBe(1);
    });
  }

  it('records a charge it cannot make (no token) as a scheduling failure, once', async () => {
    const a = await enrolled('Ava', { dueDate: '2026-12-16' });
    await db().update(s.paymentMethods).set({ token: null }).where(eq(s.paymentMethods.accountId, a.account));
    await runAutopay(ctx('2026-12-14'));
    await runAutopay(ctx('2026-12-15'));
    const errors = await errorsOf(a.account);
    expect(errors.map((e) => [e.transactionStatusCode, e.reasonCode])).toEqual([['SCHEDULING FAILED', 'NO_CHARGEABLE_METHOD']]);
    const charges = await db().select().from(s.autopayCharges).where(inArray(s.autopayCharges.accountId, [a.account]));
    expect(charges.map((c) => [c.status, c.final])).toEqual([['DECLINED', true]]);
  });
  it('tells the parent once, three days before a card charge, with the amount, day and method', async () => {
    const a = await enrolled('Liam', { dueDate: '2026-12-16' });
    const sentOn: string[] = [];
    for (let day = '2026-12-01'; day <= '2026-12-13'; day = addDays(day, 1)) {
      const runs = await Promise.all([runAutopay(ctx(day)), runAutopay(ctx(day))]);
      if (runs[0].notices + runs[1].notices) sentOn.push(day);
    }
    // charged Monday 14 December: told Friday 11
    expect(sentOn).toEqual(['2026-12-11']);
    const notices = (await mailsTo('liam@example.com')).filter((m) => m.kind === 'autopay-notice');
    expect(notices).toHaveLength(1);
    expect(notices[0].textBody).toContain('On 12/14/2026');
    expect(notices[0].textBody).toContain('$490.00');
    expect(notices[0].textBody).toContain('VISA ending in 4242');
    const rows = await db().select().from(s.autopayNotices).where(eq(s.autopayNotices.accountId, a.account));
    expect(rows.map((r) => [r.chargeDate, r.amountCents, r.daysAhead])).toEqual([['2026-12-14', 490_00, 3]]);
    await month('2026-12-14', '2026-12-20');
    expect((await mailsTo('liam@example.com')).filter((m) => m.kind === 'autopay-notice')).toHaveLength(1);
  });

  it('tells the parent ten days before a bank debit of a new amount (from the invoice\'s day when it came later), three for the same amount', async () => {
    const a = await enrolled('Lucas', { bank: true, dueDate: '2026-12-16', lang: 'vi' });
    await month('2026-12-01', '2026-12-14');
    let rows = await db().select().from(s.autopayNotices).where(eq(s.autopayNotices.accountId, a.account));
    // the first debit: ten days; its invoice of 6 December came eight days before the charge
    expect(rows.map((r) => [r.chargeDate, r.daysAhead, r.sentAt !== null])).toEqual([['2026-12-14', 10, true]]);
    const first = (await mailsTo('lucas@example.com')).filter((m) => m.kind === 'autopay-notice');
    expect(first).toHaveLength(1);
    expect(first[0].subject).toContain('thanh toán tự động');
    // January, the same amount: three days before its charge (due Wednesday 13, charged Monday 11, told Friday 8)
    const [jan] = await db().insert(s.invoices).values({ providerId, accountId: a.account, servicePeriodDetailID: ++spd, servicePeriod: 'January', invoiceDate: '2027-01-01', paymentDueDate: '2027-01-13', amountCents: 500_00, autoPayDiscountValueCents: 10_00 }).returning();
    await db().insert(s.ledgerEntries).values({ providerId, accountId: a.account, kind: 'CHARGE', amountCents: 500_00, entryDate: '2027-01-01', dueDate: '2027-01-13', invoiceId: jan.id, description: 'Tuition', createdAt: new Date() });
    const told = await month('2027-01-01', '2027-01-10');
    expect([...told].filter(([, r]) => r.notices > 0).map(([d]) => d)).toEqual(['2027-01-08']);
    // February, another amount: ten days (due Wednesday 10 February, charged Monday 8, told Friday 29 January)
    const [feb] = await db().insert(s.invoices).values({ providerId, accountId: a.account, servicePeriodDetailID: ++spd, servicePeriod: 'February', invoiceDate: '2027-01-25', paymentDueDate: '2027-02-10', amountCents: 600_00, autoPayDiscountValueCents: 10_00 }).returning();
    await db().insert(s.ledgerEntries).values({ providerId, accountId: a.account, kind: 'CHARGE', amountCents: 600_00, entryDate: '2027-01-25', dueDate: '2027-02-10', invoiceId: feb.id, description: 'Tuition', createdAt: new Date() });
    const toldFeb = await month('2027-01-12', '2027-02-07');
    expect([...toldFeb].filter(([, r]) => r.notices > 0).map(([d]) => d)).toEqual(['2027-01-29']);
    rows = await db().select().from(s.autopayNotices).where(eq(s.autopayNotices.accountId, a.account));
    expect(rows.map((r) => r.daysAhead)).toEqual([10, 3, 10]);
  });
  it('answers the account\'s autopay errors for spec 2.12\'s alert on Home and Pay now, its own only, until what failed is paid', async () => {
    const [maria] = await db().select().from(s.logins).where(eq(s.logins.email, MARIA[1]));
    const [adult] = await db().select().from(s.adults).where(eq(s.adults.id, maria.adultId));
    const garcia = adult.accountId;
    const [reg] = await db().select().from(s.autopayRegistrations).where(eq(s.autopayRegistrations.accountId, garcia));
    const [inv] = await db().select().from(s.invoices).where(eq(s.invoices.accountId, garcia)).orderBy(asc(s.invoices.id));
    // the demo's autopay card has no token: its charge cannot be made
    await db().update(s.autopayRegistrations).set({ active: true }).where(eq(s.autopayRegistrations.id, reg.id));
    await db().update(s.invoices).set({ paymentDueDate: '2027-03-10' }).where(eq(s.invoices.id, inv.id));
    await db().update(s.ledgerEntries).set({ dueDate: '2027-03-10' }).where(eq(s.ledgerEntries.invoiceId, inv.id));
    try {
      await runAutopay(ctx('2027-03-08'));
      const api = apiClient(t.app, { token: await tokenFor(t.app, ...MARIA) });
      const rules = t.app.deps.declarations.get('brightpath')!.set.rules;
      const res = await api('Billing.autopayErrors');
      expect(res.statusCode).toBe(200);
      const errors = res.json();
      expect(errors).toMatchObject({ count: 1, transactionStatusCode: 'SCHEDULING FAILED', amount: 0, paymentMethodCode: 'CCR', paymentMethod: 'VISA', bankAccountDetails: '4242', reasonCode: 'NO_CHARGEABLE_METHOD' });
      expect(errors.paymentAmount).toBeGreaterThan(0);
      expect(isTrue(rules, 'payment.showAutopayAlert', { data: { autopayErrors: errors } })).toBe(true);
      // another account sees none of it
      const karen = await apiClient(t.app, { token: await tokenFor(t.app, ...KAREN) })('Billing.autopayErrors');
      expect(karen.json()).toMatchObject({ count: 0, transactionStatusCode: null });
      // paid by hand: the alert goes
      await db().insert(s.payments).values({ providerId, accountId: garcia, paymentDate: errors.TransactionDate, amountCents: Math.round(errors.paymentAmount * 100), paymentMethodCode: 'CCD' });
      const after = (await api('Billing.autopayErrors')).json();
      expect(isTrue(rules, 'payment.showAutopayAlert', { data: { autopayErrors: after } })).toBe(false);
    } finally {
      await db().update(s.autopayRegistrations).set({ active: false }).where(eq(s.autopayRegistrations.id, reg.id));
    }
  });
  it('charges once when the gateway\'s answer is lost: the reconciler asks again with the same key, the next run settles it', async () => {
    const a = await enrolled('Harper', { dueDate: '2026-12-16' });
    const before = card.charged();
    card.lose.next = true;
    expect(await runAutopay(ctx('2026-12-14'))).toMatchObject({ charged: 1, pending: 1, approved: 0 });
    expect((await chargesOf(a.account)).map((c) => c.status)).toEqual(['PENDING']);
    // a rerun the same day neither charges again nor settles what it does not know yet
    expect(await runAutopay(ctx('2026-12-14'))).toMatchObject({ charged: 0, pending: 1 });
    await reconcilePayments(t.app.deps, { olderThanMs: 0 });
    expect(await runAutopay(ctx('2026-12-15'))).toMatchObject({ charged: 0, approved: 1 });
    expect(card.charged() - before).toBe(1);
    expect((await chargesOf(a.account)).map((c) => c.status)).toEqual(['APPROVED']);
    expect(await paymentsOf(a.account)).toHaveLength(1);
    expect(await balance(a.account)).toBe(0);
  });
  it('stops listing a charge that failed for good once the parent paid the invoice by hand', async () => {
    const a = await enrolled('Ella', { dueDate: '2026-12-16' });
    card.plans.set(a.token, ['STOLEN']);
    await runAutopay(ctx('2026-12-14'));
    const listed = async () => (await failedAutopays(db(), 'brightpath')).filter((f) => f.accountNo === `AP-Ella-${backend}`);
    expect(await listed()).toHaveLength(1);
    await db().insert(s.ledgerEntries).values({ providerId, accountId: a.account, kind: 'PAYMENT', amountCents: 500_00, entryDate: '2026-12-15', description: 'Paid at the desk', createdAt: new Date() });
    await runAutopay(ctx('2026-12-15'));
    expect(await listed()).toHaveLength(0);
    expect((await errorsOf(a.account)).every((e) => e.resolvedAt !== null)).toBe(true);
  });
});
