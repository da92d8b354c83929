// Pay now through the sandbox gateway's hosted page, on its own origin (spec 2.12, 7.1; amendment 6):
// the portal fixes amount and fee, the parent types the card on the gateway's page, and the payment is
// applied once from the gateway's signed notification or its answer to a server-side query. Replayed,
// reordered and forged notifications change nothing, a double click or a refresh never pays twice,
// and no card or bank number reaches the portal's requests, database or logs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import { MERCHANT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signMessage, type GatewayNotification } from '../../sandbox-gateway/protocol';
import type { BillingPaymentResultBody as PaymentResult, BillingStartPaymentBody as StartPayment } from '../../src/engine/contract.gen';
import { apiClient, BACKENDS, KAREN, LINH, MARIA, createTestApp, freePort, tokenFor, type TestApp } from './helpers';

const SECRETS = { '1': 'sandbox-secret-one-0123456789', '2': 'sandbox-secret-two-0123456789' };
const CARD = '4111111111111111';
const BANK_ACCOUNT = '000123456789';


describe.each(BACKENDS)('pay now on %s', (backend) => {
  let t: TestApp;
  let gw: SandboxGateway;
  let gwUrl = '';
  let portal = '';
  let maria = '';
  let karen = '';
  let logs = '';
  /** every request body the portal received */
  const bodies: string[] = [];

  beforeAll(async () => {
    const gwPort = await freePort();
    gwUrl = `http://127.0.0.1:${gwPort}`;
    gw = await buildSandboxGateway({ secrets: SECRETS, publicUrl: gwUrl, notify: { retryDelaysMs: [50, 100] } });
    await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
    const port = await freePort();
    portal = `http://127.0.0.1:${port}`;
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs += String(chunk);
        done();
      },
    });
    t = await createTestApp(backend, {
      publicUrl: portal,
      logger: { level: 'trace', stream: sink } as never,
      logRequests: true,
      gateways: {
        1: sandboxGateway({ code: 1, url: gwUrl, merchant: '1', secret: SECRETS['1'] }),
        2: sandboxGateway({ code: 2, url: gwUrl, merchant: '2', secret: SECRETS['2'] }),
      },
    });
    t.app.addHook('preHandler', async (req) => {
      if (req.body !== undefined) bodies.push(JSON.stringify(req.body));
      const raw = (req as { rawBody?: string }).rawBody;
      if (raw) bodies.push(raw);
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    maria = await tokenFor(t.app, ...MARIA);
    karen = await tokenFor(t.app, ...KAREN);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gw?.close();
  });

  const api = apiClient(() => t.app, { lang: 'en', headers: { 'x-release-version': '9.9.9' } });

  const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', apartmentNo: '', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
  const key = () => [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');

  async function start(token: string, body: Record<string, unknown>) {
    const res = await api('Billing.startPayment', { token, body: { ...payer, ...body } as StartPayment });
    return res;
  }

  /** The parent on the hosted page: posts the form, answers the return's signed query. */
  async function payOnPage(checkoutUrl: string, form: Record<string, string>) {
    const res = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    return { route: back.pathname, q: Object.fromEntries(back.searchParams) as Record<string, string> };
  }

  const result = (token: string, route: string, q: Record<string, string>) =>
    api('Billing.paymentResult', { token, body: { gatewayCode: route.endsWith('/ezceredirection') ? 2 : 1, checkout: q.checkout, transaction: q.transaction, status: q.status as PaymentResult['status'], sig: q.sig } });

  async function balance(token: string): Promise<number> {
    return (await api('Billing.accountSummary', { token })).json().currentBalance;
  }

  it('answers the payment options, the amount and each method\'s processing fee', async () => {
    const opts = (await api('Billing.paymentOptions', { token: maria })).json();
    expect(opts).toMatchObject({ paymentEnabled: true, telephoneRequiredForPayment: true, methods: [{ paymentMethodCode: 'CCD', gatewayCode: 1 }, { paymentMethodCode: 'ECH', gatewayCode: 2 }] });
    const fees = (await api('Billing.processingFee', { token: maria, query: { AmountChoice: 'balance' } })).json();
    // 2.95% of 225.00 is 6.6375: 6.64; the bank fee is a fixed 0.50
    expect(fees).toEqual({ amount: 225, valid: true, methods: [{ paymentMethodCode: 'CCD', label: 'New credit or debit card', processingFee: 6.64, total: 231.64 }, { paymentMethodCode: 'ECH', label: 'New bank account', processingFee: 0.5, total: 225.5 }] });
    // below the card minimum of 1.00
    const small = (await api('Billing.processingFee', { token: maria, query: { AmountChoice: 'other', Amount: '10', PaymentMethod: 'CCD' } })).json();
    expect(small.methods).toEqual([{ paymentMethodCode: 'CCD', label: 'New credit or debit card', processingFee: 1, total: 11 }]);
    const bad = (await api('Billing.processingFee', { token: maria, query: { AmountChoice: 'other', Amount: '12.345' } })).json();
    expect(bad).toEqual({ amount: 0, valid: false, methods: [] });
  });

  it('the invoice of the current service period downloads as a PDF with its charges and what is left to pay', async () => {
    const invoices = (await api('Billing.invoices', { token: maria })).json() as { servicePeriodDetailID: number; servicePeriod: string; amount: number; balance: number }[];
    // this month's invoice of the school year, Ana's 400.00 paid of it
    const current = invoices[0];
    expect(current.amount).toBe(625);
    expect(current.balance).toBe(225);
    const res = await api('Billing.invoicePdf', { token: maria, query: { ServicePeriodDetailID: current.servicePeriodDetailID } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const file = path.join(os.tmpdir(), `invoice-${backend}-${current.servicePeriodDetailID}.pdf`);
    fs.writeFileSync(file, res.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    fs.rmSync(file, { force: true });
    expect(text).toContain('Invoice');
    expect(text).toContain(current.servicePeriod);
    expect(text).toContain('$625.00');
    expect(text).toMatch(/Left to pay on this invoice\s+\$225\.00/);
    // another account's invoice is not found
    // another account's invoice is not found: Karen's of the same period is her own
    const linh = await tokenFor(t.app, ...LINH);
    expect((await api('Billing.invoicePdf', { token: linh, query: { ServicePeriodDetailID: current.servicePeriodDetailID } })).statusCode).toBe(404);
    const karens = (await api('Billing.invoices', { token: karen })).json() as { servicePeriodDetailID: number; amount: number }[];
    expect(karens.find((i) => i.servicePeriodDetailID === current.servicePeriodDetailID)?.amount).toBe(245);
  });

  it('a double click starts one checkout; the payer is validated with the payer form', async () => {
    const k = key();
    const [a, b] = await Promise.all([start(maria, { idempotencyKey: k, paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '15.00' }), start(maria, { idempotencyKey: k, paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '15.00' })]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().checkoutUrl).toBe(b.json().checkoutUrl);
    expect(a.json().checkoutUrl.startsWith(`${gwUrl}/pay/`)).toBe(true);
    // the same key with another amount is refused
    expect((await start(maria, { idempotencyKey: k, paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '16.00' })).statusCode).toBe(409);
    // phone is required by this provider; a bad amount is refused
    const noPhone = await start(maria, { idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'balance', homecellphone: '' });
    expect(noPhone.statusCode).toBe(400);
    expect(noPhone.json().errors.map((e: { path: string }) => e.path)).toContain('/homecellphone');
    expect((await start(maria, { idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '-5' })).statusCode).toBe(400);
    // another account's adult cannot be the payer
    const [karenAdult] = await t.db.handle.db.select().from(s.adults).where(eq(s.adults.email, KAREN[1]));
    expect((await start(maria, { idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'balance', paidByFamilyMemberID: karenAdult.id })).statusCode).toBe(404);
  });

  it('pays the balance by new card: applied once, receipt e-mailed to the payer and the primary holder', async () => {
    const before = await balance(maria);
    expect(before).toBe(225);
    const [ana] = await t.db.handle.db.select().from(s.adults).where(eq(s.adults.firstName, 'Ana'));
    const started = await start(maria, { idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'balance', paidByFamilyMemberID: ana.id, firstName: 'Someone', lastName: 'Else', email: 'ana.silva@example.com' });
    expect(started.statusCode).toBe(200);
    const back = await payOnPage(started.json().checkoutUrl, { name: 'Ana Silva', number: CARD, expiry: '12/30', cvv: '123' });
    expect(back.route).toBe('/parentportal/bluepayresponse');
    expect(back.q.status).toBe('APPROVED');
    await gw.flushNotifications();
    const r1 = await result(maria, back.route, back.q);
    expect(r1.json()).toMatchObject({ status: 'APPROVED', referrer: '/paynow' });
    // a refresh of the return page: the same answer, nothing posted again
    const r2 = await result(maria, back.route, back.q);
    expect(r2.json()).toEqual(r1.json());
    const id = r1.json().accountPaymentID;
    expect(await balance(maria)).toBe(0);
    const rr = await api('Billing.receipt', { token: maria, params: { accountpaymentid: id } });
    const receipt = rr.json();
    // an existing adult pays under the name on file, whatever the body said
    expect(receipt).toMatchObject({ amount: 225, processingFee: 6.64, total: 231.64, paymentMethodCode: 'CCD', brand: 'VISA', last4Digits: '1111', payerName: 'Ana Silva', balanceAfter: 0 });
    expect(receipt.authCode).toMatch(/^[A-Z0-9]{6}$/);
    const db = t.db.handle.db;
    const entries = await db.select().from(s.ledgerEntries).where(eq(s.ledgerEntries.paymentId, id));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'PAYMENT', amountCents: 22500 });
    const mails = await db.select().from(s.outbox).where(eq(s.outbox.kind, 'payment-receipt'));
    expect(mails.map((m) => m.toAddress).sort()).toEqual(['ana.silva@example.com', 'maria.garcia@example.com']);
    expect(mails[0].textBody).toContain('$231.64');
    expect(mails[0].textBody).toContain('ending in 1111');
    // another account cannot read the receipt or its PDF, nor claim the return
    expect((await api('Billing.receipt', { token: karen, params: { accountpaymentid: id } })).statusCode).toBe(404);
    expect((await api('Billing.receiptPdf', { token: karen, query: { AccountPaymentID: id } })).statusCode).toBe(404);
    expect((await result(karen, back.route, back.q)).statusCode).toBe(404);
    const pdf = await api('Billing.receiptPdf', { token: maria, query: { AccountPaymentID: id } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('replayed, reordered and forged notifications change nothing', async () => {
    const db = t.db.handle.db;
    const started = await start(maria, { idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '20.00' });
    const back = await payOnPage(started.json().checkoutUrl, { name: 'Maria Garcia', number: CARD, expiry: '12/30', cvv: '123' });
    const tx = (await sandboxGateway({ code: 1, url: gwUrl, merchant: '1', secret: SECRETS['1'] }).queryCheckout(back.q.checkout)).transaction!;
    const notify = (n: GatewayNotification, secret = SECRETS['1'], merchant = '1') => {
      const raw = JSON.stringify(n);
      const ts = Math.floor(Date.now() / 1000);
      return fetch(`${portal}/api/Billing/payment/notification/1`, { method: 'POST', body: raw, headers: { 'content-type': 'application/json', [MERCHANT_HEADER]: merchant, [TIMESTAMP_HEADER]: String(ts), [SIGNATURE_HEADER]: signMessage(secret, ts, raw) } });
    };
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(s.payments)).at(0)!.n;
    // the notification arrives before the parent is back, then twice more
    const event: GatewayNotification = { eventId: 'evt-replay-1', type: 'transaction.completed', merchant: '1', transaction: tx };
    expect((await notify(event)).status).toBe(200);
    const paid = await count();
    expect((await notify(event)).status).toBe(200);
    expect((await notify({ ...event, eventId: 'evt-replay-2' })).status).toBe(200);
    // a later, out-of-order event saying the same transaction was declined
    expect((await notify({ ...event, eventId: 'evt-reorder', transaction: { ...tx, status: 'DECLINED', reasonCode: 'DECLINED' } })).status).toBe(200);
    // forged: a wrong secret, another merchant's signature
    expect((await notify({ ...event, eventId: 'evt-forged' }, 'not-the-secret-0123456789')).status).toBe(401);
    expect((await notify({ ...event, eventId: 'evt-merchant' }, SECRETS['2'], '2')).status).toBe(401);
    await gw.flushNotifications();
    expect(await count()).toBe(paid);
    const [attempt] = await db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.checkoutId, back.q.checkout));
    expect(attempt.status).toBe('APPROVED');
    expect(await db.select().from(s.ledgerEntries).where(eq(s.ledgerEntries.paymentId, attempt.paymentId!))).toHaveLength(1);
    // the return after the notification: the same payment
    expect((await result(maria, back.route, back.q)).json()).toMatchObject({ status: 'APPROVED', accountPaymentID: attempt.paymentId });
    // a forged return (its status changed) is refused
    expect((await result(maria, back.route, { ...back.q, status: 'DECLINED' })).statusCode).toBe(400);
  });

  it('a decline, a wrong CVV and an AVS failure say why and post nothing; a retry by bank account pays', async () => {
    const db = t.db.handle.db;
    for (const [number, reason] of [['4000000000000002', 'DECLINED'], ['4000000000000127', 'CVV'], ['4000000000000010', 'AVS']] as const) {
      const started = await start(maria, { idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '30.00' });
      const back = await payOnPage(started.json().checkoutUrl, { name: 'Maria Garcia', number, expiry: '12/30', cvv: '123' });
      const r = (await result(maria, back.route, back.q)).json();
      expect(r).toMatchObject({ status: 'DECLINED', accountPaymentID: null, reasonCode: reason });
    }
    const before = await balance(maria);
    // saved for later too: the number search below reads the saved methods' table
    const started = await start(maria, { idempotencyKey: key(), paymentMethodCode: 'ECH', amountChoice: 'other', otherAmount: '30.00', saveCard: true });
    const back = await payOnPage(started.json().checkoutUrl, { name: 'Maria Garcia', routing: '021000021', account: BANK_ACCOUNT, accountType: 'checking', saveMethod: '1' });
    // the bank kind goes through the provider's second gateway code
    expect(back.route).toBe('/parentportal/ezceredirection');
    const r = (await result(maria, back.route, back.q)).json();
    expect(r.status).toBe('APPROVED');
    expect(await balance(maria)).toBeCloseTo(before - 30, 2);
    const receipt = (await api('Billing.receipt', { token: maria, params: { accountpaymentid: r.accountPaymentID } })).json();
    expect(receipt).toMatchObject({ paymentMethodCode: 'ECH', processingFee: 0.5, total: 30.5, brand: 'CHECKING', last4Digits: '6789' });
    const declined = await db.select().from(s.paymentAttempts).where(and(eq(s.paymentAttempts.status, 'DECLINED')));
    expect(declined.length).toBeGreaterThanOrEqual(3);
    expect(declined.every((a) => a.paymentId === null)).toBe(true);
  });

  it('no card or bank number reaches the portal\'s requests, database or logs', async () => {
    const db = t.db.handle.db;
    const tables = ['payment_attempts', 'payments', 'payment_methods', 'ledger_entries', 'gateway_events', 'outbox', 'error_log'];
    let dump = '';
    for (const table of tables) {
      const rows = await db.execute(sql.raw(`SELECT row_to_json(x)::text AS j FROM ${table} x`));
      dump += JSON.stringify((rows as unknown as { rows: unknown[] }).rows ?? rows);
    }
    expect(dump).toContain('1111');
    // the bank account saved for later: its token and last digits, not its number
    expect(await db.select().from(s.paymentMethods).where(and(eq(s.paymentMethods.paymentMethodCode, 'ECR'), eq(s.paymentMethods.last4Digits, '6789')))).toHaveLength(1);
    for (const secret of [CARD, BANK_ACCOUNT, '4000000000000002']) {
      expect(dump).not.toContain(secret);
      expect(bodies.join('\n')).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    expect(logs.length).toBeGreaterThan(0);
  });
});
