// Per-address limits of the operations that create or redeem something: starting a checkout, asking
// a payment's result, issuing and redeeming an application keyelement, and the gateways'
// notifications. Each is declared on the operation (its `rateLimit` in schemas/api) or beside the
// route; a parent never reaches it, a script does, and answers 429 with its message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestApp, freshIp, tokenFor, MARIA, type TestApp } from './helpers';
import { contractOperations, readContract } from '../../server/contract';
import { NOTIFICATION_RATE_LIMIT } from '../../server/app';
import { ROOT } from '../../server/app';

const ops = new Map(contractOperations(readContract(ROOT)).map((o) => [o.id, o]));
const LIMITED = ['Billing.startPayment', 'Billing.paymentResult', 'Registration.applicationToken', 'Registration.applicationTokenRedeem'];

describe('declared limits', () => {
  it('every operation that starts a checkout, applies a payment or issues or redeems a keyelement is limited per address', () => {
    for (const id of LIMITED) {
      const limit = ops.get(id)?.rateLimit;
      expect(limit, id).toBeDefined();
      // a parent's own pace stays below it: no fewer than 20 a minute, and no more than 120
      expect(limit!.timeWindow, id).toBe(60_000);
      expect(limit!.max, id).toBeGreaterThanOrEqual(20);
      expect(limit!.max, id).toBeLessThanOrEqual(120);
    }
    // the result page asks every 2 seconds while a payment is pending: 30 a minute, which its limit allows
    expect(ops.get('Billing.paymentResult')!.rateLimit!.max).toBeGreaterThan(31);
    // a gateway sends every parent's notifications from few addresses, and retries
    expect(NOTIFICATION_RATE_LIMIT.max).toBeGreaterThanOrEqual(600);
  });
});

describe.each(BACKENDS)('per-address limits on %s', (backend) => {
  let t: TestApp;
  let token = '';
  beforeAll(async () => {
    t = await createTestApp(backend);
    token = await tokenFor(t.app, ...MARIA);
  });
  afterAll(async () => t?.close());

  /** max requests from one address are answered by the operation, the next one 429; another address is still answered */
  async function reachLimit(url: string, max: number, withToken: boolean) {
    const ip = freshIp();
    const send = (from: string) =>
      t.app.inject({ method: 'POST', url, headers: { ...(withToken ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', 'accept-language': 'es' }, payload: '{}', remoteAddress: from });
    for (let i = 0; i < max; i++) {
      const res = await send(ip);
      expect(res.statusCode, `${url} #${i + 1}: ${res.body}`).not.toBe(429);
      expect(res.statusCode).toBeLessThan(500);
    }
    const over = await send(ip);
    expect(over.statusCode, url).toBe(429);
    expect(over.json().key).toBe('server.errors.tooManyRequests');
    expect(over.json().message).toBe(t.app.deps.t('es', 'errors.tooManyRequests'));
    expect((await send(freshIp())).statusCode).not.toBe(429);
  }

  for (const id of LIMITED) {
    it(`${id} answers 429 past its limit`, async () => {
      const op = ops.get(id)!;
      await reachLimit(op.url, op.rateLimit!.max, op.auth !== 'public');
    });
  }

  it('the gateways\' notifications answer 429 past their (generous) limit', { timeout: 60_000 }, async () => {
    await reachLimit('/api/Billing/payment/notification/1', NOTIFICATION_RATE_LIMIT.max, false);
  });
});

describe('addresses the limits do not count', () => {
  it('a load test\'s own address (RATE_LIMIT_ALLOW_LIST) is never limited; every other one is', async () => {
    const t = await createTestApp('pglite', { rateLimitAllowList: ['10.250.0.1'] });
    try {
      const token = await tokenFor(t.app, ...MARIA);
      const op = ops.get('Billing.startPayment')!;
      const send = (ip: string) => t.app.inject({ method: 'POST', url: op.url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: '{}', remoteAddress: ip });
      for (let i = 0; i <= op.rateLimit!.max; i++) expect((await send('10.250.0.1')).statusCode).not.toBe(429);
      const other = freshIp();
      for (let i = 0; i < op.rateLimit!.max; i++) await send(other);
      expect((await send(other)).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });
});
