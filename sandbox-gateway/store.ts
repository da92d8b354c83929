// The sandbox gateway's own store: checkouts, transactions, refunds, saved methods (tokens), idempotency
// keys, the recent attempts per card or bank account (for the velocity rule) and the notifications not
// yet delivered. It never holds a full card or bank account number, nor a CVV: a transaction keeps the
// last 4 digits, the brand, the holder's name and the expiry, an attempt is keyed by a salted SHA-256
// fingerprint of the number, and a token keeps that fingerprint and the number's test outcome.
//
// Memory only, or persisted to one JSON file (dataFile): every change is written whole to a temporary
// file next to it, then renamed over it, so a crash leaves either the old or the new file.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CheckoutPayer, CheckoutStatus, CreateCheckoutRequest, GatewayMethod, GatewayTransaction, RefundAnswer, SavedMethod } from './protocol';
import { VELOCITY_WINDOW_MS, type Outcome } from './outcomes';

export type { CheckoutStatus };

export interface StoredCheckout {
  checkoutId: string;
  merchant: string;
  idempotencyKey: string;
  /** SHA-256 of the canonical request: the same key with another body is a conflict */
  requestHash: string;
  merchantName: string;
  amountCents: number;
  currency: 'USD' | 'CAD';
  method: GatewayMethod;
  reference: string;
  returnUrl: string;
  notifyUrl: string;
  cancelUrl: string;
  locale: string;
  payer: CheckoutPayer;
  /** the page offers "save for later" */
  offerSave?: boolean;
  /** the method is kept whatever the parent ticks (an autopay enrolment) */
  saveRequired?: boolean;
  /** EXPIRED is not stored: it follows from expiresAt (see checkoutStatus) */
  state: 'OPEN' | 'COMPLETED' | 'CANCELLED';
  createdAt: string;
  expiresAt: string;
  transactionId: string | null;
}

export interface StoredTransaction {
  merchant: string;
  /** the event id of its transaction.completed notification */
  eventId: string;
  transaction: GatewayTransaction;
  /** where its later notifications go (a token charge has no checkout to take it from) */
  notifyUrl?: string;
  /** a bank debit on its way: when it settles or comes back, and with which code ('' settles) */
  pending?: { dueAt: number; returnCode: string };
}

/** A saved method: what the portal is shown, and what decides its charges (never the number). */
export interface StoredToken {
  merchant: string;
  savedMethod: SavedMethod;
  /** the salted fingerprint of the number (velocity); '' once deleted */
  fingerprint: string;
  /** a card's test outcome */
  cardOutcome?: Outcome;
  /** a bank account's test return code ('' when its debits settle) */
  returnCode?: string;
  /** the return code that made it INVALID or BLOCKED */
  statusReason: string;
  deleted: boolean;
  createdAt: string;
}

export interface StoredCharge {
  requestHash: string;
  transactionId: string;
}

/** A notification not yet delivered: kept until the portal takes it or its retries run out. */
export interface StoredDelivery {
  id: string;
  url: string;
  merchant: string;
  /** the notification's JSON text, signed at each try */
  body: string;
  /** failed tries so far */
  attempts: number;
  /** when the next try is due (ms since the epoch, by the sandbox's clock) */
  nextAttemptAt: number;
}

export interface StoredRefund {
  merchant: string;
  idempotencyKey: string;
  requestHash: string;
  answer: RefundAnswer;
}

interface StoreData {
  version: 1;
  /** salt of the card and bank account fingerprints */
  salt: string;
  checkouts: Record<string, StoredCheckout>;
  transactions: Record<string, StoredTransaction>;
  refunds: Record<string, StoredRefund>;
  /** `${merchant}\n${idempotencyKey}` → checkoutId */
  checkoutKeys: Record<string, string>;
  /** `${merchant}\n${idempotencyKey}` of keys cancelled before any checkout was opened with them */
  cancelledKeys?: Record<string, true>;
  /** `${merchant}\n${idempotencyKey}` → refundId */
  refundKeys: Record<string, string>;
  /** fingerprint → times (ms) of attempts within the velocity window */
  attempts: Record<string, number[]>;
  /** notifications not yet delivered, by id (a store written before they were kept has none) */
  deliveries?: Record<string, StoredDelivery>;
  /** saved methods by token */
  tokens?: Record<string, StoredToken>;
  /** `${merchant}\n${idempotencyKey}` → the token charge made with it */
  chargeKeys?: Record<string, StoredCharge>;
}

