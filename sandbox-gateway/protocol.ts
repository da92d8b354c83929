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
   * Why it was not approved: CVV, EXPIRY, AVS, DECLINED, BANK_<code> (bank return codes of the A, R,
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
  type: 'transaction.completed' | 'refund.completed';
  merchant: string;
  transaction: GatewayTransaction;
  refund?: RefundAnswer;
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
