// A local stand-in for the part of Stripe's API the Stripe adapter calls (server/gateways/stripe/),
// on 127.0.0.1 and a free port: Checkout Sessions (create, retrieve with expand, list, expire) and
// refunds, form-encoded as the `stripe` package sends them, each POST's Idempotency-Key honoured (the
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
  | 'customer_details'
  | 'customer_email'
  | 'expires_at'
  | 'livemode'
  | 'locale'
  | 'metadata'
  | 'mode'
  | 'payment_status'
  | 'status'
  | 'success_url'
  | 'url'
> & { payment_intent: string | PaymentIntent | null };
type PaymentIntent = Pick<Stripe.PaymentIntent, 'id' | 'object' | 'amount' | 'created' | 'currency' | 'description' | 'metadata' | 'status'> & { latest_charge: string | Charge | null };
type Charge = Pick<Stripe.Charge, 'id' | 'object' | 'amount' | 'amount_refunded' | 'billing_details' | 'created' | 'currency' | 'metadata' | 'paid' | 'payment_intent' | 'refunded' | 'status'> & {
  payment_method_details: { type: 'card'; card: Pick<NonNullable<Stripe.Charge.PaymentMethodDetails['card']>, 'brand' | 'exp_month' | 'exp_year' | 'last4' | 'authorization_code'> };
  refunds: { object: 'list'; data: Refund[]; has_more: boolean; url: string };
};
type Refund = Pick<Stripe.Refund, 'id' | 'object' | 'amount' | 'charge' | 'created' | 'currency' | 'metadata' | 'payment_intent' | 'status'>;
type EventOf<T> = Pick<Stripe.Event, 'id' | 'object' | 'api_version' | 'created' | 'livemode' | 'pending_webhooks' | 'request'> & { type: Stripe.Event['type']; data: { object: T } };

interface ApiError {
  status: number;
  type: 'invalid_request_error' | 'idempotency_error';
  message: string;
  code?: string;
}

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
  refunds: Refund[];
  requests: FakeRequest[];
  /** The parent pays on the hosted page: answers where Stripe sends them back (the success URL). */
  pay(sessionId: string, card?: { brand: string; last4: string }): string;
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
      customer_details: null,
      customer_email: str(p.customer_email) ?? null,
      expires_at: Number(p.expires_at ?? now() + 24 * 3600),
      livemode: false,
      locale: (str(p.locale) ?? null) as Session['locale'],
      metadata: rec(p.metadata) as Record<string, string>,
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: str(p.success_url) ?? null,
      url: `https://checkout.stripe.test/c/pay/${id}`,
    };
    sessions.set(id, session);
    return session;
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
      const answer = isError ? { error: { type: (out as ApiError).type, message: (out as ApiError).message, code: (out as ApiError).code } } : out;
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
    refunds,
    requests,
    pay(sessionId, card = { brand: 'visa', last4: '4242' }) {
      const s = sessions.get(sessionId);
      if (!s || s.status !== 'open') throw new Error(`session ${sessionId} takes no payment`);
      const piId = newId('pi');
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
        payment_method_details: { type: 'card', card: { brand: card.brand, exp_month: 12, exp_year: 2030, last4: card.last4, authorization_code: '123456' } },
        refunds: { object: 'list', data: [], has_more: false, url: `/v1/charges/${piId}/refunds` },
      };
      charges.set(charge.id, charge);
      intents.set(piId, { id: piId, object: 'payment_intent', amount: charge.amount, created: now(), currency: charge.currency, description: null, metadata: { reference: s.client_reference_id ?? '' }, status: 'succeeded', latest_charge: charge.id });
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
