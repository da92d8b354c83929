// The portal's side of Stripe through the official `stripe` package: a Checkout Session is the hosted
// page, its PaymentIntent the transaction, refunds go to that PaymentIntent, and webhooks are checked
// with stripe.webhooks.constructEvent over the raw body. A card saved on the page is a PaymentMethod
// attached to a Customer made for that page; its token is "cus_.../pm_..." and a token charge is an
// off-session PaymentIntent. Every POST that makes something carries an idempotency key derived from
// the portal's own (Stripe ignores keys on GETs).
import Stripe from 'stripe';
import type {
  CancelCheckoutAnswer,
  ChargeTokenRequest,
  CheckoutAnswer,
  CheckoutQueryAnswer,
  CheckoutStatus,
  CreateCheckoutRequest,
  GatewayTransaction,
  RefundAnswer,
  ReturnQuery,
  SavedMethod,
  TokenAnswer,
  UpdateTokenRequest,
} from '../../../sandbox-gateway/protocol';
import { CheckoutClosed, GatewayUnavailable, TokenRefused, type PaymentGateway, type VerifiedNotification } from '../adapter';

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
    expiry: card ? expiryOf(card.exp_month, card.exp_year) : '',
    createdAt: new Date((charge?.created ?? pi?.created ?? s.created) * 1000).toISOString(),
  };
}

/**
 * A saved card's token: the Customer and the PaymentMethod, both needed to charge it off session (a
 * PaymentIntent names the two, and the PaymentMethod must be attached to that Customer).
 */
const TOKEN = /^(cus_[A-Za-z0-9]{1,250})\/(pm_[A-Za-z0-9]{1,250})$/;

export const tokenOf = (customer: string, paymentMethod: string) => `${customer}/${paymentMethod}`;

// a token this adapter cannot act on (malformed, unknown at Stripe, not a card, not its Customer's) is TokenRefused
export { TokenRefused };

const SAVED_BRANDS: Record<string, string> = { visa: 'VISA', mastercard: 'MASTERCARD', amex: 'AMEX', discover: 'DISCOVER' };

const expiryOf = (month: number, year: number) => `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`;

/** What the portal keeps of a saved card: never its number. */
export function savedMethodOf(customer: string, pm: Stripe.PaymentMethod, status: SavedMethod['status'] = 'ACTIVE'): SavedMethod {
  return {
    token: tokenOf(customer, pm.id),
    method: 'CARD',
    brand: SAVED_BRANDS[pm.card?.brand ?? ''] ?? 'OTHER',
    last4: pm.card?.last4 ?? '',
    holderName: pm.billing_details?.name ?? '',
    expiry: pm.card ? expiryOf(pm.card.exp_month, pm.card.exp_year) : '',
    status,
  };
}

/** Stripe's decline codes and the portal's reasons for them. */
const STRIPE_DECLINES: ReadonlyArray<[string, string]> = [
  ['insufficient_funds', 'INSUFFICIENT_FUNDS'],
  ['issuer_not_available', 'ISSUER_UNAVAILABLE'],
  ['try_again_later', 'TRY_AGAIN_LATER'],
  ['stolen_card', 'STOLEN'],
  ['lost_card', 'LOST'],
  ['pickup_card', 'LOST'],
  ['invalid_account', 'CLOSED'],
  ['incorrect_number', 'INVALID_NUMBER'],
  ['invalid_number', 'INVALID_NUMBER'],
  ['do_not_honor', 'DO_NOT_HONOR'],
];

/**
 * The portal's reason for a declined card (the sandbox's codes) from Stripe's error and decline codes;
 * an off-session charge the bank wants authenticated cannot be, so it is a decline too.
 */
