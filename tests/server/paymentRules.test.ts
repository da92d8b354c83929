// Money you can trust, on both databases: a gateway approval always ends as a posting (or a posting
// and a full refund), an account has one payable page at a time (a second tab or method takes over,
// its gateway closing the first page), an application's amount is read from the ledger, and the
// reconciler applies what the portal missed. The portal here is unreachable for the gateway's
// notifications (its public address is a port nobody listens on), as when it is down longer than the
// gateway retries: every transaction is applied by the parent's return, a takeover or the reconciler.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import * as s from '../../server/db/schema';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { signReturn } from '../../sandbox-gateway/protocol';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import * as paymentsService from '../../server/domains/payments/payments';
import type { BillingPaymentResultBody as PaymentResult, BillingStartPaymentBody as StartPayment } from '../../src/engine/contract.gen';
import { apiClient, BACKENDS, createTestApp, freePort, testClock, tokenFor, type TestApp } from './helpers';
import { testCardNumber } from '../../scripts/lib/cards';

const AMARA = ['brightpath', 'amara.mensah@example.com', 'Sunshine#2026'] as const;
const LINH = ['northridge', 'linh.nguyen@example.ca', 'Maple#Leaf2026'] as const;
const SECRET = 'payment-rules-secret-0123456789';
const { applyTransaction } = paymentsService;
const reconcilePayments = (...a: Parameters<typeof paymentsService.reconcilePayments>) => paymentsService.reconcilePayments(...a);
const RECONCILE_AFTER_MS = 5 * 60_000;
const newKey = () => randomBytes(16).toString('hex');
let cards = 0;
const cardNumber = () => testCardNumber(++cards);
const card = () => ({ name: 'Amara Mensah', number: cardNumber(), expiry: '12/30', cvv: '123' });
const BANK = { name: 'Amara Mensah', routing: '021000021', account: '000123456789', accountType: 'checking' };

