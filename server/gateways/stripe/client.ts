// The portal's side of Stripe through the official `stripe` package: a Checkout Session is the hosted
// page, its PaymentIntent the transaction, refunds go to that PaymentIntent, and webhooks are checked
// with stripe.webhooks.constructEvent over the raw body. Every POST carries an idempotency key derived
// from the portal's own (Stripe ignores keys on GETs).
import Stripe from 'stripe';
import type {
  CancelCheckoutAnswer,
  CheckoutAnswer,
  CheckoutQueryAnswer,
  CheckoutStatus,
  CreateCheckoutRequest,
  GatewayTransaction,
  RefundAnswer,
  ReturnQuery,
} from '../../../sandbox-gateway/protocol';
import { GatewayUnavailable, type PaymentGateway, type VerifiedNotification } from '../adapter';

export interface StripeGatewayConfig {
  code: number;
  secretKey: string;
  webhookSecret: string;
  /** another API than api.stripe.com (a local fake in the tests) */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  timeoutMs?: number;
  /** a webhook signed longer ago than this is refused (constructEvent's tolerance, default 300) */
  toleranceSeconds?: number;
  /** minutes a Checkout page takes a payment (Stripe: 30 to 1440; default Stripe's own, 24 hours) */
  checkoutMinutes?: number;
  clock?: () => Date;
}

/**
 * Stripe does not sign the parent's return: the success and cancel URLs carry this in place of a
 * signature, and the portal acts on such a return only by asking Stripe (queryCheckout retrieves the
 * session; a cancel expires it, which answers its payment when it was paid first).
 */
export const UNSIGNED_RETURN = 'unsigned';
/** Stripe fills this in the success and cancel URLs with the session's id. */
export const SESSION_ID_TEMPLATE = '{CHECKOUT_SESSION_ID}';
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,90}$/;
/** a Checkout Session lives at most a day: a key's session is among the sessions made since */
const SESSION_LIFETIME_SECONDS = 25 * 3600;

