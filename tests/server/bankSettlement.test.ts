// Bank debits as the banks treat them (spec 2.12, 9): a debit is accepted PENDING and settles three
// business days later by the sandbox gateway's clock, or comes back returned. A return undoes the
// payment once however often it is delivered: the balance goes back up, the fee only when the provider
// declares one, the saved account is marked by the return code, and the payer is e-mailed in the
// account's language, the mail kept in the account's history. A refund the gateway keeps refusing
// ends on the provider's list of payments that need a person.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import { MERCHANT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signMessage } from '../../sandbox-gateway/protocol';
import type { BillingStartPaymentBody as StartPayment } from '../../src/engine/contract.gen';
import { refundPayment, REFUND_RETRY_JOB, REFUND_RETRY_TRIES } from '../../server/domains/enrolment/applicationPayment';
import { unresolvedPayments } from '../../server/domains/payments/unresolved';
import { apiClient, BACKENDS, LINH, MARIA, createTestApp, freePort, testClock, tokenFor, type TestApp } from './helpers';

const SECRETS = { '1': 'sandbox-secret-one-0123456789', '2': 'sandbox-secret-two-0123456789' };
const ROOT = path.resolve(import.meta.dirname, '../..');
const brightpath = JSON.parse(fs.readFileSync(path.join(ROOT, 'providers/brightpath/provider.json'), 'utf8')).payments;
const FEE_CENTS = 2500;
const DAY = 24 * 60 * 60_000;

