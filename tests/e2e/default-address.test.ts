// The server started as `npm start` starts it (no PUBLIC_URL, HOST, NODE_ENV or development routes):
// the address it prints is the one its links, the parent application's hand-off and the payment
// gateway's return use, so a parent signed in at the printed address stays signed in through Register
// -> Exit -> Return to portal and through a declined card, and sees why the card was declined.
// 375 px in English and 1280 px in Spanish, axe on every page.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { escapeRegExp, expectNoAxeViolations, newContext, shot, submitSignIn, text, withServerAndBrowser } from './kit';

// what `npm start` leaves unset stays unset (the harness's own defaults are emptied)
const e2e = withServerAndBrowser({ PUBLIC_URL: '', HOST: '', NODE_ENV: '', DEV_ROUTES: '' });
/** the portal's address as the server printed it (http://host:port, without /parentportal/) */
let printed = '';

type Lang = 'en' | 'es';
const SUMMER = { en: 'Summer Adventure Camp', es: 'Campamento de verano Aventura' };

beforeAll(() => {
  const line = /Parent portal: (http\S+?)\/parentportal\//.exec(e2e.server.log());
  if (!line) throw new Error(`the server printed no address:\n${e2e.server.log()}`);
  printed = line[1];
});

/** The page is the portal at the printed address, on `path`, signed in as Karen. */
async function expectSignedIn(page: Page, path: RegExp, label: string) {
  try {
    await page.waitForURL(path, { timeout: 30_000 });
    expect(new URL(page.url()).origin).toBe(printed);
    await expect.poll(() => page.locator('section[data-section=welcome]').textContent(), { timeout: 15_000 }).toContain('Karen');
  } catch (err) {
    await shot(page, `default-address-failed-${label}`);
    throw new Error(`${label}: not signed in on ${path} at ${printed} (at ${page.url()}): ${(err as Error).message}`);
  }
}

async function register(page: Page, lang: Lang) {
  await page.goto(`${printed}/parentportal/programlist`);
  const card = page.locator('section[data-section=programs] article').filter({ has: page.getByRole('heading', { name: SUMMER[lang] }) });
  await card.waitFor({ timeout: 30_000 });
  const name = new RegExp(`^(${escapeRegExp(text(lang, 'programs', 'button.register'))}|${escapeRegExp(text(lang, 'programs', 'button.addChild'))})$`);
  await card.getByRole('button', { name }).click();
  // while the provider's grade roll-up is open the parent confirms next year's grades first
  const rollup = page.getByRole('alertdialog', { name: text(lang, 'programs', 'rollup.title') });
  const save = rollup.getByRole('button', { name: text(lang, 'programs', 'rollup.continue') });
  const deadline = Date.now() + 90_000;
  while (!/\/parentapplication\//.test(page.url())) {
    if (Date.now() > deadline) throw new Error(`Register did not reach the parent application (at ${page.url()})`);
    if ((await rollup.isVisible()) && (await save.isEnabled())) await save.click({ timeout: 5_000 }).catch(() => undefined);
    await page.waitForURL(/\/parentapplication\//, { timeout: 3_000 }).catch(() => undefined);
  }
  // the hand-off stays on the portal's origin, where the parent's session is
  expect(new URL(page.url()).origin).toBe(printed);
  await page.waitForURL(/\/parentapplication\/(children|enrollment|fee|review)\?key=/, { timeout: 60_000 });
}

/** Pay now, another amount by a new card, Karen as the payer, the sandbox's declined card. */
async function payDeclined(page: Page) {
  await page.goto(`${printed}/parentportal/paynow`);
  await page.waitForSelector('section[data-section=summary] dl');
  await page.check('#amount_amountChoice-1');
  const fees = page.waitForResponse((r) => r.url().includes('/processing-fee') && r.url().includes('Amount=25.00'));
  await page.fill('#amount_otherAmount', '25.00');
  await fees;
  const tile = page.locator('section[data-section=methods] [data-index]').filter({ hasText: /card|tarjeta/i });
  await tile.first().locator('[data-action=choose]').click();
  await page.waitForURL(/\/payerinformation\?key=[0-9a-f]{32}/);
  await page.locator('#payer_paidByFamilyMemberID option', { hasText: 'Karen Johnson' }).waitFor({ state: 'attached' });
  await page.selectOption('#payer_paidByFamilyMemberID', { label: 'Karen Johnson' });
  await expect.poll(() => page.inputValue('#payer_streetAddress')).not.toBe('');
  await page.click('[data-action=pay]');
  // the gateway's hosted page, on its own origin
  await page.waitForURL((u) => u.pathname.startsWith('/pay/'));
  expect(new URL(page.url()).origin).not.toBe(printed);
  await page.fill('input[name=number]', '4000 0000 0000 0002');
  await page.fill('input[name=expiry]', '12/30');
  await page.fill('input[name=cvv]', '123');
  await page.click('button[type=submit]');
}

describe('the portal at the address the server prints', () => {
  it('prints one address that links, the hand-off and the gateway return share', () => {
    expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(printed).toBe(e2e.server.url);
  });

  for (const [width, locale] of [
    [375, 'en-US'],
    [1280, 'es-ES'],
  ] as const) {
    const lang = locale.slice(0, 2) as Lang;
    it(`keeps the parent signed in through a hand-off and a declined card (${width} px, ${lang})`, async () => {
      const ctx = await newContext(e2e.browser, width, locale);
      const page = await ctx.newPage();
      try {
        await page.goto(`${printed}/parentportal/brightpath/parent`);
        await page.waitForSelector('[data-testid=signin-form]');
        await submitSignIn(page, 'karen');
        await expectSignedIn(page, /\/parentportal\/home$/, `signin-${width}-${lang}`);

        // Register -> Exit -> Return to portal: home, signed in
        await register(page, lang);
        await page.getByRole('button', { name: text(lang, 'application', 'exit.action') }).click();
        const exit = page.getByRole('alertdialog', { name: text(lang, 'application', 'exit.title') });
        await exit.waitFor();
        await exit.getByRole('button', { name: text(lang, 'application', 'exit.return') }).click();
        await expectSignedIn(page, /\/parentportal\/home$/, `handoff-return-${width}-${lang}`);
        await expectNoAxeViolations(page, `home after the hand-off ${width} ${locale}`);
        await shot(page, `default-address-handoff-return-${width}-${lang}`);

        // a declined card: the gateway returns to the portal, which says why
        await payDeclined(page);
        try {
          await page.waitForURL(/\/parentportal\/paymentfailed\?reason=DECLINED/, { timeout: 60_000 });
          expect(new URL(page.url()).origin).toBe(printed);
          await expect.poll(() => page.textContent('main'), { timeout: 15_000 }).toContain(text(lang, 'payment', 'reasons.DECLINED'));
        } catch (err) {
          await shot(page, `default-address-failed-decline-${width}-${lang}`);
          throw new Error(`the declined card's return (at ${page.url()}): ${(err as Error).message}`);
        }
        await expectNoAxeViolations(page, `payment declined ${width} ${locale}`);
        await shot(page, `default-address-declined-${width}-${lang}`);

        // still signed in: home again, after a reload
        await page.goto(`${printed}/parentportal/home`);
        await expectSignedIn(page, /\/parentportal\/home$/, `after-decline-${width}-${lang}`);
      } finally {
        await ctx.close();
      }
    }, 300_000);
  }
});
