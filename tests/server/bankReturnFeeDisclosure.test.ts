// The returned-payment fee a provider declares (payments.bankReturnFeeCents) is told before a parent
// pays by bank account: Billing.paymentOptions answers it in dollars, and Pay now's bank tile and the
// payer page of a bank payment show it by payment.itemBankReturnFee and payment.flowBankReturnFee.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestApp, tokenFor, MARIA, type TestApp } from './helpers';
import { ROOT } from '../../server/app';
import type { PaymentGateway } from '../../server/gateways/adapter';
import { evaluateRule } from '../../src/engine/logic';
import { buildDeclarationSet } from '../../src/engine/declarations';
import { readBaseDeclarations } from '../../src/engine/node';

/** no test pays: the gateway is never asked */
const unreachable = new Proxy({}, { get: () => () => { throw new Error('the gateway was asked'); } }) as unknown as PaymentGateway;

describe.each(BACKENDS)('the returned-payment fee on %s', (backend) => {
  let plain: TestApp;
  let withFee: TestApp;
  beforeAll(async () => {
    const brightpath = JSON.parse(readFileSync(join(ROOT, 'providers', 'brightpath', 'provider.json'), 'utf8')).payments;
    plain = await createTestApp(backend, { gateways: { 1: unreachable, 2: unreachable } });
    withFee = await createTestApp(backend, { gateways: { 1: unreachable, 2: unreachable }, providerSettings: { brightpath: { payments: { ...brightpath, bankReturnFeeCents: 2_500 } } } });
  });
  afterAll(async () => {
    await plain?.close();
    await withFee?.close();
  });

  const options = async (t: TestApp) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/Billing/payment-options', headers: { authorization: `Bearer ${await tokenFor(t.app, ...MARIA)}` } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { bankReturnFee: number };
  };

  it('is answered with the payment options, and the bank tile and a bank payer page tell it only when declared', async () => {
    const declared = await options(withFee);
    const none = await options(plain);
    expect(declared.bankReturnFee).toBe(25);
    expect(none.bankReturnFee).toBe(0);
    const r = buildDeclarationSet(readBaseDeclarations(ROOT), [], { appName: 'brightpath' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const rules = r.set.rules;
    const tile = (paymentOptions: unknown, code: string) => evaluateRule(rules, 'payment.itemBankReturnFee', { data: { paymentOptions }, item: { paymentMethodCode: code } });
    const payer = (paymentOptions: unknown, code: string) => evaluateRule(rules, 'payment.flowBankReturnFee', { data: { paymentOptions }, flow: { data: { paymentMethodCode: code } } });
    expect([tile(declared, 'ECH'), tile(declared, 'CCD'), tile(none, 'ECH')]).toEqual([true, false, false]);
    expect([payer(declared, 'ECH'), payer(declared, 'ECR'), payer(declared, 'CCD'), payer(none, 'ECR')]).toEqual([true, true, false, false]);
  });
});
