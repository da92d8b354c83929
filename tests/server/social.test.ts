// Social sign-in on the server without an identity provider configured, and the refusals that do not
// need one: no buttons offered, unknown identity providers, forged or spent state and tickets.
// (The full flow against real OpenID providers is in tests/e2e/social.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, BACKENDS, createTestApp, freshIp, type TestApp } from './helpers';
import { socialProviders } from '../../server/domains/access/socialSignIn';

describe('social identity providers come from provider.json and the environment', () => {
  it('an identity provider without a client secret is not offered', () => {
    const root = new URL('../..', import.meta.url).pathname;
    expect(socialProviders(root, 'brightpath')).toEqual([]);
    process.env.SOCIAL_BRIGHTPATH_GOOGLE_CLIENT_ID = 'cid';
    process.env.SOCIAL_BRIGHTPATH_GOOGLE_CLIENT_SECRET = 'secret';
    try {
      expect(socialProviders(root, 'brightpath')).toEqual([
        { id: 'google', label: 'Google', issuer: 'https://accounts.google.com', clientId: 'cid', clientSecret: 'secret' },
      ]);
      // another provider does not see brightpath's settings
      expect(socialProviders(root, 'northridge')).toEqual([]);
    } finally {
      delete process.env.SOCIAL_BRIGHTPATH_GOOGLE_CLIENT_ID;
      delete process.env.SOCIAL_BRIGHTPATH_GOOGLE_CLIENT_SECRET;
    }
  });
});

describe.each(BACKENDS)('social sign-in refusals on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => t?.close());
  const api = apiClient(() => t.app, () => ({ remoteAddress: freshIp() }));

  it('offers no buttons and refuses to start when nothing is configured', async () => {
    const opts = await api('Authentication.socialOptions', { query: { appName: 'brightpath' } });
    expect(opts.statusCode).toBe(200);
    expect(opts.json()).toEqual({ providers: [], google: false, microsoft: false });
    const start = await api('Authentication.socialStart', { query: { appName: 'brightpath', idp: 'google' } });
    expect(start.statusCode).toBe(404);
    expect(start.json().key).toBe('auth.errors.socialUnavailable');
  });

  it('refuses a forged state, a forged ticket and an unknown provider', async () => {
    expect((await api('Authentication.socialAuthorize', { query: { state: 'forged' } })).statusCode).toBe(400);
    expect((await api('Authentication.socialCallback', { query: { code: 'abc', state: 'forged' } })).statusCode).toBe(400);
    expect((await api('Authentication.socialCallback', { query: { code: 'abc' } })).statusCode).toBe(400);
    const complete = await api('Authentication.socialComplete', { query: { appName: 'brightpath', ticket: 'forged' } });
    expect(complete.statusCode).toBe(400);
    expect(complete.json().key).toBe('auth.errors.socialExpired');
    const link = await t.app.inject({
      method: 'POST',
      url: '/api/Authentication/social/link',
      payload: { appName: 'brightpath', ticket: 'forged', email: 'maria.garcia@example.com', password: 'Sunshine#2026' },
      remoteAddress: freshIp(),
    });
    expect(link.statusCode).toBe(400);
    expect((await api('Authentication.socialOptions', { query: { appName: 'nosuchprovider' } })).statusCode).toBe(404);
  });
});
