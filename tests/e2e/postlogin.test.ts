// /postlogin inside the native app wrapper: the wrapper reports only its version and OS; the server's
// native version check (Customer.nativeVersion, from the provider record: Bright Path iOS minimum 1.8.0 /
// latest 1.10.0, Android minimum 2.0.0 / latest 2.1.0; Northridge is in Canada, without apps) decides
// between the notice with Skip, the required update without it, and Home. The unknown-platform view,
// and a browser without the wrapper, go on as before.
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, openSignIn, type Parent, PARENTS, shot, signIn, submitSignIn, withServerAndBrowser } from './kit';
import en from '../../locales/en/common.json';
import pt from '../../locales/pt/common.json';
import enAuth from '../../locales/en/auth.json';
import viAuth from '../../locales/vi/auth.json';
import vi from '../../locales/vi/common.json';

const e2e = withServerAndBrowser();

/** What a native wrapper injects before the page runs. */
async function inWrapper(ctx: BrowserContext, info: { os?: string; version: string }) {
  await ctx.addInitScript((i) => {
    (window as unknown as Record<string, unknown>).ReactNativeWebView = { postMessage: () => undefined };
    (window as unknown as Record<string, unknown>).nativeAppInfo = i;
  }, info);
}

/** Signs in and returns the native version check the page asked the server for (query and answer). */
async function versionCheckOnSignIn(page: Page, who: Parent = 'maria') {
  await openSignIn(page, e2e.server, PARENTS[who].app);
  const check = page.waitForResponse((r) => r.url().includes('/api/Customer/native-version'), { timeout: 20_000 });
  await submitSignIn(page, who);
  return check.then(async (r) => ({ query: Object.fromEntries(new URL(r.url()).searchParams), status: r.status(), body: await r.json() }));
}

describe('post-login native version check', () => {
  it('iOS below the latest version: the server offers the update; App Store badge and copy-link use its store address; Skip goes home', async () => {
    const ctx = await newContext(e2e.browser, 375);
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.url });
    await inWrapper(ctx, { os: 'iOS', version: '1.9.3' });
    const page = await ctx.newPage();
    const check = await versionCheckOnSignIn(page);
    expect(check.query).toEqual({ CurrentVersion: '1.9.3', OS: 'ios' });
    expect(check.body).toMatchObject({ updateRequired: true, required: false, latestVersion: '1.10.0' });
    await page.waitForURL(/\/postlogin$/);
    await page.getByRole('heading', { level: 1, name: enAuth.nativeVersion.availableTitle }).waitFor();
    await page.getByText(/Version 1\.10\.0 is available; you have version 1\.9\.3/).waitFor();
    const badge = page.getByRole('link', { name: /App Store/ });
    expect(await badge.getAttribute('href')).toBe(check.body.storeUrl);
    await page.getByTestId('native-update-copy').click();
    await page.getByText(en.nativeUpdate.copied).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(check.body.storeUrl);
    await expectNoAxeViolations(page, 'post-login update offered (iOS)');
    await shot(page, 'postlogin-ios-optional-375-en');
    await page.getByTestId('native-update-skip').click();
    await page.waitForURL(/\/home$/);
    await ctx.close();
  });

  it('iOS below the minimum version: the update is required, without Skip (Vietnamese, 1280 px)', async () => {
    const ctx = await newContext(e2e.browser, 1280, 'vi-VN');
    await inWrapper(ctx, { os: 'ios', version: '1.2.0' });
    const page = await ctx.newPage();
    const check = await versionCheckOnSignIn(page);
    expect(check.body).toMatchObject({ updateRequired: true, required: true });
    await page.waitForURL(/\/postlogin$/);
    await page.getByRole('heading', { level: 1, name: vi.nativeUpdate.title }).waitFor();
    await page.getByText(viAuth.nativeVersion.requiredText.replace('{{current}}', '1.2.0').replace('{{latest}}', '1.10.0')).waitFor();
    expect(await page.getByTestId('native-update').getAttribute('data-required')).toBe('true');
    expect(await page.getByTestId('native-update-skip').count()).toBe(0);
    // nor a menu around it: the post-login page has no navigation
    expect(await page.getByRole('navigation').count()).toBe(0);
    await expectNoAxeViolations(page, 'post-login update required (iOS, vi)');
    await shot(page, 'postlogin-ios-required-1280-vi');
    // no way around it: the page stays on the update notice
    await page.waitForTimeout(500);
    expect(page.url()).toMatch(/\/postlogin$/);
    await ctx.close();
  });

  it('Android below the latest version: the update steps in Portuguese with Skip; the store link is the server\'s', async () => {
    const ctx = await newContext(e2e.browser, 1280, 'pt-BR');
    await inWrapper(ctx, { os: 'android', version: '2.0.0' });
    const page = await ctx.newPage();
    const check = await versionCheckOnSignIn(page);
    expect(check.body).toMatchObject({ updateRequired: true, required: false, latestVersion: '2.1.0' });
    await page.waitForURL(/\/postlogin$/);
    await page.getByText(pt.nativeUpdate.android.update).waitFor();
    expect(await page.locator('[data-testid=native-update] ol li').count()).toBe(4);
    expect(await page.getByRole('link', { name: pt.nativeUpdate.openStore }).getAttribute('href')).toBe(check.body.storeUrl);
    expect(check.body.storeUrl).toMatch(/^https:\/\/play\.google\.com\//);
    await page.getByTestId('native-update-skip').waitFor();
    await expectNoAxeViolations(page, 'post-login update (Android, pt)');
    await shot(page, 'postlogin-android-1280-pt');
    await ctx.close();
  });

  it('an app at the latest version, and any app of a provider in Canada, go straight to Home', async () => {
    const ctx = await newContext(e2e.browser);
    await inWrapper(ctx, { os: 'android', version: '2.1.0' });
    const page = await ctx.newPage();
    expect((await versionCheckOnSignIn(page)).body).toMatchObject({ updateRequired: false });
    await page.waitForURL(/\/home$/);
    expect(await page.getByTestId('native-update').count()).toBe(0);
    await ctx.close();

    // the same outdated iOS version that Bright Path requires to update: Northridge has no apps
    const ctx2 = await newContext(e2e.browser);
    await inWrapper(ctx2, { os: 'ios', version: '1.2.0' });
    const page2 = await ctx2.newPage();
    expect((await versionCheckOnSignIn(page2, 'linh')).body).toMatchObject({ updateRequired: false, required: false });
    await page2.waitForURL(/\/home$/);
    expect(await page2.getByTestId('native-update').count()).toBe(0);
    await ctx2.close();
  });

  it('unknown platform: the native-app error view with Skip', async () => {
    const ctx = await newContext(e2e.browser);
    await inWrapper(ctx, { version: '1.0.0' });
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.getByText(en.nativeUpdate.unknownPlatform).waitFor();
    expect(await page.getByTestId('native-update-copy').count()).toBe(0);
    await expectNoAxeViolations(page, 'post-login update (unknown platform)');
    await page.getByTestId('native-update-skip').click();
    await page.waitForURL(/\/home$/);
    await ctx.close();
  });
});
