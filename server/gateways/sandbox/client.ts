// The portal's side of a gateway of the sandbox kind (the built-in sandbox, sandbox-gateway/, or a
// gateway speaking its protocol): each request signed with the merchant's secret, each notification
// and return checked against it.
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
  type GatewayNotification,
  type GatewayTransaction,
  type RefundAnswer,
  type SettlementRunAnswer,
  type TokenAnswer,
} from '../../../sandbox-gateway/protocol';
import { CheckoutClosed, GatewayUnavailable, TokenRefused, type PaymentGateway } from '../adapter';
import { errorMessage, isRecord } from '../../json';

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

/** The parts of a notification the portal reads (its signature held: the rest is the gateway's word). */
function isNotification(n: unknown): n is GatewayNotification {
  return isRecord(n) && typeof n.eventId === 'string' && isRecord(n.transaction) && typeof n.transaction.transactionId === 'string';
}

const header = (h: Record<string, string | string[] | undefined>, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** A sandbox-kind gateway: the PaymentGateway, and the settlement run tests use after moving the sandbox's clock. */
export interface SandboxPaymentGateway extends PaymentGateway {
  /**
   * settles or returns now every bank debit of this merchant whose time has come (signed POST
   * /api/settlements/run); `asOf`, a later ISO date-time, only where the sandbox allows settling ahead
   */
  runSettlements(asOf?: string): Promise<SettlementRunAnswer>;
}

export function sandboxGateway(cfg: SandboxGatewayConfig): SandboxPaymentGateway {
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
      throw new GatewayUnavailable(`gateway ${cfg.code} did not answer: ${errorMessage(e)}`);
    }
    const text = await res.text();
    // a token call answered 404: the gateway does not know the token (an outage is not a 404)
    if (res.status === 404 && path.startsWith('/api/tokens/')) throw new TokenRefused(`gateway ${cfg.code} does not know the token: ${text.slice(0, 200)}`);
    // a page asked for under a key another tab closed first
    if (res.status === 409 && path === '/api/checkouts' && text.includes('KEY_CANCELLED')) throw new CheckoutClosed(`gateway ${cfg.code}: ${text.slice(0, 200)}`);
    if (!res.ok) throw new GatewayUnavailable(`gateway ${cfg.code} answered ${res.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  }

  return {
    code: cfg.code,
    createCheckout: (req) => send<CheckoutAnswer>('POST', '/api/checkouts', { ...req, merchant: cfg.merchant }),
    queryCheckout: (checkoutId) => send<CheckoutQueryAnswer>('GET', `/api/checkouts/${encodeURIComponent(checkoutId)}`),
    cancelCheckout: (idempotencyKey) => send<CancelCheckoutAnswer>('POST', '/api/checkouts/cancel', { idempotencyKey, merchant: cfg.merchant }),
    refund: (req) => send<RefundAnswer>('POST', '/api/refunds', { ...req, merchant: cfg.merchant }),
    chargeToken: (req) => send<GatewayTransaction>('POST', '/api/tokens/charge', { ...req, merchant: cfg.merchant }),
    updateToken: (req) => send<TokenAnswer>('POST', '/api/tokens/update', { ...req, merchant: cfg.merchant }),
    deleteToken: (token) => send<TokenAnswer>('POST', '/api/tokens/delete', { merchant: cfg.merchant, token }),
    runSettlements: (asOf) => send<SettlementRunAnswer>('POST', '/api/settlements/run', { merchant: cfg.merchant, ...(asOf === undefined ? {} : { asOf }) }),
    verifyNotification(headers, rawBody) {
      if (header(headers, MERCHANT_HEADER) !== cfg.merchant) return null;
      if (!verifyMessage(cfg.secret, header(headers, TIMESTAMP_HEADER), header(headers, SIGNATURE_HEADER), rawBody, now())) return null;
      try {
        const n: unknown = JSON.parse(rawBody);
        return isNotification(n) && n.merchant === cfg.merchant ? n : null;
      } catch {
        return null;
      }
    },
    verifyReturn: (q, sig) => verifyReturn(cfg.secret, q, sig),
  };
}