describe.each(BACKENDS)('money you can trust on %s', (backend) => {
  let t: TestApp;
  let gw: SandboxGateway;
  const time = testClock();
  const tokens: Record<string, string> = {};
  let preschool = 0;
  let activity: typeof s.activities.$inferSelect;
  let kids = { ada: 0, ben: 0 };

  beforeAll(async () => {
    const gwPort = await freePort();
    const gwUrl = `http://127.0.0.1:${gwPort}`;
    gw = await buildSandboxGateway({ secrets: { '1': SECRET, '2': SECRET }, publicUrl: gwUrl, clock: time.clock, notify: { retryDelaysMs: [5, 5, 5] } });
    await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
    // notifications go to a port nobody listens on: the portal is down for the gateway
    const dead = await freePort();
    t = await createTestApp(backend, {
      clock: time.clock,
      publicUrl: `http://127.0.0.1:${dead}`,
      gateways: {
        1: sandboxGateway({ code: 1, url: gwUrl, merchant: '1', secret: SECRET, clock: time.clock }),
        2: sandboxGateway({ code: 2, url: gwUrl, merchant: '2', secret: SECRET, clock: time.clock }),
      },
      providerSettings: {
        brightpath: { payments: { gateways: { CCD: 1, ECH: 2 }, seatHoldMinutes: 15 } },
        northridge: { payments: { gateways: { CCD: 1, ECH: 2 } } },
      },
    });
    const db = t.db.handle.db;
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Little Sprouts Preschool'));
    preschool = pp.id;
    await db.update(s.programPeriods).set({ paymentOption: 'O' }).where(eq(s.programPeriods.id, pp.id));
    [activity] = await db.select().from(s.activities).where(eq(s.activities.programPeriodId, pp.id));
    const children = await db.select().from(s.children).where(eq(s.children.lastName, 'Mensah'));
    kids = { ada: children.find((c) => c.firstName === 'Ada')!.id, ben: children.find((c) => c.firstName === 'Ben')!.id };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gw?.close();
  });
  beforeEach(async () => {
    tokens.amara = await tokenFor(t.app, ...AMARA);
    tokens.linh = await tokenFor(t.app, ...LINH);
  });

  const api = apiClient(() => t.app, { headers: { 'x-release-version': '9.9.9' } });
  const payers: Record<string, object> = {
    amara: { paidByFamilyMemberID: -1, firstName: 'Amara', lastName: 'Mensah', streetAddress: '18 Elm Court', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0190', email: 'amara.mensah@example.com' },
    linh: { paidByFamilyMemberID: -1, firstName: 'Linh', lastName: 'Nguyen', streetAddress: '77 Maple Avenue', city: 'Toronto', stateCode: 'ON', zip: 'M4B 1B3', homecellphone: '(416)555-0150', email: 'linh.nguyen@example.ca' },
  };
  const balance = async (who: string) => (await api('Billing.accountSummary', { token: tokens[who] })).json().currentBalance as number;
  const transactions = () => gw.store.transactionCount();
  const attemptsOf = async (accountPublic: string) => t.db.handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.publicId, accountPublic));

  async function start(who: string, body: object) {
    return api('Billing.startPayment', { token: tokens[who], body: { ...payers[who], ...body } as StartPayment });
  }
  async function started(who: string, body: object): Promise<{ checkoutUrl: string; paymentID: string }> {
    const res = await start(who, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  /** Pays on the hosted page: the gateway's redirect (303, signed) or its refusal (a page). */
  async function payOn(checkoutUrl: string, form: object = card()) {
    const res = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams(form as Record<string, string>), redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location'), html: res.status === 303 ? '' : await res.text() };
  }
  /** The parent's return from the gateway, answered by the portal. */
  async function returns(who: string, gatewayCode: number, location: string) {
    const q = Object.fromEntries(new URL(location).searchParams);
    return (await api('Billing.paymentResult', { token: tokens[who], body: { gatewayCode, checkout: q.checkout, transaction: q.transaction, status: q.status as PaymentResult['status'], sig: q.sig } })).json();
  }
  async function submitted(childId: number) {
    const { key } = (await api('ParentApplication.start', { token: tokens['amara'], body: { programPeriodID: preschool } })).json();
    expect((await api('ParentApplication.setChildren', { token: tokens['amara'], query: { key }, body: { childIDs: [childId] } })).statusCode).toBe(200);
    const enrol = await api('ParentApplication.saveEnrollment', { token: tokens['amara'], query: { key }, body: {
      children: [{ prChildID: childId, siteID: activity.siteId, selections: [{ activityID: activity.id, weekStart: null, daysOfWeek: activity.daysOfWeek.split(','), date: null }] }],
      enrollmentOption: 'Y',
    } });
    expect(enrol.statusCode, enrol.body).toBe(200);
    expect((await api('ParentApplication.saveFee', { token: tokens['amara'], query: { key }, body: { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] } })).statusCode).toBe(200);
    const res = await api('ParentApplication.submit', { token: tokens['amara'], query: { key } });
    expect(res.statusCode, res.body).toBe(200);
    return key as string;
  }
  /** Releases the application's seats and charges again, so each test starts from Amara's demo balance. */
  async function withdraw(key: string) {
    const db = t.db.handle.db;
    const [d] = await db.select().from(s.applicationDrafts).where(eq(s.applicationDrafts.key, key));
    await db.update(s.registrations).set({ status: 'REMOVED' }).where(eq(s.registrations.draftId, d.id));
    await db.delete(s.enrollments).where(eq(s.enrollments.accountId, d.accountId));
  }
  const statusOf = async (key: string) => (await api('ParentApplication.confirmation', { token: tokens['amara'], query: { key } })).json().payment.paymentStatus as string;

  it('finding 1: a checkout cancelled at the portal is cancelled at the gateway: its page, still open, takes no payment', async () => {
    const before = await balance('amara');
    const txBefore = transactions();
    const { checkoutUrl } = await started('amara', { idempotencyKey: newKey(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '7.00' });
    // the hosted page's Cancel: a signed CANCELLED return
    const cancel = await fetch(`${checkoutUrl}/cancel`, { redirect: 'manual' });
    expect(cancel.status).toBe(303);
    expect(await returns('amara', 1, cancel.headers.get('location')!)).toMatchObject({ status: 'CANCELLED', accountPaymentID: null });
    // the same page, open in another tab: the gateway refuses it
    const paid = await payOn(checkoutUrl);
    expect(paid.status).toBe(410);
    expect(paid.html).toContain('This payment was cancelled');
    expect(transactions()).toBe(txBefore);
    expect(await balance('amara')).toBe(before);
  });

  it('finding 1: a signed cancel return closes the page at the gateway even when the gateway left it open', async () => {
    const txBefore = transactions();
    const { checkoutUrl, paymentID } = await started('amara', { idempotencyKey: newKey(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '7.00' });
    const [a] = await attemptsOf(paymentID);
    // the gateway's signed CANCELLED return, as a gateway that keeps its page open sends it
    const q = { checkout: a.checkoutId!, transaction: '', status: 'CANCELLED' as const };
    const res = await api('Billing.paymentResult', { token: tokens['amara'], body: { gatewayCode: 1, ...q, sig: signReturn(SECRET, q) } });
    expect(res.json()).toMatchObject({ status: 'CANCELLED' });
    expect((await payOn(checkoutUrl)).status).toBe(410);
    expect(transactions()).toBe(txBefore);
  });

  it('finding 1: an approval the gateway reports for a closed attempt is posted and refunded in full, never dropped', async () => {
    const db = t.db.handle.db;
    const before = await balance('amara');
    const { checkoutUrl, paymentID } = await started('amara', { idempotencyKey: newKey(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '7.00' });
    // the attempt closed here while the gateway's page stayed open (a gateway that ignored the cancel)
    await db.update(s.paymentAttempts).set({ status: 'CANCELLED' }).where(eq(s.paymentAttempts.publicId, paymentID));
    const paid = await payOn(checkoutUrl);
    expect(paid.status).toBe(303);
    expect(await returns('amara', 1, paid.location!)).toMatchObject({ status: 'CANCELLED' });
    // the reconciler asks about open attempts only; the approval reaches this one by the transaction query
    const [a0] = await attemptsOf(paymentID);
    const q = await t.app.deps.gateways!(1)!.queryCheckout(a0.checkoutId!);
    const applied = await applyTransaction(t.app.deps, a0, q.transaction!);
    expect(applied).toMatchObject({ status: 'APPROVED', refundReason: 'CLOSED' });
    const [done] = await attemptsOf(paymentID);
    expect(done).toMatchObject({ status: 'APPROVED', refundReason: 'CLOSED', refundedCents: 700 });
    const entries = await db.select().from(s.ledgerEntries).where(eq(s.ledgerEntries.paymentId, done.paymentId!));
    expect(entries.map((e) => e.kind).sort()).toEqual(['PAYMENT', 'REFUND']);
    expect(await balance('amara')).toBe(before);
    expect((await t.app.deps.gateways!(1)!.queryCheckout(a0.checkoutId!)).refundedCents).toBe(700);
    const mails = await db.select().from(s.outbox).where(eq(s.outbox.kind, 'payment-refund'));
    expect(mails.some((m) => m.toAddress === 'amara.mensah@example.com' && m.textBody.includes('already been cancelled'))).toBe(true);
  });

  it('finding 1, the application variant: cancel attempt 1, pay attempt 2, then pay on attempt 1\'s page: one charge', async () => {
    const key = await submitted(kids.ada);
    const txBefore = transactions();
    const first = await started('amara', { applicationKey: key, paymentMethodCode: 'CCD' });
    const cancel = await fetch(`${first.checkoutUrl}/cancel`, { redirect: 'manual' });
    await returns('amara', 1, cancel.headers.get('location')!);
    const second = await started('amara', { applicationKey: key, paymentMethodCode: 'CCD' });
    expect(second.checkoutUrl).not.toBe(first.checkoutUrl);
    const paid = await payOn(second.checkoutUrl);
    expect(await returns('amara', 1, paid.location!)).toMatchObject({ status: 'APPROVED', purpose: 'APPLICATION' });
    expect((await payOn(first.checkoutUrl)).status).toBe(410);
    expect(transactions()).toBe(txBefore + 1);
    expect(await statusOf(key)).toBe('PAID');
    await withdraw(key);
  });

  it('finding 2: one application, a card checkout and then a bank checkout: the second takes over, one charge', async () => {
    const before = await balance('amara');
    const key = await submitted(kids.ben);
    const txBefore = transactions();
    const card = await started('amara', { applicationKey: key, paymentMethodCode: 'CCD' });
    const bank = await started('amara', { applicationKey: key, paymentMethodCode: 'ECH' });
    // the card page was closed at its gateway when the bank one opened
    expect((await payOn(card.checkoutUrl)).status).toBe(410);
    const paid = await payOn(bank.checkoutUrl, BANK);
    expect(paid.status).toBe(303);
    expect(await returns('amara', 2, paid.location!)).toMatchObject({ status: 'APPROVED', purpose: 'APPLICATION' });
    expect(transactions()).toBe(txBefore + 1);
    // registration 40 + tuition 690 charged; paid what the account owed (a credit on it goes to the registration)
    expect(await balance('amara')).toBe(Math.max(0, before));
    expect(await statusOf(key)).toBe('PAID');
    // and a payment taken on the first page before the takeover is applied, not charged again
    await withdraw(key);
  });

  it('finding 2: a page paid while the second method starts is applied, and the second is refused', async () => {
    const key = await submitted(kids.ada);
    const txBefore = transactions();
    const card = await started('amara', { applicationKey: key, paymentMethodCode: 'CCD' });
    // paid on the gateway's page; the parent has not come back (and no notification reaches the portal)
    expect((await payOn(card.checkoutUrl)).status).toBe(303);
    const bank = await start('amara', { applicationKey: key, paymentMethodCode: 'ECH' });
    expect(bank.statusCode).toBe(409);
    expect(transactions()).toBe(txBefore + 1);
    expect(await statusOf(key)).toBe('PAID');
    await withdraw(key);
  });

  it('finding 3: pay later, pay the whole balance, then the application\'s own pay-now: nothing more is charged', async () => {
    const key = await submitted(kids.ben);
    const later = await api('ParentApplication.payLater', { token: tokens['amara'], query: { key } });
    expect(later.statusCode, later.body).toBe(200);
    const owed = await balance('amara');
    expect(owed).toBeGreaterThan(0);
    const whole = await started('amara', { idempotencyKey: newKey(), paymentMethodCode: 'CCD', amountChoice: 'balance' });
    const paid = await payOn(whole.checkoutUrl);
    expect(await returns('amara', 1, paid.location!)).toMatchObject({ status: 'APPROVED' });
    expect(await balance('amara')).toBe(0);
    const txBefore = transactions();
    const again = await start('amara', { applicationKey: key, paymentMethodCode: 'CCD' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already/i);
    expect(transactions()).toBe(txBefore);
    expect(await balance('amara')).toBe(0);
    // what the hold sweeper and the confirmation see: paid, seats kept
    expect(await statusOf(key)).toBe('PAID');
    await withdraw(key);
  });

  it('finding 5: the full balance from two tabs: the second tab takes over, the first tab\'s page charges nothing', async () => {
    const before = await balance('linh');
    expect(before).toBeGreaterThan(0);
    const txBefore = transactions();
    const tab1 = await started('linh', { idempotencyKey: newKey(), paymentMethodCode: 'CCD', amountChoice: 'balance' });
    const tab2 = await started('linh', { idempotencyKey: newKey(), paymentMethodCode: 'CCD', amountChoice: 'balance' });
    const paid2 = await payOn(tab2.checkoutUrl);
    expect(await returns('linh', 1, paid2.location!)).toMatchObject({ status: 'APPROVED' });
    expect((await payOn(tab1.checkoutUrl)).status).toBe(410);
    expect(transactions()).toBe(txBefore + 1);
    expect(await balance('linh')).toBe(0);
  });

  it('finding 5: two tabs starting at the same moment get one payable page between them', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map(() => start('amara', { idempotencyKey: newKey(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '3.00' })));
    const live = await t.db.handle.db
      .select()
      .from(s.paymentAttempts)
      .where(and(eq(s.paymentAttempts.accountId, (await attemptsOf(answers.find((a) => a.statusCode === 200)!.json().paymentID))[0].accountId), eq(s.paymentAttempts.status, 'CREATED')));
    expect(live.length).toBe(1);
    // every other page is closed at the gateway, or was never opened
    let open = 0;
    for (const a of answers.filter((x) => x.statusCode === 200)) if ((await fetch(a.json().checkoutUrl)).status === 200) open++;
    expect(open).toBe(1);
    for (const a of answers.filter((x) => x.statusCode !== 200)) expect(a.statusCode).toBe(409);
  });

  it('finding 6: a payment whose notifications never arrived and whose parent never returned is applied by the reconciler', async () => {
    const before = await balance('amara');
    const { checkoutUrl, paymentID } = await started('amara', { idempotencyKey: newKey(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '11.00' });
    expect((await payOn(checkoutUrl)).status).toBe(303);
    await gw.flushNotifications();
    expect((await attemptsOf(paymentID))[0].status).toBe('CREATED');
    // too young to ask about yet
    expect((await reconcilePayments(t.app.deps)).applied).toBe(0);
    time.advance(RECONCILE_AFTER_MS + 1000);
    tokens.amara = await tokenFor(t.app, ...AMARA);
    expect(await reconcilePayments(t.app.deps)).toMatchObject({ applied: 1 });
    const [a] = await attemptsOf(paymentID);
    expect(a).toMatchObject({ status: 'APPROVED', refundReason: '' });
    expect(await balance('amara')).toBe(before - 11);
    // a second run (or a second instance) changes nothing
    expect((await reconcilePayments(t.app.deps)).applied).toBe(0);
    expect(await balance('amara')).toBe(before - 11);
    const receipts = await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'payment-receipt'));
    expect(receipts.filter((m) => m.subject.includes('$11.00')).length).toBeGreaterThan(0);
  });

  it('finding 6: an abandoned page is closed by the reconciler once it expired at the gateway', async () => {
    const { paymentID } = await started('amara', { idempotencyKey: newKey(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '2.00' });
    time.advance(31 * 60_000);
    tokens.amara = await tokenFor(t.app, ...AMARA);
    const r = await reconcilePayments(t.app.deps);
    expect(r.closed).toBeGreaterThanOrEqual(1);
    expect((await attemptsOf(paymentID))[0].status).toBe('EXPIRED');
  });

  it('the database holds the rules: no second live attempt for an account, no approved attempt without its payment', async () => {
    const db = t.db.handle.db;
    const [any] = await db.select().from(s.paymentAttempts).limit(1);
    const row = { ...any, id: undefined, publicId: newKey(), idempotencyKey: newKey(), checkoutId: null, transactionId: null, paymentId: null, status: 'CREATED' };
    delete (row as { id?: number }).id;
    await db.update(s.paymentAttempts).set({ status: 'EXPIRED' }).where(and(eq(s.paymentAttempts.accountId, any.accountId), eq(s.paymentAttempts.status, 'CREATED')));
    await db.insert(s.paymentAttempts).values(row);
    await expect(db.insert(s.paymentAttempts).values({ ...row, publicId: newKey(), idempotencyKey: newKey() })).rejects.toThrow();
    await expect(db.insert(s.paymentAttempts).values({ ...row, publicId: newKey(), idempotencyKey: newKey(), status: 'APPROVED' })).rejects.toThrow();
  });
});
