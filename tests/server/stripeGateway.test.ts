// The Stripe adapter (server/gateways/stripe/) end to end on both databases, against a local fake of
// Stripe's API (tests/server/fakeStripe.ts; nothing reaches the internet): a parent pays a balance on
// a Checkout Session, the signed webhook posts the payment once (a repeat posts nothing more), a forged
// or an old replayed webhook is refused, the unsigned return is only a cue to ask Stripe, a cancel
// expires the session, and a refund goes to the PaymentIntent once whatever the retries. Saved cards:
// a page offering "save" keeps the card the parent ticked (a PaymentMethod of a Customer of its own),
// a token charge is one off-session PaymentIntent whatever the retries of its key, approved or declined
// by Stripe's test cards, a card is updated in place and detached, and another Customer's card is refused.
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../../server/db/schema';
import { refundPayment } from '../../server/domains/enrolment/applicationPayment';
import { gatewaysFromSettings } from '../../server/gateways/plugins';
import { RETURN_ROUTES, gatewayAdapters } from '../../server/gateways/registry';
import { stripeAdapter } from '../../server/gateways/stripe/index';
import { TokenRefused, UNSIGNED_RETURN } from '../../server/gateways/stripe/client';
import { GatewayUnavailable, type PaymentGateway } from '../../server/gateways/adapter';
import type { CreateCheckoutRequest, SavedMethod } from '../../sandbox-gateway/protocol';
import type { BillingPaymentResultBody as PaymentResult, BillingStartPaymentBody as StartPayment } from '../../src/engine/contract.gen';
import { GATEWAY_OF_ROUTE } from '../../src/shell/payments/gatewayRoutes.gen';
import { startFakeStripe, type FakeStripe } from './fakeStripe';
import { BACKENDS, MARIA, apiClient, createTestApp, freePort, tokenFor, type TestApp } from './helpers';

const KEY_ENV = 'STRIPE_TEST_SECRET_KEY';
const WEBHOOK_ENV = 'STRIPE_TEST_WEBHOOK_SECRET';
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
process.env[KEY_ENV] = `sk_test_${randomBytes(12).toString('hex')}`;
process.env[WEBHOOK_ENV] = WEBHOOK_SECRET;
const SANDBOX = { url: 'http://127.0.0.1:9', merchant: '1', secret: 'sandbox-secret-0123456789' };
const entry = (fake: FakeStripe) => ({ adapter: 'stripe', secretKeyEnv: KEY_ENV, webhookSecretEnv: WEBHOOK_ENV, host: '127.0.0.1', port: fake.port, protocol: 'http' });

describe("the Stripe adapter's settings", () => {
  const settings = (e: object) => () => gatewaysFromSettings(gatewayAdapters(), JSON.stringify({ 4: e }));

  it('name the environment variables holding its secrets, never the secrets', () => {
    expect(stripeAdapter.gateways).toEqual([{ code: 4, returnRoute: '/stripereturn' }]);
    expect(RETURN_ROUTES[4]).toBe('/stripereturn');
    expect(GATEWAY_OF_ROUTE['/stripereturn']).toBe(4);
    expect(gatewaysFromSettings(gatewayAdapters(), JSON.stringify({ 4: { secretKeyEnv: KEY_ENV, webhookSecretEnv: WEBHOOK_ENV } }))[4].code).toBe(4);
    expect(settings({ secretKeyEnv: KEY_ENV, webhookSecretEnv: WEBHOOK_ENV, secretKey: 'sk_live_x' })).toThrow('gateway "4" (stripe): / must NOT have additional properties (secretKey)');
    expect(settings({ secretKeyEnv: 'sk_live_abc', webhookSecretEnv: WEBHOOK_ENV })).toThrow(/\/secretKeyEnv must match pattern/);
    expect(settings({ secretKeyEnv: KEY_ENV })).toThrow("must have required property 'webhookSecretEnv'");
    expect(settings({ secretKeyEnv: 'STRIPE_NOT_SET_ANYWHERE', webhookSecretEnv: WEBHOOK_ENV })).toThrow('PAYMENT_GATEWAYS: gateway "4" (stripe): the environment variable STRIPE_NOT_SET_ANYWHERE (the secret key) is not set');
    expect(settings({ secretKeyEnv: KEY_ENV, webhookSecretEnv: WEBHOOK_ENV, protocol: 'ftp' })).toThrow(/\/protocol must be equal to one of the allowed values/);
  });
});

