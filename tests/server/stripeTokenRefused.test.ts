// A saved card detached at Stripe: a charge asked again with the key of a charge Stripe made before
// (its answer lost) answers that charge, so the portal posts it; a new charge is refused as a token
// the gateway no longer knows, which the portal does not take for an outage.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewaysFromSettings } from '../../server/gateways/plugins';
import { gatewayAdapters } from '../../server/gateways/registry';
import { GatewayUnavailable, TokenRefused, type PaymentGateway } from '../../server/gateways/adapter';
import { startFakeStripe, type FakeStripe } from './fakeStripe';

const KEY_ENV = 'STRIPE_TEST_SECRET_KEY';
const WEBHOOK_ENV = 'STRIPE_TEST_WEBHOOK_SECRET';
process.env[KEY_ENV] ??= `sk_test_${randomBytes(12).toString('hex')}`;
process.env[WEBHOOK_ENV] ??= `whsec_${randomBytes(16).toString('hex')}`;

describe('a saved card detached at Stripe', () => {
  let fake: FakeStripe;
  let gateway: PaymentGateway;
  const newKey = () => randomBytes(12).toString('hex');
  const charge = (token: string, idempotencyKey: string) => gateway.chargeToken({ idempotencyKey, token, amountCents: 2500, currency: 'USD', reference: `ref-${idempotencyKey}`, notifyUrl: '' });

  beforeAll(async () => {
    fake = await startFakeStripe();
    gateway = gatewaysFromSettings(gatewayAdapters(), JSON.stringify({ 4: { adapter: 'stripe', secretKeyEnv: KEY_ENV, webhookSecretEnv: WEBHOOK_ENV, host: '127.0.0.1', port: fake.port, protocol: 'http' } }))[4];
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('answers a charge made before with the same key, and refuses a new one as a token it no longer knows', async () => {
    const key = newKey();
    const opened = await gateway.createCheckout({
      idempotencyKey: key,
      merchantName: 'Bright Path',
      amountCents: 1500,
      currency: 'USD',
      method: 'CARD',
      reference: key,
      returnUrl: 'http://127.0.0.1:9/parentportal/stripereturn',
      notifyUrl: '',
      cancelUrl: 'http://127.0.0.1:9/parentportal/stripereturn',
      locale: 'en',
      payer: { firstName: 'Maria', lastName: 'Garcia', street: '412 Oak Street', city: 'Springfield', state: 'IL', zip: '62704', country: 'US', email: 'maria.garcia@example.com', phone: '' },
      offerSave: true,
    });
    fake.pay(opened.checkoutId, { brand: 'visa', last4: '4242', save: true });
    const saved = (await gateway.queryCheckout(opened.checkoutId)).transaction!.savedMethod!;
    const first = newKey();
    const charged = await charge(saved.token, first);
    expect(charged.status).toBe('APPROVED');
    await gateway.deleteToken(saved.token);
    // the same key again (the portal's reconciler after a lost answer): the same charge
    expect(await charge(saved.token, first)).toMatchObject({ status: 'APPROVED', transactionId: charged.transactionId });
    const refused = charge(saved.token, newKey());
    await expect(refused).rejects.toBeInstanceOf(TokenRefused);
    await expect(refused).rejects.not.toBeInstanceOf(GatewayUnavailable);
  });
});
