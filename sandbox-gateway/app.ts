// The built-in sandbox payment gateway: a hosted payment page on its own origin (its own process and
// port), so card and bank numbers are typed only there and never reach the portal. The portal's server
// talks to it with signed messages (sandbox-gateway/protocol.ts):
//   POST /api/checkouts            signed: opens a checkout, answers the hosted page's url
//   GET  /api/checkouts/:id        signed (payload `GET ${path}`): the checkout and its transaction
//   POST /api/checkouts/cancel     signed: closes the checkout of an idempotency key (or answers its transaction)
//   POST /api/refunds              signed: refunds (part of) an approved transaction
//   POST /api/tokens/charge        signed: charges a saved method (idempotent by key)
//   POST /api/tokens/update        signed: a saved card's new expiry or holder, in place
//   POST /api/tokens/delete        signed: forgets a saved method
//   POST /api/settlements/run      signed: settles or returns the merchant's bank debits that are due
//   GET  /pay/:id                  the hosted page (or a notice, or the redirect of a completed one)
//   POST /pay/:id                  the page's form: decides the outcome, redirects to returnUrl (signed)
//   GET  /pay/:id/cancel           closes the checkout and redirects to cancelUrl (signed, status CANCELLED)
// Transactions and refunds are announced to notifyUrl with signed notifications (late, repeated and
// retried with backoff as configured), kept in the store until delivered: a restart resumes them.
// Bank debits are accepted PENDING and settle (or come back) 3 business days later by the sandbox's
// clock, on its own timer or at a settlement run.
// Nothing here logs a body; the logger is off unless asked for.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import {
  MERCHANT_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  signMessage,
  signReturn,
  verifyMessage,
  type CancelCheckoutAnswer,
  type CancelCheckoutRequest,
  type CheckoutAnswer,
  type CheckoutPayer,
  type CheckoutQueryAnswer,
  type CreateCheckoutRequest,
  type GatewayNotification,
  type GatewayTransaction,
  type RefundAnswer,
  type RefundRequest,
  type ReturnQuery,
  type ChargeTokenRequest,
  type DeleteTokenRequest,
  type SavedMethod,
  type SettlementRunAnswer,
  type SettlementRunRequest,
  type TokenAnswer,
  type UpdateTokenRequest,
} from './protocol';
import {
  authCodeFrom,
  bankReturnCode,
  savedCardOutcome,
  checkBankForm,
  checkCardForm,
  decide,
  expiryInPast,
  fraudReason,
  settlementDue,
  tokenStatusAfterReturn,
  type FieldErrors,
  type FormFields,
  type Outcome,
} from './outcomes';
import { renderNoticePage, renderPaymentPage, pageHeaders } from './page';
import { SandboxStore, checkoutFromRequest, newId, requestHash, type StoredCheckout, type StoredDelivery, type StoredToken, type StoredTransaction } from './store';
import { fill, formatAmount, textsFor } from './texts';

export interface SandboxOptions {
  /** merchant (the portal's gateway code) → shared secret */
  secrets: Record<string, string>;
  /** the gateway's own base URL (the hosted page's url is built from it) */
  publicUrl: string;
  /** JSON file the store persists to (atomic writes); memory only without it */
  dataFile?: string;
  clock?: () => Date;
  notify?: {
    /** wait before the first delivery (default 0) */
    delayMs?: number;
    /** extra identical deliveries of each notification, same eventId (default 0) */
    duplicates?: number;
    /**
     * waits before the retries of a failed delivery (non-2xx or network error), one per retry; default
     * 1 s doubling to 2048 s (12 retries). Pending deliveries are kept in the store, so a restart resumes them
     */
    retryDelaysMs?: number[];
  };
  /** an OPEN checkout older than this is EXPIRED (default 30) */
  checkoutMinutes?: number;
  /** how often the gateway settles the bank debits that are due on its own (default 60000) */
  settleEveryMs?: number;
  /** a settlement run may name a later date (asOf), so browser tests see debits settle without waiting days */
  settleAhead?: boolean;
  /** client IPs the fraud filter refuses (FRAUD_IP) */
  blockedIps?: string[];
  /** take the client IP from X-Forwarded-For (behind a reverse proxy); default false */
  trustProxy?: boolean;
  /** Fastify's logger (request lines, errors; never bodies); default off */
  logger?: boolean;
}

export interface SandboxGateway {
  app: FastifyInstance;
  store: SandboxStore;
  /** Delivers every pending notification now (delays and retry waits skipped) and waits for them. */
  flushNotifications(): Promise<void>;
  /** Settles or returns the bank debits due by the clock (of one merchant, or all) and sends their notifications. */
  runSettlements(merchant?: string): Promise<SettlementRunAnswer>;
  /** Stops the deliveries and the server, and waits for the store's last write. */
  close(): Promise<void>;
}

/** Exponential backoff: 1 s, 2 s, 4 s ... 2048 s, about 68 minutes in all before giving up. */
const DEFAULT_RETRY_DELAYS_MS = Array.from({ length: 12 }, (_, i) => 1000 * 2 ** i);
const NOTIFY_TIMEOUT_MS = 10_000;
const MAX_TEXT = 200;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

// ── request checks ───────────────────────────────────────────────────────────────────────────────────

type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function unknownKeys(obj: Record<string, unknown>, allowed: readonly string[]): string[] {
  return Object.keys(obj).filter((k) => !allowed.includes(k));
}

function text(obj: Record<string, unknown>, key: string, opts: { min?: number; max?: number } = {}): string | null {
  const v = obj[key];
  if (typeof v !== 'string') return null;
  if (v.length < (opts.min ?? 0) || v.length > (opts.max ?? MAX_TEXT)) return null;
  return v;
}

function httpUrl(obj: Record<string, unknown>, key: string): string | null {
  const v = text(obj, key, { min: 1, max: 2000 });
  if (!v) return null;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password ? v : null;
  } catch {
    return null;
  }
}

