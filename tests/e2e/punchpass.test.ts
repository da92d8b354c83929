// The punch pass product in a real browser (spec 1, 2.8, 4 redirect flows): from the programs list's
// Punch pass button the portal hands Maria off to the punch passes, their own product under
// /punchpass; she sees the passes Bright Path offers (price, visits, per child or per family, expiry,
// refund policy) and hers (the Garcia family's pass with 3 visits left and the visits that used
// them); she buys a pass only by choosing it and confirming (a per-child pass asks for the child),
// pays on the sandbox gateway's page and comes back to the purchase, paid; a check-in recorded in
// attendance then uses one punch of her oldest valid pass, which shows one visit fewer and the visit
// listed (and at two visits left she is e-mailed). At 375 px in English and 1280 px in Spanish, axe on every page.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiToken, expectNoAxeViolations, newContext, outbox, shot, signIn, text, withServerAndBrowser, type Lang, chooseCard, payAsPayer } from './kit';

const e2e = withServerAndBrowser();

const myCards = (page: Page) => page.locator('section[data-section=mine] article');
const offerCards = (page: Page) => page.locator('section[data-section=offers] article');

/** What the API answers Maria. */
async function asMaria(path: string): Promise<unknown> {
  const token = await apiToken(e2e.server, 'maria');
  const res = await fetch(`${e2e.server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status, path).toBe(200);
  return res.json();
}

/** Sofia's or Lucas's id and the punch pass program's. */
async function ids(child: string): Promise<{ childID: number; programPeriodID: number }> {
  const get = asMaria;
  const kids = (await get('/api/Demographics/children')) as Array<{ childID: number; firstName: string }>;
  const offers = (await get('/api/Registration/punchpass/offers')) as Array<{ programPeriodID: number }>;
  return { childID: kids.find((k) => k.firstName === child)!.childID, programPeriodID: offers[0].programPeriodID };
}

/** A check-in recorded in attendance (the server's own function, as the provider's command records it). */
async function checkIn(child: string): Promise<{ punch: { visitsLeft: number } | null }> {
  const res = await fetch(`${e2e.server.url}/api/dev/punchpass-checkin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ appName: 'brightpath', ...(await ids(child)) }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { punch: { visitsLeft: number } | null };
}

