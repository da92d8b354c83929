// Sign-in drawn as HTML before the scripts (server/boot.ts, src/shell/boot/firstPaint.ts): with the
// entry script held back, the page already shows the header and the form (axe clean); what the parent
// types there, and the field they are in, are in React's form once the scripts run; a press of
// Sign In before the scripts is held and signs in once they are ready. Screenshots of the HTML paint
// and of React's, at 375 and 1280 px, land in test-results/screens.
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { expectNoAxeViolations, newContext, PARENTS, shot, signIn, withServerAndBrowser } from './kit';

const e2e = withServerAndBrowser();
const SLOW = 120_000;

/** The page's module scripts: in its head, or named on the early script when a paint is drawn ahead. */
function moduleScripts(html: string): string[] {
  const after = /\bdata-after-paint="([^"]+)"/.exec(html)?.[1];
  return after ? after.split(' ') : [...html.matchAll(/<script type="module"[^>]* src="([^"]+)"/g)].map((m) => m[1]);
}

/** Holds the page's entry script until `release` is called. */
async function holdEntry(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  // the entry is the page's last module script (its libraries come before it)
  const html = await (await fetch(e2e.portal('/brightpath/parent'))).text();
  const entry = moduleScripts(html).pop();
  if (!entry) throw new Error('the page names no module script');
  await page.route((url) => url.pathname === entry, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** The first paint is there and the entry has not run: React has drawn nothing yet. */
async function htmlOnly(page: Page): Promise<void> {
  await page.locator('[data-first-paint] form input[name=email]').waitFor({ timeout: SLOW });
  expect(await page.locator('#root > [data-first-paint]').count()).toBe(1);
  expect(await page.locator('[data-testid=signin-form]').count()).toBe(0);
  // the small script that holds a press of Sign In (firstPaintEarly.ts) has run
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/first-paint-[\w-]+\.js$/.test(e.name)), undefined, { timeout: SLOW });
}