const PAYER_KEYS = ['firstName', 'lastName', 'street', 'city', 'state', 'zip', 'country', 'email', 'phone'] as const;
const CHECKOUT_KEYS = [
  'idempotencyKey',
  'merchant',
  'merchantName',
  'amountCents',
  'currency',
  'method',
  'reference',
  'returnUrl',
  'notifyUrl',
  'cancelUrl',
  'locale',
  'payer',
  'offerSave',
  'saveRequired',
] as const;

export function checkCheckoutRequest(body: unknown): Checked<CreateCheckoutRequest> {
  if (!isObject(body)) return { ok: false, message: 'The body must be a JSON object.' };
  const extra = unknownKeys(body, CHECKOUT_KEYS);
  if (extra.length) return { ok: false, message: `Unknown field(s): ${extra.join(', ')}.` };
  const idempotencyKey = text(body, 'idempotencyKey', { min: 1 });
  if (idempotencyKey === null) return { ok: false, message: 'idempotencyKey must be a string of 1 to 200 characters.' };
  const merchant = text(body, 'merchant', { min: 1 });
  if (merchant === null) return { ok: false, message: 'merchant must be a string of 1 to 200 characters.' };
  const merchantName = text(body, 'merchantName', { min: 1 });
  if (merchantName === null) return { ok: false, message: 'merchantName must be a string of 1 to 200 characters.' };
  const amountCents = body.amountCents;
  if (typeof amountCents !== 'number' || !Number.isInteger(amountCents) || amountCents < 1 || amountCents > 100_000_000) {
    return { ok: false, message: 'amountCents must be an integer from 1 to 100000000.' };
  }
  const currency = body.currency;
  if (currency !== 'USD' && currency !== 'CAD') return { ok: false, message: 'currency must be USD or CAD.' };
  const method = body.method;
  if (method !== 'CARD' && method !== 'BANK') return { ok: false, message: 'method must be CARD or BANK.' };
  const reference = text(body, 'reference', { min: 1 });
  if (reference === null) return { ok: false, message: 'reference must be a string of 1 to 200 characters.' };
  const returnUrl = httpUrl(body, 'returnUrl');
  const notifyUrl = httpUrl(body, 'notifyUrl');
  const cancelUrl = httpUrl(body, 'cancelUrl');
  if (!returnUrl || !notifyUrl || !cancelUrl) return { ok: false, message: 'returnUrl, notifyUrl and cancelUrl must be http(s) URLs.' };
  const locale = text(body, 'locale', { min: 2, max: 35 });
  if (locale === null || !/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/.test(locale)) return { ok: false, message: 'locale must be a language tag such as en, es, pt or vi.' };
  const payerIn = body.payer;
  if (!isObject(payerIn)) return { ok: false, message: 'payer must be an object.' };
  const extraPayer = unknownKeys(payerIn, PAYER_KEYS);
  if (extraPayer.length) return { ok: false, message: `Unknown payer field(s): ${extraPayer.join(', ')}.` };
  const payer = {} as CheckoutPayer;
  for (const key of PAYER_KEYS) {
    const v = text(payerIn, key);
    if (v === null) return { ok: false, message: `payer.${key} must be a string of at most 200 characters.` };
    payer[key] = v;
  }
  if (payer.country !== '' && payer.country !== 'US' && payer.country !== 'CA') return { ok: false, message: 'payer.country must be US or CA.' };
  if (body.offerSave !== undefined && typeof body.offerSave !== 'boolean') return { ok: false, message: 'offerSave must be true or false.' };
  if (body.saveRequired !== undefined && typeof body.saveRequired !== 'boolean') return { ok: false, message: 'saveRequired must be true or false.' };
  return {
    ok: true,
    value: {
      idempotencyKey,
      merchant,
      merchantName,
      amountCents,
      currency,
      method,
      reference,
      returnUrl,
      notifyUrl,
      cancelUrl,
      locale,
      payer,
      // false and absent are the same request (the same idempotency hash)
      ...(body.offerSave === true ? { offerSave: true } : {}),
      ...(body.saveRequired === true ? { saveRequired: true } : {}),
    },
  };
}

export function checkRefundRequest(body: unknown): Checked<RefundRequest> {
  if (!isObject(body)) return { ok: false, message: 'The body must be a JSON object.' };
  const extra = unknownKeys(body, ['idempotencyKey', 'merchant', 'transactionId', 'amountCents']);
  if (extra.length) return { ok: false, message: `Unknown field(s): ${extra.join(', ')}.` };
  const idempotencyKey = text(body, 'idempotencyKey', { min: 1 });
  if (idempotencyKey === null) return { ok: false, message: 'idempotencyKey must be a string of 1 to 200 characters.' };
  const merchant = text(body, 'merchant', { min: 1 });
  if (merchant === null) return { ok: false, message: 'merchant must be a string of 1 to 200 characters.' };
  const transactionId = text(body, 'transactionId', { min: 1, max: 64 });
  if (transactionId === null) return { ok: false, message: 'transactionId must be a string.' };
  const amountCents = body.amountCents;
  if (typeof amountCents !== 'number' || !Number.isInteger(amountCents) || amountCents < 1 || amountCents > 100_000_000) {
    return { ok: false, message: 'amountCents must be an integer from 1 to 100000000.' };
  }
  return { ok: true, value: { idempotencyKey, merchant, transactionId, amountCents } };
}

export function checkCancelRequest(body: unknown): Checked<CancelCheckoutRequest> {
  if (!isObject(body)) return { ok: false, message: 'The body must be a JSON object.' };
  const extra = unknownKeys(body, ['idempotencyKey', 'merchant']);
  if (extra.length) return { ok: false, message: `Unknown field(s): ${extra.join(', ')}.` };
  const idempotencyKey = text(body, 'idempotencyKey', { min: 1 });
  if (idempotencyKey === null) return { ok: false, message: 'idempotencyKey must be a string of 1 to 200 characters.' };
  const merchant = text(body, 'merchant', { min: 1 });
  if (merchant === null) return { ok: false, message: 'merchant must be a string of 1 to 200 characters.' };
  return { ok: true, value: { idempotencyKey, merchant } };
}

