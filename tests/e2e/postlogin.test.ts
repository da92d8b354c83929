// /postlogin inside the native app wrapper with an outdated version: the update notice with Android
// steps, the iOS App Store badge and copy-link, the unknown-platform view, and Skip. Outside the
// wrapper (or up to date) sign-in goes straight on to Home.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectNoAxeViolations, launchBrowser, newContext, shot, startServer, type RunningServer } from './harness';
import en from '../../locales/en/common.json';
import pt from '../../locales/pt/common.json';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const portal = (path: string) => `${server.url}/parentportal${path}`;

/** What a native wrapper injects before the page runs. */
async function inWrapper(ctx: BrowserContext, info: { os?: string; version: string; requiredVersion: string }) {
  await ctx.addInitScript((i) => {
    (window as unknown as Record<string, unknown>).ReactNativeWebView = { postMessage: () => undefined };
    (window as unknown as Record<string, unknown>).nativeAppInfo = i;
  }, info);
}

async function signIn(page: Page) {
  await page.goto(portal('/brightpath/parent'));
  await page.waitForSelector('[data-testid=signin-form]');
  await page.fill('input[name=email]', 'maria.garcia@example.com');
  await page.fill('input[name=password]', 'Sunshine#2026');
  await page.click('[data-testid=signin-submit]');
}

describe('post-login', () => {
  it('iOS: the update notice with the App Store badge; the link is copied to the clipboard; Skip goes home', async () => {
    const ctx = await newContext(browser, 375);
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await inWrapper(ctx, { os: 'iOS', version: '1.2.0', requiredVersion: '1.10.0' });
    const page = await ctx.newPage();
    await signIn(page);
    await page.waitForURL(/\/postlogin$/);
    await page.getByRole('heading', { level: 1, name: en.nativeUpdate.title }).waitFor();
    const badge = page.getByRole('link', { name: /App Store/ });
    expect(await badge.getAttribute('href')).toMatch(/^https:\/\/apps\.apple\.com\//);
    await page.getByTestId('native-update-copy').click();
    await page.getByText(en.nativeUpdate.copied).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await badge.getAttribute('href'));
    await expectNoAxeViolations(page, 'post-login update (iOS)');
    await shot(page, 'postlogin-ios-375-en');
    await page.getByTestId('native-update-skip').click();
    await page.waitForURL(/\/home$/);
    await ctx.close();
  });

  it('Android: the update steps in Portuguese; unknown platform: the general advice', async () => {
    const ctx = await newContext(browser, 1280, 'pt-BR');
    await inWrapper(ctx, { os: 'android', version: '2.0.0', requiredVersion: '2.0.1' });
    const page = await ctx.newPage();
    await signIn(page);
    await page.waitForURL(/\/postlogin$/);
    await page.getByText(pt.nativeUpdate.android.update).waitFor();
    expect(await page.locator('[data-testid=native-update] ol li').count()).toBe(4);
    expect(await page.getByRole('link', { name: pt.nativeUpdate.openStore }).getAttribute('href')).toMatch(/^https:\/\/play\.google\.com\//);
    await expectNoAxeViolations(page, 'post-login update (Android, pt)');
    await shot(page, 'postlogin-android-1280-pt');
    await ctx.close();

    const ctx2 = await newContext(browser);
    await inWrapper(ctx2, { version: '1.0.0', requiredVersion: '3.0.0' });
    const page2 = await ctx2.newPage();
    await signIn(page2);
    await page2.getByText(en.nativeUpdate.unknownPlatform).waitFor();
    expect(await page2.getByTestId('native-update-copy').count()).toBe(0);
    await expectNoAxeViolations(page2, 'post-login update (unknown platform)');
    await page2.getByTestId('native-update-skip').click();
    await page2.waitForURL(/\/home$/);
    await ctx2.close();
  });

  it('an up-to-date app goes straight to Home', async () => {
    const ctx = await newContext(browser);
    await inWrapper(ctx, { os: 'android', version: '2.1.0', requiredVersion: '2.0.1' });
    const page = await ctx.newPage();
    await signIn(page);
    await page.waitForURL(/\/home$/);
    expect(await page.getByTestId('native-update').count()).toBe(0);
    await ctx.close();
  });
});
