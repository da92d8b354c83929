// The pages around the parent's way in and out, in a real browser at 375 and 1280 px with axe: the
// post-login error page (spec 2.13: the post-login step answered an error), the provider's User Guide
// (side menu, 2.4) and privacy policy (footer, 2.5) from provider.json in the chosen language (Bright
// Path has both, Northridge only a privacy policy), the contact-us subject dropdown in Spanish (7.4),
// and the temporary-authentication notice of the session-ended page (8.2).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, openSignIn, outbox, shot, signIn, submitSignIn, withServerAndBrowser } from './kit';
import en from '../../locales/en/common.json';
import es from '../../locales/es/common.json';
import enScreens from '../../locales/en/screens.json';
import viScreens from '../../locales/vi/screens.json';

const esComm = JSON.parse(readFileSync(resolve(__dirname, '../../locales/es/communication.json'), 'utf8'));
const brightpath = JSON.parse(readFileSync(resolve(__dirname, '../../providers/brightpath/provider.json'), 'utf8'));
const northridge = JSON.parse(readFileSync(resolve(__dirname, '../../providers/northridge/provider.json'), 'utf8'));

const e2e = withServerAndBrowser();

const TOM = { app: 'brightpath', email: 'tom.baker@example.com', password: 'Temporary#2026' };

/** The provider's own site is not reachable from the test machine: a page stands in for it. */
async function fakeProviderSites(ctx: BrowserContext) {
  await ctx.route(/^https:\/\/(brightpath|northridge-sd)\.example\.org\//, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Provider page</title><p>Provider page</p>' }),
  );
}

/** Client-side navigation keeps the session in memory exactly as a user clicking would. */
async function open(page: Page, path: string, ready: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', `/parentportal${p}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForSelector(ready);
}

describe('post-login error page', () => {
  it('the account cannot be read after sign-in: the error, the support line, the time; click here signs out (375 px)', async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    // the session's first load answers a server error (its details after ||| are not for the parent)
    await page.route('**/api/Demographics/accounts/flags', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'The account service is unavailable|||trace 4711' }) }),
    );
    const logged = page.waitForRequest((r) => r.url().includes('/api/Customer/errorlog') && r.method() === 'POST');
    const before = Date.now();
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.waitForURL(/\/postloginerror$/);
    await page.getByRole('heading', { level: 1, name: en.postLoginError.title }).waitFor();
    expect(await page.getByTestId('postlogin-error-message').textContent()).toBe('The account service is unavailable');
    // logged for the support team (spec 8.1)
    expect((await logged).postDataJSON()).toMatchObject({ Message: 'The account service is unavailable', appName: 'brightpath' });
    const support = page.getByTestId('postlogin-error-support');
    expect(await support.textContent()).toContain(en.postLoginError.supportTitle.replace('{{program}}', brightpath.programName));
    expect(await support.getByRole('link', { name: /\(217\)555-0142/ }).getAttribute('href')).toBe('tel:2175550142');
    expect(await support.getByRole('link', { name: brightpath.supportEmail }).getAttribute('href')).toBe(`mailto:${brightpath.supportEmail}`);
    const at = Date.parse((await page.locator('[data-testid=postlogin-error-time] time').getAttribute('datetime'))!);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
    // a page of its own: no menu to wander off into a portal that cannot load
    expect(await page.getByRole('navigation').count()).toBe(0);
    await expectNoAxeViolations(page, 'post-login error (375, en)');
    await shot(page, 'postlogin-error-375-en');

    const loggedOut = page.waitForRequest((r) => r.url().includes('/api/Authentication/logout'));
    await page.getByRole('button', { name: en.postLoginError.clickHere }).click();
    await loggedOut;
    await page.waitForSelector('[data-testid=signin-form]');
    expect(new URL(page.url()).pathname).toBe('/parentportal/');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('pp.session') ?? '{}').token ?? '')).toBe('');
    await ctx.close();
  });

  it('inside the native app the version check fails: the page in Spanish, and click here signs the app out too (1280 px)', async () => {
    const ctx = await newContext(e2e.browser, 1280, 'es-ES');
    await ctx.addInitScript(() => {
      const posted: string[] = [];
      (window as unknown as Record<string, unknown>).posted = posted;
      (window as unknown as Record<string, unknown>).ReactNativeWebView = { postMessage: (m: string) => posted.push(m) };
      (window as unknown as Record<string, unknown>).nativeAppInfo = { os: 'android', version: '2.0.0' };
    });
    const page = await ctx.newPage();
    await page.route('**/api/Customer/native-version*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'Servicio no disponible' }) }));
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.waitForURL(/\/postloginerror$/);
    await page.getByRole('heading', { level: 1, name: es.postLoginError.title }).waitFor();
    expect(await page.getByTestId('postlogin-error-message').textContent()).toBe('Servicio no disponible');
    expect(await page.getByTestId('postlogin-error-time').textContent()).toContain(es.postLoginError.time);
    await expectNoAxeViolations(page, 'post-login error (1280, es)');
    await shot(page, 'postlogin-error-1280-es');
    await page.getByRole('button', { name: es.postLoginError.clickHere }).click();
    await page.waitForSelector('[data-testid=signin-form]');
    // the same page (no reload): the wrapper was told to sign out of its own session
    const posted = (await page.evaluate(() => (window as unknown as { posted: string[] }).posted)).map((m) => JSON.parse(m));
    expect(posted).toContainEqual({ type: 'logout' });
    await ctx.close();
  });
});