const emptyData = (): StoreData => ({
  version: 1,
  salt: randomBytes(16).toString('hex'),
  checkouts: {},
  transactions: {},
  refunds: {},
  checkoutKeys: {},
  refundKeys: {},
  attempts: {},
});

const keyOf = (merchant: string, idempotencyKey: string) => `${merchant}\n${idempotencyKey}`;

/** JSON with sorted object keys: the same request gives the same text whatever its key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function requestHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}

/** A random url-safe id of 128 bits with a readable prefix. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

/** Anything that looks like a full card or account number (8+ digits in a row, spaces and dashes allowed). */
const LONG_NUMBER = /\d(?:[\s-]?\d){7,}/;

export class SandboxStore {
  private data: StoreData;
  private writing: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;

  private constructor(
    private readonly file: string | undefined,
    data: StoreData,
  ) {
    this.data = data;
  }

  /** Opens the store: memory only without a file; a file that exists is read (a broken one stops the start). */
  static async open(file?: string): Promise<SandboxStore> {
    if (!file) return new SandboxStore(undefined, emptyData());
    let text: string | null = null;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (text === null) return new SandboxStore(file, emptyData());
    const data = JSON.parse(text) as StoreData;
    if (!data || data.version !== 1 || typeof data.salt !== 'string') throw new Error(`${file} is not a sandbox gateway store (version 1)`);
    return new SandboxStore(file, { ...emptyData(), ...data });
  }

  get dataFile(): string | undefined {
    return this.file;
  }

  /** Salted SHA-256 of a card number or routing+account number: the only trace of the number kept. */
  fingerprint(kind: GatewayMethod, number: string): string {
    return createHash('sha256').update(`${this.data.salt}:${kind}:${number}`, 'utf8').digest('hex');
  }

  // ── checkouts ──

  getCheckout(checkoutId: string): StoredCheckout | undefined {
    return Object.hasOwn(this.data.checkouts, checkoutId) ? this.data.checkouts[checkoutId] : undefined;
  }

  findCheckoutByKey(merchant: string, idempotencyKey: string): StoredCheckout | undefined {
    const id = this.data.checkoutKeys[keyOf(merchant, idempotencyKey)];
    return id ? this.getCheckout(id) : undefined;
  }

  addCheckout(checkout: StoredCheckout): void {
    const key = keyOf(checkout.merchant, checkout.idempotencyKey);
    if (this.data.checkoutKeys[key]) throw new Error('idempotency key already used');
    this.data.checkouts[checkout.checkoutId] = checkout;
    this.data.checkoutKeys[key] = checkout.checkoutId;
  }

  /** The checkout's status at `now`: an OPEN checkout past its expiresAt is EXPIRED. */
  static checkoutStatus(checkout: StoredCheckout, now: Date): CheckoutStatus {
    if (checkout.state === 'COMPLETED' || checkout.state === 'CANCELLED') return checkout.state;
    return now.getTime() > Date.parse(checkout.expiresAt) ? 'EXPIRED' : 'OPEN';
  }

  /** Whether a key was cancelled before a checkout was opened with it. */
  keyCancelled(merchant: string, idempotencyKey: string): boolean {
    return Boolean(this.data.cancelledKeys?.[keyOf(merchant, idempotencyKey)]);
  }

  /**
   * Cancels the checkout of a key (an OPEN one; a COMPLETED or EXPIRED one stays as it is), or marks
   * the key cancelled when no checkout has it yet. Synchronous: no payment can slip in between.
   */
  cancelByKey(merchant: string, idempotencyKey: string, now: Date): StoredCheckout | undefined {
    const checkout = this.findCheckoutByKey(merchant, idempotencyKey);
    if (!checkout) {
      (this.data.cancelledKeys ??= {})[keyOf(merchant, idempotencyKey)] = true;
      return undefined;
    }
    if (SandboxStore.checkoutStatus(checkout, now) === 'OPEN') checkout.state = 'CANCELLED';
    return checkout;
  }

