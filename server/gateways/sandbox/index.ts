// The sandbox gateway's adapter: the built-in sandbox (sandbox-gateway/, its own program) stands in for
// gateway codes 1 and 2; a gateway speaking the same protocol is configured with the same entry.
import type { GatewayAdapter } from '../adapter';
import { sandboxGateway } from './client';

/** A PAYMENT_GATEWAYS entry of the sandbox kind, e.g. {"url": "https://pay.example", "merchant": "m1", "secret": "..."}. */
export interface SandboxSettings {
  url: string;
  merchant: string;
  secret: string;
  timeoutMs?: number;
}

export const sandboxAdapter: GatewayAdapter<SandboxSettings> = {
  name: 'sandbox',
  gateways: [
    { code: 1, returnRoute: '/bluepayresponse' },
    { code: 2, returnRoute: '/ezceredirection' },
  ],
  settingsSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['url', 'merchant', 'secret'],
    properties: {
      url: { type: 'string', pattern: '^https?://[^\\s]+$', description: "the gateway's base URL (its own origin)" },
      merchant: { type: 'string', minLength: 1, maxLength: 200, description: 'the merchant id whose secret signs the messages' },
      secret: { type: 'string', minLength: 8, description: 'the shared secret (HMAC-SHA256)' },
      timeoutMs: { type: 'integer', minimum: 1000, maximum: 120000, description: 'a request not answered within this is a timeout (default 15000)' },
    },
  },
  create: (code, s) => sandboxGateway({ code, url: s.url, merchant: s.merchant, secret: s.secret, timeoutMs: s.timeoutMs }),
};
