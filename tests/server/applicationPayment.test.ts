// Registration paid in one go (amendment 7) on both databases: the submit puts the fees of what got
// a seat on the ledger; with payment option O the seats are held for the provider's minutes while
// the parent pays through the gateway; pay later keeps them; a hold that ends unpaid releases them
// and credits the charges back; a payment completing after that is refunded in full.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import { settlePending } from '../../server/domains/enrolment/applicationPayment';
import type { BillingPaymentResultBody as PaymentResult } from '../../src/engine/contract.gen';
import { apiClient, BACKENDS, createTestApp, freePort, testClock, tokenFor, type TestApp } from './helpers';

const AMARA = ['brightpath', 'amara.mensah@example.com', 'Sunshine#2026'] as const;
const SECRET = 'application-payment-secret-0123';


describe.each(BACKENDS)('registration paid in one go on %s', (backend) => {
  let t: TestApp;
  let gw: SandboxGateway;
  let amara = '';
  const time = testClock();
  let preschool = 0;
  let activity: typeof s.activities.$inferSelect;
  let kids: { ada: number; ben: number } = { ada: 0, ben: 0 };

  beforeAll(async () => {
    const gwPort = await freePort();
    const gwUrl = `http://127.0.0.1:${gwPort}`;
    gw = await buildSandboxGateway({ secrets: { '1': SECRET }, publicUrl: gwUrl, clock: time.clock, notify: { retryDelaysMs: [50] } });
    await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
    const port = await freePort();
    t = await createTestApp(backend, {
      clock: time.clock,
      publicUrl: `http://127.0.0.1:${port}`,
      gateways: { 1: sandboxGateway({ code: 1, url: gwUrl, merchant: '1', secret: SECRET, clock: time.clock }) },
      // Brightpath's payer page offers save for later (its autopay form variant OTP_SPM)
      providerSettings: { brightpath: { payments: { gateways: { CCD: 1, ECH: 1 }, seatHoldMinutes: 15, autopayForm: 'OTP_SPM' } } },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    amara = await tokenFor(t.app, ...AMARA);
    const db = t.db.handle.db;
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Little Sprouts Preschool'));
    preschool = pp.id;
    // the preschool offers paying now or later (payment option O)
    await db.update(s.programPeriods).set({ paymentOption: 'O' }).where(eq(s.programPeriods.id, pp.id));
    [activity] = await db.select().from(s.activities).where(eq(s.activities.programPeriodId, pp.id));
    const children = await db.select().from(s.children).where(eq(s.children.lastName, 'Mensah'));
    kids = { ada: children.find((c) => c.firstName === 'Ada')!.id, ben: children.find((c) => c.firstName === 'Ben')!.id };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gw?.close();
  });

  const api = apiClient(() => t.app, () => ({ token: amara, headers: { 'x-release-version': '9.9.9' } }));
  const payer = { paidByFamilyMemberID: -1, firstName: 'Amara', lastName: 'Mensah', streetAddress: '18 Elm Court', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0190', email: 'amara.mensah@example.com' };

  /** An application of one child for the preschool, submitted. */
  async function submitted(childId: number) {
    const { key } = (await api('ParentApplication.start', { body: { programPeriodID: preschool } })).json();
    const ch = await api('ParentApplication.setChildren', { query: { key }, body: { childIDs: [childId] } });
    expect(ch.statusCode, ch.body).toBe(200);
    const enrol = await api('ParentApplication.saveEnrollment', { query: { key }, body: {
      children: [{ prChildID: childId, siteID: activity.siteId, selections: [{ activityID: activity.id, weekStart: null, daysOfWeek: activity.daysOfWeek.split(','), date: null }] }],
      enrollmentOption: 'Y',
    } });
    expect(enrol.statusCode, enrol.body).toBe(200);
    const fee = await api('ParentApplication.saveFee', { query: { key }, body: { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] } });
    expect(fee.statusCode, fee.body).toBe(200);
    const res = await api('ParentApplication.submit', { query: { key } });
    expect(res.statusCode, res.body).toBe(200);
    return { key: key as string, confirmation: res.json() };
  }

  /** Opens the hosted page for an application's fees; `saveCard`: "save for later" ticked on the payer page. */
  async function pay(key: string, saveCard = false) {
    const started = await api('Billing.startPayment', { body: { ...payer, applicationKey: key, paymentMethodCode: 'CCD', ...(saveCard ? { saveCard } : {}) } });
    expect(started.statusCode, started.body).toBe(200);
    return started.json().checkoutUrl as string;
  }

  async function onPage(checkoutUrl: string, number = '4111111111111111', saveMethod = false) {
    const res = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ name: 'Amara Mensah', number, expiry: '12/30', cvv: '123', ...(saveMethod ? { saveMethod: '1' } : {}) }), redirect: 'manual' });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(back.pathname).toBe('/parentapplication/bluepayresponse');
    const q = Object.fromEntries(back.searchParams);
    return (await api('Billing.paymentResult', { body: { gatewayCode: 1, checkout: q.checkout, transaction: q.transaction, status: q.status as PaymentResult['status'], sig: q.sig } })).json();
  }

  /** time passes (the session idles out meanwhile: the parent signs in again) */
  async function passes(ms: number) {
    time.advance(ms);
    amara = await tokenFor(t.app, ...AMARA);
  }

  const balance = async () => (await api('Billing.accountSummary')).json().currentBalance as number;
  const seatTaken = async () => (await t.db.handle.db.select().from(s.seats).where(eq(s.seats.activityId, activity.id)))[0]?.taken ?? 0;

  it('the submit charges the fees and holds the seat; pay later keeps it; paying then marks it paid', async () => {
    const before = await balance();
    const { key, confirmation } = await submitted(kids.ada);
    // registration $40 + tuition $690, less the $40 credit the account's ledger applies to them
    expect(confirmation.payment).toMatchObject({ paymentStatus: 'AWAITING', amountDue: 69000, secondsLeft: 900 });
    expect(await balance()).toBe(before + 730);
    const later = (await api('ParentApplication.payLater', { query: { key } })).json();
    expect(later.payment).toMatchObject({ paymentStatus: 'LATER', holdUntil: null });
    // an hour on, nothing is released
    await passes(60 * 60_000);
    const read = (await api('ParentApplication.confirmation', { query: { key } })).json();
    expect(read.payment.paymentStatus).toBe('LATER');
    expect(read.children[0].status).toBe('REGISTERED');
    // paid with "save for later" ticked on the payer page and on the hosted page
    expect((await api('Billing.savedMethods')).json()).toEqual([]);
    const result = await onPage(await pay(key, true), '4111111111111111', true);
    expect(result).toMatchObject({ status: 'APPROVED', purpose: 'APPLICATION', referrer: `/confirmation?key=${key}` });
    expect((await api('ParentApplication.confirmation', { query: { key } })).json().payment.paymentStatus).toBe('PAID');
    // the card is kept for later, as a payment from Pay now keeps it, chargeable on the spot
    expect((await api('Billing.savedMethods')).json()).toMatchObject([{ paymentMethodCode: 'CCR', type: 'VISA', last4Digits: '1111', firstName: 'Amara', lastName: 'Mensah', status: 'ACTIVE', statusReason: '', usedForAutoPay: false }]);
    // the checkout took what the account owed, never more: the $40 credit went to the registration
    expect(await balance()).toBe(0);
    // paid once: a second payment is refused
    expect((await api('Billing.startPayment', { body: { ...payer, applicationKey: key, paymentMethodCode: 'CCD' } })).statusCode).toBe(409);
  });

  it('a hold that ends unpaid releases the seat and credits the charges; a payment completing after it is refunded in full', async () => {
    const db = t.db.handle.db;
    const before = await balance();
    const takenBefore = await seatTaken();
    const { key, confirmation } = await submitted(kids.ben);
    expect(confirmation.payment.paymentStatus).toBe('AWAITING');
    expect(await seatTaken()).toBe(takenBefore + 1);
    // the parent opens the payment page, then leaves it for 16 minutes
    const checkoutUrl = await pay(key);
    await passes(16 * 60_000);
    const read = (await api('ParentApplication.confirmation', { query: { key } })).json();
    expect(read.payment.paymentStatus).toBe('EXPIRED');
    expect(await seatTaken()).toBe(takenBefore);
    const [reg] = await db.select().from(s.registrations).where(and(eq(s.registrations.childId, kids.ben), eq(s.registrations.programPeriodId, preschool)));
    expect(reg.status).toBe('REMOVED');
    expect(await balance()).toBe(before);
    // a new payment is refused; the page left open still takes the card: the payment is refunded
    expect((await api('Billing.startPayment', { body: { ...payer, applicationKey: key, paymentMethodCode: 'CCD' } })).statusCode).toBe(409);
    const result = await onPage(checkoutUrl);
    expect(result.status).toBe('APPROVED');
    await gw.flushNotifications();
    const after = (await api('ParentApplication.confirmation', { query: { key } })).json();
    expect(after.payment.paymentStatus).toBe('REFUNDED');
    const [attempt] = await db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.checkoutUrl, checkoutUrl));
    expect(attempt.refundedCents).toBe(attempt.amountCents + attempt.feeCents);
    const refunds = await db.select().from(s.ledgerEntries).where(and(eq(s.ledgerEntries.kind, 'REFUND'), eq(s.ledgerEntries.paymentId, attempt.paymentId!)));
    expect(refunds).toHaveLength(1);
    // the money came back: the account owes what it owed before
    expect(await balance()).toBe(before);
    // the gateway agrees
    const q = await sandboxGateway({ code: 1, url: checkoutUrl.replace(/\/pay\/.*$/, ''), merchant: '1', secret: SECRET, clock: time.clock }).queryCheckout(attempt.checkoutId!);
    expect(q.refundedCents).toBe(attempt.amountCents + attempt.feeCents);
  });

  it('a program without paying now puts its charges on the ledger once: by the sweeper, or when the confirmation is read', async () => {
    const db = t.db.handle.db;
    const [summer] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Summer Adventure Camp'));
    const [adv] = await db.select().from(s.activities).where(and(eq(s.activities.programPeriodId, summer.id), eq(s.activities.activity, 'Adventure Week')));
    const { key } = (await api('ParentApplication.start', { body: { programPeriodID: summer.id } })).json();
    expect((await api('ParentApplication.setChildren', { query: { key }, body: { childIDs: [kids.ada] } })).statusCode).toBe(200);
    const acts = (await api('ParentApplication.activities', { params: { prChildID: kids.ada }, query: { key } })).json();
    const week = acts.weeks[1].weekStart;
    const enrol = await api('ParentApplication.saveEnrollment', { query: { key }, body: { children: [{ prChildID: kids.ada, siteID: adv.siteId, selections: [{ activityID: adv.id, weekStart: week, daysOfWeek: ['M', 'T', 'W', 'TH', 'F'], date: null }] }], enrollmentOption: 'Y' } });
    expect(enrol.statusCode, enrol.body).toBe(200);
    expect((await api('ParentApplication.saveFee', { query: { key }, body: { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] } })).statusCode).toBe(200);
    const before = await balance();
    const res = await api('ParentApplication.submit', { query: { key } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().payment).toMatchObject({ paymentStatus: 'NONE', amountDue: 0 });
    // nothing on the ledger yet: the submit answered without it
    expect(await balance()).toBe(before);
    expect(await settlePending(t.app.deps)).toBeGreaterThanOrEqual(1);
    // Ada's second registration this season: the $75.00 fee and her week of $210.00
    expect(await balance()).toBe(before + 285);
    // read again, and swept again: charged once
    expect((await api('ParentApplication.confirmation', { query: { key } })).json().payment.paymentStatus).toBe('NONE');
    await settlePending(t.app.deps);
    expect(await balance()).toBe(before + 285);
  });
});