describe('punch passes', () => {
  for (const [width, lang, pass, child] of [
    [375, 'en', '10-visit family pass', null],
    [1280, 'es', '5-visit child pass', 'Lucas'],
  ] as const) {
    it(`a pass bought through the checkout, a check-in using one punch (${width} px, ${lang})`, async () => {
      const ctx = await newContext(e2e.browser, width, lang === 'en' ? 'en-US' : 'es-ES');
      const page = await ctx.newPage();
      const t = (key: string, params: Record<string, string | number> = {}) => text(lang as Lang, 'punchpass', key, params);
      try {
        await signIn(page, e2e.server, 'maria');
        await page.goto(e2e.portal('/programlist'));
        const button = page.getByRole('button', { name: text(lang, 'programs', 'button.punchPass'), exact: true }).first();
        await button.waitFor({ timeout: 30_000 });
        await button.click();

        // the hand-off: the punch pass product's own pages, the passes offered and hers
        await page.waitForURL(/\/punchpass\/passes$/, { timeout: 60_000 });
        await offerCards(page).first().waitFor({ timeout: 30_000 });
        await myCards(page).first().waitFor();
        const offer = offerCards(page).filter({ hasText: new RegExp(pass.replace(/^(\d+)-visit.*/, '$1')) }).filter({ hasText: t(child ? 'offers.scope.child' : 'offers.scope.family') });
        expect(await offer.count()).toBe(1);
        await expect.poll(() => offer.innerText()).toContain(t('offers.refundLabel'));
        // the Garcia family's pass: its visits left and the check-ins that used them
        const [oldest] = (await asMaria('/api/Registration/punchpass/mine')) as Array<{ visitsLeft: number; visits: number; uses: unknown[] }>;
        const leftBefore = oldest.visitsLeft;
        expect(leftBefore).toBeGreaterThan(0);
        const held = myCards(page).first();
        await expect.poll(() => held.innerText()).toContain(t('mine.leftOf', { left: leftBefore, visits: oldest.visits }));
        const before = await held.locator('li').count();
        expect(before).toBe(oldest.uses.length);
        await expectNoAxeViolations(page, `punch passes ${width} ${lang}`);
        await shot(page, `punchpass-passes-${width}-${lang}`);

        if (!child) {
          // a purchase she gives up on its payment page: withdrawn, nothing owed, no pass awaiting payment
          await offer.getByRole('button', { name: t('offers.buy'), exact: true }).click();
          await page.getByLabel(t('buy.confirm')).check();
          await page.getByRole('button', { name: t('buy.submit'), exact: true }).click();
          await page.waitForURL(/\/punchpass\/payment\?key=[0-9a-f]{32}$/, { timeout: 30_000 });
          await page.getByTestId('countdown').waitFor({ timeout: 30_000 });
          await page.getByRole('button', { name: t('payment.cancel'), exact: true }).click();
          await page.waitForURL(/\/punchpass\/passes$/);
          await page.getByText(t('result.cancelled')).waitFor();
          await myCards(page).first().waitFor();
          expect(await page.getByText(t('mine.status.awaitingPayment'), { exact: true }).count()).toBe(0);
          await expectNoAxeViolations(page, `punch pass purchase cancelled ${width} ${lang}`);
        }

        // Buy: the pass and its confirmation (a per-child pass asks for the child)
        await offer.getByRole('button', { name: t('offers.buy'), exact: true }).click();
        await page.waitForURL(/\/punchpass\/buy\?passID=\d+&scope=(child|family)$/);
        await page.locator('section[data-section=pass] article').waitFor();
        expect(await page.locator('section[data-section=pass] article').count()).toBe(1);
        const continueButton = page.getByRole('button', { name: t('buy.submit'), exact: true });
        // not without her confirmation
        await continueButton.click();
        await page.getByText(t('errors.confirm')).first().waitFor();
        if (child) {
          const select = page.getByLabel(t('buy.child'));
          await select.selectOption({ label: child });
        } else {
          expect(await page.getByLabel(t('buy.child')).count()).toBe(0);
        }
        await page.getByLabel(t('buy.confirm')).check();
        await expectNoAxeViolations(page, `punch pass buy ${width} ${lang}`);
        await shot(page, `punchpass-buy-${width}-${lang}`);
        await continueButton.click();

        // its payment: the pass reserved while she pays, the payer page and the sandbox checkout
        await page.waitForURL(/\/punchpass\/payment\?key=[0-9a-f]{32}$/, { timeout: 30_000 });
        await page.getByTestId('countdown').waitFor({ timeout: 30_000 });
        await page.waitForSelector('section[data-section=methods] [data-action=choose]');
        await expect.poll(() => page.textContent('section[data-section=purchase]')).toContain(child ? '212.50' : '400.00');
        if (child) expect(await page.textContent('section[data-section=purchase]')).toContain(`${child} Garcia`);
        await expectNoAxeViolations(page, `punch pass payment ${width} ${lang}`);
        await shot(page, `punchpass-pay-${width}-${lang}`);
        await chooseCard(page);
        await page.waitForURL(/\/punchpass\/payerinformation\?key=[0-9a-f]{32}&method=CCD/);
        await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(2)', { state: 'attached' });
        await expectNoAxeViolations(page, `punch pass payer ${width} ${lang}`);
        await payAsPayer(page, { index: 1 });

        // back at the purchase, paid: the confirmation
        await page.waitForURL(/\/punchpass\/payment\?key=/, { timeout: 60_000 });
        await expect.poll(() => page.textContent('main'), { timeout: 30_000 }).toContain(t('result.paid'));
        expect(await page.getByTestId('countdown').count()).toBe(0);
        await expectNoAxeViolations(page, `punch pass paid ${width} ${lang}`);
        await shot(page, `punchpass-paid-${width}-${lang}`);
        await page.getByRole('button', { name: t('result.back'), exact: true }).click();
        await page.waitForURL(/\/punchpass\/passes$/);
        // the new pass is hers, valid, no visit used
        const bought = myCards(page).filter({ hasText: pass === '10-visit family pass' ? t('mine.leftOf', { left: 10, visits: 10 }) : t('mine.leftOf', { left: 5, visits: 5 }) });
        await bought.first().waitFor();
        await expect.poll(() => bought.last().innerText()).toContain(t('mine.status.valid'));

        // a check-in recorded in attendance uses one punch of her oldest valid pass: one visit fewer, the visit listed
        const recorded = await checkIn(child ?? 'Sofia');
        expect(recorded.punch?.visitsLeft).toBe(leftBefore - 1);
        if (leftBefore - 1 === 2) {
          // two visits left: Maria is e-mailed, once, in her language (Spanish, whatever the page's)
          const mails = (await outbox(e2e.server)).filter((m) => m.to === 'maria.garcia@example.com' && m.subject === text('es', 'punchpass', 'email.twoLeft.subject', { pass: 'Pase familiar de 10 visitas' }));
          expect(mails.length).toBe(1);
        }
        await page.reload();
        await myCards(page).first().waitFor({ timeout: 30_000 });
        await expect.poll(() => myCards(page).first().innerText()).toContain(t('mine.leftOf', { left: leftBefore - 1, visits: 10 }));
        expect(await myCards(page).first().locator('li').count()).toBe(before + 1);
        expect(await myCards(page).first().locator('li').last().innerText()).toContain(`${child ?? 'Sofia'} Garcia`);
        await expectNoAxeViolations(page, `punch passes after a visit ${width} ${lang}`);
        await shot(page, `punchpass-visit-${width}-${lang}`);
      } catch (err) {
        await shot(page, `punchpass-failed-${width}-${lang}`);
        throw err;
      } finally {
        await ctx.close();
      }
    });
  }
});