const TOKEN_PATTERN = /^tok_[A-Za-z0-9_-]{1,60}$/;

export function checkChargeRequest(body: unknown): Checked<ChargeTokenRequest> {
  if (!isObject(body)) return { ok: false, message: 'The body must be a JSON object.' };
  const extra = unknownKeys(body, ['idempotencyKey', 'merchant', 'token', 'amountCents', 'currency', 'reference', 'notifyUrl']);
  if (extra.length) return { ok: false, message: `Unknown field(s): ${extra.join(', ')}.` };
  const idempotencyKey = text(body, 'idempotencyKey', { min: 1 });
  if (idempotencyKey === null) return { ok: false, message: 'idempotencyKey must be a string of 1 to 200 characters.' };
  const merchant = text(body, 'merchant', { min: 1 });
  if (merchant === null) return { ok: false, message: 'merchant must be a string of 1 to 200 characters.' };
  const token = text(body, 'token', { min: 1, max: 64 });
  if (token === null) return { ok: false, message: 'token must be a string.' };
  const amountCents = body.amountCents;
  if (typeof amountCents !== 'number' || !Number.isInteger(amountCents) || amountCents < 1 || amountCents > 100_000_000) {
    return { ok: false, message: 'amountCents must be an integer from 1 to 100000000.' };
  }
  const currency = body.currency;
  if (currency !== 'USD' && currency !== 'CAD') return { ok: false, message: 'currency must be USD or CAD.' };
  const reference = text(body, 'reference', { min: 1 });
  if (reference === null) return { ok: false, message: 'reference must be a string of 1 to 200 characters.' };
  const notifyUrl = httpUrl(body, 'notifyUrl');
  if (!notifyUrl) return { ok: false, message: 'notifyUrl must be an http(s) URL.' };
  return { ok: true, value: { idempotencyKey, merchant, token, amountCents, currency, reference, notifyUrl } };
}

export function checkUpdateTokenRequest(body: unknown, now: Date): Checked<UpdateTokenRequest> {
  if (!isObject(body)) return { ok: false, message: 'The body must be a JSON object.' };
  const extra = unknownKeys(body, ['merchant', 'token', 'expiry', 'holderName']);
  if (extra.length) return { ok: false, message: `Unknown field(s): ${extra.join(', ')}.` };
  const merchant = text(body, 'merchant', { min: 1 });
  if (merchant === null) return { ok: false, message: 'merchant must be a string of 1 to 200 characters.' };
  const token = text(body, 'token', { min: 1, max: 64 });
  if (token === null) return { ok: false, message: 'token must be a string.' };
  if (body.expiry === undefined && body.holderName === undefined) return { ok: false, message: 'Send expiry, holderName or both.' };
  const value: UpdateTokenRequest = { merchant, token };
  if (body.expiry !== undefined) {
    const m = typeof body.expiry === 'string' ? /^(\d{2})\/(\d{2})$/.exec(body.expiry) : null;
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) return { ok: false, message: 'expiry must be MM/YY.' };
    if (expiryInPast(Number(m[1]), Number(m[2]), now)) return { ok: false, message: 'expiry must not be in the past.' };
    value.expiry = body.expiry as string;
  }
  if (body.holderName !== undefined) {
    const name = typeof body.holderName === 'string' ? body.holderName.trim() : '';
    if (!name || name.length > MAX_TEXT) return { ok: false, message: 'holderName must be a string of 1 to 200 characters.' };
    // a number in the name box must not end up stored as a name
    if ((name.match(/\d/g) ?? []).length > 4) return { ok: false, message: 'holderName must not contain a number.' };
    value.holderName = name;
  }
  return { ok: true, value };
}

export function checkMerchantTokenRequest(body: unknown): Checked<DeleteTokenRequest> {
  if (!isObject(body)) return { ok: false, message: 'The body must be a JSON object.' };
  const extra = unknownKeys(body, ['merchant', 'token']);
  if (extra.length) return { ok: false, message: `Unknown field(s): ${extra.join(', ')}.` };
  const merchant = text(body, 'merchant', { min: 1 });
  if (merchant === null) return { ok: false, message: 'merchant must be a string of 1 to 200 characters.' };
  const token = text(body, 'token', { min: 1, max: 64 });
  if (token === null) return { ok: false, message: 'token must be a string.' };
  return { ok: true, value: { merchant, token } };
}

export function checkSettlementRunRequest(body: unknown): Checked<SettlementRunRequest> {
  if (!isObject(body)) return { ok: false, message: 'The body must be a JSON object.' };
  const extra = unknownKeys(body, ['merchant', 'asOf']);
  if (extra.length) return { ok: false, message: `Unknown field(s): ${extra.join(', ')}.` };
  const merchant = text(body, 'merchant', { min: 1 });
  if (merchant === null) return { ok: false, message: 'merchant must be a string of 1 to 200 characters.' };
  if (body.asOf === undefined) return { ok: true, value: { merchant } };
  const asOf = text(body, 'asOf', { min: 1, max: 40 });
  if (asOf === null || Number.isNaN(Date.parse(asOf))) return { ok: false, message: 'asOf must be an ISO date-time.' };
  return { ok: true, value: { merchant, asOf } };
}

