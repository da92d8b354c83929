// The most a parent can pay at once: the provider's maxPaymentCents (provider.json payments; 99,999.99
// when not set, well inside what a gateway takes in one payment with its processing fee). The Pay now
// form's other amount is checked against it in the browser and on the server by the same declaration
// (payNow's payment.otherAmountWithinMax over Billing.paymentOptions' maxPaymentAmount), and a
// checkout above it is refused before any gateway is asked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestApp, tokenFor, MARIA, type TestApp } from './helpers';
import { ROOT } from '../../server/app';
import { DEFAULT_PAYMENTS, MAX_PAYMENT_CENTS_LIMIT, paymentsOf } from '../../server/paymentSettings';
import { formatProviderRecordError, providerRecordErrors } from '../../server/providerRecord';
import type { PaymentGateway } from '../../server/gateways/adapter';
import { moneyText } from '../../src/engine/money';

describe('the maximum payment setting', () => {
  it('is 99,999.99 unless the provider sets it, and a setting a gateway could not take stops the start', () => {
    expect(DEFAULT_PAYMENTS.maxPaymentCents).toBe(9_999_999);
    expect(paymentsOf(undefined).maxPaymentCents).toBe(9_999_999);
    expect(paymentsOf({ maxPaymentCents: 250_000 }).maxPaymentCents).toBe(250_000);
    const base = JSON.parse(readFileSync(join(ROOT, 'providers', 'brightpath', 'provider.json'), 'utf8'));
    const errors = (maxPaymentCents: unknown) => providerRecordErrors('brightpath', { ...base, payments: { ...base.payments, maxPaymentCents } }).map(formatProviderRecordError);
    const where = 'providers/brightpath/provider.json: /payments/maxPaymentCents: ';
    expect(errors(250_000)).toEqual([]);
    for (const bad of [100.5, '100', null]) expect(errors(bad), String(bad)).toEqual([`${where}must be integer`]);
    for (const bad of [0, 99]) expect(errors(bad), String(bad)).toEqual([`${where}must be >= 100`]);
    expect(errors(MAX_PAYMENT_CENTS_LIMIT + 1)).toEqual([`${where}must be <= ${MAX_PAYMENT_CENTS_LIMIT}`]);
  });
});

/** a gateway no test reaches: an amount above the maximum is refused before it is asked */
const unreachable = new Proxy({}, { get: () => () => { throw new Error('the gateway was asked'); } }) as unknown as PaymentGateway;

describe.each(BACKENDS)('the maximum payment on %s', (backend) => {
  let t: TestApp;
  let small: TestApp;
  let token = '';
  let smallToken = '';
  beforeAll(async () => {
    t = await createTestApp(backend, { gateways: { 1: unreachable, 2: unreachable } });
    const brightpath = JSON.parse(readFileSync(join(ROOT, 'providers', 'brightpath', 'provider.json'), 'utf8')).payments;
    small = await createTestApp(backend, { gateways: { 1: unreachable, 2: unreachable }, providerSettings: { brightpath: { payments: { ...brightpath, maxPaymentCents: 50_000 } } } });
    token = await tokenFor(t.app, ...MARIA);
    smallToken = await tokenFor(small.app, ...MARIA);
  });
  afterAll(async () => {
    await t?.close();
    await small?.close();
  });

  const fee = (app: TestApp, tok: string, amount: string, lang = 'en') =>
    app.app.inject({ method: 'GET', url: `/api/Billing/payment/processing-fee?AmountChoice=other&Amount=${amount}`, headers: { authorization: `Bearer ${tok}`, 'accept-language': lang } });

  it('the payment options say the maximum, as a number and as the parent reads it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/Billing/payment-options', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ maxPaymentAmount: 99999.99, maxPaymentText: '$99,999.99' });
    const es = await small.app.inject({ method: 'GET', url: '/api/Billing/payment-options', headers: { authorization: `Bearer ${smallToken}`, 'accept-language': 'es' } });
    expect(es.json()).toMatchObject({ maxPaymentAmount: 500 });
    expect(es.json().maxPaymentText).toBe(moneyText(50_000, 'es', 'US'));
  });

  it('an other amount above the maximum is not payable; at the maximum it is', async () => {
    expect((await fee(t, token, '99999.99')).json().valid).toBe(true);
    for (const amount of ['100000.00', '100000', '1000000.01', '9999999.99']) expect((await fee(t, token, amount)).json().valid, amount).toBe(false);
    expect((await fee(small, smallToken, '500.00')).json().valid).toBe(true);
    expect((await fee(small, smallToken, '500.01')).json().valid).toBe(false);
  });

  it('a checkout above the maximum is refused with the amount message, before the gateway is asked', async () => {
    const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Billing/payment/checkout',
      headers: { authorization: `Bearer ${token}` },
      payload: { ...payer, paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '100000.00', idempotencyKey: 'a'.repeat(32) },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().key).toBe('payment.errors.amount');
  });

  it('the Pay now form says the maximum on the field, in the parent\'s language (the browser runs the same declaration)', async () => {
    const engine = t.app.declarations.get('brightpath')!.engine;
    const ctx = (max: number | undefined) => ({ session: {}, provider: {}, data: max === undefined ? {} : { paymentOptions: { maxPaymentAmount: max, maxPaymentText: `$${max}` } } });
    const over = engine.validate('payNow', { amountChoice: 'other', otherAmount: '600' }, ctx(500));
    expect(over.valid).toBe(false);
    expect(over.errors).toHaveLength(1);
    expect(over.errors[0]).toMatchObject({ path: '/otherAmount', key: 'errors.payment.amountAboveMax', params: { max: '$500' } });
    expect(engine.validate('payNow', { amountChoice: 'other', otherAmount: '500.00' }, ctx(500)).valid).toBe(true);
    // before the options are in, the default maximum holds
    expect(engine.validate('payNow', { amountChoice: 'other', otherAmount: '100000' }, ctx(undefined)).valid).toBe(false);
    expect(engine.validate('payNow', { amountChoice: 'other', otherAmount: '99999.99' }, ctx(undefined)).valid).toBe(true);
    for (const lang of ['en', 'es', 'pt', 'vi']) {
      const texts = JSON.parse(readFileSync(join(ROOT, 'locales', lang, 'errors.json'), 'utf8'));
      expect(texts.payment.amountAboveMax, lang).toContain('{{max}}');
    }
  });
});
