// Sign-in as a parent meets it: repeated wrong passwords lock the account (with the lock e-mail in
// the outbox, in the parent's language), and the signed-in portal in Vietnamese at 375 px and wide.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, openSignIn, outbox, shot, signIn, submitSignIn, withServerAndBrowser } from './kit';
import en from '../../locales/en/server.json';
import vi from '../../locales/vi/server.json';
import viScreens from '../../locales/vi/screens.json';

const e2e = withServerAndBrowser();

async function attempt(page: Page, email: string, password: string) {
  await submitSignIn(page, { email, password });
  const banner = page.locator('[data-testid=error-banner]');
  await banner.waitFor();
  const text = (await banner.textContent()) ?? '';
  await banner.getByRole('button').click();
  await banner.waitFor({ state: 'detached' });
  return text;
}

describe('sign-in', () => {
  it('five wrong passwords lock the account; the parent gets the lock e-mail and the right password no longer works', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    const email = 'david.garcia@example.com';
    for (let i = 1; i <= 4; i++) {
      expect(await attempt(page, email, `Wrong#pass${i}x`)).toContain(en.errors.invalidCredentials);
    }
    // the fifth failure locks; from then on even the right password answers the locked message
    expect(await attempt(page, email, 'Wrong#pass5x')).toContain(en.errors.accountLocked);
    expect(await attempt(page, email, 'Sunshine#2026')).toContain(en.errors.accountLocked);
    await expectNoAxeViolations(page, 'sign-in, locked');
    await shot(page, 'signin-locked-1280-en');

    const mails = (await outbox(e2e.server)).filter((m) => m.to.includes(email));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('Bright Path Kids Club');
    await ctx.close();
  });

  it('a wrong password in Vietnamese is answered in Vietnamese', async () => {
    const ctx = await newContext(e2e.browser, 375, 'vi-VN');
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    expect(await page.getAttribute('html', 'lang')).toBe('vi');
    expect(await attempt(page, 'maria.garcia@example.com', 'Wrong#pass1x')).toContain(vi.errors.invalidCredentials);
    await ctx.close();
  });

  for (const width of [375, 1280]) {
    it(`home in Vietnamese at ${width} px passes axe`, async () => {
      const ctx = await newContext(e2e.browser, width);
      const page = await ctx.newPage();
      await signIn(page, e2e.server, 'maria');
      await page.waitForSelector('[data-testid=page-title]');
      // on small screens the signed-in language switch sits in the menu drawer
      if (width < 768) await page.getByRole('button', { name: 'Open menu' }).click();
      await page.locator('[data-testid=language-switch] select:visible').selectOption('vi');
      if (width < 768) await page.keyboard.press('Escape');
      await page.waitForSelector(`[data-testid=page-title]:has-text("${viScreens.home.title}")`);
      expect(await page.getAttribute('html', 'lang')).toBe('vi');
      await page.waitForLoadState('networkidle');
      await expectNoAxeViolations(page, `home (vi, ${width})`);
      await shot(page, `home-${width}-vi`);
      await ctx.close();
    });
  }
});
