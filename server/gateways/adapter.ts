// What a payment gateway adapter is (ARCHITECTURE.md, Money and payments): the PaymentGateway interface
// the portal pays through (spec 7.1: a hosted payment page on the gateway's own origin, a signed return,
// signed server-to-server notifications, a transaction query and refunds), and the declaration one
// adapter folder exports (server/gateways/<name>/index.ts), listed once in server/gateways/registry.ts.
// The types of the messages are the sandbox's wire protocol (sandbox-gateway/protocol.ts): another
// gateway's adapter translates its own API to them.
import { randomUUID } from 'node:crypto';
import type {
  CancelCheckoutAnswer,
  ChargeTokenRequest,
  CheckoutAnswer,
  CheckoutQueryAnswer,
  CreateCheckoutRequest,
  GatewayNotification,
  GatewayTransaction,
  RefundAnswer,
  RefundRequest,
  ReturnQuery,
  TokenAnswer,
  UpdateTokenRequest,
} from '../../sandbox-gateway/protocol';

/**
 * A notification whose signature holds but which carries nothing for the portal to apply (a page that
 * expired, a payment still pending at the gateway): answered 200, so the gateway stops sending it.
 */
export interface NothingToApply {
  eventId: string;
  type: 'nothing.to.apply';
}

/** What a verified notification is: a transaction or refund to apply, or nothing to apply. */
export type VerifiedNotification = GatewayNotification | NothingToApply;

export interface PaymentGateway {
  /** the gateway provider code (spec 7.1 payment-gateway-provider) */
  readonly code: number;
  createCheckout(req: Omit<CreateCheckoutRequest, 'merchant'>): Promise<CheckoutAnswer>;
  /** the single-transaction query: the gateway's own word on a checkout */
  queryCheckout(checkoutId: string): Promise<CheckoutQueryAnswer>;
  /**
   * Closes the checkout opened with this idempotency key (the attempt's publicId) so its page takes no
   * payment; answers its transaction instead when it was paid first.
   */
  cancelCheckout(idempotencyKey: string): Promise<CancelCheckoutAnswer>;
  refund(req: Omit<RefundRequest, 'merchant'>): Promise<RefundAnswer>;
  /** charges a saved method server to server (no page); idempotent by the request's key */
  chargeToken(req: Omit<ChargeTokenRequest, 'merchant'>): Promise<GatewayTransaction>;
  /** a saved card's new expiry or holder, in place */
  updateToken(req: Omit<UpdateTokenRequest, 'merchant'>): Promise<TokenAnswer>;
  /** forgets a saved method at the gateway */
  deleteToken(token: string): Promise<TokenAnswer>;
  /** a notification's body when its signature holds, else null */
  verifyNotification(headers: Record<string, string | string[] | undefined>, rawBody: string): VerifiedNotification | null;
  /** whether the parent's return query carries the gateway's signature */
  verifyReturn(q: ReturnQuery, sig: string | undefined): boolean;
}

export class GatewayUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GatewayUnavailable';
  }
}

/**
 * The gateway refuses to open a page under a key that was closed before it opened (another tab of the
 * same account closed this attempt meanwhile). Not an outage: this attempt is over.
 */
export class CheckoutClosed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckoutClosed';
  }
}

/**
 * The gateway does not know a saved method's token (forgotten, deleted, another merchant's, or not one
 * it can act on). Not an outage: asking again changes nothing, so the method can no longer be used.
 */
export class TokenRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenRefused';
  }
}

/** A new idempotency key for a request the portal makes on its own (a refund). */
export const newKey = () => randomUUID();

/** A gateway code an adapter serves and the portal route its parents return to (spec 2.1). */
export interface GatewayReturn {
  /** 1 to 4 (spec: four gateway provider codes) */
  code: number;
  /** the return screen's path, e.g. /bluepayresponse: a screen of each product must declare it */
  returnRoute: string;
}

/** A JSON Schema (draft-07, checked by ajv). */
export type JsonSchema = Record<string, unknown>;

/** What an adapter folder exports: its codes and routes, its settings' schema and its constructor. */
export interface GatewayAdapter<Settings = unknown> {
  /** its folder's name; a PAYMENT_GATEWAYS entry may name it with "adapter" */
  readonly name: string;
  readonly gateways: readonly GatewayReturn[];
  /** the JSON Schema of its PAYMENT_GATEWAYS entry ("adapter" left out) */
  readonly settingsSchema: JsonSchema;
  /** the gateway of `code`, from an entry its schema accepted (a method: a list holds adapters of any settings) */
  create(code: number, settings: Settings): PaymentGateway;
}