export function declineReasonOf(code: string | undefined, declineCode: string | undefined): string {
  const c = [code ?? '', declineCode ?? ''];
  if (c.includes('expired_card')) return 'EXPIRY';
  if (c.includes('incorrect_cvc') || c.includes('invalid_cvc')) return 'CVV';
  if (c.includes('incorrect_zip')) return 'AVS';
  // the issuers' reasons the autopay run tells apart (rules autopayRun.declineClass: soft or hard)
  for (const [stripe, ours] of STRIPE_DECLINES) if (c.includes(stripe)) return ours;
  return 'DECLINED';
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
    if (closedKeys.has(req.idempotencyKey)) throw new CheckoutClosed(`gateway ${cfg.code} (stripe): checkout ${req.idempotencyKey} was closed`);
    // this key's page again (a double click): Stripe refuses a key reused with other parameters
    const known = sessionOfKey.get(req.idempotencyKey);
    if (known) return answerOf(await retrieve(known));
    if (req.method !== 'CARD') throw new GatewayUnavailable(`gateway ${cfg.code} (stripe) takes cards only`);
    // a card is saved to a Customer: a new one per page, so that Checkout never shows a returning
    // payer the cards someone else saved under the same e-mail
    const customer = req.offerSave
      ? await call('customer', () =>
          stripe.customers.create(
            { name: `${req.payer.firstName} ${req.payer.lastName}`.trim(), ...(req.payer.email ? { email: req.payer.email } : {}), metadata: { reference: req.reference } },
            { idempotencyKey: `customer-${req.idempotencyKey}` },
          ),
        )
      : null;
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'payment',
      client_reference_id: req.reference,
      line_items: [{ quantity: 1, price_data: { currency: req.currency.toLowerCase(), unit_amount: req.amountCents, product_data: { name: req.merchantName } } }],
      allowed_payment_method_types: ['card'],
      success_url: stripeReturnUrl(req.returnUrl, 'APPROVED'),
      cancel_url: stripeReturnUrl(req.cancelUrl, 'CANCELLED'),
      locale: LOCALES[req.locale] ?? 'auto',
      metadata: { reference: req.reference, idempotencyKey: req.idempotencyKey, method: req.method, ...(customer ? { offerSave: 'true' } : {}) },
      payment_intent_data: {
        description: `${req.merchantName} ${req.reference}`,
        metadata: { reference: req.reference },
        // saved for charges without the parent present; the page's box says whether she asked for it
        ...(customer ? { setup_future_usage: 'off_session' as const } : {}),
      },
      // Stripe takes a Customer or an e-mail, not both (the Customer has the e-mail)
      ...(customer ? { customer: customer.id, saved_payment_method_options: { payment_method_save: 'enabled' as const } } : req.payer.email ? { customer_email: req.payer.email } : {}),
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

  /**
   * The card a page offering "save" kept: with setup_future_usage Stripe attaches the card to the
   * page's Customer either way, and marks it allow_redisplay "always" only when the parent ticked the
   * box. A card she did not ask to keep is detached again (once it is, nothing is left to detach).
   */
  async function savedOfSession(s: Stripe.Checkout.Session): Promise<SavedMethod | null> {
    const pi = s.payment_intent && typeof s.payment_intent === 'object' ? s.payment_intent : null;
    const customer = idOf(s.customer);
    const pmId = idOf(pi?.payment_method);
    if (!customer || !pmId) return null;
    const pm = await call('payment method', () => stripe.paymentMethods.retrieve(pmId));
    if (idOf(pm.customer) !== customer) return null;
    if (pm.allow_redisplay === 'always') return savedMethodOf(customer, pm);
    // not asking again on a failure: the next query of this page detaches it
    await stripe.paymentMethods.detach(pmId).catch(() => undefined);
    return null;
  }

  /** The session's transaction with the card it saved (pages offering "save" only; else as it is). */
  async function transactionOf(s: Stripe.Checkout.Session): Promise<GatewayTransaction | null> {
    const tx = transactionOfSession(s);
    if (!tx || s.metadata?.offerSave !== 'true') return tx;
    return { ...tx, savedMethod: tx.status === 'APPROVED' ? await savedOfSession(s) : null };
  }

  async function queryCheckout(checkoutId: string): Promise<CheckoutQueryAnswer> {
    const s = await retrieve(checkoutId);
    const charge = chargeOf(s.payment_intent && typeof s.payment_intent === 'object' ? s.payment_intent : null);
    return { checkoutId: s.id, reference: s.client_reference_id ?? '', status: statusOf(s), transaction: await transactionOf(s), refundedCents: charge?.amount_refunded ?? 0 };
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
    if (s.status === 'complete') return { checkoutId: id, status: 'COMPLETED', transaction: await transactionOf(s) };
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
   * The token's Customer and its card as Stripe has it (null when unknown), a card attached to that
   * Customer or to none (detached); another Customer's card is refused.
   */
  async function ownedCard(token: string, what: string): Promise<{ customer: string; pm: Stripe.PaymentMethod | null; attached: boolean }> {
    const m = TOKEN.exec(token);
    if (!m) throw new TokenRefused(`gateway ${cfg.code} (stripe) ${what}: not a token of this gateway`);
    const [, customer, pmId] = m;
    let pm: Stripe.PaymentMethod;
    try {
      pm = await stripe.paymentMethods.retrieve(pmId);
    } catch (e) {
      if (e instanceof Stripe.errors.StripeInvalidRequestError && e.statusCode === 404) return { customer, pm: null, attached: false };
      throw new GatewayUnavailable(`gateway ${cfg.code} (stripe) ${what}: ${messageOf(e)}`);
    }
    const owner = idOf(pm.customer);
    if (owner && owner !== customer) throw new TokenRefused(`gateway ${cfg.code} (stripe) ${what}: the card is not this token's customer's`);
    if (pm.type !== 'card') throw new TokenRefused(`gateway ${cfg.code} (stripe) ${what}: cards only`);
    return { customer, pm, attached: owner === customer };
  }

  /**
   * A saved card charged without the parent (an off-session PaymentIntent confirmed at once). The
   * request's key is the PaymentIntent's idempotency key, so a retry answers the first charge, approved
   * or declined. A decline is Stripe's card error (402), which carries the PaymentIntent.
   */
  async function chargeToken(req: Omit<ChargeTokenRequest, 'merchant'>): Promise<GatewayTransaction> {
    const { customer, pm, attached } = await ownedCard(req.token, 'charge');
    if (!pm) throw new TokenRefused(`gateway ${cfg.code} (stripe) charge: the card was removed`);
    // a card detached since is still asked with the key: Stripe answers a charge made with it before
    // (its answer lost) again, and refuses a new one
    const saved = savedMethodOf(customer, pm);
    const base = {
      checkoutId: '',
      reference: req.reference,
      amountCents: req.amountCents,
      method: 'CARD' as const,
      brand: (pm.card?.brand ?? '').toUpperCase(),
      last4: saved.last4,
      holderName: saved.holderName,
      expiry: saved.expiry,
      savedMethod: saved,
    };
    let pi: Stripe.PaymentIntent;
    try {
      pi = await stripe.paymentIntents.create(
        {
          amount: req.amountCents,
          currency: req.currency.toLowerCase(),
          customer,
          payment_method: pm.id,
          allowed_payment_method_types: ['card'],
          off_session: true,
          confirm: true,
          description: req.reference,
          metadata: { reference: req.reference, idempotencyKey: req.idempotencyKey },
          expand: ['latest_charge'],
        },
        { idempotencyKey: req.idempotencyKey },
      );
    } catch (e) {
      if (!attached && e instanceof Stripe.errors.StripeInvalidRequestError) throw new TokenRefused(`gateway ${cfg.code} (stripe) charge: the card was removed`);
      if (!(e instanceof Stripe.errors.StripeCardError)) throw new GatewayUnavailable(`gateway ${cfg.code} (stripe) charge: ${messageOf(e)}`);
      const failed = e.payment_intent;
      return {
        ...base,
        transactionId: failed?.id ?? e.charge ?? '',
        status: 'DECLINED',
        reasonCode: declineReasonOf(e.code, e.decline_code),
        authCode: '',
        createdAt: new Date((failed?.created ?? Math.floor(nowMs() / 1000)) * 1000).toISOString(),
      };
    }
    const charge = chargeOf(pi);
    const card = charge?.payment_method_details?.card;
    if (pi.status !== 'succeeded' && pi.status !== 'requires_payment_method' && pi.status !== 'requires_action' && pi.status !== 'canceled') {
      // processing: no answer yet (cards seldom); the same key asks again later
      throw new GatewayUnavailable(`gateway ${cfg.code} (stripe) charge: payment ${pi.id} is ${pi.status}`);
    }
    const approved = pi.status === 'succeeded';
    return {
      ...base,
      transactionId: pi.id,
      status: approved ? 'APPROVED' : 'DECLINED',
      reasonCode: approved ? '' : declineReasonOf(pi.last_payment_error?.code, pi.last_payment_error?.decline_code),
      authCode: approved ? (card?.authorization_code ?? charge?.id ?? '') : '',
      createdAt: new Date((charge?.created ?? pi.created) * 1000).toISOString(),
      ...(approved ? { settlement: 'SETTLED' as const } : {}),
    };
  }

  /** A saved card's new expiry or holder, on the same PaymentMethod (the token stays). */
  async function updateToken(req: Omit<UpdateTokenRequest, 'merchant'>): Promise<TokenAnswer> {
    const { customer, pm, attached } = await ownedCard(req.token, 'update');
    if (!pm || !attached) throw new TokenRefused(`gateway ${cfg.code} (stripe) update: the card was removed`);
    const expiry = req.expiry === undefined ? null : /^(0[1-9]|1[0-2])\/(\d\d)$/.exec(req.expiry);
    if (req.expiry !== undefined && !expiry) throw new TokenRefused(`gateway ${cfg.code} (stripe) update: expiry ${req.expiry} is not MM/YY`);
    const params: Stripe.PaymentMethodUpdateParams = {
      ...(expiry ? { card: { exp_month: Number(expiry[1]), exp_year: 2000 + Number(expiry[2]) } } : {}),
      ...(req.holderName !== undefined ? { billing_details: { name: req.holderName } } : {}),
    };
    if (!params.card && !params.billing_details) return { savedMethod: savedMethodOf(customer, pm) };
    // no key of the portal's own: the package's retry key covers a lost answer, and a key made of the
    // values would answer an old update again after a change back
    const updated = await call('update', () => stripe.paymentMethods.update(pm.id, params));
    return { savedMethod: savedMethodOf(customer, updated) };
  }

  /** Detaches the card from its Customer, after which Stripe cannot charge it; a second time is no error. */
  async function deleteToken(token: string): Promise<TokenAnswer> {
    const { customer, pm, attached } = await ownedCard(token, 'delete');
    const gone = (p: Stripe.PaymentMethod | null): TokenAnswer => ({
      savedMethod: p ? savedMethodOf(customer, p, 'INVALID') : { token, method: 'CARD', brand: 'OTHER', last4: '', holderName: '', expiry: '', status: 'INVALID' },
    });
    if (!pm || !attached) return gone(pm);
    try {
      return gone(await stripe.paymentMethods.detach(pm.id));
    } catch (e) {
      // detached meanwhile (another request): Stripe says it is not attached any more
      if (e instanceof Stripe.errors.StripeInvalidRequestError && !(await ownedCard(token, 'delete')).attached) return gone(pm);
      throw new GatewayUnavailable(`gateway ${cfg.code} (stripe) delete: ${messageOf(e)}`);
    }
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
    chargeToken,
    updateToken,
    deleteToken,
    verifyNotification,
    // nothing to check: a well-formed Stripe return is only a cue to ask Stripe (see UNSIGNED_RETURN)
    verifyReturn: (q: ReturnQuery, sig: string | undefined) => sig === UNSIGNED_RETURN && SESSION_ID.test(q.checkout) && q.transaction === '' && (q.status === 'APPROVED' || q.status === 'CANCELLED'),
  };
}
