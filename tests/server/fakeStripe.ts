// A local stand-in for the part of Stripe's API the Stripe adapter calls (server/gateways/stripe/),
// on 127.0.0.1 and a free port: Checkout Sessions (create, retrieve with expand, list, expire),
// refunds, Customers (create), PaymentMethods (retrieve, update, detach) and off-session PaymentIntents
// (create and confirm, declined by Stripe's own test cards' last four digits), form-encoded as the `stripe` package sends them, each POST's Idempotency-Key honoured (the
// same key answers the first answer again; with other parameters, Stripe's idempotency_error). Its
// bodies are typed by the package's own types (the fields the adapter reads), and its webhooks are
// signed with the package's own scheme (stripe.webhooks.generateTestHeaderString).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

type Session = Pick<
  Stripe.Checkout.Session,
  | 'id'
  | 'object'
  | 'amount_total'
  | 'cancel_url'
  | 'client_reference_id'
  | 'created'
  | 'currency'
  | 'customer'
  | 'customer_details'
  | 'customer_email'
  | 'expires_at'
  | 'livemode'
  | 'locale'
  | 'metadata'
  | 'mode'
  | 'payment_status'
  | 'saved_payment_method_options'
  | 'status'
  | 'success_url'
  | 'url'
> & { payment_intent: string | PaymentIntent | null };
type PaymentIntent = Pick<
  Stripe.PaymentIntent,
  'id' | 'object' | 'amount' | 'created' | 'currency' | 'customer' | 'description' | 'last_payment_error' | 'metadata' | 'payment_method' | 'setup_future_usage' | 'status'
> & { latest_charge: string | Charge | null };
type Customer = Pick<Stripe.Customer, 'id' | 'object' | 'created' | 'email' | 'livemode' | 'metadata' | 'name'>;
type PaymentMethod = Pick<Stripe.PaymentMethod, 'id' | 'object' | 'allow_redisplay' | 'billing_details' | 'created' | 'customer' | 'livemode' | 'metadata' | 'type'> & {
  card: Pick<NonNullable<Stripe.PaymentMethod['card']>, 'brand' | 'country' | 'exp_month' | 'exp_year' | 'funding' | 'last4'>;
};
type Charge = Pick<Stripe.Charge, 'id' | 'object' | 'amount' | 'amount_refunded' | 'billing_details' | 'created' | 'currency' | 'metadata' | 'paid' | 'payment_intent' | 'refunded' | 'status'> & {
  payment_method_details: { type: 'card'; card: Pick<NonNullable<Stripe.Charge.PaymentMethodDetails['card']>, 'brand' | 'exp_month' | 'exp_year' | 'last4' | 'authorization_code'> };
  refunds: { object: 'list'; data: Refund[]; has_more: boolean; url: string };
};
type Refund = Pick<Stripe.Refund, 'id' | 'object' | 'amount' | 'charge' | 'created' | 'currency' | 'metadata' | 'payment_intent' | 'status'>;
type EventOf<T> = Pick<Stripe.Event, 'id' | 'object' | 'api_version' | 'created' | 'livemode' | 'pending_webhooks' | 'request'> & { type: Stripe.Event['type']; data: { object: T } };

interface ApiError {
  status: number;
  type: 'invalid_request_error' | 'idempotency_error' | 'card_error' | 'api_error';
  message: string;
  code?: string;
  /** card errors: the issuer's reason, the failed charge and the PaymentIntent */
  decline_code?: string;
  charge?: string;
  payment_intent?: PaymentIntent;
}