/** Adds the signed return query to a URL, keeping its own query and fragment as they are. */
export function withReturnQuery(url: string, q: ReturnQuery, sig: string): string {
  const hashAt = url.indexOf('#');
  const base = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const hash = hashAt >= 0 ? url.slice(hashAt) : '';
  const query = new URLSearchParams({ checkout: q.checkout, transaction: q.transaction, status: q.status, sig }).toString();
  const sep = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${sep}${query}${hash}`;
}

// ── notifications ──

/**
 * Delivers notifications from the store: each pending delivery is a stored record (its attempts and
 * when the next is due), written before it is tried, so a sandbox restarted from its data file resumes
 * what it had not delivered. A timer per delivery only wakes it up.
 */
class Notifier {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly store: SandboxStore,
    private readonly save: () => Promise<void>,
    private readonly secrets: Record<string, string>,
    private readonly clock: () => Date,
    private readonly delayMs: number,
    private readonly duplicates: number,
    private readonly retryDelaysMs: number[],
    private readonly onGiveUp: (url: string, reason: string) => void,
  ) {}

  /** Picks up the deliveries the store kept (a restart): overdue ones go now, the others when due. */
  resume(): void {
    for (const d of this.store.pendingDeliveries()) this.schedule(d);
  }

  /** Adds the deliveries of a notification to the store (the caller saves it) and wakes them when due. */
  send(url: string, notification: GatewayNotification): void {
    const body = JSON.stringify(notification);
    const due = this.clock().getTime() + this.delayMs;
    for (let i = 0; i <= this.duplicates; i++) {
      const d: StoredDelivery = { id: newId('dlv'), url, merchant: notification.merchant, body, attempts: 0, nextAttemptAt: due };
      this.store.addDelivery(d);
      this.schedule(d);
    }
  }

  private schedule(d: StoredDelivery): void {
    if (this.closed) return;
    clearTimeout(this.timers.get(d.id));
    this.timers.set(d.id, setTimeout(() => this.run(d.id), Math.max(0, d.nextAttemptAt - this.clock().getTime())));
  }

  private run(id: string): void {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    const d = this.store.getDelivery(id);
    if (!d || this.inFlight.has(id)) return;
    const p = this.deliver(d).finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, p);
  }

  private async deliver(d: StoredDelivery): Promise<void> {
    let reason: string;
    try {
      const ts = Math.floor(this.clock().getTime() / 1000);
      const res = await fetch(d.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [MERCHANT_HEADER]: d.merchant,
          [TIMESTAMP_HEADER]: String(ts),
          [SIGNATURE_HEADER]: signMessage(this.secrets[d.merchant] ?? '', ts, d.body),
        },
        body: d.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status >= 200 && res.status < 300) {
        this.store.removeDelivery(d.id);
        await this.save();
        return;
      }
      reason = `HTTP ${res.status}`;
    } catch (err) {
      reason = (err as Error).name === 'TimeoutError' ? 'timeout' : 'network error';
    }
    d.attempts++;
    if (d.attempts <= this.retryDelaysMs.length) {
      d.nextAttemptAt = this.clock().getTime() + this.retryDelaysMs[d.attempts - 1];
      await this.save();
      this.schedule(d);
    } else {
      this.store.removeDelivery(d.id);
      await this.save();
      this.onGiveUp(d.url, reason);
    }
  }

  async flush(): Promise<void> {
    while (this.timers.size > 0 || this.inFlight.size > 0) {
      for (const id of [...this.timers.keys()]) this.run(id);
      await Promise.allSettled([...this.inFlight.values()]);
    }
  }

  /** Stops the timers and waits for the tries under way; what is left stays in the store. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight.values()]);
  }
}

// ── the app ──────────────────────────────────────────────────────────────────────────────────────────

export async function buildSandboxGateway(opts: SandboxOptions): Promise<SandboxGateway> {
  const clock = opts.clock ?? (() => new Date());
  const nowSeconds = () => Math.floor(clock().getTime() / 1000);
  const publicUrl = opts.publicUrl.replace(/\/+$/, '');
  const basePath = new URL(publicUrl).pathname.replace(/\/+$/, '');
  const checkoutMs = (opts.checkoutMinutes ?? 30) * 60_000;
  const blockedIps = opts.blockedIps ?? [];
  const secrets = opts.secrets;
  const secretOf = (merchant: string) => (Object.hasOwn(secrets, merchant) ? secrets[merchant] : undefined);

  const store = await SandboxStore.open(opts.dataFile);
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 64 * 1024, trustProxy: opts.trustProxy ?? false });
  const save = async () => {
    try {
      await store.save();
    } catch (err) {
      // the memory state stands; the next change writes it again
      app.log.error({ message: (err as Error).message }, 'sandbox gateway store not written');
    }
  };

  const notifier = new Notifier(
    store,
    save,
    secrets,
    clock,
    opts.notify?.delayMs ?? 0,
    opts.notify?.duplicates ?? 0,
    opts.notify?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    (url, reason) => app.log.warn({ notifyUrl: url, reason }, 'notification given up'),
  );
  notifier.resume();

  /** A transaction as answered: its saved method as it is now (a return may have blocked it since). */
  function view(stored: StoredTransaction): GatewayTransaction {
    const tx = { ...stored.transaction };
    const token = tx.savedMethod ? store.getToken(tx.savedMethod.token) : undefined;
    if (token) tx.savedMethod = { ...token.savedMethod };
    return tx;
  }

  const notifyUrlOf = (stored: StoredTransaction) => stored.notifyUrl ?? store.getCheckout(stored.transaction.checkoutId)?.notifyUrl;

  /** The fields of an accepted bank debit: PENDING until its settlement date. */
  function pendingDebit(takenAt: Date, returnCode: string): Pick<StoredTransaction, 'pending'> {
    return { pending: { dueAt: settlementDue(takenAt).getTime(), returnCode } };
  }

  /** Settles or returns the due debits in one step (no await), then writes them with their notifications. */
  async function runSettlements(merchant?: string, asOfMs?: number): Promise<SettlementRunAnswer> {
    const answer: SettlementRunAnswer = { settled: [], returned: [] };
    // never earlier than now: a past asOf settles what is due now
    for (const stored of store.dueDebits(Math.max(clock().getTime(), asOfMs ?? 0), merchant)) {
      const code = stored.pending!.returnCode;
      delete stored.pending;
      const tx = stored.transaction;
      const token = tx.savedMethod ? store.getToken(tx.savedMethod.token) : undefined;
      if (code) {
        tx.settlement = 'RETURNED';
        tx.returnCode = code;
        const status = tokenStatusAfterReturn(code);
        // INVALID is final; BLOCKED does not undo it
        if (token && !token.deleted && status && token.savedMethod.status !== 'INVALID') {
          token.savedMethod.status = status;
          token.statusReason = code;
        }
        answer.returned.push(tx.transactionId);
      } else {
        tx.settlement = 'SETTLED';
        answer.settled.push(tx.transactionId);
      }
      const url = notifyUrlOf(stored);
      if (url) {
        notifier.send(url, {
          eventId: newId('evt'),
          type: code ? 'transaction.returned' : 'transaction.settled',
          merchant: stored.merchant,
          transaction: view(stored),
          ...(code ? { returnCode: code } : {}),
        });
      }
    }
    if (answer.settled.length || answer.returned.length) await save();
    return answer;
  }

  const settleTimer = setInterval(() => void runSettlements(), opts.settleEveryMs ?? 60_000);
  settleTimer.unref();

  /** Keeps the method of an approved page payment when the parent ticked "save for later". */
  function saveMethod(c: StoredCheckout, fingerprint: string, details: Pick<GatewayTransaction, 'brand' | 'last4' | 'holderName' | 'expiry'>, outcome: { card?: Outcome; returnCode?: string }, now: Date): SavedMethod {
    const savedMethod: SavedMethod = { token: newId('tok'), method: c.method, ...details, status: 'ACTIVE' };
    const t: StoredToken = { merchant: c.merchant, savedMethod, fingerprint, statusReason: '', deleted: false, createdAt: now.toISOString() };
    if (outcome.card) t.cardOutcome = outcome.card;
    if (outcome.returnCode !== undefined) t.returnCode = outcome.returnCode;
    store.addToken(t);
    return { ...savedMethod };
  }

  // bodies stay text for the signature check (JSON) or become a plain object (the page's form)
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    const form: FormFields = Object.create(null);
    for (const [k, v] of new URLSearchParams(body as string)) form[k] = v;
    done(null, form);
  });

  // every answer: not framed, not cached, no referrer; pages set their own CSP (form-action)
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    return payload;
  });

  app.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) req.log.error({ message: err.message }, 'sandbox gateway error');
    return reply.code(status).send({ message: status >= 500 ? 'Internal error' : (err.message ?? 'Bad request') });
  });

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/pay/')) return notFoundPage(reply);
    return reply.code(404).send({ message: 'Not found' });
  });

  // ── signed API ──

  /** The signing merchant when the message is signed with its secret within the replay window. */
  function authenticate(req: FastifyRequest, payloads: string[]): string | null {
    const merchant = req.headers[MERCHANT_HEADER];
    if (typeof merchant !== 'string') return null;
    const secret = secretOf(merchant);
    if (!secret) return null;
    const ts = req.headers[TIMESTAMP_HEADER];
    const sig = req.headers[SIGNATURE_HEADER];
    if (typeof ts !== 'string' || typeof sig !== 'string') return null;
    const now = nowSeconds();
    return payloads.some((p) => verifyMessage(secret, ts, sig, p, now)) ? merchant : null;
  }

  const refuse = (reply: FastifyReply) => reply.code(401).send({ message: 'The message is not signed, not signed by a known merchant, or too old.' });

  /** The raw JSON body: signature first, then parsing. */
  function signedJson(req: FastifyRequest, reply: FastifyReply): { merchant: string; body: unknown } | null {
    const raw = typeof req.body === 'string' ? req.body : null;
    if (raw === null) {
      void reply.code(415).send({ message: 'Send application/json.' });
      return null;
    }
    const merchant = authenticate(req, [raw]);
    if (!merchant) {
      void refuse(reply);
      return null;
    }
    try {
      return { merchant, body: JSON.parse(raw) };
    } catch {
      void reply.code(400).send({ message: 'The body is not valid JSON.' });
      return null;
    }
  }

  const checkoutAnswer = (c: StoredCheckout): CheckoutAnswer => ({
    checkoutId: c.checkoutId,
    url: `${publicUrl}/pay/${c.checkoutId}`,
    status: SandboxStore.checkoutStatus(c, clock()),
    expiresAt: c.expiresAt,
  });

  app.post('/api/checkouts', async (req, reply) => {
    const signed = signedJson(req, reply);
    if (!signed) return reply;
    const checked = checkCheckoutRequest(signed.body);
    if (!checked.ok) return reply.code(400).send({ message: checked.message });
    const request = checked.value;
    if (request.merchant !== signed.merchant) return reply.code(400).send({ message: 'merchant is not the merchant that signed the message.' });
    const hash = requestHash(request);
    const earlier = store.findCheckoutByKey(request.merchant, request.idempotencyKey);
    if (earlier) {
      if (earlier.requestHash !== hash) return reply.code(409).send({ message: 'This idempotencyKey was used with another request.' });
      return reply.code(200).send(checkoutAnswer(earlier));
    }
    if (store.keyCancelled(request.merchant, request.idempotencyKey)) return reply.code(409).send({ code: 'KEY_CANCELLED', message: 'This idempotencyKey was cancelled.' });
    const createdAt = clock();
    const checkout = checkoutFromRequest(request, {
      checkoutId: newId('chk'),
      requestHash: hash,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + checkoutMs),
    });
    store.addCheckout(checkout);
    await save();
    return reply.code(200).send(checkoutAnswer(checkout));
  });

  app.get<{ Params: { checkoutId: string } }>('/api/checkouts/:checkoutId', async (req, reply) => {
    const path = req.url;
    const merchant = authenticate(req, [`GET ${path}`, ...(basePath ? [`GET ${basePath}${path}`] : [])]);
    if (!merchant) return refuse(reply);
    const checkout = ID_PATTERN.test(req.params.checkoutId) ? store.getCheckout(req.params.checkoutId) : undefined;
    if (!checkout || checkout.merchant !== merchant) return reply.code(404).send({ message: 'No such checkout.' });
    const stored = checkout.transactionId ? store.getTransaction(checkout.transactionId) : undefined;
    const answer: CheckoutQueryAnswer = {
      checkoutId: checkout.checkoutId,
      reference: checkout.reference,
      status: SandboxStore.checkoutStatus(checkout, clock()),
      transaction: stored ? view(stored) : null,
      refundedCents: stored ? store.refundedCents(stored.transaction.transactionId) : 0,
    };
    return reply.send(answer);
  });

  app.post('/api/checkouts/cancel', async (req, reply) => {
    const signed = signedJson(req, reply);
    if (!signed) return reply;
    const checked = checkCancelRequest(signed.body);
    if (!checked.ok) return reply.code(400).send({ message: checked.message });
    if (checked.value.merchant !== signed.merchant) return reply.code(400).send({ message: 'merchant is not the merchant that signed the message.' });
    const now = clock();
    const c = store.cancelByKey(checked.value.merchant, checked.value.idempotencyKey, now);
    await save();
    const status = c ? SandboxStore.checkoutStatus(c, now) : 'CANCELLED';
    const stored = c?.transactionId ? store.getTransaction(c.transactionId) : undefined;
    const answer: CancelCheckoutAnswer = {
      checkoutId: c?.checkoutId ?? null,
      status: status === 'OPEN' ? 'CANCELLED' : status,
      transaction: stored ? view(stored) : null,
    };
    return reply.send(answer);
  });

  app.post('/api/refunds', async (req, reply) => {
    const signed = signedJson(req, reply);
    if (!signed) return reply;
    const checked = checkRefundRequest(signed.body);
    if (!checked.ok) return reply.code(400).send({ message: checked.message });
    const request = checked.value;
    if (request.merchant !== signed.merchant) return reply.code(400).send({ message: 'merchant is not the merchant that signed the message.' });
    const hash = requestHash(request);
    const earlier = store.findRefundByKey(request.merchant, request.idempotencyKey);
    if (earlier) {
      if (earlier.requestHash !== hash) return reply.code(409).send({ message: 'This idempotencyKey was used with another request.' });
      return reply.send(earlier.answer);
    }
    const stored = ID_PATTERN.test(request.transactionId) ? store.getTransaction(request.transactionId) : undefined;
    if (!stored || stored.merchant !== request.merchant) return reply.code(404).send({ message: 'No such transaction.' });
    const tx = stored.transaction;
    // a returned debit brought no money to refund
    const left = tx.status === 'APPROVED' && tx.settlement !== 'RETURNED' ? tx.amountCents - store.refundedCents(tx.transactionId) : 0;
    const answer: RefundAnswer = {
      refundId: newId('rfd'),
      transactionId: tx.transactionId,
      amountCents: request.amountCents,
      status: request.amountCents <= left ? 'REFUNDED' : 'REFUSED',
      createdAt: clock().toISOString(),
    };
    store.addRefund({ merchant: request.merchant, idempotencyKey: request.idempotencyKey, requestHash: hash, answer });
    const refundNotifyUrl = notifyUrlOf(stored);
    if (answer.status === 'REFUNDED' && refundNotifyUrl) {
      notifier.send(refundNotifyUrl, { eventId: newId('evt'), type: 'refund.completed', merchant: request.merchant, transaction: view(stored), refund: answer });
    }
    await save();
    return reply.send(answer);
  });

  // ── saved methods ──

  const noToken = (reply: FastifyReply) => reply.code(404).send({ message: 'No such token.' });
  const notSigner = (reply: FastifyReply) => reply.code(400).send({ message: 'merchant is not the merchant that signed the message.' });
  /** The merchant's live token; another merchant's, a deleted or a malformed one is unknown. */
  const liveToken = (merchant: string, token: string) => {
    const t = TOKEN_PATTERN.test(token) ? store.getToken(token, merchant) : undefined;
    return t && !t.deleted ? t : undefined;
  };

  app.post('/api/tokens/charge', async (req, reply) => {
    const signed = signedJson(req, reply);
    if (!signed) return reply;
    const checked = checkChargeRequest(signed.body);
    if (!checked.ok) return reply.code(400).send({ message: checked.message });
    const request = checked.value;
    if (request.merchant !== signed.merchant) return notSigner(reply);
    const hash = requestHash(request);
    const earlier = store.findChargeByKey(request.merchant, request.idempotencyKey);
    if (earlier) {
      if (earlier.requestHash !== hash) return reply.code(409).send({ message: 'This idempotencyKey was used with another request.' });
      return reply.send(view(earlier.stored));
    }
    const token = liveToken(request.merchant, request.token);
    if (!token) return noToken(reply);
    const m = token.savedMethod;
    const now = clock();
    // from here to addCharge nothing awaits: the same key cannot charge twice
    const earlierAttempts = token.fingerprint ? store.recordAttempt(token.fingerprint, now.getTime()) : 0;
    const fraud = fraudReason({ method: m.method, amountCents: request.amountCents, payerEmail: '', payerStreet: '', clientIp: '', blockedIps: [], earlierAttempts });
    let outcome: Outcome;
    if (m.status !== 'ACTIVE') outcome = { status: 'DECLINED', reasonCode: m.method === 'BANK' ? `BANK_${token.statusReason}` : 'DECLINED' };
    else if (fraud) outcome = { status: 'DECLINED', reasonCode: fraud };
    else if (m.method === 'CARD') {
      const [month, yy] = m.expiry.split('/').map(Number);
      outcome = expiryInPast(month, yy, now) ? { status: 'DECLINED', reasonCode: 'EXPIRY' } : (token.cardOutcome ?? { status: 'APPROVED', reasonCode: '' });
    } else outcome = { status: 'APPROVED', reasonCode: '' };
    const approved = outcome.status === 'APPROVED';
    const transaction: GatewayTransaction = {
      transactionId: newId('txn'),
      checkoutId: '',
      reference: request.reference,
      status: outcome.status,
      amountCents: request.amountCents,
      method: m.method,
      reasonCode: outcome.reasonCode,
      authCode: approved ? authCodeFrom(randomBytes(6)) : '',
      brand: m.brand,
      last4: m.last4,
      holderName: m.holderName,
      expiry: m.expiry,
      createdAt: now.toISOString(),
      savedMethod: { ...m },
      ...(approved ? { settlement: m.method === 'BANK' ? ('PENDING' as const) : ('SETTLED' as const) } : {}),
    };
    const stored: StoredTransaction = {
      merchant: request.merchant,
      eventId: newId('evt'),
      transaction,
      notifyUrl: request.notifyUrl,
      ...(approved && m.method === 'BANK' ? pendingDebit(now, token.returnCode ?? '') : {}),
    };
    store.addCharge(request.idempotencyKey, hash, stored);
    await save();
    return reply.send(view(stored));
  });

  app.post('/api/tokens/update', async (req, reply) => {
    const signed = signedJson(req, reply);
    if (!signed) return reply;
    const checked = checkUpdateTokenRequest(signed.body, clock());
    if (!checked.ok) return reply.code(400).send({ message: checked.message });
    const request = checked.value;
    if (request.merchant !== signed.merchant) return notSigner(reply);
    const token = liveToken(request.merchant, request.token);
    if (!token) return noToken(reply);
    if (request.expiry !== undefined && token.savedMethod.method !== 'CARD') return reply.code(400).send({ message: 'A bank account has no expiry.' });
    if (request.expiry !== undefined) token.savedMethod.expiry = request.expiry;
    if (request.holderName !== undefined) token.savedMethod.holderName = request.holderName;
    await save();
    const answer: TokenAnswer = { savedMethod: { ...token.savedMethod } };
    return reply.send(answer);
  });

  app.post('/api/tokens/delete', async (req, reply) => {
    const signed = signedJson(req, reply);
    if (!signed) return reply;
    const checked = checkMerchantTokenRequest(signed.body);
    if (!checked.ok) return reply.code(400).send({ message: checked.message });
    const request = checked.value;
    if (request.merchant !== signed.merchant) return notSigner(reply);
    // a deleted token answers again: deleting twice is not an error
    const token = TOKEN_PATTERN.test(request.token) ? store.getToken(request.token, request.merchant) : undefined;
    if (!token) return noToken(reply);
    if (!token.deleted) {
      token.deleted = true;
      token.fingerprint = '';
      token.savedMethod.status = 'INVALID';
      await save();
    }
    const answer: TokenAnswer = { savedMethod: { ...token.savedMethod } };
    return reply.send(answer);
  });

  app.post('/api/settlements/run', async (req, reply) => {
    const signed = signedJson(req, reply);
    if (!signed) return reply;
    const checked = checkSettlementRunRequest(signed.body);
    if (!checked.ok) return reply.code(400).send({ message: checked.message });
    if (checked.value.merchant !== signed.merchant) return notSigner(reply);
    const { asOf } = checked.value;
    if (asOf !== undefined && !opts.settleAhead) return reply.code(403).send({ message: 'asOf is refused: this sandbox was not started with settle-ahead allowed.' });
    return reply.send(await runSettlements(signed.merchant, asOf === undefined ? undefined : Date.parse(asOf)));
  });

  // ── the hosted page ──

  function sendPage(reply: FastifyReply, status: number, html: string, redirectUrls: string[] = []) {
    return reply.code(status).headers(pageHeaders(redirectUrls)).send(html);
  }

  function notFoundPage(reply: FastifyReply) {
    const texts = textsFor('en');
    return sendPage(reply, 404, renderNoticePage({ texts, title: texts.notFoundTitle, body: texts.notFoundBody }));
  }

  const payPath = (c: StoredCheckout) => `${basePath}/pay/${c.checkoutId}`;

  function expiredPage(reply: FastifyReply, c: StoredCheckout) {
    const texts = textsFor(c.locale);
    return sendPage(
      reply,
      410,
      renderNoticePage({
        texts,
        title: texts.expiredTitle,
        body: fill(texts.expiredBody, { merchant: c.merchantName }),
        link: { href: `${payPath(c)}/cancel`, text: fill(texts.backTo, { merchant: c.merchantName }) },
      }),
      [c.cancelUrl],
    );
  }

  function cancelledPage(reply: FastifyReply, c: StoredCheckout) {
    const texts = textsFor(c.locale);
    return sendPage(
      reply,
      410,
      renderNoticePage({
        texts,
        title: texts.cancelledTitle,
        body: fill(texts.cancelledBody, { merchant: c.merchantName }),
        link: { href: `${payPath(c)}/cancel`, text: fill(texts.backTo, { merchant: c.merchantName }) },
      }),
      [c.cancelUrl],
    );
  }

  function paymentPage(reply: FastifyReply, c: StoredCheckout, status: number, values: PageValues = {}, errors: FieldErrors = {}) {
    const texts = textsFor(c.locale);
    const html = renderPaymentPage({
      texts,
      method: c.method,
      merchantName: c.merchantName,
      amountText: formatAmount(c.amountCents, c.currency, c.locale),
      payerName: `${c.payer.firstName} ${c.payer.lastName}`.trim(),
      actionPath: payPath(c),
      cancelPath: `${payPath(c)}/cancel`,
      offerSave: c.offerSave === true || c.saveRequired === true,
      saveRequired: c.saveRequired === true,
      values,
      errors,
    });
    return sendPage(reply, status, html, [c.returnUrl, c.cancelUrl]);
  }

  function returnRedirect(reply: FastifyReply, c: StoredCheckout, url: string, q: ReturnQuery) {
    const secret = secretOf(c.merchant);
    if (!secret) return reply.code(500).send({ message: 'The merchant of this checkout is no longer configured.' });
    return reply.code(303).header('location', withReturnQuery(url, q, signReturn(secret, q))).send();
  }

  function completedRedirect(reply: FastifyReply, c: StoredCheckout) {
    const stored = c.transactionId ? store.getTransaction(c.transactionId) : undefined;
    if (!stored) return reply.code(500).send({ message: 'The transaction of this checkout is missing.' });
    return returnRedirect(reply, c, c.returnUrl, { checkout: c.checkoutId, transaction: stored.transaction.transactionId, status: stored.transaction.status });
  }

  const findCheckout = (id: string) => (ID_PATTERN.test(id) ? store.getCheckout(id) : undefined);

  app.get<{ Params: { checkoutId: string } }>('/pay/:checkoutId', async (req, reply) => {
    const c = findCheckout(req.params.checkoutId);
    if (!c || !secretOf(c.merchant)) return notFoundPage(reply);
    const status = SandboxStore.checkoutStatus(c, clock());
    if (status === 'COMPLETED') return completedRedirect(reply, c);
    if (status === 'EXPIRED') return expiredPage(reply, c);
    if (status === 'CANCELLED') return cancelledPage(reply, c);
    return paymentPage(reply, c, 200);
  });

  app.get<{ Params: { checkoutId: string } }>('/pay/:checkoutId/cancel', async (req, reply) => {
    const c = findCheckout(req.params.checkoutId);
    if (!c || !secretOf(c.merchant)) return notFoundPage(reply);
    // a paid checkout is not cancelled after the fact: its return says what happened
    if (c.state === 'COMPLETED') return completedRedirect(reply, c);
    // the page takes no payment once its parent cancelled it (another tab of it would otherwise still charge)
    store.cancelCheckout(c.checkoutId, clock());
    await save();
    return returnRedirect(reply, c, c.cancelUrl, { checkout: c.checkoutId, transaction: '', status: 'CANCELLED' });
  });

  app.post<{ Params: { checkoutId: string } }>('/pay/:checkoutId', async (req, reply) => {
    const c = findCheckout(req.params.checkoutId);
    if (!c || !secretOf(c.merchant)) return notFoundPage(reply);
    const status = SandboxStore.checkoutStatus(c, clock());
    // a second submit (double click, back and resubmit) charges nothing more
    if (status === 'COMPLETED') return completedRedirect(reply, c);
    if (status === 'EXPIRED') return expiredPage(reply, c);
    if (status === 'CANCELLED') return cancelledPage(reply, c);

    const form: FormFields = isObject(req.body) ? (req.body as FormFields) : {};
    const now = clock();
    let fingerprint: string;
    let number: { cardNumber?: string; accountNumber?: string };
    let details: Pick<GatewayTransaction, 'brand' | 'last4' | 'holderName' | 'expiry'>;
    let returnCode = '';
    if (c.method === 'CARD') {
      const checked = checkCardForm(form, now);
      if (!checked.ok) return paymentPage(reply, c, 422, keptValues(form), checked.errors);
      const card = checked.value;
      fingerprint = store.fingerprint('CARD', card.number);
      number = { cardNumber: card.number };
      details = { brand: card.brand, last4: card.last4, holderName: card.holderName, expiry: card.expiry };
    } else {
      const checked = checkBankForm(form);
      if (!checked.ok) return paymentPage(reply, c, 422, keptValues(form), checked.errors);
      const bank = checked.value;
      fingerprint = store.fingerprint('BANK', `${bank.routing}:${bank.account}`);
      number = { accountNumber: bank.account };
      details = { brand: bank.brand, last4: bank.last4, holderName: bank.holderName, expiry: '' };
      returnCode = bankReturnCode(bank.account);
    }
    const wantsSave = c.saveRequired === true || (c.offerSave === true && form.saveMethod === '1');

    // from here to completeCheckout nothing awaits: two submits cannot both charge
    const earlierAttempts = store.recordAttempt(fingerprint, now.getTime());
    const outcome = decide({
      method: c.method,
      amountCents: c.amountCents,
      payerEmail: c.payer.email,
      payerStreet: c.payer.street,
      clientIp: req.ip,
      blockedIps,
      earlierAttempts,
      ...number,
    });
    const approved = outcome.status === 'APPROVED';
    const transaction: GatewayTransaction = {
      transactionId: newId('txn'),
      checkoutId: c.checkoutId,
      reference: c.reference,
      status: outcome.status,
      amountCents: c.amountCents,
      method: c.method,
      reasonCode: outcome.reasonCode,
      authCode: approved ? authCodeFrom(randomBytes(6)) : '',
      ...details,
      createdAt: now.toISOString(),
      savedMethod: approved && wantsSave ? saveMethod(c, fingerprint, details, c.method === 'CARD' ? { card: savedCardOutcome(number.cardNumber ?? '') } : { returnCode }, now) : null,
      ...(approved ? { settlement: c.method === 'BANK' ? ('PENDING' as const) : ('SETTLED' as const) } : {}),
    };
    const stored: StoredTransaction = {
      merchant: c.merchant,
      eventId: newId('evt'),
      transaction,
      notifyUrl: c.notifyUrl,
      ...(approved && c.method === 'BANK' ? pendingDebit(now, returnCode) : {}),
    };
    store.completeCheckout(c.checkoutId, stored);
    // the transaction and its notification's delivery are written together
    notifier.send(c.notifyUrl, { eventId: stored.eventId, type: 'transaction.completed', merchant: c.merchant, transaction: view(stored) });
    await save();
    return completedRedirect(reply, c);
  });

  return {
    app,
    store,
    flushNotifications: () => notifier.flush(),
    runSettlements,
    async close() {
      clearInterval(settleTimer);
      await notifier.close();
      await app.close();
      await store.settle();
    },
  };
}

type PageValues = { name?: string; expiry?: string; routing?: string; accountType?: string; save?: boolean };

/** What a re-rendered page shows again: never the card number, the CVV or the account number. */
function keptValues(form: FormFields): PageValues {
  const pick = (k: string, max: number) => (typeof form[k] === 'string' ? (form[k] as string).slice(0, max) : undefined);
  const name = pick('name', 200);
  return {
    // a name with a long number in it (a card number typed in the wrong box) is not shown again either
    name: name !== undefined && /\d(?:[\s-]?\d){7,}/.test(name) ? '' : name,
    expiry: pick('expiry', 7),
    routing: pick('routing', 11),
    accountType: pick('accountType', 10),
    save: form.saveMethod === '1',
  };
}