describe.each(BACKENDS)('bank settlement on %s', (backend) => {
  let t: TestApp;
  let gw: SandboxGateway;
  // one clock for the gateway and the portal: signed messages carry its time both ways
  const time = testClock();
  const clients = (url: string) => ({
    1: sandboxGateway({ code: 1, url, merchant: '1', secret: SECRETS['1'], clock: time.clock }),
    2: sandboxGateway({ code: 2, url, merchant: '2', secret: SECRETS['2'], clock: time.clock }),
  });
  let gateways: ReturnType<typeof clients>;
  let gwUrl = '';
  /** the raw bodies and headers of the settlement notifications the portal received */
  const notices: { raw: string; gateway: string }[] = [];

  beforeAll(async () => {
    const gwPort = await freePort();
    gwUrl = `http://127.0.0.1:${gwPort}`;
    gw = await buildSandboxGateway({ secrets: SECRETS, publicUrl: gwUrl, clock: time.clock, notify: { retryDelaysMs: [50, 100] }, settleEveryMs: 3_600_000 });
    await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
    const port = await freePort();
    gateways = clients(gwUrl);
    t = await createTestApp(backend, {
      publicUrl: `http://127.0.0.1:${port}`,
      clock: time.clock,
      // brightpath declares a returned-payment fee; northridge does not
      providerSettings: { brightpath: { payments: { ...brightpath, bankReturnFeeCents: FEE_CENTS } } },
      gateways,
    });
    t.app.addHook('preHandler', async (req) => {
      const raw = (req as { rawBody?: string }).rawBody;
      const m = /\/payment\/notification\/(\d+)$/.exec(req.url);
      if (raw && m && /transaction\.(settled|returned)/.test(raw)) notices.push({ raw, gateway: m[1] });
    });
    await t.app.listen({ port, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gw?.close();
  });

  const api = apiClient(() => t.app, { lang: 'en', headers: { 'x-release-version': '9.9.9' } });
  const db = () => t.db.handle.db;
  const key = () => crypto.randomUUID().replace(/-/g, '');
  const mariaPayer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', apartmentNo: '', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
  const linhPayer = { paidByFamilyMemberID: -1, firstName: 'Linh', lastName: 'Nguyen', streetAddress: '1 Elbow Drive', apartmentNo: '', city: 'Calgary', stateCode: 'AB', zip: 'T2S 0K1', homecellphone: '', email: 'linh.nguyen@example.ca' };

  /** Pays `amount` from a bank account on the sandbox's page; answers the payment's row. */
  async function payByBank(session: Promise<string>, payer: Record<string, unknown>, account: string, amount: string, save = false) {
    const token = await session;
    const started = await api('Billing.startPayment', { token, body: { ...payer, idempotencyKey: key(), paymentMethodCode: 'ECH', amountChoice: 'other', otherAmount: amount, ...(save ? { saveCard: true } : {}) } as StartPayment });
    expect(started.statusCode, started.body).toBe(200);
    const form: Record<string, string> = { name: `${payer.firstName} ${payer.lastName}`, routing: '021000021', account, accountType: 'checking', ...(save ? { saveMethod: '1' } : {}) };
    const res = await fetch(started.json().checkoutUrl, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    const q = Object.fromEntries(back.searchParams);
    expect(q.status).toBe('APPROVED');
    const r = await api('Billing.paymentResult', { token, body: { gatewayCode: back.pathname.endsWith('/ezceredirection') ? 2 : 1, checkout: q.checkout, transaction: q.transaction, status: 'APPROVED', sig: q.sig } });
    expect(r.json().status).toBe('APPROVED');
    const [payment] = await db().select().from(s.payments).where(eq(s.payments.id, r.json().accountPaymentID));
    return payment;
  }

  /** Three business days and more later: each merchant's settlement run sends the notifications, which the portal applies. */
  async function settleAtGateway() {
    time.advance(6 * DAY);
    await gateways[1].runSettlements();
    await gateways[2].runSettlements();
    await gw.flushNotifications();
  }
  // sessions end while days pass: a fresh sign-in for each step
  const maria = () => tokenFor(t.app, ...MARIA);
  const linh = () => tokenFor(t.app, ...LINH);

  async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
    for (let i = 0; i < 200; i++) {
      const v = await read();
      if (ok(v)) return v;
      await new Promise((r) => setTimeout(r, 25));
    }
    return read();
  }
  const settledAs = (id: number, settlement: string) => until(async () => (await db().select().from(s.payments).where(eq(s.payments.id, id)))[0], (p) => p.settlement === settlement);
  const balance = async (token: Promise<string>) => (await api('Billing.accountSummary', { token: await token })).json().currentBalance as number;
  const statusShown = async (token: Promise<string>, id: number) => (await api('Billing.paymentsReceived', { token: await token })).json().find((p: { accountPaymentID: number }) => p.accountPaymentID === id)?.status;

  /** The receipt's settlement fields, as the receipt page reads them. */
  const receiptOf = async (token: Promise<string>, id: number) => {
    const r = (await api('Billing.receipt', { token: await token, params: { accountpaymentid: id } })).json();
    return { settlement: r.settlement, returnCode: r.returnCode, returnReason: r.returnReason, returnDate: r.returnDate, amountReversed: r.amountReversed, balanceAfter: r.balanceAfter as number };
  };
  /** The receipt PDF's text (English), on one line. */
  async function receiptPdfText(token: Promise<string>, id: number): Promise<string> {
    const res = await api('Billing.receiptPdf', { token: await token, query: { AccountPaymentID: id } });
    expect(res.statusCode).toBe(200);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'receipt-')), `${id}.pdf`);
    fs.writeFileSync(file, res.rawPayload);
    return execFileSync('pdftotext', ['-layout', file, '-']).toString().replace(/\s+/g, ' ');
  }
  const en = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../locales/en/payment.json'), 'utf8')).receipt as Record<string, string>;
  /** The closing sentence of a returned payment's PDF (what follows the amount added back). */
  const closing = (key: 'returnedPdf' | 'returnedPdfNoneDue') => en[key].split('. ').slice(1).join('. ');

  /** Posts a notification the gateway sent again, freshly signed (a repeated delivery). */
  async function deliverAgain(n: { raw: string; gateway: string }, status = 200) {
    const merchant = n.gateway;
    const ts = Math.floor(time.clock().getTime() / 1000);
    const secret = SECRETS[merchant as '1' | '2'];
    const res = await t.app.inject({ method: 'POST', url: `/api/Billing/payment/notification/${n.gateway}`, payload: n.raw, headers: { 'content-type': 'application/json', [MERCHANT_HEADER]: merchant, [TIMESTAMP_HEADER]: String(ts), [SIGNATURE_HEADER]: signMessage(secret, ts, n.raw) } });
    expect(res.statusCode).toBe(status);
  }

  it('a bank payment is pending until the banks settle it, then settled', async () => {
    const payment = await payByBank(maria(), mariaPayer, '000123456789', '12.00');
    expect(payment.settlement).toBe('PENDING');
    expect(await statusShown(maria(), payment.id)).toBe('PENDING');
    // the receipt says pending, nothing returned
    expect(await receiptOf(maria(), payment.id)).toMatchObject({ settlement: 'PENDING', returnCode: '', returnReason: '', returnDate: null, amountReversed: 0 });
    await settleAtGateway();
    expect((await settledAs(payment.id, 'SETTLED')).settlement).toBe('SETTLED');
    expect(await statusShown(maria(), payment.id)).toBe('APPROVED');
    expect(await receiptOf(maria(), payment.id)).toMatchObject({ settlement: 'SETTLED', returnCode: '', returnReason: '', returnDate: null, amountReversed: 0 });
    // the payment stays on the ledger once, no return
    const entries = await db().select().from(s.ledgerEntries).where(eq(s.ledgerEntries.paymentId, payment.id));
    expect(entries.map((e) => e.kind)).toEqual(['PAYMENT']);
  });

  it('an R01 return is undone once though delivered twice: balance back, the declared fee, a Spanish e-mail in the history', async () => {
    const before = await balance(maria());
    const payment = await payByBank(maria(), mariaPayer, '9900001', '20.00');
    expect(await balance(maria())).toBeCloseTo(before - 20, 2);
    const seen = notices.length;
    await settleAtGateway();
    const returned = await settledAs(payment.id, 'RETURNED');
    expect(returned).toMatchObject({ settlement: 'RETURNED', returnCode: 'R01' });
    // the notification again, twice
    const notice = notices.slice(seen).find((n) => n.raw.includes(payment.gatewayTransactionId!))!;
    expect(notice).toBeTruthy();
    await deliverAgain(notice);
    await deliverAgain(notice);
    // and the same return under a new event id (a gateway that re-sends it as a new event)
    await deliverAgain({ ...notice, raw: notice.raw.replace(/"eventId":"[^"]+"/, '"eventId":"evt-again-1"') });
    // a return for a payment not applied here yet is not recorded: the gateway delivers it again later
    const early = notice.raw.replace(/"eventId":"[^"]+"/, '"eventId":"evt-early-1"').replaceAll(payment.gatewayTransactionId!, 'txn_not_applied_yet');
    await deliverAgain({ ...notice, raw: early }, 409);
    expect(await db().select().from(s.gatewayEvents).where(eq(s.gatewayEvents.eventId, 'evt-early-1'))).toEqual([]);
    const entries = await db().select().from(s.ledgerEntries).where(eq(s.ledgerEntries.paymentId, payment.id));
    expect(entries.map((e) => [e.kind, e.amountCents]).sort()).toEqual([['CHARGE', FEE_CENTS], ['PAYMENT', 2000], ['RETURN', 2000]]);
    expect(entries.find((e) => e.kind === 'CHARGE')!.description).toBe('Returned payment fee');
    // the balance is back up by the payment, plus the fee
    expect(await balance(maria())).toBeCloseTo(before + FEE_CENTS / 100, 2);
    expect(await statusShown(maria(), payment.id)).toBe('RETURNED');
    // the receipt says returned: the code, its reason, the day the balance went back up and by how much
    const receipt = await receiptOf(maria(), payment.id);
    expect(receipt).toMatchObject({ settlement: 'RETURNED', returnCode: 'R01', returnReason: 'R01', amountReversed: 20 });
    expect(receipt.returnDate).toBe(entries.find((e) => e.kind === 'RETURN')!.entryDate);
    // a balance is due again: the PDF asks for it
    expect(receipt.balanceAfter).toBeGreaterThan(0);
    const pdf = await receiptPdfText(maria(), payment.id);
    expect(pdf).toContain(closing('returnedPdf'));
    expect(pdf).not.toContain(closing('returnedPdfNoneDue'));
    // Maria's account is Spanish: the reason, the amount and what to do, to the payer (the primary holder)
    const mails = await db().select().from(s.outbox).where(eq(s.outbox.kind, 'payment-returned'));
    expect(mails).toHaveLength(1);
    expect(mails[0].toAddress).toBe('maria.garcia@example.com');
    expect(mails[0].subject).toContain('fue devuelto');
    expect(mails[0].textBody).toContain('fondos insuficientes en la cuenta (R01)');
    expect(mails[0].textBody).toContain('$20.00');
    expect(mails[0].textBody).toContain('$25.00');
    expect(mails[0].textBody).toContain('Pagar ahora');
    const [acc] = await db().select().from(s.accounts).where(eq(s.accounts.id, payment.accountId));
    const history = await db().select().from(s.communications).where(and(eq(s.communications.accountId, acc.id), eq(s.communications.subject, mails[0].subject)));
    expect(history).toHaveLength(1);
    // R01 leaves a saved account usable: nothing to change; the last payment shown is not the returned one
    expect((await api('Billing.accountSummary', { token: await maria() })).json().lastPaymentAmount).not.toBe(20);
  });

  it('an R03 return makes the saved bank account unusable', async () => {
    const payment = await payByBank(maria(), mariaPayer, '9900003', '15.00', true);
    const tx = await gateways[2].queryCheckout(
      (await db().select().from(s.paymentAttempts).where(eq(s.paymentAttempts.id, payment.attemptId!)))[0].checkoutId!,
    );
    const token = tx.transaction?.savedMethod?.token;
    expect(token).toBeTruthy();
    const [saved] = await until(
      () => db().select().from(s.paymentMethods).where(eq(s.paymentMethods.token, token!)),
      (rows) => rows.length > 0,
    );
    expect(saved.status).toBe('ACTIVE');
    await settleAtGateway();
    await settledAs(payment.id, 'RETURNED');
    const [after] = await db().select().from(s.paymentMethods).where(eq(s.paymentMethods.id, saved.id));
    expect(after).toMatchObject({ status: 'INVALID', statusReason: 'R03' });
    const mail = (await db().select().from(s.outbox).where(eq(s.outbox.kind, 'payment-returned'))).find((m) => m.textBody.includes('(R03)'))!;
    expect(mail.textBody).toContain('ya no se puede usar');
  });

  it('no fee when the provider declares none; the Vietnamese account is told in Vietnamese', async () => {
    const before = await balance(linh());
    const payment = await payByBank(linh(), linhPayer, '9900001', '10.00');
    await settleAtGateway();
    await settledAs(payment.id, 'RETURNED');
    const entries = await db().select().from(s.ledgerEntries).where(eq(s.ledgerEntries.paymentId, payment.id));
    expect(entries.map((e) => e.kind).sort()).toEqual(['PAYMENT', 'RETURN']);
    expect(await balance(linh())).toBeCloseTo(before, 2);
    // the receipt PDF asks for the balance while one is due
    const receipt = await receiptOf(linh(), payment.id);
    expect(receipt).toMatchObject({ settlement: 'RETURNED', returnCode: 'R01', returnReason: 'R01', amountReversed: 10 });
    expect(receipt.balanceAfter).toBeGreaterThan(0);
    expect(await receiptPdfText(linh(), payment.id)).toContain(closing('returnedPdf'));
    // an account in credit (a credit larger than what it owed) is not asked to pay anything
    const returnEntry = entries.find((e) => e.kind === 'RETURN')!;
    const [credit] = await db()
      .insert(s.ledgerEntries)
      .values({ providerId: returnEntry.providerId, accountId: returnEntry.accountId, kind: 'CREDIT', amountCents: Math.round(receipt.balanceAfter * 100) + 50_00, entryDate: returnEntry.entryDate, description: 'Credit', createdAt: time.clock() })
      .returning();
    try {
      expect((await receiptOf(linh(), payment.id)).balanceAfter).toBeCloseTo(-50, 2);
      const inCredit = await receiptPdfText(linh(), payment.id);
      expect(inCredit).toContain(closing('returnedPdfNoneDue'));
      expect(inCredit).not.toContain(closing('returnedPdf'));
    } finally {
      await db().delete(s.ledgerEntries).where(eq(s.ledgerEntries.id, credit.id));
    }
    const mail = (await db().select().from(s.outbox).where(eq(s.outbox.toAddress, 'linh.nguyen@example.ca'))).find((m) => m.kind === 'payment-returned')!;
    expect(mail.textBody).toContain('tài khoản không đủ tiền');
  });

  it('an application paid by a debit that comes back keeps its seats and its charges: it is owed again', async () => {
    const AMARA = ['brightpath', 'amara.mensah@example.com', 'Sunshine#2026'] as const;
    const amara = () => tokenFor(t.app, ...AMARA);
    const [pp] = await db().select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Little Sprouts Preschool'));
    await db().update(s.programPeriods).set({ paymentOption: 'O' }).where(eq(s.programPeriods.id, pp.id));
    const [activity] = await db().select().from(s.activities).where(eq(s.activities.programPeriodId, pp.id));
    const [ada] = await db().select().from(s.children).where(and(eq(s.children.lastName, 'Mensah'), eq(s.children.firstName, 'Ada')));
    const token = await amara();
    const call = apiClient(() => t.app, { token, headers: { 'x-release-version': '9.9.9' } });
    const { key } = (await call('ParentApplication.start', { body: { programPeriodID: pp.id } })).json();
    expect((await call('ParentApplication.setChildren', { query: { key }, body: { childIDs: [ada.id] } })).statusCode).toBe(200);
    const enrol = await call('ParentApplication.saveEnrollment', { query: { key }, body: {
      children: [{ prChildID: ada.id, siteID: activity.siteId, selections: [{ activityID: activity.id, weekStart: null, daysOfWeek: activity.daysOfWeek.split(','), date: null }] }],
      enrollmentOption: 'Y',
    } });
    expect(enrol.statusCode, enrol.body).toBe(200);
    expect((await call('ParentApplication.saveFee', { query: { key }, body: { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] } })).statusCode).toBe(200);
    const submitted = await call('ParentApplication.submit', { query: { key } });
    expect(submitted.json().payment.paymentStatus).toBe('AWAITING');
    const owed = await balance(amara());
    const started = await call('Billing.startPayment', { body: { paidByFamilyMemberID: -1, firstName: 'Amara', lastName: 'Mensah', streetAddress: '18 Elm Court', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0190', email: 'amara.mensah@example.com', applicationKey: key, paymentMethodCode: 'ECH' } as StartPayment });
    expect(started.statusCode, started.body).toBe(200);
    const res = await fetch(started.json().checkoutUrl, { method: 'POST', body: new URLSearchParams({ name: 'Amara Mensah', routing: '021000021', account: '9900001', accountType: 'checking' }), redirect: 'manual' });
    const q = Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
    const paid = (await call('Billing.paymentResult', { body: { gatewayCode: 2, checkout: q.checkout, transaction: q.transaction, status: 'APPROVED', sig: q.sig } })).json();
    expect(paid.status).toBe('APPROVED');
    expect((await call('ParentApplication.confirmation', { query: { key } })).json().payment.paymentStatus).toBe('PAID');
    const paidCents = Math.round((owed - (await balance(amara()))) * 100);
    expect(paidCents).toBeGreaterThan(0);
    await settleAtGateway();
    await settledAs(paid.accountPaymentID, 'RETURNED');
    const again = apiClient(() => t.app, { token: await amara(), headers: { 'x-release-version': '9.9.9' } });
    const read = (await again('ParentApplication.confirmation', { query: { key } })).json();
    // owed again as after Pay later: the seat stays, nothing is credited back
    expect(read.payment.paymentStatus).toBe('LATER');
    expect(read.children[0].status).toBe('REGISTERED');
    expect(await balance(amara())).toBeCloseTo(owed + FEE_CENTS / 100, 2);
    const [acc] = await db().select().from(s.adults).where(eq(s.adults.email, AMARA[1]));
    const credits = await db().select().from(s.ledgerEntries).where(and(eq(s.ledgerEntries.accountId, acc.accountId), eq(s.ledgerEntries.kind, 'CREDIT')));
    expect(credits.filter((c) => c.description.startsWith('Registration released'))).toEqual([]);
  });

  it('a refund the gateway keeps refusing is retried with backoff, then listed as needing a person', async () => {
    const payment = await payByBank(maria(), mariaPayer, '000123456789', '30.00');
    const [attempt] = await db().select().from(s.paymentAttempts).where(eq(s.paymentAttempts.id, payment.attemptId!));
    // the money is partly refunded at the gateway already: a full refund is refused there
    const gateway = t.app.deps.gateways!(attempt.gatewayCode)!;
    expect((await gateway.refund({ idempotencyKey: `${attempt.publicId}-elsewhere`, transactionId: attempt.transactionId!, amountCents: 100 })).status).toBe('REFUNDED');
    await db().update(s.paymentAttempts).set({ refundReason: 'ALREADY_PAID' }).where(eq(s.paymentAttempts.id, attempt.id));
    expect(await refundPayment(t.app.deps, attempt.id)).toBe(false);
    // the reconciler's next calls do not ask the gateway again: the retry job does, later
    expect(await refundPayment(t.app.deps, attempt.id)).toBe(false);
    const job = async () => (await db().select().from(s.jobs).where(and(eq(s.jobs.name, REFUND_RETRY_JOB), eq(s.jobs.key, attempt.publicId))))[0];
    const first = await job();
    expect(first.state).toBe('pending');
    expect(first.runAt.getTime()).toBeGreaterThan(time.clock().getTime());
    expect((await unresolvedPayments(db(), time.clock(), 'brightpath')).some((u) => u.reference === attempt.publicId)).toBe(false);
    // time passes: each try is refused and waits twice as long, until the last one
    for (let i = 0; i < REFUND_RETRY_TRIES; i++) {
      time.advance(3 * 60 * 60_000);
      await t.app.jobs.tick();
    }
    const dead = await job();
    expect(dead.state).toBe('dead');
    expect(dead.attempts).toBe(REFUND_RETRY_TRIES);
    expect(dead.lastError).toContain('refused');
    const [still] = await db().select().from(s.paymentAttempts).where(eq(s.paymentAttempts.id, attempt.id));
    expect(still.refundedCents).toBe(0);
    const listed = await unresolvedPayments(db(), time.clock(), 'brightpath');
    expect(listed.find((u) => u.reference === attempt.publicId)).toMatchObject({ kind: 'REFUND_REFUSED', amountCents: attempt.amountCents + attempt.feeCents, accountNo: expect.any(String) });
    // a transaction the gateway announced that no payment here matches: money may have been taken
    await db().insert(s.gatewayEvents).values({ gatewayCode: 2, eventId: 'evt-stray-1', transactionId: 'txn_stray_1', receivedAt: time.clock() });
    expect((await unresolvedPayments(db(), time.clock(), 'brightpath')).find((u) => u.transactionId === 'txn_stray_1')).toMatchObject({ kind: 'NOT_POSTED', reference: 'evt-stray-1' });
    // the returned payments are listed too; another provider's are not
    expect(listed.filter((u) => u.kind === 'RETURNED').map((u) => u.detail).sort()).toEqual(['R01', 'R01', 'R03']);
    expect((await unresolvedPayments(db(), time.clock(), 'northridge')).filter((u) => u.kind === 'RETURNED').map((u) => u.detail)).toEqual(['R01']);
    // the provider's command prints them (on PostgreSQL: a second process opens the test database)
    if (t.db.url) {
      const out = execFileSync('npx', ['tsx', 'scripts/provider.ts', 'payments', 'unresolved', '--provider', 'brightpath'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: t.db.url }, encoding: 'utf8' });
      const line = out.split('\n').find((l) => l.includes(attempt.publicId))!;
      expect(line.split('\t')).toEqual(expect.arrayContaining(['Refund refused', 'brightpath', '$30.50']));
      expect(out.split('\n').filter((l) => l.startsWith('Returned by the bank'))).toHaveLength(3);
      expect(out).not.toContain('northridge');
    }
  });
});
