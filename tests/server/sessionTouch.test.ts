// Under load a session row is not written on every request: its last use and idle expiry move at
// most once a minute, and a session used within its idle time stays alive.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDLE_MS, TOUCH_MS, hashToken } from '../../server/auth';
import { sessions } from '../../server/db/schema';
import { BACKENDS, createTestApp, testClock, tokenFor, MARIA, type TestApp } from './helpers';

describe.each(BACKENDS)('session touch on %s', (backend) => {
  let t: TestApp;
  const time = testClock(new Date('2026-03-02T15:00:00Z'));
  beforeAll(async () => {
    t = await createTestApp(backend, { clock: time.clock });
  });
  afterAll(async () => t?.close());

  it('writes the session row at most once a minute', async () => {
    const token = await tokenFor(t.app, ...MARIA);
    const get = () => t.app.inject({ method: 'GET', url: '/api/Customer/parent', headers: { authorization: `Bearer ${token}` } });
    const row = async () => (await t.app.deps.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token))))[0];
    const created = (await row()).lastSeenAt.getTime();

    time.advance(TOUCH_MS - 1000);
    expect((await get()).statusCode).toBe(200);
    expect((await row()).lastSeenAt.getTime()).toBe(created); // within the minute: not written

    time.advance(1000);
    expect((await get()).statusCode).toBe(200);
    const touched = await row();
    expect(touched.lastSeenAt.getTime()).toBe(created + TOUCH_MS);
    expect(touched.idleExpiresAt.getTime()).toBe(created + TOUCH_MS + IDLE_MS);

    // used every 20 minutes the session outlives its first idle expiry
    for (let i = 0; i < 3; i++) {
      time.advance(20 * 60 * 1000);
      expect((await get()).statusCode).toBe(200);
    }
  });
});