const header = (h: Record<string, string | string[] | undefined>, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The return URL Stripe sends the parent to, with the query the return screen reads. */
export function stripeReturnUrl(base: string, status: 'APPROVED' | 'CANCELLED'): string {
  // built by hand: URLSearchParams would encode the braces Stripe looks for
  return `${base}${base.includes('?') ? '&' : '?'}checkout=${SESSION_ID_TEMPLATE}&transaction=&status=${status}&sig=${UNSIGNED_RETURN}`;
}

const statusOf = (s: Stripe.Checkout.Session): CheckoutStatus => (s.status === 'complete' ? 'COMPLETED' : s.status === 'expired' ? 'EXPIRED' : 'OPEN');

/** The portal's languages in Checkout's own (it has all four). */
const LOCALES: Record<string, Stripe.Checkout.SessionCreateParams.Locale> = { en: 'en', es: 'es', pt: 'pt', vi: 'vi' };

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

const idOf = (x: string | { id: string } | null | undefined) => (typeof x === 'string' ? x : (x?.id ?? ''));

function chargeOf(pi: Stripe.PaymentIntent | null): Stripe.Charge | null {
  const c = pi?.latest_charge;
  return c && typeof c === 'object' ? c : null;
}

/**
 * The portal's transaction of a session: approved once Stripe says it is paid, declined when its
 * PaymentIntent failed after the page was completed (a delayed method), else none yet. The webhook's
 * session is not expanded: its transaction has the PaymentIntent's id but no card details.
 */
export function transactionOfSession(s: Stripe.Checkout.Session, failed = false): GatewayTransaction | null {
  const pi = s.payment_intent && typeof s.payment_intent === 'object' ? s.payment_intent : null;
  const transactionId = idOf(s.payment_intent);
  if (!transactionId) return null;
  const declined = failed || (s.status === 'complete' && s.payment_status === 'unpaid' && (pi?.status === 'requires_payment_method' || pi?.status === 'canceled'));
  if (s.payment_status !== 'paid' && !declined) return null;
  const charge = chargeOf(pi);
  const card = charge?.payment_method_details?.card;
  const bank = charge?.payment_method_details?.us_bank_account;
  return {
    transactionId,
    checkoutId: s.id,
    reference: s.client_reference_id ?? s.metadata?.reference ?? '',
    status: declined ? 'DECLINED' : 'APPROVED',
    amountCents: s.amount_total ?? 0,
    method: s.metadata?.method === 'BANK' ? 'BANK' : 'CARD',
    reasonCode: declined ? 'DECLINED' : '',
    authCode: declined ? '' : (card?.authorization_code ?? charge?.id ?? ''),
    brand: (card?.brand ?? bank?.account_type ?? '').toUpperCase(),
    last4: card?.last4 ?? bank?.last4 ?? '',
    holderName: charge?.billing_details?.name ?? s.customer_details?.name ?? '',
    expiry: card ? `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}` : '',
    createdAt: new Date((charge?.created ?? pi?.created ?? s.created) * 1000).toISOString(),
  };
}

export function stripeGateway(cfg: StripeGatewayConfig): PaymentGateway {
  const stripe = new Stripe(cfg.secretKey, {
    ...(cfg.host ? { host: cfg.host } : {}),
    ...(cfg.port ? { port: cfg.port } : {}),
    ...(cfg.protocol ? { protocol: cfg.protocol } : {}),
    timeout: cfg.timeoutMs ?? 15_000,
    // the portal retries itself (the reconciler); a key makes a retried POST safe either way
    maxNetworkRetries: 1,
    appInfo: { name: 'parent-portal' },
  });
  const nowMs = () => (cfg.clock ?? (() => new Date()))().getTime();
  const now = () => Math.floor(nowMs() / 1000);
  // this instance's sessions by the portal's key; another instance's are found by listing
  const sessionOfKey = new Map<string, string>();
  // keys closed before their page opened here: a page asked for later with one is refused
  const closedKeys = new Set<string>();

  async function call<T>(what: string, f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      throw new GatewayUnavailable(`gateway ${cfg.code} (stripe) ${what}: ${messageOf(e)}`);
    }
  }

  const retrieve = (id: string) => call('retrieve', () => stripe.checkout.sessions.retrieve(id, { expand: ['payment_intent.latest_charge'] }));

  /** The session opened with the portal's key: this instance's, else one of the last day's. */
  async function sessionOf(key: string): Promise<string | null> {
    const known = sessionOfKey.get(key);
    if (known) return known;
    return call('list', async () => {
      for await (const s of stripe.checkout.sessions.list({ created: { gte: now() - SESSION_LIFETIME_SECONDS }, limit: 100 })) {
        if (s.client_reference_id === key || s.metadata?.idempotencyKey === key) {
          sessionOfKey.set(key, s.id);
          return s.id;
        }
      }
      return null;
    });
  }

  const answerOf = (s: Stripe.Checkout.Session): CheckoutAnswer => ({
    checkoutId: s.id,
    url: s.url ?? '',
    status: statusOf(s),
    expiresAt: new Date(s.expires_at * 1000).toISOString(),
  });

  async function createCheckout(req: Omit<CreateCheckoutRequest, 'merchant'>): Promise<CheckoutAnswer> {
    if (closedKeys.has(req.idempotencyKey)) throw new GatewayUnavailable(`gateway ${cfg.code} (stripe): checkout ${req.idempotencyKey} was closed`);
    // this key's page again (a double click): Stripe refuses a key reused with other parameters
    const known = sessionOfKey.get(req.idempotencyKey);
    if (known) return answerOf(await retrieve(known));
    if (req.method !== 'CARD') throw new GatewayUnavailable(`gateway ${cfg.code} (stripe) takes cards only`);
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'payment',
      client_reference_id: req.reference,
      line_items: [{ quantity: 1, price_data: { currency: req.currency.toLowerCase(), unit_amount: req.amountCents, product_data: { name: req.merchantName } } }],
      allowed_payment_method_types: ['card'],
      success_url: stripeReturnUrl(req.returnUrl, 'APPROVED'),
      cancel_url: stripeReturnUrl(req.cancelUrl, 'CANCELLED'),
      locale: LOCALES[req.locale] ?? 'auto',
      metadata: { reference: req.reference, idempotencyKey: req.idempotencyKey, method: req.method },
      payment_intent_data: { description: `${req.merchantName} ${req.reference}`, metadata: { reference: req.reference } },
      ...(req.payer.email ? { customer_email: req.payer.email } : {}),
      ...(cfg.checkoutMinutes ? { expires_at: now() + cfg.checkoutMinutes * 60 } : {}),
    };
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.create(params, { idempotencyKey: `checkout-${req.idempotencyKey}` });
    } catch (e) {
      // the key was used by another instance with other parameters: that instance's page
      const other = e instanceof Stripe.errors.StripeIdempotencyError ? await sessionOf(req.idempotencyKey) : null;
      if (!other) throw new GatewayUnavailable(`gateway ${cfg.code} (stripe) create: ${messageOf(e)}`);
      session = await retrieve(other);
    }
    sessionOfKey.set(req.idempotencyKey, session.id);
    return answerOf(session);
  }

  async function queryCheckout(checkoutId: string): Promise<CheckoutQueryAnswer> {
    const s = await retrieve(checkoutId);
    const charge = chargeOf(s.payment_intent && typeof s.payment_intent === 'object' ? s.payment_intent : null);
    return { checkoutId: s.id, reference: s.client_reference_id ?? '', status: statusOf(s), transaction: transactionOfSession(s), refundedCents: charge?.amount_refunded ?? 0 };
  }

  async function cancelCheckout(idempotencyKey: string): Promise<CancelCheckoutAnswer> {
    const id = await sessionOf(idempotencyKey);
    if (!id) {
      closedKeys.add(idempotencyKey);
      return { checkoutId: null, status: 'CANCELLED', transaction: null };
    }
    let s = await retrieve(id);
    let cancelled = false;
    if (s.status === 'open') {
      try {
        await stripe.checkout.sessions.expire(id, {}, { idempotencyKey: `expire-${idempotencyKey}` });
        cancelled = true;
      } catch (e) {
        // paid (or expired) in the meantime: Stripe refuses to expire it; its state says which
        if (!(e instanceof Stripe.errors.StripeInvalidRequestError)) throw new GatewayUnavailable(`gateway ${cfg.code} (stripe) expire: ${messageOf(e)}`);
      }
      s = await retrieve(id);
    }
    if (s.status === 'complete') return { checkoutId: id, status: 'COMPLETED', transaction: transactionOfSession(s) };
    if (s.status === 'open') throw new GatewayUnavailable(`gateway ${cfg.code} (stripe): session ${id} is still open`);
    return { checkoutId: id, status: cancelled ? 'CANCELLED' : 'EXPIRED', transaction: null };
  }

  async function refund(req: { idempotencyKey: string; transactionId: string; amountCents: number }): Promise<RefundAnswer> {
    const r = await call('refund', () => stripe.refunds.create({ payment_intent: req.transactionId, amount: req.amountCents, metadata: { idempotencyKey: req.idempotencyKey } }, { idempotencyKey: `refund-${req.idempotencyKey}` }));
    return {
      refundId: r.id,
      transactionId: req.transactionId,
      amountCents: r.amount,
      status: r.status === 'succeeded' || r.status === 'pending' ? 'REFUNDED' : 'REFUSED',
      createdAt: new Date(r.created * 1000).toISOString(),
    };
  }

  /**
   * A webhook whose signature holds (constructEvent: Stripe's scheme, within the tolerance, so an old
   * one replayed is refused; a repeat within it has the same event id, which the portal records once)
   * and that carries a transaction or a refund. Any other verified event (an expired page, a page
   * completed without payment yet) has nothing to apply: it is answered 200 so that Stripe stops
   * sending it, and the reconciler's query closes or applies its page. An unverified one is null.
   */
  function verifyNotification(headers: Record<string, string | string[] | undefined>, rawBody: string): VerifiedNotification | null {
    const signature = header(headers, 'stripe-signature');
    if (!signature) return null;
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature, cfg.webhookSecret, cfg.toleranceSeconds ?? 300, undefined, nowMs());
    } catch {
      return null;
    }
    const merchant = `stripe-${cfg.code}`;
    const nothing: VerifiedNotification = { eventId: event.id, type: 'nothing.to.apply' };
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
      case 'checkout.session.async_payment_failed': {
        const tx = transactionOfSession(event.data.object, event.type === 'checkout.session.async_payment_failed');
        return tx ? { eventId: event.id, type: 'transaction.completed', merchant, transaction: tx } : nothing;
      }
      case 'charge.refunded': {
        const c = event.data.object;
        const transactionId = idOf(c.payment_intent);
        if (!transactionId) return nothing;
        const refund = c.refunds?.data?.[0];
        return {
          eventId: event.id,
          type: 'refund.completed',
          merchant,
          transaction: {
            transactionId,
            checkoutId: '',
            reference: c.metadata?.reference ?? '',
            status: 'APPROVED',
            amountCents: c.amount,
            method: 'CARD',
            reasonCode: '',
            authCode: c.payment_method_details?.card?.authorization_code ?? c.id,
            brand: (c.payment_method_details?.card?.brand ?? '').toUpperCase(),
            last4: c.payment_method_details?.card?.last4 ?? '',
            holderName: c.billing_details?.name ?? '',
            expiry: '',
            createdAt: new Date(c.created * 1000).toISOString(),
          },
          ...(refund ? { refund: { refundId: refund.id, transactionId, amountCents: refund.amount, status: 'REFUNDED' as const, createdAt: new Date(refund.created * 1000).toISOString() } } : {}),
        };
      }
      default:
        return nothing;
    }
  }

  return {
    code: cfg.code,
    createCheckout,
    queryCheckout,
    cancelCheckout,
    refund,
    verifyNotification,
    // nothing to check: a well-formed Stripe return is only a cue to ask Stripe (see UNSIGNED_RETURN)
    verifyReturn: (q: ReturnQuery, sig: string | undefined) => sig === UNSIGNED_RETURN && SESSION_ID.test(q.checkout) && q.transaction === '' && (q.status === 'APPROVED' || q.status === 'CANCELLED'),
  };
}
