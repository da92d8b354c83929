// Saved payment methods against the sandbox gateway: "save for later" on the hosted page stores the
// gateway's token and what the parent is shown (never a number, never the token in an answer); paying
// with a saved method is a server-to-server charge posted once per key, also when the gateway's answer
// is lost and the reconciler asks again; every method id is checked against the signed-in account;
// removal is refused for an autopay's method; a card's expiry is updated in place; an expired card,
// and a bank account the bank closed, are refused.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import { GatewayUnavailable, TokenRefused, type PaymentGateway } from '../../server/gateways/adapter';
import type { CreateCheckoutRequest } from '../../sandbox-gateway/protocol';
import { reconcilePayments } from '../../server/domains/payments/payments';
import type { BillingStartPaymentBody as StartPayment } from '../../src/engine/contract.gen';
import { apiClient, BACKENDS, KAREN, LINH, MARIA, createTestApp, freePort, tokenFor, type TestApp } from './helpers';

const brightpath = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../providers/brightpath/provider.json'), 'utf8')).payments;
const SECRETS = { '1': 'saved-methods-secret-one-012345', '2': 'saved-methods-secret-two-012345' };
const CARD = '4111111111111111';
const BANK_ACCOUNT = '000123456789';

describe.each(BACKENDS)('saved payment methods on %s', (backend) => {
  let t: TestApp;
  let gw: SandboxGateway;
  let maria = '';
  let karen = '';
  /** when set, the card gateway charges a token and then loses the answer (the portal sees it unavailable) */
  let loseChargeAnswer = false;
  let charges = 0;
  /** when set, a token charge never reaches the card gateway (the portal sees it unavailable) */
  let chargeUnreachable = false;
  /** when set, a token deletion at the card gateway waits for this before it is sent */
  let deletionHeld: Promise<void> | null = null;
  /** what the card gateway was asked to open, last first */
  const checkouts: Array<Omit<CreateCheckoutRequest, 'merchant'>> = [];
  /** the card gateway called directly, as the merchant (what it knows, not what the portal says) */
  let direct: PaymentGateway;
  /** the gateway's clock runs this far ahead (its adapter signs on the same clock) */
  let gatewayAhead = 0;
  const gatewayClock = () => new Date(Date.now() + gatewayAhead);

  beforeAll(async () => {
    const gwPort = await freePort();
    const gwUrl = `http://127.0.0.1:${gwPort}`;
    gw = await buildSandboxGateway({ secrets: SECRETS, publicUrl: gwUrl, clock: gatewayClock, notify: { retryDelaysMs: [50] } });
    await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
    const card = sandboxGateway({ code: 1, url: gwUrl, merchant: '1', secret: SECRETS['1'], clock: gatewayClock });
    const lossy: PaymentGateway = {
      ...card,
      code: card.code,
      createCheckout: (req) => {
        checkouts.unshift(req);
        return card.createCheckout(req);
      },
      deleteToken: async (token) => {
        if (deletionHeld) await deletionHeld;
        return card.deleteToken(token);
      },
      chargeToken: async (req) => {
        if (chargeUnreachable) throw new GatewayUnavailable('the gateway did not answer');
        charges++;
        const tx = await card.chargeToken(req);
        if (loseChargeAnswer) throw new GatewayUnavailable('the answer was lost');
        return tx;
      },
    };
    direct = card;
    const port = await freePort();
    t = await createTestApp(backend, {
      publicUrl: `http://127.0.0.1:${port}`,
      // the payer form asks for a driver licence (optional)
      providerSettings: { brightpath: { payments: { ...brightpath, driverLicence: 'O' } } },
      gateways: { 1: lossy, 2: sandboxGateway({ code: 2, url: gwUrl, merchant: '2', secret: SECRETS['2'] }) } });
    await t.app.listen({ port, host: '127.0.0.1' });
    maria = await tokenFor(t.app, ...MARIA);
    karen = await tokenFor(t.app, ...KAREN);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gw?.close();
  });

  const api = apiClient(() => t.app, { lang: 'en', headers: { 'x-release-version': '9.9.9' } });
  const key = () => [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', apartmentNo: '', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
  const balance = async () => (await api('Billing.accountSummary', { token: maria })).json().currentBalance as number;
  const list = async (token = maria) => (await api('Billing.savedMethods', { token })).json() as Array<Record<string, unknown>>;

  /** Pays 10.00 on the hosted page with "save for later" ticked, and answers the saved method. */
  async function saveOnPage(method: 'CCD' | 'ECH', form: Record<string, string>) {
    const before = new Set((await list()).map((m) => m.paymentMethodID));
    const started = await api('Billing.startPayment', { token: maria, body: { ...payer, idempotencyKey: key(), paymentMethodCode: method, amountChoice: 'other', otherAmount: '10.00', saveCard: true } as StartPayment });
    expect(started.statusCode, started.body).toBe(200);
    const res = await fetch(started.json().checkoutUrl, { method: 'POST', body: new URLSearchParams({ ...form, saveMethod: '1' }), redirect: 'manual' });
    expect(res.status).toBe(303);
    const q = Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
    const result = await api('Billing.paymentResult', { token: maria, body: { gatewayCode: method === 'CCD' ? 1 : 2, checkout: q.checkout, transaction: q.transaction, status: q.status as 'APPROVED', sig: q.sig } });
    expect(result.json().status).toBe('APPROVED');
    const added = (await list()).filter((m) => !before.has(m.paymentMethodID));
    expect(added).toHaveLength(1);
    return added[0];
  }

  const pay = (paymentMethodID: unknown, idempotencyKey = key(), otherAmount = '20.00', token = maria) =>
    api('Billing.restApiPayment', { token, body: { idempotencyKey, paymentMethodID: paymentMethodID as number, amountChoice: 'other', otherAmount } });

  it('save for later keeps the card the parent paid with: its brand, last digits, holder and expiry, not its number or token', async () => {
    const m = await saveOnPage('CCD', { name: 'Maria Garcia', number: CARD, expiry: '12/30', cvv: '123' });
    expect(m).toMatchObject({ paymentMethodCode: 'CCR', type: 'VISA', last4Digits: '1111', firstName: 'Maria', lastName: 'Garcia', expiry: '12/30', usedForAutoPay: false, status: 'ACTIVE', statusReason: '', automaticPaymentRegistrationID: null, savedOn: '11/23/2026' });
    const [row] = await t.db.handle.db.select().from(s.paymentMethods).where(eq(s.paymentMethods.id, m.paymentMethodID as number));
    expect(row.token).toMatch(/\S/);
    expect(row.gatewayCode).toBe(1);
    // the token stays on the server
    expect(JSON.stringify(await list())).not.toContain(row.token!);
    // the demo's autopay cards (no token) are listed too, and the autopay filter finds them alone
    expect((await api('Billing.savedMethods', { token: maria, query: { IsAutoPay: true } })).json().map((x: { last4Digits: string }) => x.last4Digits)).toEqual(['4242', '5100']);
    expect((await api('Billing.savedMethods', { token: maria, query: { IsAutoPay: false } })).json().map((x: { last4Digits: string }) => x.last4Digits)).toEqual(['1111']);
  });

  it('save for later counts only where the payer page offers it: a flag sent under a variant without it is dropped', async () => {
    // Brightpath's variant (OTP_SPM) offers it: the hosted page was asked to offer saving
    expect(checkouts[0].offerSave).toBe(true);
    // Northridge's (OTP, one-time payments only) does not: the flag is dropped, the hosted page offers
    // no saving, and a ticked box posted to it anyway keeps nothing
    const linh = await tokenFor(t.app, ...LINH);
    const before = await list(linh);
    const k = key();
    const linhPayer = { paidByFamilyMemberID: -1, firstName: 'Linh', lastName: 'Nguyen', streetAddress: '77 Maple Avenue', apartmentNo: '', city: 'Toronto', stateCode: 'ON', zip: 'M4B 1B3', homecellphone: '(416)555-0150', email: 'linh.nguyen@example.ca' };
    const started = await api('Billing.startPayment', { token: linh, body: { ...linhPayer, idempotencyKey: k, paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '10.00', saveCard: true } as StartPayment });
    expect(started.statusCode, started.body).toBe(200);
    expect(checkouts[0].reference).toBe((await attemptOf(k)).publicId);
    expect(checkouts[0].offerSave).toBeUndefined();
    expect((await attemptOf(k)).saveMethod).toBe(false);
    const res = await fetch(started.json().checkoutUrl, { method: 'POST', body: new URLSearchParams({ name: 'Linh Nguyen', number: CARD, expiry: '12/30', cvv: '123', saveMethod: '1' }), redirect: 'manual' });
    expect(res.status).toBe(303);
    const q = Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
    const result = await api('Billing.paymentResult', { token: linh, body: { gatewayCode: 1, checkout: q.checkout, transaction: q.transaction, status: q.status as 'APPROVED', sig: q.sig } });
    expect(result.json().status).toBe('APPROVED');
    expect(await list(linh)).toEqual(before);
  });

  it('pays with a saved card without leaving the portal, posted once despite a double request', async () => {
    const saved = await list();
    const m = saved.find((x) => x.last4Digits === '1111')!;
    const before = await balance();
    const k = key();
    const [a, b] = await Promise.all([pay(m.paymentMethodID, k), pay(m.paymentMethodID, k)]);
    // the charged method comes back with the transaction: its row is kept, not added again
    expect((await list()).map((x) => x.paymentMethodID)).toEqual(saved.map((x) => x.paymentMethodID));
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(a.json()).toMatchObject({ status: 'APPROVED', reasonCode: '', purpose: 'BALANCE' });
    expect(b.json().accountPaymentID).toBe(a.json().accountPaymentID);
    expect(await balance()).toBeCloseTo(before - 20, 2);
    const [attempt] = await t.db.handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.idempotencyKey, k));
    expect(attempt).toMatchObject({ status: 'APPROVED', paymentMethodCode: 'CCR', paymentMethodId: m.paymentMethodID, checkoutId: null });
    const posted = await t.db.handle.db.select().from(s.payments).where(eq(s.payments.attemptId, attempt.id));
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ paymentMethodId: m.paymentMethodID, last4Digits: '1111', settlement: 'SETTLED' });
    // the receipt names the saved card
    const receipt = await api('Billing.receipt', { token: maria, params: { accountpaymentid: posted[0].id } });
    expect(receipt.json()).toMatchObject({ paymentMethodCode: 'CCR', last4Digits: '1111' });
    // the same key with another amount or for an application is refused, not answered as the first payment
    const other = await t.app.inject({ method: 'POST', url: '/api/Billing/payment/rest-api-payment', headers: { authorization: `Bearer ${maria}`, 'accept-language': 'es' }, payload: { idempotencyKey: k, paymentMethodID: m.paymentMethodID, amountChoice: 'other', otherAmount: '21.00' } });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ key: 'payment.errors.keyReused', message: 'Este pago se inició con otro monto o medio de pago. Comience de nuevo desde Pagar ahora.' });
    const [draft] = await t.db.handle.db.select().from(s.applicationDrafts).where(eq(s.applicationDrafts.accountId, attempt.accountId)).limit(1);
    const forApplication = await api('Billing.restApiPayment', { token: maria, body: { idempotencyKey: k, paymentMethodID: m.paymentMethodID as number, amountChoice: 'other', otherAmount: '20.00', applicationKey: draft?.key ?? 'no-such-application' } });
    expect(forApplication.statusCode).toBe(409);
    expect(forApplication.json().key).toBe('payment.errors.keyReused');
    // the same amount written another way is the same payment
    expect((await pay(m.paymentMethodID, k, '20')).json().accountPaymentID).toBe(a.json().accountPaymentID);
    expect(await balance()).toBeCloseTo(before - 20, 2);
  });

  it('a charge whose answer was lost stays open and the reconciler posts it once, asking again with the same key', async () => {
    const m = (await list()).find((x) => x.last4Digits === '1111')!;
    const before = await balance();
    const k = key();
    loseChargeAnswer = true;
    const first = await pay(m.paymentMethodID, k, '7.00');
    loseChargeAnswer = false;
    expect(first.json()).toMatchObject({ status: 'PENDING', accountPaymentID: null });
    const [open] = await t.db.handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.idempotencyKey, k));
    expect(open.status).toBe('CREATED');
    const asked = charges;
    const done = await reconcilePayments(t.app.deps, { olderThanMs: 0 });
    expect(done.applied).toBe(1);
    expect(charges).toBe(asked + 1);
    const [closed] = await t.db.handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.idempotencyKey, k));
    expect(closed.status).toBe('APPROVED');
    // the gateway charged once: one transaction for the attempt's reference
    expect(await balance()).toBeCloseTo(before - 7, 2);
    expect((await pay(m.paymentMethodID, k, '7.00')).json()).toMatchObject({ status: 'APPROVED', accountPaymentID: closed.paymentId });
  });

  it('a charge the gateway declines is recorded on its attempt and posts nothing', async () => {
    const m = (await list()).find((x) => x.last4Digits === '1111')!;
    const before = await balance();
    const k = key();
    // years later by the gateway's clock the card (12/30) has expired there
    gatewayAhead = 6 * 365 * 24 * 60 * 60 * 1000;
    const res = await pay(m.paymentMethodID, k, '9.00');
    gatewayAhead = 0;
    expect(res.json()).toMatchObject({ status: 'DECLINED', accountPaymentID: null, reasonCode: 'EXPIRY' });
    const [attempt] = await t.db.handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.idempotencyKey, k));
    expect(attempt).toMatchObject({ status: 'DECLINED', reasonCode: 'EXPIRY', paymentId: null });
    expect(attempt.transactionId).toMatch(/\S/);
    expect(await balance()).toBeCloseTo(before, 2);
    // asked again with its key: the same decline, still nothing posted
    expect((await pay(m.paymentMethodID, k, '9.00')).json()).toMatchObject({ status: 'DECLINED', reasonCode: 'EXPIRY' });
  });

  it('another account\'s method is not found by any operation, and nothing changes', async () => {
    const m = (await list()).find((x) => x.last4Digits === '1111')!;
    const id = m.paymentMethodID as number;
    expect((await list(karen)).map((x) => x.paymentMethodID)).not.toContain(id);
    const refused = [
      await api('Billing.savedMethodPayer', { token: karen, query: { PaymentMethodID: id } }),
      await api('Billing.removeSavedMethod', { token: karen, body: { paymentMethodID: id } }),
      await api('Billing.updateSavedMethod', { token: karen, body: { paymentMethodID: id, expiryMonth: '01', expiryYear: '2032', firstName: 'Karen', lastName: 'Johnson' } }),
      await pay(id, key(), '5.00', karen),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([404, 404, 404, 404]);
    expect(refused[0].json().key).toBe('methods.errors.notFound');
    const [row] = await t.db.handle.db.select().from(s.paymentMethods).where(eq(s.paymentMethods.id, id));
    expect(row).toMatchObject({ expiry: '12/30', firstName: 'Maria' });
    // the owner sees the payer on file
    expect((await api('Billing.savedMethodPayer', { token: maria, query: { PaymentMethodID: id } })).json()).toMatchObject({ firstName: 'Maria', lastName: 'Garcia' });
  });

  it('updates a saved card\'s expiry and holder in place, at the gateway too; refuses a past expiry and a bank account', async () => {
    const m = (await list()).find((x) => x.last4Digits === '1111')!;
    const id = m.paymentMethodID as number;
    const [before] = await t.db.handle.db.select().from(s.paymentMethods).where(eq(s.paymentMethods.id, id));
    const res = await api('Billing.updateSavedMethod', { token: maria, body: { paymentMethodID: id, expiryMonth: '03', expiryYear: '2032', firstName: 'Maria', lastName: 'Garcia Lopez' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ paymentMethodID: id, expiry: '03/32', lastName: 'Garcia Lopez', status: 'ACTIVE' });
    const [after] = await t.db.handle.db.select().from(s.paymentMethods).where(eq(s.paymentMethods.id, id));
    expect(after.token).toBe(before.token);
    // the gateway has the new expiry: its next charge answers it
    expect((await pay(id, key(), '3.00')).json().status).toBe('APPROVED');
    const [charged] = await t.db.handle.db.select().from(s.paymentMethods).where(eq(s.paymentMethods.id, id));
    expect(charged.expiry).toBe('03/32');
    const past = await api('Billing.updateSavedMethod', { token: maria, body: { paymentMethodID: id, expiryMonth: '10', expiryYear: '2026', firstName: 'Maria', lastName: 'Garcia' } });
    expect(past.statusCode).toBe(400);
    expect(past.json().errors).toEqual([{ path: '/expiryYear', key: 'methods.errors.expiryPast' }]);
    // the form's own checks (the savedCard schema): a name is required
    const noName = await api('Billing.updateSavedMethod', { token: maria, body: { paymentMethodID: id, expiryMonth: '10', expiryYear: '2031', firstName: '', lastName: 'Garcia' } });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().errors.map((e: { path: string }) => e.path)).toContain('/firstName');
    const bank = await saveOnPage('ECH', { name: 'Maria Garcia', routing: '021000021', account: BANK_ACCOUNT, accountType: 'checking' });
    expect(bank).toMatchObject({ paymentMethodCode: 'ECR', last4Digits: '6789', expiry: null });
    const onBank = await api('Billing.updateSavedMethod', { token: maria, body: { paymentMethodID: bank.paymentMethodID as number, expiryMonth: '10', expiryYear: '2031', firstName: 'Maria', lastName: 'Garcia' } });
    expect(onBank.statusCode).toBe(409);
    expect(onBank.json().key).toBe('methods.errors.cardsOnly');
  });

  it('refuses an expired card and a bank account the bank closed, in the parent\'s language', async () => {
    const m = (await list()).find((x) => x.last4Digits === '1111')!;
    const id = m.paymentMethodID as number;
    // the card's last month was October 2026; today is November 23, 2026
    await t.db.handle.db.update(s.paymentMethods).set({ expiry: '10/26' }).where(eq(s.paymentMethods.id, id));
    expect((await list()).find((x) => x.paymentMethodID === id)!.status).toBe('EXPIRED');
    const expired = await t.app.inject({ method: 'POST', url: '/api/Billing/payment/rest-api-payment', headers: { authorization: `Bearer ${maria}`, 'accept-language': 'es' }, payload: { idempotencyKey: key(), paymentMethodID: id, amountChoice: 'other', otherAmount: '5.00' } });
    expect(expired.statusCode).toBe(409);
    expect(expired.json()).toMatchObject({ key: 'methods.errors.expired', message: 'Esta tarjeta está vencida. Actualice su fecha de vencimiento o pague con otro método.' });
    await t.db.handle.db.update(s.paymentMethods).set({ expiry: '03/32' }).where(eq(s.paymentMethods.id, id));
    const bank = (await list()).find((x) => x.paymentMethodCode === 'ECR')!;
    await t.db.handle.db.update(s.paymentMethods).set({ status: 'INVALID', statusReason: 'R02' }).where(eq(s.paymentMethods.id, bank.paymentMethodID as number));
    expect((await list()).find((x) => x.paymentMethodID === bank.paymentMethodID)).toMatchObject({ status: 'INVALID', statusReason: 'R02' });
    const closed = await pay(bank.paymentMethodID);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().key).toBe('methods.errors.invalid');
    // the demo's autopay cards were never kept by the gateway (no token): answered as on file for the
    // autopay only, so Pay now does not offer them; a charge asked anyway is refused
    const demo = (await list()).find((x) => x.last4Digits === '4242')!;
    expect(demo).toMatchObject({ status: 'ACTIVE', statusReason: 'ON_FILE_ONLY', usedForAutoPay: true });
    expect((await list()).find((x) => x.last4Digits === '5100')).toMatchObject({ status: 'ACTIVE', statusReason: 'ON_FILE_ONLY' });
    expect((await pay(demo.paymentMethodID)).json().key).toBe('methods.errors.notChargeable');
  });

  it('removing is refused for the autopay\'s method and forgets another at the gateway, then here', async () => {
    const demo = (await list()).find((x) => x.usedForAutoPay)!;
    const refused = await t.app.inject({ method: 'POST', url: '/api/Billing/payment/saved-payment-methods/remove', headers: { authorization: `Bearer ${maria}`, 'accept-language': 'pt' }, payload: { paymentMethodID: demo.paymentMethodID } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ key: 'methods.errors.usedForAutoPay', message: expect.stringContaining('pagamento automático') });
    const m = (await list()).find((x) => x.last4Digits === '1111')!;
    const [row] = await t.db.handle.db.select().from(s.paymentMethods).where(eq(s.paymentMethods.id, m.paymentMethodID as number));
    const removed = await api('Billing.removeSavedMethod', { token: maria, body: { paymentMethodID: m.paymentMethodID as number } });
    expect(removed.json()).toEqual({ removed: true });
    expect((await list()).map((x) => x.paymentMethodID)).not.toContain(m.paymentMethodID);
    // its payments stay, no longer tied to it
    const paid = await t.db.handle.db.select().from(s.payments).where(and(eq(s.payments.accountId, row.accountId), eq(s.payments.last4Digits, '1111')));
    expect(paid.length).toBeGreaterThan(0);
    expect(paid.every((p) => p.paymentMethodId === null)).toBe(true);
    // the gateway forgot the token: charging it is no longer possible
    const direct = sandboxGateway({ code: 1, url: `http://127.0.0.1:${(gw.app.server.address() as { port: number }).port}`, merchant: '1', secret: SECRETS['1'] });
    const answer = await direct.chargeToken({ idempotencyKey: key(), token: row.token!, amountCents: 100, currency: 'USD', reference: 'after-removal', notifyUrl: 'http://127.0.0.1:9/none' }).then(
      (tx) => tx.status,
      () => 'REFUSED',
    );
    expect(answer).not.toBe('APPROVED');
    expect((await pay(m.paymentMethodID)).statusCode).toBe(404);
  });

  const attemptOf = async (k: string) => (await t.db.handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.idempotencyKey, k)))[0];
  const tokenOf = async (id: unknown) => (await t.db.handle.db.select().from(s.paymentMethods).where(eq(s.paymentMethods.id, id as number)))[0].token!;

  it('a saved card the gateway no longer knows is declined with the reason in the parent\'s language, marked invalid, and can no longer be updated', async () => {
    const m = await saveOnPage('CCD', { name: 'Maria Garcia', number: '5555555555554444', expiry: '11/31', cvv: '123' });
    // the gateway forgets the token (removed there, not here)
    await direct.deleteToken(await tokenOf(m.paymentMethodID));
    const before = await balance();
    const k = key();
    const refused = await t.app.inject({ method: 'POST', url: '/api/Billing/payment/rest-api-payment', headers: { authorization: `Bearer ${maria}`, 'accept-language': 'pt' }, payload: { idempotencyKey: k, paymentMethodID: m.paymentMethodID, amountChoice: 'other', otherAmount: '6.00' } });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ key: 'methods.errors.tokenRefused', message: 'Este método de pagamento salvo não pode mais ser usado: o serviço de pagamentos não o tem mais. Nada foi cobrado. Pague com outro método.' });
    expect(await attemptOf(k)).toMatchObject({ status: 'DECLINED', reasonCode: 'TOKEN_REFUSED', paymentId: null });
    expect((await list()).find((x) => x.paymentMethodID === m.paymentMethodID)).toMatchObject({ status: 'INVALID', statusReason: 'TOKEN_REFUSED' });
    expect(await balance()).toBeCloseTo(before, 2);
    // asked again: the same answer; a new payment with it is refused before reaching the gateway
    expect((await pay(m.paymentMethodID, k, '6.00')).json().key).toBe('methods.errors.tokenRefused');
    expect((await pay(m.paymentMethodID, key(), '6.00')).json().key).toBe('methods.errors.invalid');
    const update = await api('Billing.updateSavedMethod', { token: maria, body: { paymentMethodID: m.paymentMethodID as number, expiryMonth: '01', expiryYear: '2033', firstName: 'Maria', lastName: 'Garcia' } });
    expect(update.statusCode, update.body).toBe(409);
    expect(update.json().key).toBe('methods.errors.noLongerUpdatable');
    expect((await list()).find((x) => x.paymentMethodID === m.paymentMethodID)).toMatchObject({ expiry: '11/31' });
  });

  it('an open charge whose token the gateway forgot is closed by the next payment and by the reconciler instead of retried', async () => {
    const a = await saveOnPage('CCD', { name: 'Maria Garcia', number: '6011111111111117', expiry: '11/31', cvv: '123' });
    const b = await saveOnPage('CCD', { name: 'Maria Garcia', number: '4012888888881881', expiry: '11/31', cvv: '123' });
    // a charge of each that the gateway did not answer stays open (one live attempt at a time)
    const ka = key();
    chargeUnreachable = true;
    expect((await pay(a.paymentMethodID, ka, '4.00')).json().status).toBe('PENDING');
    chargeUnreachable = false;
    await direct.deleteToken(await tokenOf(a.paymentMethodID));
    // a new payment closes it first: declined for its token, not 503
    const started = await api('Billing.startPayment', { token: maria, body: { ...payer, idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '2.00' } as StartPayment });
    expect(started.statusCode, started.body).toBe(200);
    expect(await attemptOf(ka)).toMatchObject({ status: 'DECLINED', reasonCode: 'TOKEN_REFUSED' });
    expect((await list()).find((x) => x.paymentMethodID === a.paymentMethodID)!.status).toBe('INVALID');
    // the reconciler does the same with an open charge of a forgotten token
    const kb = key();
    chargeUnreachable = true;
    expect((await pay(b.paymentMethodID, kb, '4.00')).json().status).toBe('PENDING');
    chargeUnreachable = false;
    await direct.deleteToken(await tokenOf(b.paymentMethodID));
    const done = await reconcilePayments(t.app.deps, { olderThanMs: 0 });
    expect(done.closed).toBeGreaterThanOrEqual(1);
    expect(await attemptOf(kb)).toMatchObject({ status: 'DECLINED', reasonCode: 'TOKEN_REFUSED', paymentId: null });
    expect((await list()).find((x) => x.paymentMethodID === b.paymentMethodID)!.status).toBe('INVALID');
    // and it is not asked again
    const again = await reconcilePayments(t.app.deps, { olderThanMs: 0 });
    expect(await attemptOf(kb)).toMatchObject({ status: 'DECLINED' });
    expect(again.open).toBe(0);
  });

  it('removing a method whose token the gateway does not know removes it here anyway', async () => {
    const m = (await list()).find((x) => x.last4Digits === '1881')!;
    await t.db.handle.db.update(s.paymentMethods).set({ token: 'tok_never_issued_by_this_gateway' }).where(eq(s.paymentMethods.id, m.paymentMethodID as number));
    const removed = await api('Billing.removeSavedMethod', { token: maria, body: { paymentMethodID: m.paymentMethodID as number } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await list()).map((x) => x.paymentMethodID)).not.toContain(m.paymentMethodID);
  });

  it('the gateway is given apartment and street joined by \'#\' (spec 9), and the payer\'s licence is kept as state $$ number', async () => {
    const k = key();
    const started = await api('Billing.startPayment', { token: maria, body: { ...payer, apartmentNo: '4B', driverLicenseState: 'IL', driverLicenseNumber: 'G65512345678', idempotencyKey: k, paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '3.00' } as StartPayment });
    expect(started.statusCode, started.body).toBe(200);
    expect(checkouts[0].reference).toBe((await attemptOf(k)).publicId);
    expect(checkouts[0].payer.street).toBe('4B#412 Oak Street');
    // without an apartment, the street alone
    const k2 = key();
    expect((await api('Billing.startPayment', { token: maria, body: { ...payer, idempotencyKey: k2, paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '3.50' } as StartPayment })).statusCode).toBe(200);
    expect(checkouts[0].payer.street).toBe('412 Oak Street');
    const licence = (await attemptOf(k)).payer.driverLicence;
    expect(licence).toBe('IL$$G65512345678');
  });

  it('dropping an adult forgets her saved methods at the gateway after the drop, without waiting for it', async () => {
    const m = await saveOnPage('CCD', { name: 'Maria Garcia', number: '378282246310005', expiry: '11/31', cvv: '1234' });
    const [saved] = await t.db.handle.db.select().from(s.paymentMethods).where(eq(s.paymentMethods.id, m.paymentMethodID as number));
    const [rosa] = await t.db.handle.db.select().from(s.adults).where(and(eq(s.adults.firstName, 'Rosa'), eq(s.adults.accountId, saved.accountId)));
    const [row] = await t.db.handle.db.update(s.paymentMethods).set({ adultId: rosa.id }).where(eq(s.paymentMethods.id, saved.id)).returning();
    // the gateway does not answer the deletion until released: the drop answers meanwhile
    let release = () => {};
    deletionHeld = new Promise<void>((r) => (release = r));
    const dropped = await api('Demographics.adultDelete', { token: maria, params: { adultID: rosa.id }, body: { confirmCancel: true } });
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json()).toMatchObject({ dropped: true, removedPaymentMethods: 1 });
    expect((await list()).map((x) => x.paymentMethodID)).not.toContain(m.paymentMethodID);
    const charge = () => direct.chargeToken({ idempotencyKey: key(), token: row.token!, amountCents: 100, currency: 'USD', reference: 'after-drop', notifyUrl: 'http://127.0.0.1:9/none' });
    expect((await charge()).status).toBe('APPROVED');
    release();
    deletionHeld = null;
    // once the gateway answers, the token is gone there
    await vi.waitFor(() => expect(charge()).rejects.toBeInstanceOf(TokenRefused), { timeout: 10_000, interval: 100 });
  });

  it('a stored method never holds a card or bank number', async () => {
    const rows = await t.db.handle.db.execute(sql.raw('SELECT row_to_json(x)::text AS j FROM payment_methods x'));
    const dump = JSON.stringify((rows as unknown as { rows: unknown[] }).rows ?? rows);
    expect(dump).toContain('6789');
    for (const secret of [CARD, BANK_ACCOUNT, '411111', '0001234']) expect(dump).not.toContain(secret);
  });
});