  /** Cancels an OPEN checkout (its page's own Cancel). */
  cancelCheckout(checkoutId: string, now: Date): void {
    const checkout = this.getCheckout(checkoutId);
    if (checkout && SandboxStore.checkoutStatus(checkout, now) === 'OPEN') checkout.state = 'CANCELLED';
  }

  /** Stores the transaction and completes its checkout in one step (no await between them). */
  completeCheckout(checkoutId: string, stored: StoredTransaction): void {
    const checkout = this.getCheckout(checkoutId);
    if (!checkout) throw new Error('unknown checkout');
    if (checkout.state !== 'OPEN') throw new Error(`checkout already ${checkout.state.toLowerCase()}`);
    const tx = stored.transaction;
    // the store's promise: no full number, whatever a caller passes
    if (!/^\d{0,4}$/.test(tx.last4)) throw new Error('last4 must be at most 4 digits');
    if (LONG_NUMBER.test(tx.holderName)) throw new Error('a holder name must not contain a long number');
    this.data.transactions[tx.transactionId] = stored;
    checkout.state = 'COMPLETED';
    checkout.transactionId = tx.transactionId;
  }

  /** Stores a transaction made without a checkout (a token charge) under its idempotency key. */
  addCharge(idempotencyKey: string, requestHash: string, stored: StoredTransaction): void {
    const key = keyOf(stored.merchant, idempotencyKey);
    const keys = (this.data.chargeKeys ??= {});
    if (keys[key]) throw new Error('idempotency key already used');
    const tx = stored.transaction;
    if (!/^\d{0,4}$/.test(tx.last4)) throw new Error('last4 must be at most 4 digits');
    if (LONG_NUMBER.test(tx.holderName)) throw new Error('a holder name must not contain a long number');
    this.data.transactions[tx.transactionId] = stored;
    keys[key] = { requestHash, transactionId: tx.transactionId };
  }

  findChargeByKey(merchant: string, idempotencyKey: string): (StoredCharge & { stored: StoredTransaction }) | undefined {
    const c = this.data.chargeKeys?.[keyOf(merchant, idempotencyKey)];
    const stored = c ? this.getTransaction(c.transactionId) : undefined;
    return c && stored ? { ...c, stored } : undefined;
  }

  /** Bank debits whose settlement is due at `nowMs` (of one merchant, or all), oldest first. */
  dueDebits(nowMs: number, merchant?: string): StoredTransaction[] {
    return Object.values(this.data.transactions)
      .filter((t) => t.pending && t.pending.dueAt <= nowMs && (merchant === undefined || t.merchant === merchant))
      .sort((a, b) => a.pending!.dueAt - b.pending!.dueAt);
  }

  getTransaction(transactionId: string): StoredTransaction | undefined {
    return Object.hasOwn(this.data.transactions, transactionId) ? this.data.transactions[transactionId] : undefined;
  }

  transactionCount(): number {
    return Object.keys(this.data.transactions).length;
  }

  transactionsOfCheckout(checkoutId: string): GatewayTransaction[] {
    return Object.values(this.data.transactions)
      .map((t) => t.transaction)
      .filter((t) => t.checkoutId === checkoutId);
  }

  // ── refunds ──

  findRefundByKey(merchant: string, idempotencyKey: string): StoredRefund | undefined {
    const id = this.data.refundKeys[keyOf(merchant, idempotencyKey)];
    return id && Object.hasOwn(this.data.refunds, id) ? this.data.refunds[id] : undefined;
  }

  addRefund(refund: StoredRefund): void {
    const key = keyOf(refund.merchant, refund.idempotencyKey);
    if (this.data.refundKeys[key]) throw new Error('idempotency key already used');
    this.data.refunds[refund.answer.refundId] = refund;
    this.data.refundKeys[key] = refund.answer.refundId;
  }

  /** Cents refunded so far (REFUNDED answers only). */
  refundedCents(transactionId: string): number {
    let sum = 0;
    for (const r of Object.values(this.data.refunds)) {
      if (r.answer.transactionId === transactionId && r.answer.status === 'REFUNDED') sum += r.answer.amountCents;
    }
    return sum;
  }

