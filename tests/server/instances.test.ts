// Several instances of the portal over one database, as a provider runs them behind a load balancer:
// the per-address limits and the sign-in lock count every instance's requests together, so a guesser
// spread over instances gets no more tries than against one. On PGlite and PostgreSQL (each instance
// with its own pool), and with the limits counted in Redis when one answers on 127.0.0.1:6379.
import { createConnection } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BACKENDS, createInstances, createTestDb, freePort, freshIp, login, testAppOptions, tokenFor, ANA, DAVID, KAREN, LINH, MARIA, type Backend } from './helpers';
import { contractOperations, readContract } from '../../server/contract';
import { buildApp, ROOT, type App } from '../../server/app';
import { logins, requestCounts, signinAudit } from '../../server/db/schema';
import { PURGE_EVERY_MS } from '../../server/rateLimitStore';

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
  const token = await tokenFor(apps[0], ...KAREN);
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

/**
 * A guesser at one address trying a wrong password for one e-mail after another (no e-mail's own
 * count ever comes into play), over the instances in turn: how many were checked (401) before the
 * address was refused (429 on every instance from then on).
 */
async function triesFromOneAddress(over: App[], ip: string, tries: number): Promise<number> {
  const tag = randomBytes(4).toString('hex');
  const codes: number[] = [];
  for (let i = 0; i < tries; i++) codes.push((await login(over[i % over.length], 'brightpath', `guess-${tag}-${i}@example.com`, `Wrong#Guess${i}x`, ip)).statusCode);
  const checked = codes.indexOf(429) < 0 ? codes.length : codes.indexOf(429);
  expect(codes).toEqual([...Array<number>(checked).fill(401), ...Array<number>(tries - checked).fill(429)]);
  return checked;
}

const SIGNIN_LIMIT = ops.get('Authentication.login')!.rateLimit!.max;

/** generous: building and seeding several instances takes a while on a busy machine */
const SLOW = { timeout: 240_000 };

describe.each(BACKENDS)('instances over one database on %s', (backend: Backend) => {
  // three instances over one database, on a clock the tests move; northridge locks for 15 minutes
  let now = Date.now();
  let three: Awaited<ReturnType<typeof createInstances>>;
  let apps: App[];
  beforeAll(async () => {
    three = await createInstances(backend, 3, { clock: () => new Date(now), providerSettings: { northridge: { signIn: { temporaryLockMinutes: 15 } } } });
    apps = three.apps;
  }, SLOW.timeout);
  afterAll(async () => three?.close());

  it(`a limit of ${LIMIT} a minute holds across two instances`, SLOW, async () => {
    await limitHoldsAcross(apps.slice(0, 2), freshIp);
    // counted in the database the instances share
    const [row] = await apps[0].deps.db.select().from(requestCounts).where(eq(requestCounts.route, `POST${START.url}`)).limit(1);
    expect(row.count).toBeGreaterThan(LIMIT);
  });

  it('a window that has ended starts again, on every instance', SLOW, async () => {
    const send = sender(apps, await tokenFor(apps[0], ...KAREN));
    const ip = freshIp();
    for (let i = 0; i < LIMIT; i++) await send(ip);
    expect((await send(ip)).statusCode).toBe(429);
    now += START.rateLimit!.timeWindow + 1000;
    for (let i = 0; i < apps.length; i++) expect((await send(ip)).statusCode).not.toBe(429);
  });

  it('the rows of ended windows are deleted', SLOW, async () => {
    const send = sender(apps, await tokenFor(apps[0], ...KAREN));
    const old = freshIp();
    await send(old);
    const rowsOf = (ip: string) => apps[0].deps.db.select().from(requestCounts).where(eq(requestCounts.key, ip));
    expect(await rowsOf(old)).toHaveLength(1);
    // past its window and the purge interval, any instance's next counted request deletes it
    now += START.rateLimit!.timeWindow + PURGE_EVERY_MS + 1000;
    await send(freshIp());
    await expect.poll(async () => (await rowsOf(old)).length, { timeout: 10_000, interval: 20 }).toBe(0);
  });

  /** A guesser's answers: `wrong` wrong passwords from fresh addresses, then the right one, over the instances in turn. */
  async function guesses(over: App[], who: readonly [string, string, string], wrong: number): Promise<number[]> {
    const codes: number[] = [];
    for (let i = 0; i < wrong; i++) codes.push((await login(over[i % over.length], who[0], who[1], `Wrong#Guess${i}x`)).statusCode);
    codes.push((await login(over[wrong % over.length], ...who)).statusCode);
    return codes;
  }

  it('a sign-in guesser spread over three instances gets no more tries than against one', SLOW, async () => {
    const alone = await guesses([apps[0]], MARIA, 7);
    const spread = await guesses(apps, DAVID, 7);
    // five tries, then the login is locked: even the right password is refused
    expect(alone).toEqual([401, 401, 401, 401, 423, 423, 423, 423]);
    expect(spread).toEqual(alone);
  });

  it('a guesser at one address trying e-mail after e-mail over three instances gets the sign-in limit, as against one', SLOW, async () => {
    const alone = await triesFromOneAddress([apps[0]], freshIp(), SIGNIN_LIMIT + 5);
    const spread = await triesFromOneAddress(apps, freshIp(), SIGNIN_LIMIT + 5);
    expect(alone).toBe(SIGNIN_LIMIT);
    expect(spread).toBe(alone);
  });

  it('guesses sent at once to three instances are counted one by one: the lock still comes after five', SLOW, async () => {
    const maxFailed = apps[0].deps.signin.maxFailed;
    // nine: ten failures of one e-mail in the window would meet the per-e-mail limit (429) first
    const codes = await Promise.all(Array.from({ length: 9 }, (_, i) => login(apps[i % 3], ANA[0], ANA[1], `Wrong#Guess${i}x`).then((r) => r.statusCode)));
    // the wrong passwords checked before the lock answer 401; the fifth locks; the rest are refused unchecked
    expect(codes.filter((c) => c === 401).length).toBe(maxFailed - 1);
    expect(codes.filter((c) => c === 423).length).toBe(9 - (maxFailed - 1));
    expect((await login(apps[1], ...ANA)).statusCode).toBe(423);
    const [row] = await apps[0].deps.db.select().from(logins).where(eq(logins.email, ANA[1]));
    expect(row.lockedAt).not.toBeNull();
  });

  it('with a temporary lock (a provider setting) too: guesses sent at once are no more than five tries', SLOW, async () => {
    const maxFailed = apps[0].deps.signin.maxFailed;
    // six at once (the per-e-mail limit, ten, stays out of the way), then one at a time until locked
    const codes = await Promise.all(Array.from({ length: 6 }, (_, i) => login(apps[i % 3], LINH[0], LINH[1], `Wrong#Guess${i}x`).then((r) => r.statusCode)));
    expect(codes.every((c) => c === 401 || c === 423)).toBe(true);
    for (let i = 0; i < maxFailed && (await login(apps[i % 3], LINH[0], LINH[1], `Wrong#Again${i}x`)).statusCode !== 423; i++);
    // the right password is refused: by the lock, or by the per-e-mail limit when the six at once were
    // all refused as locked (each counted the others in progress) and so counted as attempts too
    expect([423, 429]).toContain((await login(apps[2], ...LINH)).statusCode);
    // the passwords checked: five wrong ones, however they were sent (the others were refused unchecked)
    const audit = await apps[0].deps.db.select().from(signinAudit).where(eq(signinAudit.email, LINH[1]));
    expect(audit.filter((a) => a.outcome === 'bad_password').length).toBe(maxFailed);
    expect(audit.filter((a) => a.outcome === 'pending')).toEqual([]);
  });

  it('the right password after a few wrong ones signs in, and starts the count afresh', SLOW, async () => {
    expect(await guesses(apps, KAREN, 3)).toEqual([401, 401, 401, 200]);
    const [row] = await apps[0].deps.db.select().from(logins).where(eq(logins.email, KAREN[1]));
    expect(row.failedCount).toBe(0);
  });
});

