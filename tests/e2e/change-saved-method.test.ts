// Paying a change of schedule with a saved method in a real browser (spec 2.12 on the change's payment
// step): the sent change's submit page lists the account's saved card and bank account above the
// new-method tiles, with the remove-saved-method link of that origin (its list, its confirmation, the
// parent staying in the change flow); the saved card chosen, the payer on file and a double click on
// Pay, charged once without leaving the portal, back at the change's confirmation, paid. At 375 px in
// English and 1280 px in Spanish, axe on every state.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, LOCALES, newContext, shot, signIn, text, withServerAndBrowser, type Lang } from './kit';

const e2e = withServerAndBrowser();
const cs = (lang: Lang, key: string, params: Record<string, string | number> = {}) => text(lang, 'changeSchedule', key, params);
const pay = (lang: Lang, key: string, params: Record<string, string> = {}) => text(lang, 'payment', key, params);

/** A call of the API as the signed-in parent of the page. */
async function call<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const { token } = JSON.parse(localStorage.getItem('pp.session') ?? '{}');
      const res = await fetch(path, { method, headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      return { status: res.status, json: (await res.json().catch(() => null)) as never };
    },
    { method, path, body },
  );
}

/** Client-side navigation, as following a link keeps the session in memory. */
async function open(page: Page, p: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/parentportal${p}`);
}

async function settled(page: Page, screen: string) {
  await page.waitForSelector(`[data-screen="${screen}"]`);
  await page.waitForFunction(() => !document.querySelector('[data-state=loading], [aria-busy=true]'));
}

const balance = async (page: Page) => Math.round((await call<{ currentBalance: number }>(page, 'GET', '/api/Billing/account-summary')).json.currentBalance * 100);

/** 5.00 paid on the sandbox's hosted page with "save for later" ticked: the method saved. */
async function saveMethod(page: Page, method: 'CCD' | 'ECH', fill: () => Promise<void>) {
  const key = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', apartmentNo: '', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
  const started = await call<{ checkoutUrl: string }>(page, 'POST', '/api/Billing/payment/checkout', { ...payer, idempotencyKey: key, paymentMethodCode: method, amountChoice: 'other', otherAmount: '5.00', saveCard: true });
  expect(started.status).toBe(200);
  await page.goto(started.json.checkoutUrl);
  await fill();
  await page.check('input[name=saveMethod]');
  await page.click('button[type=submit]');
  await page.waitForURL(/\/paymentreceipt\?accountPaymentID=\d+/);
  await page.waitForSelector('section[data-section=receipt] dl');
}

/** A sent change for Sofia (Before and After Care at Lincoln, Lucas unchanged) that leaves the change fee due now. */
async function sentChange(page: Page): Promise<{ key: string; dueCents: number }> {
  const programs = (await call<{ programPeriodID: number; programPeriod: string }[]>(page, 'GET', '/api/Registration/programperiods/list')).json;
  const programPeriodID = programs.find((p) => p.programPeriod === 'School Year Before & After Care')!.programPeriodID;
  const started = await call<{ key: string; children: { prChildID: number; fullName: string }[] }>(page, 'POST', '/api/Registration/changeschedule/start', { programPeriodID });
  expect(started.status).toBe(200);
  const { key, children } = started.json;
  const sofia = children.find((c) => c.fullName.startsWith('Sofia'))!.prChildID;
  const lucas = children.find((c) => c.fullName.startsWith('Lucas'))!.prChildID;
  const offer = (await call<{ activities: { activityID: number; activity: string; siteID: number; siteName: string }[] }>(page, 'GET', `/api/Registration/programperiods/activities/eligible?key=${key}&prChildID=${sofia}`)).json.activities;
  const at = (name: string) => offer.find((a) => a.activity === name && a.siteName.includes('Lincoln'))!;
  const saved = await call(page, 'PUT', `/api/Registration/changeschedule?key=${key}`, {
    children: [
      { prChildID: sofia, noChange: false, siteID: at('Before Care').siteID, selections: [{ activityID: at('Before Care').activityID, daysOfWeek: [] }, { activityID: at('After Care').activityID, daysOfWeek: [] }] },
      { prChildID: lucas, noChange: true, siteID: null, selections: [] },
    ],
    effectiveDate: null,
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  const sent = await call<{ amountDue: number }>(page, 'POST', `/api/Registration/changeschedule/submit?key=${key}`);
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);
  // the period's free change leaves nothing due: the next one pays the change fee
  if (sent.json.amountDue === 0) return sentChange(page);
  return { key, dueCents: sent.json.amountDue };
}

/** A saved method by its last digits (the first, as the card saved again in the next journey is listed twice). */
const savedItem = (page: Page, last4: string) => page.locator('section[data-section=saved] article').filter({ hasText: last4 }).first();

async function journey(width: number, lang: Lang) {
  const tag = `${width}-${lang}`;
  const ctx = await newContext(e2e.browser, width, LOCALES[lang]);
  const page = await ctx.newPage();
  try {
    await signIn(page, e2e.server, 'maria', { formTimeout: 90_000 });
    if (lang !== 'en') await page.selectOption('[data-testid=language-switch] select', lang);
    // a card and a bank account saved for later on the gateway's page
    await saveMethod(page, 'CCD', async () => {
      await page.fill('input[name=number]', '4111 1111 1111 1111');
      await page.fill('input[name=expiry]', '12/30');
      await page.fill('input[name=cvv]', '123');
    });
    await saveMethod(page, 'ECH', async () => {
      await page.fill('input[name=routing]', '021000021');
      await page.fill('input[name=account]', '000123456789');
      await page.check('input[name=accountType][value=checking]');
    });
    const change = await sentChange(page);

    // the change's payment step: the saved methods above the new-method tiles, the remove link
    await open(page, `/changeschedule/submit?key=${change.key}`);
    await settled(page, 'changeschedule-submit');
    await savedItem(page, '1111').waitFor();
    await savedItem(page, '6789').waitFor();
    expect(await page.textContent('section[data-section=saved]')).toContain(cs(lang, 'submit.savedMethods'));
    expect(await page.textContent('section[data-section=methods]')).toContain(pay(lang, 'tile.new'));
    await expectNoAxeViolations(page, `change's payment step with saved methods (${tag})`);
    await shot(page, `change-saved-submit-${tag}`);

    // removing the bank account: its list and confirmation, the parent stays on the change's step
    await page.click('section[data-section=saved] [data-action=removeSaved]');
    const list = page.locator('[data-modal=removeSaved]');
    await list.locator('article').filter({ hasText: '6789' }).first().waitFor();
    await expectNoAxeViolations(page, `saved methods to remove on the change's step (${tag})`);
    await shot(page, `change-saved-remove-list-${tag}`);
    await list.locator('article').filter({ hasText: '6789' }).first().locator('[data-action=remove]').click();
    const confirm = page.locator('[data-modal=confirmRemove]');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('6789');
    await expectNoAxeViolations(page, `confirm removal on the change's step (${tag})`);
    await shot(page, `change-saved-remove-confirm-${tag}`);
    await confirm.locator('[data-action=delete]').click();
    await confirm.waitFor({ state: 'detached' });
    // the card is left to remove: the list stays open with it; closed, the step is as before without the bank account
    await list.locator('article').filter({ hasText: '1111' }).first().waitFor();
    await list.locator('[data-action=close]').click();
    await list.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('section[data-section=saved] article').filter({ hasText: '6789' }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/parentportal/changeschedule/submit');
    await shot(page, `change-saved-after-removal-${tag}`);

    // the saved card: the payer on file, no payer form, the amount the change left due
    await savedItem(page, '1111').locator('[data-action=chooseCard]').click();
    await page.waitForURL(/\/changeschedule\/payerinformation\?key=[0-9a-f]{32}&method=CCR/);
    await page.waitForSelector('section[data-section=payerOnFile] dl');
    await settled(page, 'changeschedule-payerinformation');
    expect(await page.locator('#payer_paidByFamilyMemberID').count()).toBe(0);
    expect(await page.textContent('main')).toContain(pay(lang, 'payer.payingWith', { type: 'VISA', last4: '1111' }));
    expect(await page.locator('[data-action=pay]').count()).toBe(0);
    await expectNoAxeViolations(page, `the change paid with a saved card: payer on file (${tag})`);
    await shot(page, `change-saved-payer-${tag}`);

    // a double click pays once, without leaving the portal
    const before = await balance(page);
    const origins = new Set<string>();
    page.on('framenavigated', (f) => f === page.mainFrame() && origins.add(new URL(f.url()).origin));
    await page.dblclick('[data-action=paySaved]');
    await page.waitForURL(/\/changeschedule\/confirmation\?key=/);
    await settled(page, 'changeschedule-confirmation');
    expect(await page.textContent('main')).toContain(cs(lang, 'confirmation.paid'));
    expect([...origins]).toEqual([new URL(e2e.server.url).origin]);
    await expectNoAxeViolations(page, `the change's confirmation, paid with a saved card (${tag})`);
    await shot(page, `change-saved-confirmation-${tag}`);
    expect(await balance(page)).toBe(before - change.dueCents);
    expect((await call<{ valid: boolean }>(page, 'GET', `/api/Billing/payment/processing-fee?ChangeKey=${change.key}`)).json.valid).toBe(false);
  } catch (err) {
    await shot(page, `change-saved-failed-${tag}`);
    throw err;
  } finally {
    await ctx.close();
  }
}

describe('paying a change of schedule with a saved method', () => {
  it('375 px, English: the saved list and its remove link on the change\'s step, the saved card paid once on a double click', async () => {
    await journey(375, 'en');
  }, 300_000);
  it('1280 px, Spanish: the same in Spanish', async () => {
    await journey(1280, 'es');
  }, 300_000);
});