/** Stripe's test cards by their last four digits: what an off-session charge of one answers. */
const DECLINES: Record<string, { code: string; decline_code?: string; message: string }> = {
  '0341': { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  '9995': { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  '0069': { code: 'expired_card', decline_code: 'expired_card', message: 'Your card has expired.' },
  '0127': { code: 'incorrect_cvc', decline_code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  '3155': { code: 'authentication_required', decline_code: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.' },
};

/** One request as the fake received it. */
export interface FakeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: Record<string, unknown>;
}

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
// nothing reaches Stripe: the package's webhook helpers only
const signer = new Stripe('sk_test_fake_signer');

/** Stripe's form encoding (a[b][0][c]=v) back to an object; array indices stay keys. */
function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, '').split('[');
    let at = out;
    parts.forEach((p, i) => {
      if (i === parts.length - 1) at[p] = value;
      else at = (at[p] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
const rec = (x: unknown) => (x && typeof x === 'object' ? (x as Record<string, unknown>) : {});
const valuesOf = (x: unknown) => Object.values(rec(x));

export interface FakeStripe {
  url: string;
  port: number;
  sessions: Map<string, Session>;
  intents: Map<string, PaymentIntent>;
  customers: Map<string, Customer>;
  paymentMethods: Map<string, PaymentMethod>;
  refunds: Refund[];
  requests: FakeRequest[];
  /**
   * The parent pays on the hosted page: answers where Stripe sends them back (the success URL). `save`
   * is the page's "save" box (shown when the session enables payment_method_save).
   */
  pay(sessionId: string, card?: { brand: string; last4: string; expMonth?: number; expYear?: number; save?: boolean }): string;
  /** The next `count` requests (to `path` only, when given) are answered 500 (Stripe down) before reaching anything. */
  failNext(count: number, path?: string): void;
  /** A webhook event as Stripe would post it (the session unexpanded), and its signature header. */
  event(type: Stripe.Event['type'], object: object, opts: { secret: string; timestamp?: number; id?: string }): { raw: string; header: string; id: string };
  /** The session as a webhook carries it: the PaymentIntent by its id. */
  webhookSession(id: string): Session;
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const sessions = new Map<string, Session>();
  const intents = new Map<string, PaymentIntent>();
  const charges = new Map<string, Charge>();
  const customers = new Map<string, Customer>();
  const paymentMethods = new Map<string, PaymentMethod>();
  // payment_intent_data.setup_future_usage of each session (the session itself does not show it)
  const futureUsage = new Map<string, string>();
  let failing = { count: 0, path: '' };
  const refunds: Refund[] = [];
  const requests: FakeRequest[] = [];
  const answered = new Map<string, { body: string; status: number; answer: unknown }>();

  const expanded = (s: Session, expand: string[]): Session => {
    if (!expand.some((e) => e.startsWith('payment_intent')) || typeof s.payment_intent !== 'string') return s;
    const pi = intents.get(s.payment_intent)!;
    const withCharge = expand.includes('payment_intent.latest_charge') && typeof pi.latest_charge === 'string' ? { ...pi, latest_charge: charges.get(pi.latest_charge)! } : pi;
    return { ...s, payment_intent: withCharge };
  };
  const fail = (status: number, message: string, type: ApiError['type'] = 'invalid_request_error', code?: string): ApiError => ({ status, type, message, code });

  function createSession(p: Record<string, unknown>): Session | ApiError {
    const items = valuesOf(p.line_items).map(rec);
    if (str(p.mode) !== 'payment' || items.length !== 1) return fail(400, 'mode payment with one line item');
    const customer = str(p.customer);
    if (customer && p.customer_email !== undefined) return fail(400, 'You may only specify one of these parameters: customer, customer_email.');
    if (customer && !customers.has(customer)) return fail(400, `No such customer: '${customer}'`, 'invalid_request_error', 'resource_missing');
    const saveOption = str(rec(p.saved_payment_method_options).payment_method_save);
    const usage = str(rec(p.payment_intent_data).setup_future_usage);
    if ((saveOption === 'enabled' || usage) && !customer) return fail(400, 'Saving a payment method requires a customer.');
    const price = rec(items[0].price_data);
    const amount = Number(price.unit_amount);
    if (!Number.isInteger(amount) || amount < 50) return fail(400, 'Invalid unit_amount', 'invalid_request_error', 'amount_too_small');
    const id = newId('cs_test');
    const session: Session = {
      id,
      object: 'checkout.session',
      amount_total: amount * Number(items[0].quantity ?? 1),
      cancel_url: str(p.cancel_url) ?? null,
      client_reference_id: str(p.client_reference_id) ?? null,
      created: now(),
      currency: str(price.currency) ?? 'usd',
      customer: customer ?? null,
      customer_details: null,
      customer_email: str(p.customer_email) ?? null,
      expires_at: Number(p.expires_at ?? now() + 24 * 3600),
      livemode: false,
      locale: (str(p.locale) ?? null) as Session['locale'],
      metadata: rec(p.metadata) as Record<string, string>,
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      saved_payment_method_options: saveOption ? { allow_redisplay_filters: null, payment_method_remove: null, payment_method_save: saveOption as 'enabled' | 'disabled' } : null,
      status: 'open',
      success_url: str(p.success_url) ?? null,
      url: `https://checkout.stripe.test/c/pay/${id}`,
    };
    sessions.set(id, session);
    if (usage) futureUsage.set(id, usage);
    return session;
  }

  function createCustomer(p: Record<string, unknown>): Customer {
    const c: Customer = { id: newId('cus'), object: 'customer', created: now(), email: str(p.email) ?? null, livemode: false, metadata: rec(p.metadata) as Record<string, string>, name: str(p.name) ?? null };
    customers.set(c.id, c);
    return c;
  }

  const noSuchMethod = (id: string) => fail(404, `No such PaymentMethod: '${id}'`, 'invalid_request_error', 'resource_missing');

  function updateMethod(pm: PaymentMethod, p: Record<string, unknown>): PaymentMethod | ApiError {
    if (!pm.customer) return fail(400, 'You must save this PaymentMethod to a customer before you can update it.');
    const card = rec(p.card);
    const month = card.exp_month === undefined ? pm.card.exp_month : Number(card.exp_month);
    const year = card.exp_year === undefined ? pm.card.exp_year : Number(card.exp_year);
    if (!Number.isInteger(month) || month < 1 || month > 12) return fail(400, "Your card's expiration month is invalid.", 'invalid_request_error', 'invalid_expiry_month');
    const today = new Date();
    if (!Number.isInteger(year) || year * 12 + month < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) return fail(400, "Your card's expiration year is invalid.", 'invalid_request_error', 'invalid_expiry_year');
    pm.card = { ...pm.card, exp_month: month, exp_year: year };
    const name = rec(p.billing_details).name;
    if (name !== undefined) pm.billing_details = { ...pm.billing_details, name: str(name) || null };
    return pm;
  }

  function newCharge(piId: string, amount: number, currency: string, pm: PaymentMethod, succeeded: boolean): Charge {
    const charge: Charge = {
      id: newId('ch'),
      object: 'charge',
      amount,
      amount_refunded: 0,
      billing_details: pm.billing_details,
      created: now(),
      currency,
      metadata: {},
      paid: succeeded,
      payment_intent: piId,
      refunded: false,
      status: succeeded ? 'succeeded' : 'failed',
      payment_method_details: { type: 'card', card: { brand: pm.card.brand, exp_month: pm.card.exp_month, exp_year: pm.card.exp_year, last4: pm.card.last4, authorization_code: succeeded ? '654321' : null } },
      refunds: { object: 'list', data: [], has_more: false, url: `/v1/charges/${piId}/refunds` },
    };
    charges.set(charge.id, charge);
    return charge;
  }

  /** An off-session PaymentIntent confirmed at once: a saved card charged without the parent. */
  function createIntent(p: Record<string, unknown>, expand: string[]): PaymentIntent | ApiError {
    const amount = Number(p.amount);
    if (!Number.isInteger(amount) || amount < 50) return fail(400, 'Amount must be at least $0.50 usd', 'invalid_request_error', 'amount_too_small');
    if (str(p.confirm) !== 'true' || str(p.off_session) !== 'true') return fail(400, 'this fake confirms off-session PaymentIntents only');
    const pmId = str(p.payment_method) ?? '';
    const pm = paymentMethods.get(pmId);
    if (!pm) return noSuchMethod(pmId);
    const customer = str(p.customer);
    if (!customer || pm.customer !== customer) return fail(400, `The provided PaymentMethod ${pmId} does not belong to the Customer ${customer ?? ''}.`, 'invalid_request_error', 'payment_method_invalid_parameter');
    const id = newId('pi');
    const currency = str(p.currency) ?? 'usd';
    const today = new Date();
    const expired = pm.card.exp_year * 12 + pm.card.exp_month < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1;
    const decline = expired ? DECLINES['0069'] : DECLINES[pm.card.last4];
    const charge = newCharge(id, amount, currency, pm, !decline);
    const pi: PaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      created: now(),
      currency,
      customer,
      description: str(p.description) ?? null,
      last_payment_error: decline ? { type: 'card_error', code: decline.code, decline_code: decline.decline_code, message: decline.message, charge: charge.id } : null,
      metadata: rec(p.metadata) as Record<string, string>,
      payment_method: pm.id,
      setup_future_usage: null,
      status: decline ? 'requires_payment_method' : 'succeeded',
      latest_charge: charge.id,
    };
    intents.set(id, pi);
    if (decline) return { status: 402, type: 'card_error', message: decline.message, code: decline.code, decline_code: decline.decline_code, charge: charge.id, payment_intent: pi };
    return expand.includes('latest_charge') ? { ...pi, latest_charge: charge } : pi;
  }

  function refund(p: Record<string, unknown>): Refund | ApiError {
    const pi = intents.get(str(p.payment_intent) ?? '');
    if (!pi || pi.status !== 'succeeded' || typeof pi.latest_charge !== 'string') return fail(400, 'No such payment_intent', 'invalid_request_error', 'resource_missing');
    const charge = charges.get(pi.latest_charge)!;
    const amount = p.amount === undefined ? charge.amount - charge.amount_refunded : Number(p.amount);
    if (!(amount > 0) || charge.amount_refunded + amount > charge.amount) return fail(400, 'Refund amount is greater than the charge', 'invalid_request_error', 'charge_already_refunded');
    const r: Refund = { id: newId('re'), object: 'refund', amount, charge: charge.id, created: now(), currency: charge.currency, metadata: rec(p.metadata) as Record<string, string>, payment_intent: pi.id, status: 'succeeded' };
    refunds.push(r);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    charge.refunds.data.unshift(r);
    return r;
  }

  function route(method: string, path: string, p: Record<string, unknown>): unknown {
    const expand = valuesOf(p.expand).map(String);
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(p);
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const gte = Number(rec(p.created).gte ?? 0);
      const all = [...sessions.values()].filter((s) => s.created >= gte).reverse();
      const after = str(p.starting_after);
      const from = after ? all.findIndex((s) => s.id === after) + 1 : 0;
      const limit = Number(p.limit ?? 10);
      const data = all.slice(from, from + limit);
      return { object: 'list', data, has_more: from + limit < all.length, url: '/v1/checkout/sessions' };
    }
    const m = /^\/v1\/checkout\/sessions\/(cs_[A-Za-z0-9_]+)(\/expire)?$/.exec(path);
    if (m) {
      const s = sessions.get(m[1]);
      if (!s) return fail(404, `No such checkout.session: '${m[1]}'`, 'invalid_request_error', 'resource_missing');
      if (method === 'GET' && !m[2]) return expanded(s, expand);
      if (method === 'POST' && m[2]) {
        if (s.status !== 'open') return fail(400, `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`);
        s.status = 'expired';
        return s;
      }
    }
    if (method === 'POST' && path === '/v1/refunds') return refund(p);
    if (method === 'POST' && path === '/v1/customers') return createCustomer(p);
    if (method === 'POST' && path === '/v1/payment_intents') return createIntent(p, expand);
    const pmPath = /^\/v1\/payment_methods\/(pm_[A-Za-z0-9_]+)(\/detach)?$/.exec(path);
    if (pmPath) {
      const pm = paymentMethods.get(pmPath[1]);
      if (!pm) return noSuchMethod(pmPath[1]);
      if (method === 'GET' && !pmPath[2]) return pm;
      if (method === 'POST' && !pmPath[2]) return updateMethod(pm, p);
      if (method === 'POST' && pmPath[2]) {
        if (!pm.customer) return fail(400, 'The payment method you provided is not attached to a customer so detachment is impossible.');
        pm.customer = null;
        return pm;
      }
    }
    return fail(404, `Unrecognized request URL (${method}: ${path})`);
  }

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      const params = parseForm(method === 'GET' ? url.search.slice(1) : body);
      const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
      requests.push({ method, path: url.pathname, idempotencyKey: key, params });
      const send = (status: number, answer: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
        res.end(JSON.stringify(answer));
      };
      if (failing.count > 0 && (!failing.path || failing.path === url.pathname)) {
        failing.count--;
        return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
      }
      const auth = req.headers.authorization ?? '';
      if (!/^Bearer sk_test_/.test(auth)) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      const scoped = key === undefined ? undefined : `${method} ${url.pathname} ${key}`;
      const before = scoped ? answered.get(scoped) : undefined;
      if (before) {
        if (before.body !== body) return send(400, { error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' } });
        return send(before.status, before.answer);
      }
      const out = route(method, url.pathname, params);
      const isError = out && typeof out === 'object' && 'status' in out && typeof (out as ApiError).status === 'number' && 'type' in out && 'message' in out && !('object' in out);
      const status = isError ? (out as ApiError).status : 200;
      const answer = isError ? { error: (({ status: _, ...error }: ApiError) => error)(out as ApiError) } : out;
      if (scoped && method === 'POST') answered.set(scoped, { body, status, answer });
      send(status, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    sessions,
    intents,
    customers,
    paymentMethods,
    refunds,
    requests,
    failNext(count, path = '') {
      failing = { count, path };
    },
    pay(sessionId, card = { brand: 'visa', last4: '4242' }) {
      const s = sessions.get(sessionId);
      if (!s || s.status !== 'open') throw new Error(`session ${sessionId} takes no payment`);
      const piId = newId('pi');
      // Checkout attaches the card to the session's Customer when the session saves it for later (always),
      // or when the parent ticks its box; only a ticked box makes it one to show again ("always")
      const customer = typeof s.customer === 'string' ? s.customer : null;
      const ticked = s.saved_payment_method_options?.payment_method_save === 'enabled' && card.save === true;
      const attached = customer !== null && (futureUsage.has(s.id) || ticked);
      const pm: PaymentMethod = {
        id: newId('pm'),
        object: 'payment_method',
        allow_redisplay: attached ? (ticked ? 'always' : 'limited') : 'unspecified',
        billing_details: { address: null, email: s.customer_email, name: 'Maria Garcia', phone: null, tax_id: null },
        created: now(),
        customer: attached ? customer : null,
        livemode: false,
        metadata: {},
        type: 'card',
        card: { brand: card.brand, country: 'US', exp_month: card.expMonth ?? 12, exp_year: card.expYear ?? 2030, funding: 'credit', last4: card.last4 },
      };
      paymentMethods.set(pm.id, pm);
      const charge: Charge = {
        id: newId('ch'),
        object: 'charge',
        amount: s.amount_total ?? 0,
        amount_refunded: 0,
        billing_details: { address: null, email: s.customer_email, name: 'Maria Garcia', phone: null, tax_id: null },
        created: now(),
        currency: s.currency ?? 'usd',
        metadata: {},
        paid: true,
        payment_intent: piId,
        refunded: false,
        status: 'succeeded',
        payment_method_details: { type: 'card', card: { brand: card.brand, exp_month: pm.card.exp_month, exp_year: pm.card.exp_year, last4: card.last4, authorization_code: '123456' } },
        refunds: { object: 'list', data: [], has_more: false, url: `/v1/charges/${piId}/refunds` },
      };
      charges.set(charge.id, charge);
      intents.set(piId, {
        id: piId,
        object: 'payment_intent',
        amount: charge.amount,
        created: now(),
        currency: charge.currency,
        customer,
        description: null,
        last_payment_error: null,
        metadata: { reference: s.client_reference_id ?? '' },
        payment_method: pm.id,
        setup_future_usage: (futureUsage.get(s.id) as PaymentIntent['setup_future_usage']) ?? null,
        status: 'succeeded',
        latest_charge: charge.id,
      });
      s.payment_intent = piId;
      s.status = 'complete';
      s.payment_status = 'paid';
      s.customer_details = { address: null, business_name: null, email: s.customer_email, individual_name: null, name: 'Maria Garcia', phone: null, tax_exempt: 'none', tax_ids: null };
      return (s.success_url ?? '').replace('{CHECKOUT_SESSION_ID}', s.id);
    },
    webhookSession(id) {
      const s = sessions.get(id)!;
      return { ...s, payment_intent: typeof s.payment_intent === 'object' && s.payment_intent ? s.payment_intent.id : s.payment_intent };
    },
    event(type, object, opts) {
      const id = opts.id ?? newId('evt');
      const event: EventOf<object> = { id, object: 'event', api_version: Stripe.API_VERSION, created: opts.timestamp ?? now(), livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } };
      const raw = JSON.stringify(event, null, 2);
      return { raw, id, header: signer.webhooks.generateTestHeaderString({ payload: raw, secret: opts.secret, ...(opts.timestamp ? { timestamp: opts.timestamp } : {}) }) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
