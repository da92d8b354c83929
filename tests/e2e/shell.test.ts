// The portal shell in a real browser against the real server: provider entry, sign-in, the home page
// of a full and of a payment-only login, language switch, accessibility theme, sign-out, offline,
// session expiry, unknown provider and unknown page. axe runs on every page, in both themes.
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, newContext, openSignIn, shot, signIn, withServerAndBrowser } from './kit';

const e2e = withServerAndBrowser();

describe('portal shell', () => {
  it('the provider entry opens the sign-in page of that provider, with footer, badges and seal', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    // the entry page carries the provider, its declarations and sign-in's public loads (server/boot.ts)
    const asked: string[] = [];
    page.on('request', (r) => void (r.url().includes('/api/') && asked.push(new URL(r.url()).pathname)));
    await openSignIn(page, e2e.server);
    expect(new URL(page.url()).pathname).toBe('/parentportal/');
    expect(await page.textContent('[data-testid=program-name]')).toBe('Bright Path Kids Club');
    await page.waitForLoadState('networkidle');
    expect(asked.filter((p) => /\/(program|declarations|alerts\/login|social\/options)$/.test(p))).toEqual([]);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.isVisible('[data-testid=store-badges]')).toBe(true);
    expect(await page.isVisible('[data-testid=app-qr-code]')).toBe(true);
    expect(await page.isVisible('[data-testid=security-seal]')).toBe(true);
    await page.waitForSelector('[data-testid=product-version]:has-text("0.")');
    await expectNoAxeViolations(page, 'sign-in');
    await shot(page, 'shell-signin-1280-en');
    await ctx.close();
  });

  it('a wrong password shows the server message in a dismissible danger banner', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, { email: 'maria.garcia@example.com', password: 'Wrong#password9' }, { home: false });
    const banner = page.locator('[data-testid=error-banner]');
    await banner.waitFor();
    expect((await banner.textContent())?.length).toBeGreaterThan(5);
    await expectNoAxeViolations(page, 'sign-in with error');
    await banner.getByRole('button').click();
    await banner.waitFor({ state: 'detached' });
    await ctx.close();
  });

  it('a full login sees the five home sections with real data and the side menu', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.waitForURL(/\/home$/);
    await page.waitForSelector('section[data-section=payments] dl');
    await page.waitForSelector('section[data-section=registration] article');
    const headings = await page.locator('main h2').allTextContents();
    for (const h of ['Registration', 'Payments & Statements', 'Bulletins / Events / Forms', 'Childcare Program', 'Enrichment Program']) {
      expect(headings).toContain(h);
    }
    expect(await page.isVisible('[data-testid=side-menu]')).toBe(true);
    expect(await page.isVisible('[data-testid=menu-home]')).toBe(true);
    expect(await page.isVisible('[data-testid=menu-signOut]')).toBe(true);
    await expectNoAxeViolations(page, 'home');
    await shot(page, 'shell-home-1280-en');
    await ctx.close();
  });

  it('a payment-only secondary login sees only Home and Sign out, and only Payments on home', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'ana', { home: false });
    await page.waitForURL(/\/home$/);
    await page.waitForSelector('section[data-section=payments] dl');
    const entries = await page.locator('[data-testid=side-menu] [data-testid^=menu-]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(entries).toEqual(['menu-home', 'menu-signOut']);
    expect(await page.locator('section[data-section=registration]').count()).toBe(0);
    expect(await page.locator('section[data-section=childcare]').count()).toBe(0);
    await expectNoAxeViolations(page, 'home (payment only)');
    await ctx.close();
  });

  it('switching the language translates the page, sets <html lang> and the Language cookie', async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    await page.selectOption('[data-testid=language-switch] select', 'es');
    await page.waitForSelector('[data-testid=page-title]:has-text("Iniciar sesión")');
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    const cookie = (await ctx.cookies()).find((c) => c.name === 'Language');
    expect(cookie?.value).toBe('es');
    expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
    await expectNoAxeViolations(page, 'sign-in (es, 375)');
    await shot(page, 'shell-signin-375-es');
    await ctx.close();
  });

  it('the accessibility theme and font size apply, and the page passes axe in both themes', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.waitForSelector('section[data-section=payments] dl');
    await page.click('[data-testid=accessibility-button]');
    await page.waitForSelector('[data-testid=accessibility-modal]');
    await expectNoAxeViolations(page, 'accessibility dialog');
    await page.getByText('Enable accessibility theme (high contrast)').click();
    await page.getByText('Large', { exact: true }).click();
    await page.click('[data-testid=accessibility-apply]');
    await page.waitForSelector('[data-testid=accessibility-modal]', { state: 'detached' });
    expect(await page.getAttribute('html', 'data-theme')).toBe('accessibility');
    expect(await page.evaluate(() => document.documentElement.style.fontSize)).toBe('125%');
    await expectNoAxeViolations(page, 'home (accessibility theme)');
    await shot(page, 'shell-home-1280-accessibility');
    await ctx.close();
  });

  it('sign out asks first, clears the token and keeps the language', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.waitForURL(/\/home$/);
    await page.selectOption('[data-testid=language-switch] select', 'pt');
    await page.waitForSelector('[data-testid=page-title]:has-text("Início")');
    await page.click('[data-testid=menu-signOut]');
    await page.waitForSelector('[data-testid=signout-confirm]');
    await expectNoAxeViolations(page, 'sign-out confirmation');
    await page.click('[data-testid=signout-confirm-button]');
    await page.waitForSelector('[data-testid=signin-form]');
    const session = await page.evaluate(() => JSON.parse(localStorage.getItem('pp.session') ?? '{}'));
    expect(session.token).toBeNull();
    expect(session.locale).toBe('pt');
    expect(await page.getAttribute('html', 'lang')).toBe('pt');
    await ctx.close();
  });

  it('small screens get the menu as a drawer', async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.waitForURL(/\/home$/);
    expect(await page.isVisible('[data-testid=side-menu]')).toBe(false);
    await page.click('[data-testid=menu-button]');
    await page.waitForSelector('[data-testid=drawer-settings]');
    await expectNoAxeViolations(page, 'menu drawer (375)');
    await ctx.close();
  });

  it('offline replaces the page with No Connection and restores it 1 s after going online', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.waitForURL(/\/home$/);
    await ctx.setOffline(true);
    await page.waitForSelector('[data-testid=no-connection]');
    await expectNoAxeViolations(page, 'no connection');
    await ctx.setOffline(false);
    const t0 = Date.now();
    await page.waitForSelector('[data-testid=no-connection]', { state: 'detached' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(await page.textContent('[data-testid=page-title]')).toBe('Home');
    await ctx.close();
  });

  it('a session the server ended shows the session-ended page; OK goes to sign-in', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.waitForURL(/\/home$/);
    // the server ends the session (as an idle timeout would); the browser still holds the token
    const status = await page.evaluate(async () => {
      const { token } = JSON.parse(localStorage.getItem('pp.session') ?? '{}');
      const res = await fetch('/api/Authentication/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{}' });
      return res.status;
    });
    expect(status).toBeLessThan(300);
    await page.reload();
    await page.waitForURL(/\/sessionexpired/);
    await page.waitForSelector('[data-action=ok]');
    expect(await page.isVisible('[data-testid=side-menu]')).toBe(false);
    await expectNoAxeViolations(page, 'session ended');
    await page.click('[data-action=ok]');
    await page.waitForSelector('[data-testid=signin-form]');
    await ctx.close();
  });

  it('an outdated release version ends on the release notice; OK takes the current version and goes home', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { home: false });
    await page.waitForURL(/\/home$/);
    // the signed-in tab closes first: open tabs share the stored session, and its own requests would
    // race the stale tab's to end the session
    await page.close();
    // a tab that starts with the release version of an older portal
    const stale = await ctx.newPage();
    await stale.addInitScript(() => {
      const s = JSON.parse(localStorage.getItem('pp.session') ?? '{}');
      if (!sessionStorage.getItem('patched')) {
        sessionStorage.setItem('patched', '1');
        s.releaseVersion = '0.0.0-old';
        localStorage.setItem('pp.session', JSON.stringify(s));
      }
    });
    await stale.goto(e2e.portal('/home'));
    await stale.waitForURL(/\/sessionexpired\?type=INVALID_RELEASE_VERSION/);
    await stale.waitForSelector('[data-action=okRelease]');
    await expectNoAxeViolations(stale, 'release notice');
    await stale.click('[data-action=okRelease]');
    await stale.waitForURL(/\/home$/);
    await stale.waitForSelector('section[data-section=payments] dl');
    const session = await stale.evaluate(() => JSON.parse(localStorage.getItem('pp.session') ?? '{}'));
    expect(session.releaseVersion).not.toBe('0.0.0-old');
    expect(session.sessionExpired).toBe(false);
    await ctx.close();
  });

  it('an unknown provider goes to /invalidurl, where the provider is found by e-mail', async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    await page.goto(e2e.portal('/nosuchprogram/parent'));
    await page.waitForURL(/\/invalidurl/);
    await page.waitForSelector('[data-testid=provider-list] a');
    await expectNoAxeViolations(page, 'invalid url');
    await page.fill('input[name=email]', 'maria.garcia@example.com');
    await page.click('[data-testid=find-provider]');
    await page.waitForSelector('[data-testid=provider-matches] a');
    await page.click('[data-testid=provider-matches] a');
    await page.waitForSelector('[data-testid=signin-form]');
    expect(await page.textContent('[data-testid=program-name]')).toBe('Bright Path Kids Club');
    await ctx.close();
  });

  it('a first visit takes the browser language and fetches only that language', async () => {
    const ctx = await newContext(e2e.browser, 1280, 'vi-VN');
    const page = await ctx.newPage();
    const bundles: string[] = [];
    page.on('request', (r) => {
      // text files are named by language: the start namespaces in one, the others one each (vite.config.ts)
      const m = /assets\/texts-\w+\/([a-z]{2})[./]/.exec(r.url());
      if (m) bundles.push(m[1]);
    });
    await page.goto(e2e.portal('/brightpath/parent'));
    await page.waitForSelector('[data-testid=page-title]:has-text("Đăng nhập")');
    expect(await page.getAttribute('html', 'lang')).toBe('vi');
    expect([...new Set(bundles)]).toEqual(['vi']);
    await ctx.close();
  });

  it('an old (hash) link shows the bookmark notice; Continue reveals header and footer', async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    await page.goto('about:blank');
    await page.goto(e2e.portal('/#/home'));
    await page.waitForSelector('[data-testid=bookmark-notice]');
    expect(await page.isVisible('[data-testid=header]')).toBe(false);
    await expectNoAxeViolations(page, 'bookmark notice');
    // still pending after a reload of the same page (the history entry keeps it)
    await page.reload();
    await page.waitForSelector('[data-testid=bookmark-notice]');
    await page.click('[data-testid=bookmark-continue]');
    await page.waitForSelector('[data-testid=signin-form]');
    expect(await page.isVisible('[data-testid=header]')).toBe(true);
    expect(await page.isVisible('[data-testid=footer]')).toBe(true);
    // and gone once continued
    await page.reload();
    await page.waitForSelector('[data-testid=signin-form]');
    expect(await page.isVisible('[data-testid=bookmark-notice]')).toBe(false);
    await ctx.close();
  });

  it('the generic error page posts an error log record and shows its code and the server time', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    const logged = page.waitForResponse((r) => r.url().includes('/api/Customer/errorlog') && r.request().method() === 'POST');
    await page.goto(e2e.portal('/error'));
    const res = await logged;
    expect(res.status()).toBe(200);
    const { errorLogID } = (await res.json()) as { errorLogID: number };
    await page.waitForSelector(`[data-testid=generic-error-code]:has-text("${errorLogID}")`);
    expect(await page.textContent('[data-testid=generic-error]')).toContain('An unknown error occurred. Our technical support team has been notified.');
    await expectNoAxeViolations(page, 'generic error');
    await ctx.close();
  });

  it('an unknown page says it could not be found', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    await page.goto(e2e.portal('/no/such/page'));
    await page.waitForSelector('[data-testid=not-found]');
    expect(await page.textContent('[data-testid=not-found]')).toContain('This page could not be found');
    await expectNoAxeViolations(page, 'not found');
    await ctx.close();
  });
});