describe('a REDIS_URL where no Redis answers', () => {
  it('stops the start, naming the address but not the password', SLOW, async () => {
    const db = await createTestDb('pglite');
    try {
      const port = await freePort();
      const failed = await buildApp(testAppOptions(db.handle, { redisUrl: `redis://:s3cret-pw@127.0.0.1:${port}` })).then(
        () => null,
        (err: Error) => err.message,
      );
      expect(failed).toMatch(`REDIS_URL: no Redis answers at 127.0.0.1:${port} (`);
      expect(failed).not.toContain('s3cret');
    } finally {
      await db.dispose();
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
  let three: Awaited<ReturnType<typeof createInstances>>;
  beforeAll(async () => {
    three = await createInstances('pglite', 3, { redisUrl: `redis://${REDIS.host}:${REDIS.port}` });
  }, SLOW.timeout);
  afterAll(async () => three?.close());
  // Redis outlives the test: addresses no earlier run used
  const ip = () => `10.${randomBytes(3).join('.')}`;

  it(`a limit of ${LIMIT} a minute holds across two instances`, SLOW, async () => {
    await limitHoldsAcross(three.apps.slice(0, 2), ip);
    // counted in Redis, not in the database
    expect(await three.apps[0].deps.db.select().from(requestCounts)).toEqual([]);
  });

  it('a sign-in guesser spread over three instances gets no more tries than against one', SLOW, async () => {
    // from one address, e-mail after e-mail: the sign-in limit, counted in Redis
    const alone = await triesFromOneAddress([three.apps[0]], ip(), SIGNIN_LIMIT + 5);
    expect(alone).toBe(SIGNIN_LIMIT);
    expect(await triesFromOneAddress(three.apps, ip(), SIGNIN_LIMIT + 5)).toBe(alone);
    // one login from address after address: five tries, then locked (even the right password)
    const wrong = async (over: App[], who: readonly [string, string, string]) => {
      const codes: number[] = [];
      for (let i = 0; i < 7; i++) codes.push((await login(over[i % over.length], who[0], who[1], `Wrong#Guess${i}x`, ip())).statusCode);
      codes.push((await login(over[7 % over.length], who[0], who[1], who[2], ip())).statusCode);
      return codes;
    };
    expect(await wrong([three.apps[0]], MARIA)).toEqual([401, 401, 401, 401, 423, 423, 423, 423]);
    expect(await wrong(three.apps, DAVID)).toEqual([401, 401, 401, 401, 423, 423, 423, 423]);
  });

  it('/ready asks Redis too', async () => {
    three.apps[1].jobs.start();
    const res = await three.apps[1].inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json().checks.redis).toBe('ok');
  });
});
