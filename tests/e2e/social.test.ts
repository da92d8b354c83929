// Both social sign-ins end to end in Debian's chromium: the portal against two real OpenID Connect
// providers (oidc-provider) on 127.0.0.1, authorization code flow with PKCE, state and nonce.
// A verified e-mail of an existing login links at once; an unverified one links only after the
// parent signs in with the password once; a linked identity then signs in directly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, openSignIn, shot, withServerAndBrowser } from './kit';
import { freePort, startIdp, type TestIdp } from './idp';
import enAuth from '../../locales/en/auth.json';
import viAuth from '../../locales/vi/auth.json';

const idps: TestIdp[] = [];
let googlePort = 0;
let microsoftPort = 0;
const secrets = { google: `secret-google-${Date.now()}`, microsoft: `secret-microsoft-${Date.now()}` };

const e2e = withServerAndBrowser(async () => {
  [googlePort, microsoftPort] = [await freePort(), await freePort()];
  return {
    SOCIAL_BRIGHTPATH_GOOGLE_ISSUER: `http://127.0.0.1:${googlePort}`,
    SOCIAL_BRIGHTPATH_GOOGLE_CLIENT_ID: 'portal-google',
    SOCIAL_BRIGHTPATH_GOOGLE_CLIENT_SECRET: secrets.google,
    SOCIAL_BRIGHTPATH_MICROSOFT_ISSUER: `http://127.0.0.1:${microsoftPort}`,
    SOCIAL_BRIGHTPATH_MICROSOFT_CLIENT_ID: 'portal-microsoft',
    SOCIAL_BRIGHTPATH_MICROSOFT_CLIENT_SECRET: secrets.microsoft,
  };
});

beforeAll(async () => {
  const redirectUri = `${e2e.server.url}/api/Authentication/social/callback`;
  idps.push(
    await startIdp({
      port: googlePort,
      name: 'google',
      clientSecret: secrets.google,
      redirectUri,
      accounts: { maria: { email: 'maria.garcia@example.com', email_verified: true } },
    }),
    await startIdp({
      port: microsoftPort,
      name: 'microsoft',
      clientSecret: secrets.microsoft,
      redirectUri,
      // the same e-mail as a portal login, but not verified by this identity provider
      accounts: { david: { email: 'david.garcia@example.com', email_verified: false } },
    }),
  );
});

afterAll(async () => {
  for (const i of idps) await i.stop();
});

/** The identity provider's own login and consent pages. */
async function idpLogin(page: Page, login: string) {
  await page.waitForSelector('input[name=login]');
  await page.fill('input[name=login]', login);
  await page.fill('input[name=password]', 'anything');
  await page.click('button[type=submit]');
  await page.waitForSelector('button[type=submit]:has-text("Continue")');
  await page.click('button[type=submit]:has-text("Continue")');
}

describe('social sign-in', () => {
  it('the sign-in page offers both; Google with a verified e-mail of an existing login signs in', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    const google = page.getByRole('button', { name: enAuth.social.google });
    await google.waitFor();
    expect(await page.getByRole('button', { name: enAuth.social.microsoft }).isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'sign-in with social buttons');
    await shot(page, 'auth-signin-social-1280-en');

    const authRequests: URL[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.origin === idps[0].issuer && u.pathname === '/auth') authRequests.push(u);
    });
    await google.click();
    await page.waitForURL(/127\.0\.0\.1:\d+\/interaction\//);
    // the authorization request carried PKCE (S256), state and nonce, and nothing of the portal's
    const auth = authRequests[0];
    expect(auth.searchParams.get('response_type')).toBe('code');
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.searchParams.get('state')?.length).toBeGreaterThanOrEqual(22);
    expect(auth.searchParams.get('nonce')?.length).toBeGreaterThanOrEqual(22);
    expect(auth.searchParams.has('returnUrl')).toBe(false);
    await idpLogin(page, 'maria');
    await page.waitForURL(/\/socialsignin\?ticket=/);
    const ticket = new URL(page.url()).searchParams.get('ticket')!;
    await page.getByRole('heading', { level: 1, name: enAuth.social.continueTitle }).waitFor();
    await expectNoAxeViolations(page, 'social sign-in continue');
    await shot(page, 'auth-socialsignin-1280-en');
    await page.getByRole('button', { name: enAuth.social.continue }).click();
    await page.waitForURL(/\/home$/);
    // the ticket is spent
    const again = await fetch(`${e2e.server.url}/api/Authentication/social/complete?appName=brightpath&ticket=${ticket}`, { method: 'POST' });
    expect(again.status).toBe(400);
    // and the callback cannot be replayed with the same state
    const replay = await fetch(`${e2e.server.url}/api/Authentication/social/callback?code=x&state=${auth.searchParams.get('state')}`, { redirect: 'manual' });
    expect(replay.status).toBe(302);
    expect(replay.headers.get('location')).toContain('failed=1');
    await ctx.close();
  });

  it('Microsoft with an unverified e-mail links only after one password sign-in, then signs in directly (Vietnamese, 375 px)', async () => {
    const ctx = await newContext(e2e.browser, 375, 'vi-VN');
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    await page.getByRole('button', { name: viAuth.social.microsoft }).click();
    await idpLogin(page, 'david');
    // not signed in by the e-mail alone: the parent must prove the portal password
    await page.waitForURL(/\/sociallink\?ticket=/);
    await page.getByRole('heading', { level: 1, name: viAuth.social.linkTitle }).waitFor();
    await expectNoAxeViolations(page, 'social link (vi)');
    await shot(page, 'auth-sociallink-375-vi');
    await page.locator('input[type=email], input[name=email], input[id$=email]').first().fill('david.garcia@example.com');
    await page.locator('input[type=password]').first().fill('Sunshine#2026');
    await page.getByRole('button', { name: viAuth.social.link }).click();
    await page.waitForURL(/\/home$/);
    await ctx.close();

    // linked: the next Microsoft sign-in goes straight through
    const ctx2 = await newContext(e2e.browser, 375, 'vi-VN');
    const page2 = await ctx2.newPage();
    await openSignIn(page2, e2e.server);
    await page2.getByRole('button', { name: viAuth.social.microsoft }).click();
    await idpLogin(page2, 'david');
    await page2.waitForURL(/\/socialsignin\?ticket=/);
    await page2.getByRole('button', { name: viAuth.social.continue }).click();
    await page2.waitForURL(/\/home$/);
    await ctx2.close();
  });

  it('a stranger at the identity provider gets no session: the password step refuses a wrong password', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    await page.getByRole('button', { name: enAuth.social.google }).click();
    await idpLogin(page, 'mallory');
    await page.waitForURL(/\/sociallink\?ticket=/);
    await page.locator('input[type=email], input[name=email], input[id$=email]').first().fill('maria.garcia@example.com');
    await page.locator('input[type=password]').first().fill('Guess#Password1');
    await page.getByRole('button', { name: enAuth.social.link }).click();
    await page.locator('[data-testid=error-banner]').waitFor();
    expect(page.url()).toMatch(/\/sociallink\?ticket=/);
    await ctx.close();
  });

  it('a forged state is refused', async () => {
    const res = await fetch(`${e2e.server.url}/api/Authentication/social/callback?code=abc&state=forged`, { redirect: 'manual' });
    expect(res.status).toBe(400);
  });
});
