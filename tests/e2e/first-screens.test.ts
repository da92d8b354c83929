// What a parent notices on the first screens, in a real browser at 375 and 1280 px: Home opens on
// what needs her today (balance due, each child's check-in, new bulletins, registration open) from
// declared rules; Canada worded as Canada; who may see what for a payment-only login; the small
// defects of the account pages. axe on every page; screenshots in test-results/screens.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Jimp } from 'jimp';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, openSignIn, type Parent, shot, signIn, withServerAndBrowser } from './kit';
import { day } from '../today';

const screensEn = JSON.parse(readFileSync(resolve(__dirname, '../../locales/en/screens.json'), 'utf8'));
const today = screensEn.home.today as Record<string, string>;

const e2e = withServerAndBrowser();

async function signedIn(who: Parent, width = 1280, locale = 'en-US'): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await newContext(e2e.browser, width, locale);
  const page = await ctx.newPage();
  await signIn(page, e2e.server, who);
  await settled(page);
  return { ctx, page };
}

async function settled(page: Page) {
  await page.waitForSelector('main h1');
  await page.waitForFunction(() => document.querySelectorAll('[data-state=loading]').length === 0);
}

/** Client-side navigation keeps the session in memory exactly as a user clicking would. */
async function open(page: Page, path: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', `/parentportal${p}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await settled(page);
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('Home opens on today', () => {
  for (const width of [375, 1280]) {
    it(`balance due, each child's check-in, new bulletins and open registration come before the links (${width} px)`, async () => {
      const { ctx, page } = await signedIn('maria', width);
      // the today area comes before the grid of links
      const order = await page.evaluate(() => [...document.querySelectorAll('section[data-section]')].map((s) => s.getAttribute('data-section')));
      for (const id of ['balanceDue', 'todayAttendance', 'newBulletins']) expect(order.indexOf(id)).toBeLessThan(order.indexOf('quickLinks'));

      // balance due with its amount, its Pay now button, and a link to the payment details (further down Home)
      const balance = page.locator('section[data-section=balanceDue]');
      expect(await balance.textContent()).toMatch(/\$[\d,]+\.\d\d/);
      expect(await balance.getByRole('button').count()).toBe(1);
      const details = page.getByRole('link', { name: today.accountDetails });
      await details.click();
      await page.waitForFunction(() => location.hash === '#section-paymentsHeading');
      expect(await page.locator('#section-paymentsHeading').count()).toBe(1);

      // each child once, with what the attendance of today says
      const kids = page.locator('section[data-section=todayAttendance] article');
      const cards = Object.fromEntries(
        await Promise.all((await kids.all()).map(async (a) => [((await a.locator('h3').textContent()) ?? '').trim(), (await a.textContent()) ?? ''])),
      ) as Record<string, string>;
      expect(Object.keys(cards).sort()).toEqual(['Emma Garcia', 'Lucas Garcia', 'Sofia Garcia']);
      expect(cards['Emma Garcia']).toContain(today.checkedIn);
      expect(cards['Emma Garcia']).toContain('08:05 AM');
      expect(cards['Sofia Garcia']).toContain(today.absent);
      expect(cards['Sofia Garcia']).toContain('Sick');
      expect(cards['Lucas Garcia']).toContain('Family vacation');

      // new bulletins: those of the full list published in the last 7 days by today, and only those
      const all = await page.locator('section[data-section=bulletins] article').evaluateAll((as) =>
        as.map((a) => ({ title: a.querySelector('h3')?.textContent?.trim() ?? '', date: /\d\d\/\d\d\/\d{4}/.exec(a.textContent ?? '')?.[0] ?? '' })),
      );
      const dayNo = (d: Date) => Math.round(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / 86_400_000);
      const expected = all
        .filter((b) => {
          const [m, d, y] = b.date.split('/').map(Number);
          const ago = dayNo(day(0)) - dayNo(new Date(y, m - 1, d));
          return ago >= 0 && ago <= 7;
        })
        .map((b) => b.title);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(all.length);
      const shown = await page.locator('section[data-section=newBulletins] article h3').allTextContents();
      expect(shown.map((s) => s.trim()).sort()).toEqual(expected.sort());

      // registration open: programs open today that the account is not registered for
      const open = await page.locator('section[data-section=registrationOpen] article h3').allTextContents();
      expect(open.length).toBeGreaterThan(0);
      const registered = page.locator('section[data-section=registration] article', { hasText: 'Registered' }).locator('h3');
      for (const title of await registered.allTextContents()) expect(open).not.toContain(title);

      // no program card is a title in an empty box
      for (const card of await page.locator('section[data-section=registration] article').all()) {
        expect(((await card.textContent()) ?? '').replace(((await card.locator('h3').textContent()) ?? ''), '').trim().length).toBeGreaterThan(0);
      }

      expect(await noSideScroll(page)).toBe(true);
      await expectNoAxeViolations(page, `home ${width}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `first-home-${width}-en`);
      await ctx.close();
    });
  }

  it('a payment-only login sees its balance and nothing it may not use', async () => {
    const { ctx, page } = await signedIn('ana', 375);
    expect(await page.locator('section[data-section=balanceDue]').count()).toBe(1);
    for (const id of ['todayAttendance', 'newBulletins', 'registrationOpen']) expect(await page.locator(`section[data-section=${id}]`).count()).toBe(0);
    expect(await page.locator('[data-state=error]').count()).toBe(0);
    await expectNoAxeViolations(page, 'home payment only');
    await shot(page, 'first-home-375-payment-only');
    await ctx.close();
  });
});

const fieldsOf = (lang: string) => JSON.parse(readFileSync(resolve(__dirname, `../../locales/${lang}/fields.json`), 'utf8'));
const errorsEn = JSON.parse(readFileSync(resolve(__dirname, '../../locales/en/errors.json'), 'utf8'));

describe('Canada worded as Canada', () => {
  for (const width of [375, 1280]) {
    it(`a Canadian address says Province and Postal code, lists the 13 provinces and territories and refuses 12345 as invalid (${width} px)`, async () => {
      const { ctx, page } = await signedIn('linh', width);
      await open(page, '/myaccount');
      await page.locator('section[data-section=holders] article').first().locator('[data-action=editHolder]').click();
      await page.waitForURL(/\/editcontact\?adultID=\d+$/);
      await page.waitForSelector('form select[id$=stateCode]');
      const label = async (field: string) => ((await page.locator(`label[for$=_${field}]`).first().textContent()) ?? '').trim();
      expect(await label('stateCode')).toMatch(new RegExp(`^${fieldsOf('en').address.province}\\b`));
      expect(await label('zip')).toMatch(new RegExp(`^${fieldsOf('en').address.postalCode}\\b`));
      const options = (await page.locator('select[id$=stateCode] option').allTextContents()).slice(1);
      expect(options).toHaveLength(13);
      for (const place of ['Alberta', 'Quebec', 'Nunavut', 'Yukon', 'Northwest Territories']) expect(options).toContain(place);
      expect(options).not.toContain('Texas');

      const zip = page.locator('input[id$=_zip]');
      // a slow phone: frames come late, after the next keys (the caret must stay where the parent types)
      if (width === 375) await page.evaluate(() => (window.requestAnimationFrame = (f) => window.setTimeout(() => f(performance.now()), 400)));
      await zip.fill('');
      await zip.pressSequentially('12345', { delay: 150 });
      await zip.blur();
      expect(await zip.inputValue()).toBe('12345');
      const message = errorsEn.format.postalCode.replace('{{field}}', fieldsOf('en').address.postalCode);
      await page.getByText(message).first().waitFor();
      expect(await page.getByText(/Zip is required|is required/).count()).toBe(0);
      // a real postal code takes the mask and clears the message
      await zip.fill('');
      await zip.pressSequentially('t2p1j9');
      await zip.blur();
      expect(await zip.inputValue()).toBe('T2P 1J9');
      await page.getByText(message).first().waitFor({ state: 'detached' });
      expect(await noSideScroll(page)).toBe(true);
      await expectNoAxeViolations(page, `editcontact CA ${width}`);
      await shot(page, `first-editcontact-ca-${width}`);
      await ctx.close();
    });
  }

  it('the same words in Vietnamese, and the US keeps State and Zip', async () => {
    const { ctx, page } = await signedIn('linh', 375, 'vi-VN');
    await open(page, '/myaccount');
    await page.locator('section[data-section=holders] article').first().locator('[data-action=editHolder]').click();
    await page.waitForSelector('form select[id$=stateCode]');
    expect(await page.locator('label[for$=_zip]').first().textContent()).toContain(fieldsOf('vi').address.postalCode);
    await ctx.close();

    const us = await signedIn('maria', 1280);
    await open(us.page, '/myaccount');
    await us.page.locator('section[data-section=holders] article').first().locator('[data-action=editHolder]').click();
    await us.page.waitForSelector('form select[id$=stateCode]');
    expect(await us.page.locator('label[for$=_zip]').first().textContent()).toContain(fieldsOf('en').contact.zip);
    expect(await us.page.locator('label[for$=_stateCode]').first().textContent()).toContain(fieldsOf('en').contact.state);
    await us.ctx.close();
  });
});

const authOf = (lang: string) => JSON.parse(readFileSync(resolve(__dirname, `../../locales/${lang}/auth.json`), 'utf8'));
const accountEn = JSON.parse(readFileSync(resolve(__dirname, '../../locales/en/account.json'), 'utf8'));
const runtimeEn = JSON.parse(readFileSync(resolve(__dirname, '../../locales/en/runtime.json'), 'utf8'));
const commEn = JSON.parse(readFileSync(resolve(__dirname, '../../locales/en/communication.json'), 'utf8'));
const pageTitle = async (page: Page) => ((await page.locator('[data-testid=page-title]').textContent()) ?? '').trim();

describe('defects of the first screens', () => {
  it('the status page is titled by its status, and a reset link without a token says it is not valid', async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    await open(page, '/forgotpwdstatus?done=reset');
    expect(await pageTitle(page)).toBe(authOf('en').status.resetTitle);
    await open(page, '/forgotpwdstatus?done=sent');
    expect(await pageTitle(page)).toBe(authOf('en').status.title);

    await open(page, '/resetpassword');
    await page.getByText(authOf('en').reset.invalidTitle).waitFor();
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.getByRole('button', { name: authOf('en').reset.submit }).count()).toBe(0);
    await expectNoAxeViolations(page, 'reset without token');
    await shot(page, 'first-reset-no-token-375');
    await open(page, '/resetpassword?token=abc');
    await page.waitForSelector('form input[type=password]');
    expect(await page.getByText(authOf('en').reset.invalidTitle).count()).toBe(0);
    await ctx.close();
  });

  it('My Account fits 375 px, and dropping a contact says it was dropped', async () => {
    const { ctx, page } = await signedIn('maria', 375);
    await open(page, '/myaccount');
    await page.waitForSelector('section[data-section=otherContacts] article');
    expect(await noSideScroll(page)).toBe(true);
    await page.locator('section[data-section=otherContacts] article', { hasText: 'Rosa' }).locator('[data-action=dropContact]').click();
    const dialog = page.locator('[data-modal=dropAdult]');
    await dialog.locator('[data-action=confirmOk]').click();
    await dialog.waitFor({ state: 'detached' });
    const done = accountEn.drop.done.replace('{{name}}', 'Rosa');
    await page.getByText(done).waitFor();
    expect(await page.locator('section[data-section=otherContacts]').textContent()).not.toContain('Rosa');
    await expectNoAxeViolations(page, 'myaccount dropped');
    await shot(page, 'first-myaccount-dropped-375');
    // a crafted link cannot make the page say something was dropped: the notice is never in the address
    expect(page.url()).not.toContain('Rosa');
    await open(page, '/myaccount?dropped=Your%20account%20is%20closed.%20Call%20555-0100');
    await page.waitForSelector('section[data-section=otherContacts] article');
    expect(await page.getByText('Your account is closed', { exact: false }).count()).toBe(0);
    expect(await page.locator('section[data-section=dropped]').count()).toBe(0);
    await ctx.close();
  });

  it('fields and the accessibility dialog checkbox show a focus ring as strong as the buttons', async () => {
    const { ctx, page } = await signedIn('maria', 1280);
    const ring = (selector: string) =>
      page.evaluate((sel) => {
        const el = document.querySelector(sel)!;
        const s = getComputedStyle(el);
        return { width: parseFloat(s.outlineWidth), style: s.outlineStyle };
      }, selector);
    await page.focus('[data-testid=accessibility-button]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=accessibility-modal]');
    // the dialog puts the focus on its first control: Tab until the checkbox has it
    for (let i = 0; i < 6 && !(await page.evaluate(() => document.activeElement?.closest('[data-scope=checkbox]'))); i++) await page.keyboard.press('Tab');
    const control = await ring('[data-testid=accessibility-modal] [data-scope=checkbox][data-part=control]');
    expect(control.style).toBe('solid');
    expect(control.width).toBeGreaterThanOrEqual(3);
    await shot(page, 'first-accessibility-focus');
    await page.keyboard.press('Escape');
    await open(page, '/communication');
    await page.waitForSelector('form select');
    // the period always has a value: no '(optional)'
    const period = page.locator('label', { hasText: commEn.history.period });
    expect(await period.textContent()).not.toContain(runtimeEn.optional);
    await open(page, '/myaccount');
    await page.locator('section[data-section=holders] article').first().locator('[data-action=editHolder]').click();
    await page.waitForSelector('form input[id$=_firstName]');
    await page.focus('form input[id$=_firstName]');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    const input = await ring('form input[id$=_firstName]');
    expect(input.style).toBe('solid');
    expect(input.width).toBeGreaterThanOrEqual(3);
    await ctx.close();
  });
});

const commonEn = JSON.parse(readFileSync(resolve(__dirname, '../../locales/en/common.json'), 'utf8'));
const commonPt = JSON.parse(readFileSync(resolve(__dirname, '../../locales/pt/common.json'), 'utf8'));

/** Every declared screen of the portal: path, access, paymentOnly and a query that fills its required parameters. */
function declaredScreens(): { id: string; url: string; access: string; paymentOnly: boolean }[] {
  const dir = resolve(__dirname, '../../screens');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'planned-routes.json')
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
    .filter((s) => typeof s.path === 'string' && !s.path.includes(':'))
    // the portal's screens (the parent application is another product, under its own base path)
    .filter((s) => (s.product ?? 'parentportal') === 'parentportal')
    .map((s) => {
      const required = Object.entries((s.query ?? {}) as Record<string, { type: string; required?: boolean }>).filter(([, q]) => q.required);
      const search = required.map(([name, q]) => `${name}=${q.type === 'integer' ? 1 : 'x'}`).join('&');
      return { id: s.id, url: search ? `${s.path}?${search}` : s.path, access: s.access, paymentOnly: s.paymentOnly === true };
    });
}

describe('who may see what: a payment-only login', () => {
  it('every private screen is either usable or one clear translated "not available for your login" page', async () => {
    const { ctx, page } = await signedIn('ana', 375);
    const refusedCalls: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/') && r.status() === 403) refusedCalls.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    const screens = declaredScreens().filter((s) => s.access === 'private' && s.id !== 'postlogin');
    expect(screens.length).toBeGreaterThan(15);
    for (const s of screens) {
      await open(page, s.url);
      const notFor = page.locator('[data-testid=not-for-login]');
      if (s.paymentOnly) {
        expect(await notFor.count(), s.id).toBe(0);
      } else {
        await notFor.waitFor();
        expect(await pageTitle(page), s.id).toBe(commonEn.notForLogin.title);
        expect(await notFor.textContent()).toContain(commonEn.notForLogin.text);
        // no form, no Save, no retry panels
        expect(await page.locator('main form, main [data-state=error]').count(), s.id).toBe(0);
      }
      expect(await page.locator('main [data-state=error]').count(), s.id).toBe(0);
    }
    expect(refusedCalls).toEqual([]);
    await open(page, '/myaccount');
    await expectNoAxeViolations(page, 'not for login');
    await shot(page, 'first-not-for-login-375');
    await ctx.close();
  });

  it('the footer Contact Us works for it, and the refusal page speaks the chosen language', async () => {
    const { ctx, page } = await signedIn('ana', 1280);
    await page.getByRole('link', { name: commonEn.footer.contactUs }).click();
    await page.waitForURL(/\/contactus$/);
    await page.waitForSelector('main form');
    // the subject is one of the provider's contact-us subjects
    await page.getByLabel(/^Subject/).selectOption({ index: 1 });
    await page.getByLabel(/^Message/).fill('Is the December invoice ready?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/home\?sent=true$/);
    await page.locator('section[data-section=sent]').waitFor();
    expect(await page.locator('main [data-state=error]').count()).toBe(0);
    await ctx.close();

    const pt = await signedIn('ana', 375, 'pt-BR');
    await open(pt.page, '/attendance');
    await pt.page.locator('[data-testid=not-for-login]').waitFor();
    expect(await pageTitle(pt.page)).toBe(commonPt.notForLogin.title);
    await pt.ctx.close();
  });
});

describe('the header avatar after a photo upload', () => {
  it('shows the uploaded photo as a JPEG the browser can decode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-avatar-'));
    const file = join(dir, 'maria.png');
    writeFileSync(file, await new Jimp({ width: 600, height: 600, color: 0xe76f51ff }).getBuffer('image/png'));
    const { ctx, page } = await signedIn('maria', 375);
    await open(page, '/myaccount');
    await page.locator('section[data-section=holders] article').first().locator('[data-action=holderPhoto]').click();
    await page.waitForURL(/\/uploadimage\?/);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-action=uploadAdult]')]);
    await chooser.setFiles(file);
    await page.waitForURL(/\/myaccount$/);
    await page.reload();
    await settled(page);
    // the header's avatar: a data URL of the right type whose bytes decode
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('header img[src^="data:"]');
      return Boolean(img && img.complete && img.naturalWidth > 0);
    });
    expect(await page.locator('header img[src^="data:"]').first().getAttribute('src')).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    await shot(page, 'first-header-avatar-375');
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
