// The gateway interface the portal pays through (spec 7.1): a hosted payment page on the gateway's
// own origin, a signed return, signed server-to-server notifications, a transaction query and
// refunds. Saved methods and autopay enrolment will add operations here; a second real gateway
// implements the same interface. The built-in sandbox (server/gateway/sandbox) speaks
// server/gateway/protocol.ts.
import { randomUUID } from 'node:crypto';
import {
  MERCHANT_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  signMessage,
  verifyMessage,
  verifyReturn,
  type CancelCheckoutAnswer,
  type CheckoutAnswer,
  type CheckoutQueryAnswer,
  type CreateCheckoutRequest,
  type GatewayNotification,
  type RefundAnswer,
  type RefundRequest,
  type ReturnQuery,
} from '../gateway/protocol';

/** Spec 2.1: the return route of the first gateway code and of the second. */
export const RETURN_ROUTES: Record<number, '/bluepayresponse' | '/ezceredirection'> = { 1: '/bluepayresponse', 2: '/ezceredirection' };

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
  /** a notification's body when its signature holds, else null */
  verifyNotification(headers: Record<string, string | string[] | undefined>, rawBody: string): GatewayNotification | null;
  /** whether the parent's return query carries the gateway's signature */
  verifyReturn(q: ReturnQuery, sig: string | undefined): boolean;
}

export class GatewayUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GatewayUnavailable';
  }
}

export interface SandboxGatewayConfig {
  code: number;
  /** the sandbox's base URL (its own origin) */
  url: string;
  merchant: string;
  secret: string;
  /** a request the gateway does not answer within this is a timeout */
  timeoutMs?: number;
  clock?: () => Date;
}

const header = (h: Record<string, string | string[] | undefined>, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

export function sandboxGateway(cfg: SandboxGatewayConfig): PaymentGateway {
  const now = () => Math.floor((cfg.clock ?? (() => new Date()))().getTime() / 1000);
  const base = cfg.url.replace(/\/$/, '');

  async function send<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const raw = body === undefined ? '' : JSON.stringify(body);
    const ts = now();
    const signature = signMessage(cfg.secret, ts, method === 'GET' ? `GET ${path}` : raw);
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: { [MERCHANT_HEADER]: cfg.merchant, [TIMESTAMP_HEADER]: String(ts), [SIGNATURE_HEADER]: signature, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        body: method === 'POST' ? raw : undefined,
        signal: AbortSignal.timeout(cfg.timeoutMs ?? 15_000),
      });
    } catch (e) {
      throw new GatewayUnavailable(`gateway ${cfg.code} did not answer: ${(e as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) throw new GatewayUnavailable(`gateway ${cfg.code} answered ${res.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  }

  return {
    code: cfg.code,
    createCheckout: (req) => send<CheckoutAnswer>('POST', '/api/checkouts', { ...req, merchant: cfg.merchant }),
    queryCheckout: (checkoutId) => send<CheckoutQueryAnswer>('GET', `/api/checkouts/${encodeURIComponent(checkoutId)}`),
    cancelCheckout: (idempotencyKey) => send<CancelCheckoutAnswer>('POST', '/api/checkouts/cancel', { idempotencyKey, merchant: cfg.merchant }),
    refund: (req) => send<RefundAnswer>('POST', '/api/refunds', { ...req, merchant: cfg.merchant }),
    verifyNotification(headers, rawBody) {
      if (header(headers, MERCHANT_HEADER) !== cfg.merchant) return null;
      if (!verifyMessage(cfg.secret, header(headers, TIMESTAMP_HEADER), header(headers, SIGNATURE_HEADER), rawBody, now())) return null;
      try {
        const n = JSON.parse(rawBody) as GatewayNotification;
        return n && typeof n.eventId === 'string' && n.merchant === cfg.merchant && n.transaction && typeof n.transaction.transactionId === 'string' ? n : null;
      } catch {
        return null;
      }
    },
    verifyReturn: (q, sig) => verifyReturn(cfg.secret, q, sig),
  };
}

/** A new idempotency key for a request the portal makes on its own (a refund). */
export const newKey = () => randomUUID();