describe('sign-in drawn before the scripts', () => {
  for (const width of [375, 1280]) {
    it(`at ${width} px: the HTML paint passes axe, and typed values and the focus carry over into React's form`, async () => {
      const ctx = await newContext(e2e.browser, width);
      const page = await ctx.newPage();
      const release = await holdEntry(page);
      await page.goto(e2e.portal('/brightpath/parent'), { waitUntil: 'commit' });
      await htmlOnly(page);
      await expectNoAxeViolations(page, `sign-in, HTML first paint at ${width} px`);
      await shot(page, `signin-first-paint-html-${width}`);

      await page.fill('[data-first-paint] input[name=email]', PARENTS.maria.email);
      await page.fill('[data-first-paint] input[name=password]', 'typed#Before1');
      await page.focus('[data-first-paint] input[name=email]');
      release();

      const form = page.locator('[data-testid=signin-form]');
      await form.waitFor({ timeout: SLOW });
      await page.locator('[data-first-paint]').waitFor({ state: 'detached', timeout: SLOW });
      expect(await form.locator('input[name=email]').inputValue()).toBe(PARENTS.maria.email);
      expect(await form.locator('input[name=password]').inputValue()).toBe('typed#Before1');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
      await shot(page, `signin-first-paint-react-${width}`);
      await ctx.close();
    });
  }

  it('a Sign In pressed before the scripts is held and signs in once they are ready', async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    const release = await holdEntry(page);
    await page.goto(e2e.portal('/brightpath/parent'), { waitUntil: 'commit' });
    await htmlOnly(page);
    await page.fill('[data-first-paint] input[name=email]', PARENTS.maria.email);
    await page.fill('[data-first-paint] input[name=password]', PARENTS.maria.password);
    await page.press('[data-first-paint] input[name=password]', 'Enter');
    // held: the page stays, the button says it is busy
    await page.locator('[data-first-paint] form[data-held-submit] [type=submit][aria-busy=true]').waitFor({ timeout: SLOW });
    expect(new URL(page.url()).pathname).toBe('/parentportal/brightpath/parent');
    release();
    await page.waitForURL(/\/parentportal\/home$/, { timeout: SLOW });
    await page.locator('[data-testid=page-title]').waitFor({ timeout: SLOW });
    await ctx.close();
  });

  it("a signed-in parent's page opened anew: the provider's header drawn ahead, its screen's loads asked in one request before the scripts, then the page", async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria');
    // the provider chosen is remembered for the server (src/shell/boot/appCookie.ts)
    await expect.poll(async () => (await ctx.cookies()).find((c) => c.name === 'pp_app')?.value, { timeout: SLOW }).toBe('brightpath');
    // the page signed in on is left first: a late request of its own (the profile's) is not counted
    await page.goto('about:blank');
    const release = await holdEntry(page);
    const asked: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/')) asked.push(`${r.method()} ${u.pathname}${u.search}`);
    });
    await page.goto(e2e.portal('/home'), { waitUntil: 'commit' });
    const paint = page.locator('#root > [data-first-paint=chrome]');
    await paint.locator('header').waitFor({ timeout: SLOW });
    expect(await paint.locator('form').count()).toBe(0);
    expect(await page.locator('[data-testid=page-title]').count()).toBe(0);
    // the screen as the server drew it with those answers, before any script of the portal ran
    const drawn = paint.locator('[data-first-paint-screen]');
    await drawn.locator('[data-section=alerts]').waitFor({ timeout: SLOW });
    expect(await drawn.locator('[data-section=accountSummary], [data-section=payments]').count()).toBeGreaterThan(0);
    await expectNoAxeViolations(page, 'Home, drawn ahead by the server');
    await shot(page, 'home-first-paint-html-375');
    // the early script asked for Home's loads while the entry was still held back
    await expect.poll(() => asked.filter((a) => a === 'POST /api/Customer/first-loads').length, { timeout: SLOW }).toBe(1);
    release();
    await page.locator('[data-testid=page-title]').waitFor({ timeout: SLOW });
    await paint.waitFor({ state: 'detached', timeout: SLOW });
    await page.locator('[data-section=alerts]').waitFor({ timeout: SLOW });
    await page.waitForLoadState('networkidle');
    // the provider's declarations came with the page; Home's loads came in the one early answer
    expect(asked.filter((a) => a.includes('/Customer/declarations'))).toEqual([]);
    const twice = asked.filter((a, i) => asked.indexOf(a) !== i);
    expect(twice).toEqual([]);
    for (const load of ['/api/Communication/alerts/home', '/api/Billing/account-summary', '/api/Registration/programperiods/list', '/api/Communication/bulletin']) {
      expect(asked.filter((a) => a.startsWith(`GET ${load}`)), load).toEqual([]);
    }
    await expectNoAxeViolations(page, 'Home after the header drawn ahead');
    await shot(page, 'home-first-paint-react-375');
    await ctx.close();
  });

  it('a button of the screen drawn ahead, pressed before the scripts, is pressed in React\'s screen once it is drawn (1280 px)', async () => {
    const ctx = await newContext(e2e.browser, 1280);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria');
    await expect.poll(async () => (await ctx.cookies()).find((c) => c.name === 'pp_app')?.value, { timeout: SLOW }).toBe('brightpath');
    const release = await holdEntry(page);
    await page.goto(e2e.portal('/home'), { waitUntil: 'commit' });
    const drawn = page.locator('#root > [data-first-paint=chrome] [data-first-paint-screen]');
    await drawn.locator('[data-section=alerts]').waitFor({ timeout: SLOW });
    await shot(page, 'home-first-paint-html-1280');
    const payNow = drawn.getByRole('button', { name: 'Pay Now' }).first();
    await payNow.click();
    await expect.poll(() => payNow.getAttribute('aria-busy'), { timeout: SLOW }).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/parentportal/home');
    release();
    await page.waitForURL(/\/parentportal\/paynow$/, { timeout: SLOW });
    await page.locator('[data-testid=page-title]').waitFor({ timeout: SLOW });
    await ctx.close();
  });
});
