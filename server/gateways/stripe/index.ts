// The Stripe adapter: gateway code 4, its parents back at /stripereturn. Its PAYMENT_GATEWAYS entry
// names the environment variables holding the secret key and the webhook's signing secret, so no
// secret is written in a settings file; host, port and protocol point it at another API (a local fake).
import type { GatewayAdapter } from '../adapter';
import { stripeGateway } from './client';

/** A PAYMENT_GATEWAYS entry of the Stripe kind, e.g. {"adapter": "stripe", "secretKeyEnv": "STRIPE_SECRET_KEY", "webhookSecretEnv": "STRIPE_WEBHOOK_SECRET"}. */
export interface StripeSettings {
  secretKeyEnv: string;
  webhookSecretEnv: string;
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  timeoutMs?: number;
  toleranceSeconds?: number;
  checkoutMinutes?: number;
}

const ENV_NAME = { type: 'string', pattern: '^[A-Z][A-Z0-9_]{0,63}$' };

/** The value of an environment variable an entry names; a missing one stops the start. */
function secretFrom(name: string, what: string, code: number): string {
  const value = process.env[name];
  if (!value) throw new Error(`PAYMENT_GATEWAYS: gateway "${code}" (stripe): the environment variable ${name} (${what}) is not set`);
  return value;
}

export const stripeAdapter: GatewayAdapter<StripeSettings> = {
  name: 'stripe',
  gateways: [{ code: 4, returnRoute: '/stripereturn' }],
  settingsSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['secretKeyEnv', 'webhookSecretEnv'],
    properties: {
      secretKeyEnv: { ...ENV_NAME, description: 'the environment variable holding the secret API key (sk_live_... or sk_test_...)' },
      webhookSecretEnv: { ...ENV_NAME, description: "the environment variable holding the webhook endpoint's signing secret (whsec_...)" },
      host: { type: 'string', pattern: '^[A-Za-z0-9.-]{1,253}$', description: 'another API host than api.stripe.com (a local fake)' },
      port: { type: 'integer', minimum: 1, maximum: 65535 },
      protocol: { enum: ['http', 'https'] },
      timeoutMs: { type: 'integer', minimum: 1000, maximum: 120000, description: 'a request not answered within this is a timeout (default 15000)' },
      toleranceSeconds: { type: 'integer', minimum: 10, maximum: 600, description: 'a webhook signed longer ago than this is refused (default 300)' },
      checkoutMinutes: { type: 'integer', minimum: 31, maximum: 1440, description: "minutes the hosted page takes a payment (default Stripe's, 24 hours)" },
    },
  },
  create: (code, s) =>
    stripeGateway({
      code,
      secretKey: secretFrom(s.secretKeyEnv, 'the secret key', code),
      webhookSecret: secretFrom(s.webhookSecretEnv, 'the webhook signing secret', code),
      host: s.host,
      port: s.port,
      protocol: s.protocol,
      timeoutMs: s.timeoutMs,
      toleranceSeconds: s.toleranceSeconds,
      checkoutMinutes: s.checkoutMinutes,
    }),
};