  // ── saved methods ──

  addToken(t: StoredToken): void {
    if (!/^\d{0,4}$/.test(t.savedMethod.last4)) throw new Error('last4 must be at most 4 digits');
    if (LONG_NUMBER.test(t.savedMethod.holderName)) throw new Error('a holder name must not contain a long number');
    (this.data.tokens ??= {})[t.savedMethod.token] = t;
  }

  /** The stored token itself (a change to it is written by the next save); another merchant's is unknown. */
  getToken(token: string, merchant?: string): StoredToken | undefined {
    const all = this.data.tokens;
    const t = all && Object.hasOwn(all, token) ? all[token] : undefined;
    return t && (merchant === undefined || t.merchant === merchant) ? t : undefined;
  }

  // ── velocity ──

  /**
   * Records an attempt with the fingerprinted card or account at `nowMs` and answers how many earlier
   * attempts with it fall within the velocity window (older ones are forgotten).
   */
  recordAttempt(fingerprint: string, nowMs: number): number {
    const kept = (this.data.attempts[fingerprint] ?? []).filter((t) => nowMs - t < VELOCITY_WINDOW_MS && t <= nowMs);
    const earlier = kept.length;
    kept.push(nowMs);
    this.data.attempts[fingerprint] = kept;
    // forget the others' stale attempts now and then
    for (const [fp, times] of Object.entries(this.data.attempts)) {
      if (times.every((t) => nowMs - t >= VELOCITY_WINDOW_MS)) delete this.data.attempts[fp];
    }
    return earlier;
  }

  // ── notification deliveries ──

  addDelivery(delivery: StoredDelivery): void {
    (this.data.deliveries ??= {})[delivery.id] = delivery;
  }

  /** The stored delivery itself: a change to it is written by the next save. */
  getDelivery(id: string): StoredDelivery | undefined {
    const all = this.data.deliveries;
    return all && Object.hasOwn(all, id) ? all[id] : undefined;
  }

  removeDelivery(id: string): void {
    if (this.data.deliveries) delete this.data.deliveries[id];
  }

  /** The deliveries still to make, the soonest due first. */
  pendingDeliveries(): StoredDelivery[] {
    return Object.values(this.data.deliveries ?? {}).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
  }

  // ── persistence ──

  /**
   * Writes the store to its file (nothing without one). Writes never overlap; changes made while one
   * is running are taken by the next one, and callers that come while a write is queued share it.
   */
  save(): Promise<void> {
    if (!this.file) return Promise.resolve();
    if (this.queued) return this.queued;
    const run = this.writing.then(() => {
      this.queued = null;
      return this.writeNow();
    });
    this.queued = run;
    this.writing = run.catch(() => undefined);
    return run;
  }

  private async writeNow(): Promise<void> {
    const file = this.file!;
    const text = JSON.stringify(this.data);
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    await mkdir(dirname(file), { recursive: true });
    try {
      await writeFile(tmp, text, { encoding: 'utf8', mode: 0o600 });
      await rename(tmp, file);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
  }

  /** Waits for the writes started so far. */
  async settle(): Promise<void> {
    await this.writing;
  }
}

/** The fields of a checkout request the store keeps (all of them: none is a card or account number). */
export function checkoutFromRequest(
  req: CreateCheckoutRequest,
  extra: { checkoutId: string; requestHash: string; createdAt: Date; expiresAt: Date },
): StoredCheckout {
  return {
    checkoutId: extra.checkoutId,
    merchant: req.merchant,
    idempotencyKey: req.idempotencyKey,
    requestHash: extra.requestHash,
    merchantName: req.merchantName,
    amountCents: req.amountCents,
    currency: req.currency,
    method: req.method,
    reference: req.reference,
    returnUrl: req.returnUrl,
    notifyUrl: req.notifyUrl,
    cancelUrl: req.cancelUrl,
    locale: req.locale,
    payer: { ...req.payer },
    ...(req.offerSave ? { offerSave: true } : {}),
    ...(req.saveRequired ? { saveRequired: true } : {}),
    state: 'OPEN',
    createdAt: extra.createdAt.toISOString(),
    expiresAt: extra.expiresAt.toISOString(),
    transactionId: null,
  };
}
