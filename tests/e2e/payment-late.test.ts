// Spec 8.2, a payment recorded late: the gateway took the payment, but the portal cannot record it yet
// (here its answers to the return page are held back as a server that cannot reach the gateway
// would answer: PENDING). After a few asks the return page stops spinning and tells the parent not
// to pay again; once the portal records the payment, the same page goes on to the receipt, and the
// balance was charged once. At 375 px in English and 1280 px in Spanish, axe clean.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, shot, signIn, text, withServerAndBrowser } from './kit';

const e2e = withServerAndBrowser();

/** The balance as /paynow's summary shows it. */
async function balanceText(page: Page): Promise<string> {
  await page.goto(e2e.portal('/paynow'));
  await page.waitForSelector('section[data-section=summary] dl');
  return (await page.textContent('section[data-section=summary]')) ?? '';
}

describe('a payment recorded late', () => {
  for (const [width, lang, locale, who, payer] of [
    [375, 'en', 'en-US', 'maria', 'Maria Garcia'],
    [1280, 'es', 'es-ES', 'david', 'David Garcia'],
  ] as const) {
    it(`says not to pay again, then shows the receipt once recorded (${lang}, ${width} px)`, async () => {
      const ctx = await newContext(e2e.browser, width, locale);
      const page = await ctx.newPage();
      await signIn(page, e2e.server, who);
      const before = await balanceText(page);

      // an other amount of 10.00 by card
      await page.check('#amount_amountChoice-1');
      const fees = page.waitForResponse((r) => r.url().includes('/processing-fee') && r.url().includes('Amount=10'));
      await page.fill('#amount_otherAmount', '10');
      await fees;
      const tile = page.locator('section[data-section=methods] [data-index]').filter({ hasText: /card|tarjeta/i });
      await tile.first().locator('[data-action=choose]').click();
      await page.waitForURL(/\/payerinformation\?key=[0-9a-f]{32}/);
      await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(3)', { state: 'attached' });
      await page.selectOption('#payer_paidByFamilyMemberID', { label: payer });
      await expect.poll(() => page.inputValue('#payer_streetAddress')).not.toBe('');
      await page.click('[data-action=pay]');
      await page.waitForURL((u) => u.pathname.startsWith('/pay/'));

      // the portal cannot record payments for now: every ask of the return page is answered PENDING
      let held = 0;
      await page.route('**/api/Billing/payment/result', async (route) => {
        held++;
        await route.fulfill({ json: { status: 'PENDING', accountPaymentID: null, reasonCode: '', referrer: '/paynow', purpose: 'BALANCE' } });
      });
      await page.fill('input[name=number]', '4111 1111 1111 1111');
      await page.fill('input[name=expiry]', '12/30');
      await page.fill('input[name=cvv]', '123');
      await page.click('button[type=submit]');

      const late = page.getByTestId('payment-late');
      await late.waitFor({ timeout: 60_000 });
      expect(held).toBeGreaterThan(5);
      expect(await late.textContent()).toContain(text(lang, 'payment', 'late.noPayAgain'));
      expect(await late.textContent()).toContain(text(lang, 'payment', 'late.title'));
      // no spinner left on the page, and nothing that reads as a failure
      expect(await page.locator('[data-testid=payment-loader]').count()).toBe(0);
      await expectNoAxeViolations(page, `payment late ${lang} ${width}`);
      await shot(page, `payment-late-${width}-${lang}`);

      // the portal records it again: the page's next ask finds the payment and shows the receipt
      await page.unroute('**/api/Billing/payment/result');
      await page.waitForURL(/\/paymentreceipt\?accountPaymentID=\d+/, { timeout: 60_000 });
      await page.waitForSelector('section[data-section=receipt] dl');

      // charged once: the balance went down by the 10.00 (and its fee) exactly once
      const after = await balanceText(page);
      expect(after).not.toBe(before);
      await ctx.close();
    });
  }
});
