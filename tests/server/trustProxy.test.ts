// Behind a load balancer every request comes from the balancer's address: TRUST_PROXY names the
// balancers, whose X-Forwarded-For then gives the parent's address to the per-address limits. A
// header from anyone else, or with TRUST_PROXY unset, is ignored (anyone can write it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustProxySetting } from '../../server/app';
import { BACKENDS, createTestApp, type TestApp } from './helpers';

describe('TRUST_PROXY', () => {
  it('takes a hop count, or addresses and ranges, and refuses anything else', () => {
    expect(trustProxySetting(undefined)).toBeUndefined();
    expect(trustProxySetting(' ')).toBeUndefined();
    expect(trustProxySetting('2')).toBe(2);
    expect(trustProxySetting('10.0.0.0/8, 127.0.0.1,::1,fd00::/8')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
    expect(() => trustProxySetting('true')).toThrow('TRUST_PROXY: not an address or range: true');
    expect(() => trustProxySetting('10.0.0.0/33')).toThrow('10.0.0.0/33');
    expect(() => trustProxySetting('10.0.0.1/8/1')).toThrow();
  });
});

describe.each(BACKENDS)('per-address limits behind a load balancer on %s', (backend) => {
  let behind: TestApp;
  let direct: TestApp;
  beforeAll(async () => {
    behind = await createTestApp(backend, { trustProxy: ['10.20.0.0/16'] }, false);
    direct = await createTestApp(backend, {}, false);
  });
  afterAll(async () => {
    await behind?.close();
    await direct?.close();
  });

  // the provider look-up by e-mail allows 10 a minute per address
  const ask = (t: TestApp, from: string, forwardedFor: string, i: number) =>
    t.app.inject({ method: 'GET', url: `/api/Customer/application?parentemail=p${i}@example.com`, remoteAddress: from, headers: { 'x-forwarded-for': forwardedFor } });
  const codes = async (t: TestApp, from: string, forwardedFor: (i: number) => string, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await ask(t, from, forwardedFor(i), i)).statusCode);
    return out;
  };

  it("counts each parent behind the balancer by her own address", async () => {
    // 24 parents through one balancer, two requests each: nobody is limited
    expect((await codes(behind, '10.20.0.5', (i) => `203.0.113.${i >> 1}`, 48)).every((c) => c === 200)).toBe(true);
    // one parent asking too often is, whichever balancer she comes through
    const one = await codes(behind, '10.20.0.5', () => '198.51.100.7', 6);
    const again = await codes(behind, '10.20.0.6', () => '198.51.100.7', 6);
    expect([...one, ...again].filter((c) => c === 429).length).toBe(2);
  });

  it('ignores the header from an address that is not a balancer, and without TRUST_PROXY', async () => {
    const spoofed = await codes(behind, '192.0.2.44', (i) => `203.0.113.${100 + i}`, 12);
    expect(spoofed.filter((c) => c === 429).length).toBe(2);
    const unset = await codes(direct, '10.20.0.5', (i) => `203.0.113.${100 + i}`, 12);
    expect(unset.filter((c) => c === 429).length).toBe(2);
  });
});