describe("the provider's User Guide and privacy policy", () => {
  it('Bright Path: the menu opens its guide in a new tab, the footer links its privacy policy, both in the chosen language (1280 px)', async () => {
    const ctx = await newContext(e2e.browser, 1280);
    await fakeProviderSites(ctx);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    // before sign-in already: the footer's privacy link
    const privacy = page.getByTestId('privacy-policy-link');
    expect(await privacy.getAttribute('href')).toBe(brightpath.privacyPolicyUrl.en);
    expect(await privacy.getAttribute('target')).toBe('_blank');
    // switching the language switches the provider's page
    await page.getByTestId('language-switch').first().locator('select').selectOption('es');
    await page.waitForFunction((url) => document.querySelector('[data-testid=privacy-policy-link]')?.getAttribute('href') === url, brightpath.privacyPolicyUrl.es);
    await page.getByTestId('language-switch').first().locator('select').selectOption('en');
    await page.waitForFunction((url) => document.querySelector('[data-testid=privacy-policy-link]')?.getAttribute('href') === url, brightpath.privacyPolicyUrl.en);

    await submitSignIn(page, 'maria');
    await page.waitForURL(/\/home$/);
    const guide = page.getByTestId('side-menu').getByTestId('menu-userGuide');
    await guide.waitFor();
    // the menu's labels are drawn once all their texts are in (Programs' come with their own chunk)
    await page.waitForFunction(() => Boolean(document.querySelector('[data-testid=side-menu] [data-testid=menu-userGuide]')?.textContent?.trim()));
    expect(await guide.getAttribute('href')).toBe(brightpath.userGuideUrl.en);
    expect(await guide.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await guide.getAttribute('aria-label')).toBe(`${en.menu.userGuide} ${en.a11y.newTab}`);
    // in the spec's place: after Emails/Texts, before Attendance
    const order = await page.getByTestId('side-menu').locator('[data-testid^=menu-]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(order.slice(order.indexOf('menu-communication'), order.indexOf('menu-attendance') + 1)).toEqual(['menu-communication', 'menu-userGuide', 'menu-attendance']);
    const [guidePage] = await Promise.all([ctx.waitForEvent('page'), guide.click()]);
    await guidePage.waitForLoadState();
    expect(guidePage.url()).toBe(brightpath.userGuideUrl.en);
    await guidePage.close();
    // the portal stays where it was
    expect(page.url()).toMatch(/\/home$/);
    await expectNoAxeViolations(page, 'home with the user guide and privacy links (1280)');
    await shot(page, 'provider-pages-home-1280-en');
    await ctx.close();
  });

  it('Bright Path in Spanish on a phone: the drawer holds the Spanish guide; Vietnamese falls back to the English guide (375 px)', async () => {
    const ctx = await newContext(e2e.browser, 375, 'es-ES');
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.waitForURL(/\/home$/);
    expect(await page.getByTestId('privacy-policy-link').getAttribute('href')).toBe(brightpath.privacyPolicyUrl.es);
    await page.getByTestId('menu-button').click();
    const guide = page.getByRole('dialog').getByTestId('menu-userGuide');
    await guide.waitFor();
    expect(await guide.getAttribute('href')).toBe(brightpath.userGuideUrl.es);
    expect(await guide.textContent()).toContain(es.menu.userGuide);
    await expectNoAxeViolations(page, 'menu drawer with the user guide (375, es)');
    await shot(page, 'provider-pages-drawer-375-es');
    await ctx.close();

    const vi = await newContext(e2e.browser, 375, 'vi-VN');
    const viPage = await vi.newPage();
    await signIn(viPage, e2e.server, 'maria', { home: false });
    await viPage.waitForURL(/\/home$/);
    await viPage.getByTestId('menu-button').click();
    const viGuide = viPage.getByRole('dialog').getByTestId('menu-userGuide');
    await viGuide.waitFor();
    expect(brightpath.userGuideUrl.vi).toBeUndefined();
    expect(await viGuide.getAttribute('href')).toBe(brightpath.userGuideUrl.en);
    expect(await viPage.getByTestId('privacy-policy-link').getAttribute('href')).toBe(brightpath.privacyPolicyUrl.vi);
    await vi.close();
  });

  it('Northridge has no user guide: no menu entry; its privacy policy is linked (1280 and 375 px)', async () => {
    for (const width of [1280, 375]) {
      const ctx = await newContext(e2e.browser, width);
      const page = await ctx.newPage();
      await signIn(page, e2e.server, 'linh', { home: false });
      await page.waitForURL(/\/home$/);
      expect(await page.getByTestId('privacy-policy-link').getAttribute('href')).toBe(northridge.privacyPolicyUrl.en);
      if (width === 375) {
        await page.getByTestId('menu-button').click();
        await page.getByRole('dialog').getByTestId('menu-home').waitFor();
        expect(await page.getByRole('dialog').getByTestId('menu-userGuide').count()).toBe(0);
      } else {
        await page.getByTestId('side-menu').getByTestId('menu-communication').waitFor();
        expect(await page.getByTestId('menu-userGuide').count()).toBe(0);
      }
      expect(northridge.userGuideUrl).toBeUndefined();
      await expectNoAxeViolations(page, `northridge home without a user guide (${width})`);
      await shot(page, `provider-pages-northridge-${width}-en`);
      await ctx.close();
    }
  });
});

describe('contact us in Spanish', () => {
  it.each([375, 1280])('the subject is a dropdown of the provider’s subjects in Spanish; the message keeps it (%i px)', async (width) => {
    const ctx = await newContext(e2e.browser, width, 'es-ES');
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.waitForURL(/\/home$/);
    await open(page, '/contactus', 'form');
    const subject = page.getByLabel(new RegExp(`^${esComm.contactUs.subject}`));
    await subject.locator('option', { hasText: 'Cambio de horario' }).waitFor({ state: 'attached' });
    const options = await subject.locator('option').allTextContents();
    expect(options).toContain('Pregunta sobre facturación');
    expect(options).toContain('Otro asunto');
    // Northridge's own subject is not Bright Path's
    expect(options).not.toContain('Transporte del distrito escolar');
    const message = `Sofia cambia al horario de la tarde (${width}).`;
    await page.getByLabel(new RegExp(`^${esComm.contactUs.message}`)).fill(message);
    // no subject chosen: the form says so and nothing is sent
    await page.getByRole('button', { name: esComm.contactUs.send }).click();
    await page.locator('[aria-invalid=true]').first().waitFor();
    expect(page.url()).toMatch(/\/contactus$/);
    await subject.selectOption({ label: 'Cambio de horario' });
    await expectNoAxeViolations(page, `contact us (es, ${width})`);
    await shot(page, `contactus-subject-${width}-es`);
    await page.getByRole('button', { name: esComm.contactUs.send }).click();
    await page.waitForURL(/\/communication\?sent=true$/);
    await page.locator('[data-section=history] article', { hasText: 'Cambio de horario' }).first().waitFor();
    // the program office reads the subject in its own language
    const mail = (await outbox(e2e.server)).find((m) => m.text.includes(message))!;
    expect(mail.subject).toContain('Schedule change');
    await ctx.close();
  });
});

describe('session ended for a temporary password', () => {
  it.each([
    [1280, 'en-US', enScreens],
    [375, 'vi-VN', viScreens],
  ] as const)('the temporary-password session ends: "Temporary authentication expired/failed" (%i px)', async (width, locale, texts) => {
    const ctx = await newContext(e2e.browser, width, locale);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, TOM, { home: false });
    await page.waitForURL(/\/changetemporarypassword$/);
    await page.locator('input[type=password]').nth(1).waitFor();
    // the temporary session ends on the server (expired or revoked) while the parent is on the page
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('pp.session') ?? '{}').token as string);
    const out = await fetch(`${e2e.server.url}/api/Authentication/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBeLessThan(300);
    await page.locator('input[type=password]').nth(0).fill('Harvest#Moon77');
    await page.locator('input[type=password]').nth(1).fill('Harvest#Moon77');
    await page.locator('[data-action=save]').click();
    await page.waitForURL(/\/sessionexpired\?type=TEMPORARY_AUTHENTICATION$/);
    expect(await page.getByTestId('session-expired-message').textContent()).toBe(texts.sessionexpired.temporaryMessage);
    await expectNoAxeViolations(page, `session ended, temporary (${width})`);
    await shot(page, `sessionexpired-temporary-${width}-${locale.slice(0, 2)}`);
    await page.getByRole('button', { name: texts.sessionexpired.ok }).click();
    await page.waitForSelector('[data-testid=signin-form]');
    await ctx.close();
  });
});
