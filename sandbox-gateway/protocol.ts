// The wire protocol between the portal's server and a hosted-payment-page gateway of the sandbox kind
// (this folder's program). Card and bank numbers are typed only on the gateway's page, on its own
// origin: nothing here carries them. Every server-to-server message is signed with HMAC-SHA256 over
// its timestamp and raw body with the merchant's shared secret; the parent's return is signed over
// its query. Both sides import this file (the portal's sandbox adapter, server/gateways/sandbox/, imports
// nothing else of this folder), so the two cannot drift apart.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type GatewayMethod = 'CARD' | 'BANK';
export type TransactionStatus = 'APPROVED' | 'DECLINED' | 'ERROR';

export interface CheckoutPayer {
  firstName: string;
  lastName: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  /** US or CA */
  country: string;
  email: string;
  phone: string;
}

/** POST /api/checkouts */
export interface CreateCheckoutRequest {
  /** the same key answers the first checkout again instead of making a second one */
  idempotencyKey: string;
  /** the merchant (the portal's gateway code) whose secret signs the messages */
  merchant: string;
  /** shown on the hosted page above the amount */
  merchantName: string;
  amountCents: number;
  currency: 'USD' | 'CAD';
  method: GatewayMethod;
  /** the portal's own id of the attempt, echoed in the notification */
  reference: string;
  /** where the parent returns (signed query added) */
  returnUrl: string;
  /** where the signed server-to-server notification is posted */
  notifyUrl: string;
  /** where Cancel on the hosted page leads (no payment) */
  cancelUrl: string;
  /** en, es, pt or vi */
  locale: string;
  payer: CheckoutPayer;
  /**
   * Offer "save for later" on the hosted page (the parent ticks it there): when ticked, the
   * transaction carries `savedMethod`, a token the portal can charge later. Absent means false.
   */
  offerSave?: boolean;
  /**
   * The method is kept whatever the parent ticks (a payment that enrols in automatic payments, which
   * charge its token): the page says so instead of offering the box. Absent means false.
   */
  saveRequired?: boolean;
}

/** OPEN takes a payment; COMPLETED has its one transaction; EXPIRED and CANCELLED take none. */
export type CheckoutStatus = 'OPEN' | 'COMPLETED' | 'EXPIRED' | 'CANCELLED';

export interface CheckoutAnswer {
  checkoutId: string;
  /** the hosted page the parent is sent to */
  url: string;
  status: CheckoutStatus;
  /** ISO date-time after which the page no longer takes a payment */
  expiresAt: string;
}

export interface GatewayTransaction {
  transactionId: string;
  checkoutId: string;
  reference: string;
  status: TransactionStatus;
  amountCents: number;
  method: GatewayMethod;
  /**
   * Why it was not approved: CVV, EXPIRY, AVS, DECLINED, a saved card's INSUFFICIENT_FUNDS,
   * ISSUER_UNAVAILABLE, TRY_AGAIN_LATER, STOLEN, LOST, CLOSED or DO_NOT_HONOR, BANK_<code> (bank return codes of the A, R,
   * S, U and X families, e.g. BANK_R01), FRAUD_AMOUNT, FRAUD_VELOCITY, FRAUD_EMAIL, FRAUD_IP,
   * FRAUD_ADDRESS, TIMEOUT; empty when approved
   */
  reasonCode: string;
  /** the gateway's approval code when approved */
  authCode: string;
  /** VISA, MASTERCARD, AMEX, DISCOVER for cards; CHECKING or SAVINGS for bank accounts */
  brand: string;
  last4: string;
  holderName: string;
  /** MM/YY for cards, empty for bank accounts */
  expiry: string;
  /** ISO date-time */
  createdAt: string;
  /**
   * The method saved at the parent's request on the hosted page (or the saved method charged), null
   * when none. Absent in older messages: read as null.
   */
  savedMethod?: SavedMethod | null;
  /**
   * Bank debits only: PENDING when the debit was accepted and is on its way through the banks (3 to 5
   * business days), then SETTLED or RETURNED (see transaction.settled / transaction.returned). Cards
   * are SETTLED when approved. Absent in older messages: read as SETTLED.
   */
  settlement?: Settlement;
  /** settlement RETURNED only: the bank's return code, e.g. R01 (as in transaction.returned) */
  returnCode?: string;
}

export type Settlement = 'PENDING' | 'SETTLED' | 'RETURNED';

/**
 * A payment method kept by the gateway for later charges: the portal stores the token and what it
 * shows (never the number). A token belongs to one merchant; another merchant's token is unknown.
 */
export interface SavedMethod {
  token: string;
  method: GatewayMethod;
  /** VISA, MASTERCARD, AMEX, DISCOVER, OTHER; CHECKING or SAVINGS */
  brand: string;
  last4: string;
  holderName: string;
  /** MM/YY for cards, '' for bank accounts */
  expiry: string;
  /**
   * ACTIVE; INVALID when the gateway's validation or a return said the account is closed or does not
   * exist (it can never be charged again); BLOCKED until a new authorisation (a return saying the
   * payer revoked or did not authorise the debit)
   */
  status: 'ACTIVE' | 'INVALID' | 'BLOCKED';
}

