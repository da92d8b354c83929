// Code the first paint does not need loads on first use: the header's dialogs and panels, a
// screen's declared modals and the upload progress bar when first shown, the provider's form
// validators when the parent turns to the sign-in form. In a real browser: the first load fetches
// none of it; once used everything behaves as before (placement, focus, dismissal, validation, axe).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, openSignIn, shot, signIn, withServerAndBrowser } from './kit';

const e2e = withServerAndBrowser();

/** Script URLs the page fetches from now on. */
function scriptsOf(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script') urls.push(new URL(req.url()).pathname);
  });
  return urls;
}

/** A fresh browser context on the provider's sign-in page, drawn, with the scripts it fetches. */
async function freshSignIn() {
  const ctx = await newContext(e2e.browser);
  const page = await ctx.newPage();
  const scripts = scriptsOf(page);
  await openSignIn(page, e2e.server);
  return { ctx, page, scripts };
}

const activeTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

describe('header dialogs and panels loaded on first use', () => {
  it('the profile panel opens below its button, closes on a second click and on Escape, and gives focus back', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    const scripts = scriptsOf(page);
    await signIn(page, e2e.server, 'maria');
    await page.waitForSelector('section[data-section=payments] dl');
    expect(scripts.some((s) => /ProfilePopover|AccessibilityDialog|SignOutDialog|MenuDrawer/.test(s))).toBe(false);

    const button = page.locator('[data-testid=profile-button]');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    const panel = page.locator('[data-testid=profile-panel]');
    await panel.waitFor({ state: 'visible' });
    expect(scripts.some((s) => s.includes('ProfilePopover'))).toBe(true);
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await panel.textContent()).toContain('maria.garcia@example.com');
    // placed at the button: below it, right edges aligned (bottom-end)
    const b = (await button.boundingBox())!;
    const p = (await panel.boundingBox())!;
    expect(p.y).toBeGreaterThanOrEqual(b.y + b.height - 1);
    expect(Math.abs(p.x + p.width - (b.x + b.width))).toBeLessThan(12);
    await expectNoAxeViolations(page, 'profile panel');
    await shot(page, 'chrome-profile-panel-1280-en');

    // the button is the trigger: a second click closes instead of closing and reopening
    await button.click();
    await panel.waitFor({ state: 'hidden' });
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    await button.click();
    await panel.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    expect(await activeTestId(page)).toBe('profile-button');

    // a click outside (on the page title, nothing interactive) closes it; the panel starts listening for
    // outside clicks just after it shows, so on a busy machine the click is repeated until it lands
    await button.click();
    await panel.waitFor({ state: 'visible' });
    await expect
      .poll(async () => {
        if (await panel.isVisible()) await page.locator('[data-testid=page-title]').click();
        return panel.isVisible();
      })
      .toBe(false);
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    // Sign out from the panel asks first
    await button.click();
    await panel.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForSelector('[data-testid=signout-confirm]');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForSelector('[data-testid=signout-confirm]', { state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/parentportal/home');
    await ctx.close();
  });

  it('the menu drawer (375 px) traps focus, closes on Escape and gives focus back to the menu button', async () => {
    const ctx = await newContext(e2e.browser, 375, 'es-ES');
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria');
    await page.waitForSelector('section[data-section=payments] dl');
    const button = page.locator('[data-testid=menu-button]');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    await page.waitForSelector('[data-testid=drawer-settings]');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    // focus is inside the drawer
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role=dialog]')))).toBe(true);
    await expectNoAxeViolations(page, 'menu drawer (375, es)');
    await shot(page, 'chrome-menu-drawer-375-es');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=drawer-settings]', { state: 'detached' });
    expect(await activeTestId(page)).toBe('menu-button');

    // the drawer's accessibility button opens the (also lazily loaded) accessibility dialog
    await button.click();
    await page.locator('[data-testid=drawer-settings] [data-testid=accessibility-button]').click();
    await page.waitForSelector('[data-testid=accessibility-modal]');
    await expectNoAxeViolations(page, 'accessibility dialog from the drawer (375, es)');
    await ctx.close();
  });

  it('the accessibility dialog on the sign-in page opens on first click and gives focus back on Close', async () => {
    const { ctx, page, scripts } = await freshSignIn();
    await page.waitForLoadState('networkidle');
    expect(scripts.some((s) => s.includes('AccessibilityDialog'))).toBe(false);
    await page.click('[data-testid=accessibility-button]');
    await page.waitForSelector('[data-testid=accessibility-modal]');
    await page.getByRole('button', { name: 'Close', exact: true }).first().click();
    await page.waitForSelector('[data-testid=accessibility-modal]', { state: 'detached' });
    expect(await activeTestId(page)).toBe('accessibility-button');
    await ctx.close();
  });
});

