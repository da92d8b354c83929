// Several instances of the portal over one database, as a provider runs them behind a load balancer:
// the per-address limits and the sign-in lock count every instance's requests together, so a guesser
// spread over instances gets no more tries than against one. On PGlite and PostgreSQL (each instance
// with its own pool), and with the limits counted in Redis when one answers on 127.0.0.1:6379.
import { createConnection } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BACKENDS, createInstances, freshIp, login, tokenFor, MARIA, type Backend } from './helpers';
import { contractOperations, readContract } from '../../server/contract';
import { ROOT, type App } from '../../server/app';
import { logins, requestCounts } from '../../server/db/schema';

const ops = new Map(contractOperations(readContract(ROOT)).map((o) => [o.id, o]));
const START = ops.get('Billing.startPayment')!;
const LIMIT = START.rateLimit!.max;

/** Sends a checkout start from one address, to the instances in turn. */
function sender(apps: App[], token: string) {
  let turn = 0;
  return (ip: string) => {
    const app = apps[turn++ % apps.length];
    return app.inject({ method: 'POST', url: START.url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'vi' }, payload: '{}', remoteAddress: ip });
  };
}

async function limitHoldsAcross(apps: App[], ip: () => string) {
  const token = await tokenFor(apps[0], ...MARIA);
  const send = sender(apps, token);
  const from = ip();
  for (let i = 0; i < LIMIT; i++) {
    const res = await send(from);
    expect(res.statusCode, `#${i + 1}: ${res.body}`).not.toBe(429);
  }
  // the next one is refused by whichever instance it reaches
  for (let i = 0; i < apps.length; i++) {
    const over = await send(from);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ key: 'server.errors.tooManyRequests', message: apps[0].deps.t('vi', 'errors.tooManyRequests') });
  }
  // another address is still served
  expect((await send(ip())).statusCode).not.toBe(429);
}

describe.each(BACKENDS)('instances over one database on %s', (backend: Backend) => {
  it(`a limit of ${LIMIT} a minute holds across two instances`, async () => {
    const two = await createInstances(backend, 2);
    try {
      await limitHoldsAcross(two.apps, freshIp);
      // counted in the database both instances use
      const [row] = await two.apps[0].deps.db.select().from(requestCounts).where(eq(requestCounts.route, `POST${START.url}`)).limit(1);
      expect(row.count).toBeGreaterThan(LIMIT);
    } finally {
      await two.close();
    }
  });

  it('a window that has ended starts again, on every instance', async () => {
    let now = Date.now();
    const clock = () => new Date(now);
    const two = await createInstances(backend, 2, { clock });
    try {
      const token = await tokenFor(two.apps[0], ...MARIA);
      const send = sender(two.apps, token);
      const ip = freshIp();
      for (let i = 0; i < LIMIT; i++) await send(ip);
      expect((await send(ip)).statusCode).toBe(429);
      now += START.rateLimit!.timeWindow + 1000;
      expect((await send(ip)).statusCode).not.toBe(429);
      expect((await send(ip)).statusCode).not.toBe(429);
    } finally {
      await two.close();
    }
  });

  /** A guesser's answers: `wrong` wrong passwords from fresh addresses, then the right one, over the instances in turn. */
  async function guesses(apps: App[], wrong: number): Promise<number[]> {
    const codes: number[] = [];
    for (let i = 0; i < wrong; i++) codes.push((await login(apps[i % apps.length], MARIA[0], MARIA[1], `Wrong#Guess${i}x`)).statusCode);
    codes.push((await login(apps[wrong % apps.length], ...MARIA)).statusCode);
    return codes;
  }

  it('a sign-in guesser spread over three instances gets no more tries than against one', async () => {
    const one = await createInstances(backend, 1);
    const three = await createInstances(backend, 3);
    try {
      const alone = await guesses(one.apps, 7);
      const spread = await guesses(three.apps, 7);
      // five tries, then the login is locked: even the right password is refused
      expect(alone).toEqual([401, 401, 401, 401, 423, 423, 423, 423]);
      expect(spread).toEqual(alone);
    } finally {
      await one.close();
      await three.close();
    }
  });

  it('guesses sent at once to three instances are counted one by one: the lock still comes after five', async () => {
    const three = await createInstances(backend, 3);
    try {
      const { apps } = three;
      const maxFailed = apps[0].deps.signin.maxFailed;
      // nine: ten failures of one e-mail in the window would meet the per-e-mail limit (429) first
      const codes = await Promise.all(Array.from({ length: 9 }, (_, i) => login(apps[i % 3], MARIA[0], MARIA[1], `Wrong#Guess${i}x`).then((r) => r.statusCode)));
      // the wrong passwords checked before the lock answer 401; the fifth locks; the rest are refused unchecked
      expect(codes.filter((c) => c === 401).length).toBe(maxFailed - 1);
      expect(codes.filter((c) => c === 423).length).toBe(9 - (maxFailed - 1));
      expect((await login(apps[1], ...MARIA)).statusCode).toBe(423);
      const [row] = await apps[0].deps.db.select().from(logins).where(eq(logins.email, MARIA[1]));
      expect(row.lockedAt).not.toBeNull();
    } finally {
      await three.close();
    }
  });

  it('the right password after a few wrong ones signs in, and starts the count afresh', async () => {
    const two = await createInstances(backend, 2);
    try {
      expect(await guesses(two.apps, 3)).toEqual([401, 401, 401, 200]);
      const [row] = await two.apps[0].deps.db.select().from(logins).where(eq(logins.email, MARIA[1]));
      expect(row.failedCount).toBe(0);
    } finally {
      await two.close();
    }
  });
});

const REDIS = { host: '127.0.0.1', port: 6379 };

/** Whether a Redis answers PING on 127.0.0.1:6379 (within a second). */
function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(REDIS);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

const redisUp = await redisAnswers();
if (!redisUp) console.warn('instances.test.ts: no Redis answers on 127.0.0.1:6379, so the limits counted in Redis are not tested');

describe.skipIf(!redisUp)('instances counting their limits in Redis (redis://127.0.0.1:6379; skipped when none answers)', () => {
  let two: Awaited<ReturnType<typeof createInstances>>;
  beforeAll(async () => {
    two = await createInstances('pglite', 2, { redisUrl: `redis://${REDIS.host}:${REDIS.port}` });
  });
  afterAll(async () => two?.close());

  it(`a limit of ${LIMIT} a minute holds across two instances`, async () => {
    // Redis outlives the test: addresses no earlier run used
    const ip = () => `10.${randomBytes(3).join('.')}`;
    await limitHoldsAcross(two.apps, ip);
    // counted in Redis, not in the database
    expect(await two.apps[0].deps.db.select().from(requestCounts)).toEqual([]);
  });

  it('/ready asks Redis too', async () => {
    two.apps[1].jobs.start();
    const res = await two.apps[1].inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json().checks.redis).toBe('ok');
  });
});