describe.each(BACKENDS)('the Stripe adapter end to end on %s', (backend) => {
  let t: TestApp;
  let fake: FakeStripe;
  let gateway: PaymentGateway;
  let portal = '';
  let maria = '';
  const api = apiClient(() => t.app, { lang: 'en', headers: { 'x-release-version': '9.9.9' } });
  const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', apartmentNo: '', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
  const start = (otherAmount: string, idempotencyKey = randomBytes(16).toString('hex')) =>
    api('Billing.startPayment', { token: maria, body: { ...payer, idempotencyKey, paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount } as StartPayment });
  const balance = async () => (await api('Billing.accountSummary', { token: maria })).json().currentBalance as number;
  const paymentsCount = async () => (await t.db.handle.db.select({ n: sql<number>`count(*)::int` }).from(s.payments)).at(0)!.n;
  const attemptOf = async (checkoutId: string) => (await t.db.handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.checkoutId, checkoutId)))[0];
  const post = (raw: string, signature?: string) =>
    t.app.inject({ method: 'POST', url: '/api/Billing/payment/notification/4', payload: raw, headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) } });
  const returnOf = (url: string) => {
    const back = new URL(url);
    const q = Object.fromEntries(back.searchParams);
    return { path: back.pathname, body: { gatewayCode: GATEWAY_OF_ROUTE[back.pathname.replace(/^\/parent(portal|application)/, '')], checkout: q.checkout, transaction: q.transaction, status: q.status as PaymentResult['status'], sig: q.sig } };
  };

  beforeAll(async () => {
    fake = await startFakeStripe();
    const gateways = gatewaysFromSettings(gatewayAdapters(), JSON.stringify({ 1: SANDBOX, 4: entry(fake) }));
    gateway = gateways[4];
    portal = `http://127.0.0.1:${await freePort()}`;
    t = await createTestApp(backend, { publicUrl: portal, gateways, providerSettings: { brightpath: { payments: { gateways: { CCD: 4, ECH: 1 } } } } });
    maria = await tokenFor(t.app, ...MARIA);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('pays a balance on a Checkout Session: the webhook posts it once, forged and old replayed ones are refused', async () => {
    const before = await balance();
    const key = randomBytes(16).toString('hex');
    const started = await start('15.00', key);
    expect(started.statusCode, started.body).toBe(200);
    const { checkoutUrl, paymentID } = started.json();
    expect(fake.sessions.size).toBe(1);
    const [session] = [...fake.sessions.values()];
    expect(checkoutUrl).toBe(session.url);
    // the session Stripe was asked for: one line item of the amount in cents, the attempt's ids, the return route
    expect(session).toMatchObject({ mode: 'payment', amount_total: 1500, currency: 'usd', client_reference_id: paymentID, customer_email: payer.email, locale: 'en' });
    expect(session.metadata).toMatchObject({ reference: paymentID, idempotencyKey: paymentID, method: 'CARD' });
    expect(session.success_url).toBe(`${portal}/parentportal/stripereturn?checkout={CHECKOUT_SESSION_ID}&transaction=&status=APPROVED&sig=${UNSIGNED_RETURN}`);
    expect(session.cancel_url).toContain('status=CANCELLED');
    const created = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(created.map((r) => r.idempotencyKey)).toEqual([`checkout-${paymentID}`]);
    // a double click: the same page, no second session
    expect((await start('15.00', key)).json().checkoutUrl).toBe(checkoutUrl);
    expect(fake.sessions.size).toBe(1);

    // the parent pays; Stripe posts checkout.session.completed before the parent is back
    const back = returnOf(fake.pay(session.id));
    expect(back.path).toBe('/parentportal/stripereturn');
    const paidBefore = await paymentsCount();
    const completed = fake.event('checkout.session.completed', fake.webhookSession(session.id), { secret: WEBHOOK_SECRET });
    expect((await post(completed.raw, completed.header)).statusCode).toBe(200);
    expect(await paymentsCount()).toBe(paidBefore + 1);
    const attempt = await attemptOf(session.id);
    expect(attempt).toMatchObject({ status: 'APPROVED', transactionId: [...fake.intents.keys()][0], gatewayCode: 4 });
    expect(await balance()).toBe(before - 15);
    // the webhook's session carries no card: the portal asked Stripe for it, so the receipt names the card
    expect(JSON.parse(completed.raw).data.object.payment_intent).toEqual(expect.any(String));
    const [posted] = await t.db.handle.db.select().from(s.payments).where(eq(s.payments.attemptId, attempt.id));
    expect(posted).toMatchObject({ brand: 'VISA', last4Digits: '4242' });

    // the same event again (Stripe retries), and again re-signed now: nothing more
    expect((await post(completed.raw, completed.header)).statusCode).toBe(200);
    const again = fake.event('checkout.session.completed', fake.webhookSession(session.id), { secret: WEBHOOK_SECRET, id: completed.id });
    expect((await post(again.raw, again.header)).statusCode).toBe(200);
    // a new event id about the same payment posts nothing either: the attempt holds its transaction
    const other = fake.event('checkout.session.completed', fake.webhookSession(session.id), { secret: WEBHOOK_SECRET });
    expect((await post(other.raw, other.header)).statusCode).toBe(200);
    expect(await paymentsCount()).toBe(paidBefore + 1);

    // forged: signed with another secret, a body changed under a real signature, no signature at all
    const forged = fake.event('checkout.session.completed', fake.webhookSession(session.id), { secret: `whsec_${randomBytes(16).toString('hex')}` });
    expect((await post(forged.raw, forged.header)).statusCode).toBe(401);
    expect((await post(completed.raw.replace('"amount_total": 1500', '"amount_total": 1'), completed.header)).statusCode).toBe(401);
    expect((await post(completed.raw)).statusCode).toBe(401);
    // replayed: a genuine signature from an hour ago is past constructEvent's tolerance
    const old = fake.event('checkout.session.completed', fake.webhookSession(session.id), { secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await post(old.raw, old.header)).statusCode).toBe(401);
    expect(await paymentsCount()).toBe(paidBefore + 1);
    expect(await t.db.handle.db.select().from(s.ledgerEntries).where(eq(s.ledgerEntries.paymentId, attempt.paymentId!))).toHaveLength(1);

    // the parent's return after the webhook: the same payment
    const result = await api('Billing.paymentResult', { token: maria, body: back.body });
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json()).toMatchObject({ status: 'APPROVED', accountPaymentID: attempt.paymentId, purpose: 'BALANCE' });
    // the receipt has the card Stripe charged
    const [payment] = await t.db.handle.db.select().from(s.payments).where(eq(s.payments.id, attempt.paymentId!));
    expect(payment).toMatchObject({ amountCents: 1500, gatewayTransactionId: attempt.transactionId });
    // a return that is not Stripe's shape is refused
    expect((await api('Billing.paymentResult', { token: maria, body: { ...back.body, sig: 'f'.repeat(64) } })).statusCode).toBe(400);
    expect((await api('Billing.paymentResult', { token: maria, body: { ...back.body, checkout: '{CHECKOUT_SESSION_ID}' } })).statusCode).toBe(400);
    expect(await paymentsCount()).toBe(paidBefore + 1);
  });

  it('a cancel expires the session at Stripe; a session paid before the cancel is applied instead', async () => {
    const started = await start('7.00');
    expect(started.statusCode, started.body).toBe(200);
    const session = [...fake.sessions.values()].find((x) => x.url === started.json().checkoutUrl)!;
    const cancelUrl = session.cancel_url!.replace('{CHECKOUT_SESSION_ID}', session.id);
    const result = await api('Billing.paymentResult', { token: maria, body: returnOf(cancelUrl).body });
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json().status).toBe('CANCELLED');
    expect(fake.sessions.get(session.id)!.status).toBe('expired');
    const expire = fake.requests.filter((r) => r.path === `/v1/checkout/sessions/${session.id}/expire`);
    expect(expire.map((r) => r.idempotencyKey)).toEqual([`expire-${session.client_reference_id}`]);
    expect((await attemptOf(session.id)).status).toBe('CANCELLED');
    // the expired page's webhook has nothing to apply: answered 200, so Stripe stops sending it
    const expired = fake.event('checkout.session.expired', fake.webhookSession(session.id), { secret: WEBHOOK_SECRET });
    const before = await paymentsCount();
    expect((await post(expired.raw, expired.header)).statusCode).toBe(200);
    expect(await paymentsCount()).toBe(before);

    // paid at Stripe while the parent was coming back with Cancel: the cancel applies the payment
    const paid = await start('8.00');
    const s2 = [...fake.sessions.values()].find((x) => x.url === paid.json().checkoutUrl)!;
    fake.pay(s2.id);
    const cancelled = await api('Billing.paymentResult', { token: maria, body: returnOf(s2.cancel_url!.replace('{CHECKOUT_SESSION_ID}', s2.id)).body });
    expect(cancelled.json()).toMatchObject({ status: 'APPROVED' });
    expect(await paymentsCount()).toBe(before + 1);
  });

  it("another instance finds a page by the attempt's key (Stripe's list) to close it", async () => {
    const started = await start('9.00');
    const session = [...fake.sessions.values()].find((x) => x.url === started.json().checkoutUrl)!;
    // a second server of the provider, which did not open the page
    const other = gatewaysFromSettings(gatewayAdapters(), JSON.stringify({ 4: entry(fake) }))[4];
    expect(await other.cancelCheckout(session.client_reference_id!)).toEqual({ checkoutId: session.id, status: 'CANCELLED', transaction: null });
    expect(fake.sessions.get(session.id)!.status).toBe('expired');
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === '/v1/checkout/sessions')).toBe(true);
    // again: the page is closed already
    expect(await other.cancelCheckout(session.client_reference_id!)).toEqual({ checkoutId: session.id, status: 'EXPIRED', transaction: null });
    // a key with no page: closed too, and a page asked for later with it is refused
    expect(await other.cancelCheckout('no-such-attempt')).toEqual({ checkoutId: null, status: 'CANCELLED', transaction: null });
    const request = { idempotencyKey: 'no-such-attempt', merchantName: 'x', amountCents: 100, currency: 'USD' as const, method: 'CARD' as const, reference: 'no-such-attempt', returnUrl: `${portal}/parentportal/stripereturn`, notifyUrl: '', cancelUrl: `${portal}/parentportal/stripereturn`, locale: 'en', payer: { firstName: 'M', lastName: 'G', street: '', city: '', state: '', zip: '', country: 'US', email: '', phone: '' } };
    await expect(other.createCheckout(request)).rejects.toThrow(/was closed/);
    // the attempt it was for is still open here until the portal closes it
    expect((await attemptOf(session.id)).status).toBe('CREATED');
    await api('Billing.paymentResult', { token: maria, body: returnOf(session.cancel_url!.replace('{CHECKOUT_SESSION_ID}', session.id)).body });
    expect((await attemptOf(session.id)).status).toBe('CANCELLED');
  });

  it('refunds through the PaymentIntent once, whatever the retries, and accepts charge.refunded', async () => {
    const started = await start('12.00');
    const session = [...fake.sessions.values()].find((x) => x.url === started.json().checkoutUrl)!;
    const back = returnOf(fake.pay(session.id));
    // the return before any webhook: unsigned, so the payment is applied from Stripe's answer (the session retrieved)
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${session.id}`)).toBe(false);
    expect((await api('Billing.paymentResult', { token: maria, body: back.body })).json().status).toBe('APPROVED');
    expect(fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${session.id}`).map((r) => r.params.expand)).toContainEqual({ 0: 'payment_intent.latest_charge' });
    const attempt = await attemptOf(session.id);
    const before = await balance();
    // as the portal does for a payment it may not keep (one taken on a page closed meanwhile)
    await t.db.handle.db.update(s.paymentAttempts).set({ refundReason: 'CLOSED' }).where(eq(s.paymentAttempts.id, attempt.id));
    expect(await refundPayment(t.app.deps, attempt.id)).toBe(true);
    expect(await refundPayment(t.app.deps, attempt.id)).toBe(false);
    const mine = fake.refunds.filter((r) => r.payment_intent === attempt.transactionId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ amount: 1200, status: 'succeeded' });
    const asked = fake.requests.filter((r) => r.path === '/v1/refunds');
    expect(asked.at(-1)!.idempotencyKey).toBe(`refund-${attempt.publicId}-refund`);
    expect(await t.db.handle.db.select().from(s.ledgerEntries).where(and(eq(s.ledgerEntries.paymentId, attempt.paymentId!), eq(s.ledgerEntries.kind, 'REFUND')))).toHaveLength(1);
    expect(await balance()).toBe(before + 12);

    // the adapter's retry of the same refund gets Stripe's first answer; more than was paid is refused
    const again = await gateway.refund({ idempotencyKey: `${attempt.publicId}-refund`, transactionId: attempt.transactionId!, amountCents: 1200 });
    expect(again).toMatchObject({ refundId: mine[0].id, status: 'REFUNDED', amountCents: 1200 });
    expect(fake.refunds.filter((r) => r.payment_intent === attempt.transactionId)).toHaveLength(1);
    await expect(gateway.refund({ idempotencyKey: 'another-refund', transactionId: attempt.transactionId!, amountCents: 100 })).rejects.toThrow(/greater than the charge/);
    expect((await gateway.queryCheckout(session.id)).refundedCents).toBe(1200);

    // Stripe's charge.refunded webhook is verified and changes nothing here
    const charge = (fake.intents.get(attempt.transactionId!)!.latest_charge as string | null)!;
    const retrieved = (await gateway.queryCheckout(session.id)).transaction!;
    expect(retrieved).toMatchObject({ brand: 'VISA', last4: '4242', authCode: '123456', expiry: '12/30' });
    const paymentsBefore = await paymentsCount();
    const refunded = fake.event('charge.refunded', { id: charge, object: 'charge', amount: 1200, amount_refunded: 1200, payment_intent: attempt.transactionId, metadata: {}, created: 1, billing_details: { name: null }, refunds: { data: [mine[0]] } }, { secret: WEBHOOK_SECRET });
    expect((await post(refunded.raw, refunded.header)).statusCode).toBe(200);
    expect(await paymentsCount()).toBe(paymentsBefore);
  });
});