describe('sign-in form validators loaded on first use', () => {
  it('the sign-in page loads without the validators; an empty submit waits for them and is answered by the declared rules', async () => {
    const { ctx, page, scripts } = await freshSignIn();
    await page.waitForLoadState('networkidle');
    expect(scripts.some((s) => s.includes('/validators/'))).toBe(false);
    expect(await page.isEnabled('[data-testid=signin-submit]')).toBe(true);

    // an empty submit is answered by the declared rules once they have arrived
    await page.click('[data-testid=signin-submit]');
    await page.waitForSelector('[data-testid=signin-form] [role=alert]');
    expect(scripts.some((s) => s.includes('/validators/'))).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    // the declared sign-in form is drawn by the light renderer: the full form chunk never loads
    expect(scripts.some((s) => s.includes('FormKind'))).toBe(false);
    await ctx.close();
  });

  it('the sign-in page is translated by i18next from the first paint: texts, messages with values and a language switch', async () => {
    const { ctx, page } = await freshSignIn();
    await page.waitForLoadState('networkidle');
    const before = await page.locator('body').innerText();
    expect(before).toContain('Sign in');
    // the parent acts: nothing on the page changes translator or words
    await page.locator('input[name=email]').click();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('body').innerText()).toBe(before);

    await page.click('[data-testid=signin-submit]');
    await expect.poll(() => page.locator('[data-testid=signin-form]').innerText()).toContain('E-mail is required');
    await page.selectOption('[data-testid=language-switch] select', 'es');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('es');
    await page.waitForSelector('[data-testid=page-title]:has-text("Iniciar sesión")');
    await expect.poll(() => page.locator('[data-testid=signin-form]').innerText()).toMatch(/obligatorio/i);
    await ctx.close();
  });

  it('a tap on Sign in from an empty focused field is not lost to its message moving the button', async () => {
    const { ctx, page, scripts } = await freshSignIn();
    await page.locator('input[name=email]').click();
    // the validators are in: a blur would show the field's message at once
    await expect.poll(() => scripts.some((s) => s.includes('/validators/'))).toBe(true);
    await page.waitForLoadState('networkidle');
    await page.click('[data-testid=signin-submit]');
    // the submit ran: the page-level message and every field's message, the first field focused
    await page.waitForSelector('[data-testid=signin-form] [role=alert]');
    expect(await page.locator('[data-testid=signin-form]').innerText()).toMatch(/E-mail is required[\s\S]*Password is required/);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    await ctx.close();
  });

  it('Enter right after the fields are filled in signs in', async () => {
    const { ctx, page } = await freshSignIn();
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => {
      // filled without focus, as a password manager does, then Enter
      const set = (name: string, value: string) => {
        const input = document.querySelector<HTMLInputElement>(`input[name=${name}]`)!;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      };
      set('email', 'maria.garcia@example.com');
      set('password', 'Sunshine#2026');
    });
    await page.press('input[name=password]', 'Enter');
    await page.waitForURL(/\/home$/);
    await ctx.close();
  });
});

describe('declared modals loaded on first use', () => {
  it('the drop confirmation of My Account opens with its form, passes axe and Cancel closes it', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    const scripts = scriptsOf(page);
    await signIn(page, e2e.server, 'maria');
    await page.waitForSelector('section[data-section=payments] dl');
    scripts.length = 0;
    await page.goto(e2e.portal('/myaccount'));
    await page.waitForSelector('section[data-section=otherContacts] article');
    expect(scripts.some((s) => s.includes('ScreenModal'))).toBe(false);
    // the form runtime and the provider's validators load when the dialog that holds a form opens
    expect(scripts.filter((s) => s.includes('FormKind') || s.includes('/validators/'))).toEqual([]);
    const james = page.locator('section[data-section=otherContacts] article', { hasText: 'James Carter' });
    await james.locator('[data-action=dropContact]').click();
    const modal = page.locator('[data-modal=dropAdult]');
    await modal.waitFor({ state: 'visible' });
    expect(scripts.some((s) => s.includes('ScreenModal'))).toBe(true);
    await modal.locator('form').first().waitFor({ state: 'attached' });
    expect(scripts.some((s) => s.includes('FormKind'))).toBe(true);
    expect(scripts.some((s) => s.includes('/validators/'))).toBe(true);
    expect(await modal.getByRole('heading').first().textContent()).toBe('Drop contact');
    await expectNoAxeViolations(page, 'drop confirmation');
    await modal.locator('[data-action=cancel]').click();
    await modal.waitFor({ state: 'detached' });
    expect(await page.locator('section[data-section=otherContacts] article', { hasText: 'James Carter' }).count()).toBe(1);
    await ctx.close();
  });
});

describe('upload progress loaded on first use', () => {
  it('a photo upload shows its progress bar while it runs, then goes back to My Account', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    const scripts = scriptsOf(page);
    await signIn(page, e2e.server, 'maria');
    await page.waitForSelector('section[data-section=payments] dl');
    await page.goto(e2e.portal('/myaccount'));
    const maria = page.locator('section[data-section=holders] article', { hasText: 'Maria Garcia' });
    await maria.locator('[data-action=holderPhoto]').click();
    await page.waitForURL(/\/uploadimage/);
    expect(scripts.some((s) => s.includes('UploadProgress'))).toBe(false);
    // a real PNG: a piece of the page itself
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 40, height: 40 } });
    // the upload is held back a moment so that its progress can be seen
    await page.route('**/photo**', async (route) => {
      if (route.request().method() === 'GET') return route.continue();
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    const chooser = page.waitForEvent('filechooser');
    await page.click('[data-action=uploadAdult]');
    await (await chooser).setFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png });
    await page.locator('[role=progressbar]').first().waitFor();
    expect(await page.locator('[aria-label="Uploading file"]').count()).toBe(1);
    expect(scripts.some((s) => s.includes('UploadProgress'))).toBe(true);
    await page.waitForURL(/\/myaccount$/);
    await ctx.close();
  });
});