/**
 * POST /api/tokens/charge: charges a saved method server to server (no page). The same idempotency
 * key answers the first charge again. The answer is the transaction (approved, declined or, for a
 * bank debit, approved with settlement PENDING); an unknown or another merchant's token is 404.
 */
export interface ChargeTokenRequest {
  idempotencyKey: string;
  merchant: string;
  token: string;
  amountCents: number;
  currency: 'USD' | 'CAD';
  /** the portal's own id of the attempt, echoed in the transaction and its notifications */
  reference: string;
  /** where the transaction's later notifications (settled, returned) are posted */
  notifyUrl: string;
}

/** POST /api/tokens/update: a card's new expiry or holder, in place (the token stays). */
export interface UpdateTokenRequest {
  merchant: string;
  token: string;
  /** MM/YY, not in the past */
  expiry?: string;
  holderName?: string;
}

/** POST /api/tokens/delete: the gateway forgets the method; deleting twice is not an error. */
export interface DeleteTokenRequest {
  merchant: string;
  token: string;
}

/** The answer to update and delete: the method as it is now (status INVALID once deleted). */
export interface TokenAnswer {
  savedMethod: SavedMethod;
}

/**
 * POST /api/settlements/run: settles or returns at once every bank debit of the signing merchant whose
 * time has come by the gateway's clock (3 business days after it was taken) and sends their
 * notifications; the gateway also does this on its own timer.
 */
export interface SettlementRunRequest {
  merchant: string;
  /**
   * Settle as if it were this ISO date-time (debits due by then). A test convenience: refused unless
   * the sandbox was started with settle-ahead allowed (SANDBOX_GATEWAY_SETTLE_AHEAD=1).
   */
  asOf?: string;
}

/** The transaction ids settled and returned by the run. */
export interface SettlementRunAnswer {
  settled: string[];
  returned: string[];
}

/** GET /api/checkouts/:checkoutId (the single-transaction query) */
export interface CheckoutQueryAnswer {
  checkoutId: string;
  reference: string;
  status: CheckoutStatus;
  transaction: GatewayTransaction | null;
  /** cents refunded so far */
  refundedCents: number;
}

/**
 * POST /api/checkouts/cancel: closes the checkout opened with this idempotency key, so its page takes
 * no payment any more. A key with no checkout yet is closed too (a checkout asked for later with it
 * is refused). A checkout paid first is not cancelled: the answer is COMPLETED with its transaction,
 * which the portal then applies.
 */
export interface CancelCheckoutRequest {
  merchant: string;
  idempotencyKey: string;
}

export interface CancelCheckoutAnswer {
  /** null when no checkout had been opened with the key */
  checkoutId: string | null;
  status: 'CANCELLED' | 'COMPLETED' | 'EXPIRED';
  transaction: GatewayTransaction | null;
}

/** The notification body posted to notifyUrl (it may come late, twice, or before the parent returns). */
export interface GatewayNotification {
  /** unique per event; a repeated delivery repeats the id */
  eventId: string;
  /**
   * transaction.completed: a page was paid (or declined); transaction.settled / transaction.returned:
   * a bank debit cleared, or came back with `returnCode`; refund.completed: a refund was made.
   */
  type: 'transaction.completed' | 'transaction.settled' | 'transaction.returned' | 'refund.completed';
  merchant: string;
  transaction: GatewayTransaction;
  refund?: RefundAnswer;
  /** transaction.returned only: the bank's return code, e.g. R01 */
  returnCode?: string;
}

/** POST /api/refunds */
export interface RefundRequest {
  idempotencyKey: string;
  merchant: string;
  transactionId: string;
  amountCents: number;
}

export interface RefundAnswer {
  refundId: string;
  transactionId: string;
  amountCents: number;
  status: 'REFUNDED' | 'REFUSED';
  createdAt: string;
}

/** Headers of a signed server-to-server message. */
export const SIGNATURE_HEADER = 'x-gateway-signature';
export const TIMESTAMP_HEADER = 'x-gateway-timestamp';
export const MERCHANT_HEADER = 'x-gateway-merchant';
/** A signed message older or newer than this is refused (replay window). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

export function safeEqualHex(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || a.length !== b.length || !/^[0-9a-f]*$/.test(a)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/** Signature of a server-to-server message: over `${timestamp}.${payload}` (payload: raw body, or method and path for a GET). */
export function signMessage(secret: string, timestamp: number, payload: string): string {
  return hmac(secret, `${timestamp}.${payload}`);
}

export function verifyMessage(secret: string, timestamp: string | undefined, signature: string | undefined, payload: string, nowSeconds: number): boolean {
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return false;
  return safeEqualHex(signMessage(secret, Number(timestamp), payload), signature);
}

/** The query of the parent's return: checkout, transaction and status, signed with `sig`. */
export interface ReturnQuery {
  checkout: string;
  transaction: string;
  status: TransactionStatus | 'CANCELLED';
}

const returnText = (q: ReturnQuery) => `${q.checkout}|${q.transaction}|${q.status}`;

export function signReturn(secret: string, q: ReturnQuery): string {
  return hmac(secret, returnText(q));
}

export function verifyReturn(secret: string, q: ReturnQuery, sig: string | undefined): boolean {
  return typeof sig === 'string' && safeEqualHex(signReturn(secret, q), sig);
}