describe('saved cards through the Stripe adapter', () => {
  let fake: FakeStripe;
  let gateway: PaymentGateway;
  const page = (idempotencyKey: string, offerSave: boolean): Omit<CreateCheckoutRequest, 'merchant'> => ({
    idempotencyKey,
    merchantName: 'Bright Path',
    amountCents: 1500,
    currency: 'USD',
    method: 'CARD',
    reference: idempotencyKey,
    returnUrl: 'http://127.0.0.1:9/parentportal/stripereturn',
    notifyUrl: '',
    cancelUrl: 'http://127.0.0.1:9/parentportal/stripereturn',
    locale: 'en',
    payer: { firstName: 'Maria', lastName: 'Garcia', street: '412 Oak Street', city: 'Springfield', state: 'IL', zip: '62704', country: 'US', email: 'maria.garcia@example.com', phone: '' },
    offerSave,
  });
  const newKey = () => randomBytes(12).toString('hex');
  /** A card saved on a page (the box ticked): its token and what the portal keeps of it. */
  const saveCard = async (card: { brand: string; last4: string; expMonth?: number; expYear?: number } = { brand: 'visa', last4: '4242' }) => {
    const opened = await gateway.createCheckout(page(newKey(), true));
    fake.pay(opened.checkoutId, { ...card, save: true });
    const saved = (await gateway.queryCheckout(opened.checkoutId)).transaction?.savedMethod;
    if (!saved) throw new Error('no card saved');
    return saved;
  };
  const charge = (token: string, idempotencyKey = newKey(), amountCents = 2500) => gateway.chargeToken({ idempotencyKey, token, amountCents, currency: 'USD', reference: `ref-${idempotencyKey}`, notifyUrl: '' });
  const intentsOfKey = (key: string) => [...fake.intents.values()].filter((pi) => pi.metadata?.idempotencyKey === key);

  beforeAll(async () => {
    fake = await startFakeStripe();
    gateway = gatewaysFromSettings(gatewayAdapters(), JSON.stringify({ 4: entry(fake) }))[4];
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('a page offering "save" keeps the card the parent ticked, under a Customer of its own, and no other', async () => {
    const key = newKey();
    const opened = await gateway.createCheckout(page(key, true));
    const session = fake.sessions.get(opened.checkoutId)!;
    // a Customer made for this page (its key derived from the attempt's), the box shown, saved for off-session charges
    const made = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/customers');
    expect(made.map((r) => r.idempotencyKey)).toEqual([`customer-${key}`]);
    const customer = fake.customers.get(session.customer as string)!;
    expect(customer).toMatchObject({ email: 'maria.garcia@example.com', name: 'Maria Garcia', metadata: { reference: key } });
    expect(session).toMatchObject({ customer_email: null, saved_payment_method_options: { payment_method_save: 'enabled' }, metadata: { offerSave: 'true' } });
    const asked = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions' && r.idempotencyKey === `checkout-${key}`)!;
    expect(asked.params.payment_intent_data).toMatchObject({ setup_future_usage: 'off_session' });
    // another server of the provider asked for the same attempt's page: the same Customer and page
    const otherServer = gatewaysFromSettings(gatewayAdapters(), JSON.stringify({ 4: entry(fake) }))[4];
    const customers = fake.customers.size;
    expect((await otherServer.createCheckout(page(key, true))).checkoutId).toBe(opened.checkoutId);
    expect(fake.customers.size).toBe(customers);

    fake.pay(opened.checkoutId, { brand: 'visa', last4: '4242', expMonth: 3, expYear: 2031, save: true });
    const answer = await gateway.queryCheckout(opened.checkoutId);
    const pm = fake.intents.get(answer.transaction!.transactionId)!.payment_method as string;
    const saved: SavedMethod = { token: `${customer.id}/${pm}`, method: 'CARD', brand: 'VISA', last4: '4242', holderName: 'Maria Garcia', expiry: '03/31', status: 'ACTIVE' };
    expect(answer.transaction).toMatchObject({ status: 'APPROVED', last4: '4242', expiry: '03/31', savedMethod: saved });
    expect(saved.token).toMatch(/^cus_[a-z0-9]+\/pm_[a-z0-9]+$/);
    // the same from a cancel that finds the page paid
    expect((await gateway.cancelCheckout(key)).transaction?.savedMethod).toEqual(saved);

    // the box left unticked: Stripe attached the card anyway (setup_future_usage), so it is detached
    const other = await gateway.createCheckout(page(newKey(), true));
    fake.pay(other.checkoutId, { brand: 'mastercard', last4: '4444', save: false });
    const unticked = await gateway.queryCheckout(other.checkoutId);
    expect(unticked.transaction).toMatchObject({ status: 'APPROVED', savedMethod: null });
    const uPm = fake.paymentMethods.get(fake.intents.get(unticked.transaction!.transactionId)!.payment_method as string)!;
    expect(uPm.customer).toBeNull();
    expect((await gateway.queryCheckout(other.checkoutId)).transaction?.savedMethod).toBeNull();

    // a page not offering it: no Customer, the e-mail only, nothing saved
    const plain = await gateway.createCheckout(page(newKey(), false));
    expect(fake.sessions.get(plain.checkoutId)).toMatchObject({ customer: null, customer_email: 'maria.garcia@example.com', saved_payment_method_options: null });
    fake.pay(plain.checkoutId);
    expect((await gateway.queryCheckout(plain.checkoutId)).transaction?.savedMethod).toBeUndefined();
  });

  it('charges a saved card off session once whatever the retries of its key', async () => {
    const saved = await saveCard();
    const [customer, pm] = saved.token.split('/');
    const key = newKey();
    const first = await charge(saved.token, key);
    expect(first).toMatchObject({ status: 'APPROVED', checkoutId: '', reference: `ref-${key}`, amountCents: 2500, method: 'CARD', reasonCode: '', authCode: '654321', brand: 'VISA', last4: '4242', settlement: 'SETTLED', savedMethod: saved });
    expect(first.transactionId).toMatch(/^pi_/);
    const asked = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.idempotencyKey === key);
    expect(asked[0].params).toMatchObject({ amount: '2500', currency: 'usd', customer, payment_method: pm, off_session: 'true', confirm: 'true' });
    // retried with its key: Stripe's first answer, one PaymentIntent
    expect(await charge(saved.token, key)).toEqual(first);
    expect(intentsOfKey(key)).toHaveLength(1);
    // the key used again for another amount is Stripe's idempotency error, not a second charge
    await expect(charge(saved.token, key, 3000)).rejects.toBeInstanceOf(GatewayUnavailable);
    expect(intentsOfKey(key)).toHaveLength(1);

    // Stripe down (its answer and the package's one retry): unavailable; the same key later charges once
    const later = newKey();
    fake.failNext(2, '/v1/payment_intents');
    await expect(charge(saved.token, later)).rejects.toBeInstanceOf(GatewayUnavailable);
    expect(intentsOfKey(later)).toHaveLength(0);
    expect(await charge(saved.token, later)).toMatchObject({ status: 'APPROVED' });
    expect(await charge(saved.token, later)).toMatchObject({ status: 'APPROVED' });
    expect(intentsOfKey(later)).toHaveLength(1);
    // a token charge is refunded like a page's
    expect(await gateway.refund({ idempotencyKey: newKey(), transactionId: first.transactionId, amountCents: 2500 })).toMatchObject({ status: 'REFUNDED', amountCents: 2500 });
  });

  it("declines a saved card as Stripe's test cards do, with the sandbox's reasons, once per key", async () => {
    const cases: [string, string][] = [
      ['9995', 'INSUFFICIENT_FUNDS'],
      ['0341', 'DECLINED'],
      ['0069', 'EXPIRY'],
      ['0127', 'CVV'],
      ['3155', 'DECLINED'],
    ];
    for (const [last4, reason] of cases) {
      const saved = await saveCard({ brand: 'visa', last4 });
      const key = newKey();
      const declined = await charge(saved.token, key);
      expect(declined, last4).toMatchObject({ status: 'DECLINED', reasonCode: reason, authCode: '', last4, amountCents: 2500, savedMethod: saved });
      expect(declined.transactionId).toBe(intentsOfKey(key)[0].id);
      expect(await charge(saved.token, key)).toEqual(declined);
      expect(intentsOfKey(key)).toHaveLength(1);
    }
  });

  it('updates a saved card in place: the same token, its new expiry and holder', async () => {
    const saved = await saveCard();
    const pm = saved.token.split('/')[1];
    const updated = await gateway.updateToken({ token: saved.token, expiry: '08/32', holderName: 'Maria G. Garcia' });
    expect(updated.savedMethod).toEqual({ ...saved, expiry: '08/32', holderName: 'Maria G. Garcia' });
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/payment_methods/${pm}`).at(-1)!.params).toEqual({ card: { exp_month: '8', exp_year: '2032' }, billing_details: { name: 'Maria G. Garcia' } });
    expect(fake.paymentMethods.get(pm)).toMatchObject({ card: { exp_month: 8, exp_year: 2032, last4: '4242' }, billing_details: { name: 'Maria G. Garcia' } });
    // the holder alone leaves the expiry
    expect((await gateway.updateToken({ token: saved.token, holderName: 'Maria Garcia' })).savedMethod).toMatchObject({ expiry: '08/32', holderName: 'Maria Garcia' });
    // not MM/YY; a month Stripe refuses as past
    await expect(gateway.updateToken({ token: saved.token, expiry: '13/30' })).rejects.toBeInstanceOf(TokenRefused);
    await expect(gateway.updateToken({ token: saved.token, expiry: '01/20' })).rejects.toThrow(/expiration year is invalid/);
    expect(fake.paymentMethods.get(pm)!.card).toMatchObject({ exp_month: 8, exp_year: 2032 });
  });

  it('detaches a saved card, a second time without error, after which it cannot be charged', async () => {
    const saved = await saveCard();
    const pm = saved.token.split('/')[1];
    expect(await gateway.deleteToken(saved.token)).toEqual({ savedMethod: { ...saved, status: 'INVALID' } });
    expect(fake.paymentMethods.get(pm)!.customer).toBeNull();
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/payment_methods/${pm}/detach`)).toHaveLength(1);
    expect(await gateway.deleteToken(saved.token)).toEqual({ savedMethod: { ...saved, status: 'INVALID' } });
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/payment_methods/${pm}/detach`)).toHaveLength(1);
    const key = newKey();
    await expect(charge(saved.token, key)).rejects.toBeInstanceOf(TokenRefused);
    await expect(gateway.updateToken({ token: saved.token, holderName: 'X' })).rejects.toBeInstanceOf(TokenRefused);
    expect(intentsOfKey(key)).toHaveLength(0);
  });

  it("refuses a token naming another Customer's card, and tokens not of this gateway", async () => {
    const mine = await saveCard();
    const theirs = await saveCard({ brand: 'amex', last4: '8431' });
    const forged = `${mine.token.split('/')[0]}/${theirs.token.split('/')[1]}`;
    const key = newKey();
    await expect(charge(forged, key)).rejects.toBeInstanceOf(TokenRefused);
    await expect(gateway.updateToken({ token: forged, holderName: 'Someone Else' })).rejects.toBeInstanceOf(TokenRefused);
    await expect(gateway.deleteToken(forged)).rejects.toBeInstanceOf(TokenRefused);
    expect(intentsOfKey(key)).toHaveLength(0);
    expect(fake.paymentMethods.get(theirs.token.split('/')[1])).toMatchObject({ customer: theirs.token.split('/')[0], billing_details: { name: 'Maria Garcia' } });
    // a card number, a bare PaymentMethod, an unknown one
    for (const token of ['4242424242424242', theirs.token.split('/')[1], `${mine.token.split('/')[0]}/pm_unknown`]) await expect(charge(token, key)).rejects.toBeInstanceOf(TokenRefused);
    expect(intentsOfKey(key)).toHaveLength(0);
    // the owner's token still charges
    expect(await charge(theirs.token)).toMatchObject({ status: 'APPROVED', brand: 'AMEX', savedMethod: { brand: 'AMEX', last4: '8431' } });
  });
});
