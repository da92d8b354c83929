// What the fee and review steps show is what the submit bills (spec 4: no fee for a waitlisted
// child's week; amendment 7), in a real browser at 375 px in English and 1280 px in Vietnamese:
// amara registers Ada and Ben for the summer camp, each for the camp's full first week and the week
// after. The full weeks show "Waitlist: not charged" with no amount in the totals, and the fee
// step's Total due is what goes on her account; the optional fees carry their prices and the credit
// box its amount; the review lists her choice for full weeks and the financial assistance asked for;
// the confirmation and its e-mail list per child what was charged (with amounts) and each waitlisted
// week with its own place. axe on every step. Each language registers on a fresh server (a
// registration uses amara's children up).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type Lang, LOCALES, newContext, outbox, type RunningServer, shot, signIn, startServer, text, withBrowser } from './kit';
import { dateInLanguage } from '../../src/engine/formats';
import { moneyText } from '../../src/engine/money';
import { ADVENTURE, choose, continueButton, register, step, T_SHIRT } from './applicationSteps';

const e2e = withBrowser();

/** An amount as the portal writes it in the reader's language (the engine's one money format). */
const money = (cents: number, lang: Lang) => moneyText(cents, lang);
const centsOf = (text: string) => Number(text.replace(/[^0-9]/g, ''));

/** The value beside a summary's label. */
async function summaryValue(page: Page, section: string, label: string): Promise<string> {
  return page.locator(`[data-section=${section}] dt`, { hasText: label }).first().locator('xpath=following-sibling::dd[1]').innerText();
}

/** The signed-in account's balance in cents, from the API the portal's Home reads. */
async function balance(server: RunningServer, page: Page): Promise<number> {
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('pp.session') ?? '{}') as { token?: string }).token);
  const res = await fetch(`${server.url}/api/Billing/account-summary`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return Math.round(((await res.json()) as { currentBalance: number }).currentBalance * 100);
}

async function registerTwoWithFullWeeks(lang: Lang, width: number) {
  const server = await startServer();
  const ctx = await newContext(e2e.browser, width, LOCALES[lang]);
  const page = await ctx.newPage();
  const tag = `${width}-${lang}`;
  try {
    await signIn(page, server, 'amara');
    const before = await balance(server, page);
    await register(server, page, lang);
    await page.getByRole('heading', { level: 1, name: text(lang, 'application', 'children.title') }).waitFor({ timeout: 30_000 });
    await page.getByRole('checkbox', { name: 'Ada Mensah' }).check();
    await page.getByRole('checkbox', { name: 'Ben Mensah' }).check();
    await continueButton(page, lang).click();

    await page.waitForURL(/\/parentapplication\/enrollment/);
    const pickers = page.locator('[data-testid^=activity-picker-]');
    await pickers.nth(1).waitFor();
    const weeks = [(await pickers.nth(0).locator('fieldset[data-week]').nth(0).getAttribute('data-week'))!, (await pickers.nth(0).locator('fieldset[data-week]').nth(1).getAttribute('data-week'))!];
    // the camp's first week is full: each child chooses it and the week after
    expect(await pickers.nth(0).locator('fieldset[data-week]').nth(0).innerText()).toContain(text(lang, 'application', 'enrollment.full'));
    for (const child of [0, 1]) for (const week of [0, 1]) await choose(page, lang, child, week);
    await page.getByRole('radio', { name: text(lang, 'application', 'enrollment.optionY') }).check();
    await continueButton(page, lang).click();

    // the fee step: each full week listed as "Waitlist: not charged", without an amount in the totals
    await page.waitForURL(/\/parentapplication\/fee/);
    const rows = page.locator('[data-section=feeRows]');
    await rows.locator('tbody tr').first().waitFor({ timeout: 30_000 });
    const notCharged = text(lang, 'application', 'fee.notCharged.WAITLIST');
    const fullWeek = text(lang, 'application', 'fee.rows.week', { activity: ADVENTURE[lang], date: dateInLanguage(weeks[0], lang) });
    for (const child of ['Ada', 'Ben']) {
      const row = rows.locator('tbody tr').filter({ hasText: child }).filter({ hasText: fullWeek });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.innerText()).toContain(notCharged);
    }
    // the optional fees with their prices, the credit box with its amount
    const shirt = page.getByRole('checkbox', { name: text(lang, 'application', 'fee.miscOption', { fee: T_SHIRT[lang], amount: money(1500, lang) }) });
    await shirt.check();
    await expect.poll(() => rows.innerText()).toContain(T_SHIRT[lang]);
    await page.getByRole('checkbox', { name: text(lang, 'application', 'fee.applyCredit', { amount: money(4000, lang) }) }).waitFor();
    // Ada (1st child) $75 + $210, Ben (2nd child) $60 + $190 at the sibling rate, the T-shirt $15
    await expect.poll(() => summaryValue(page, 'totals', text(lang, 'application', 'fee.due'))).toBe(money(55000, lang));
    const due = centsOf(await summaryValue(page, 'totals', text(lang, 'application', 'fee.due')));
    await step(page, lang, 'fee.title', `application-fee-waitlist-${tag}`);
    await continueButton(page, lang).click();

    // the review: the same fees, her choice for full weeks and the financial assistance (not asked for)
    await page.waitForURL(/\/parentapplication\/review/);
    await page.locator('[data-section=choices]').waitFor({ timeout: 30_000 });
    const choices = await page.locator('[data-section=choices]').innerText();
    expect(choices).toContain(text(lang, 'application', 'enrollment.optionY'));
    expect(choices).toContain(text(lang, 'application', 'review.faNotRequested'));
    await expect.poll(async () => (await page.locator('[data-section=feeRows]').innerText()).split(notCharged).length - 1).toBe(2);
    expect(await summaryValue(page, 'totals', text(lang, 'application', 'fee.due'))).toBe(money(due, lang));
    await step(page, lang, 'review.title', `application-review-waitlist-${tag}`);
    await page.getByRole('button', { name: text(lang, 'application', 'review.submit') }).click();

    // the confirmation: what was charged per child with amounts, each waitlisted week with its own place
    await page.waitForURL(/\/parentapplication\/confirmation/);
    await page.locator('[data-section=charged]').waitFor({ timeout: 30_000 });
    const charged = await page.locator('[data-section=charged]').innerText();
    for (const text of ['Ada', 'Ben', money(7500, lang), money(21000, lang), money(6000, lang), money(19000, lang), T_SHIRT[lang], money(1500, lang)]) expect(charged).toContain(text);
    expect(await summaryValue(page, 'chargedTotal', text(lang, 'application', 'confirmation.chargedTotal'))).toBe(money(due, lang));
    const card = (name: string) => page.locator('[data-section=children] article').filter({ hasText: name });
    expect(await card('Ada Mensah').innerText()).toContain(text(lang, 'application', 'confirmation.activityWPosition', { position: 1 }));
    expect(await card('Ben Mensah').innerText()).toContain(text(lang, 'application', 'confirmation.activityWPosition', { position: 2 }));
    // no child-level place that stands for every week
    expect(await card('Ben Mensah').innerText()).not.toContain(text(lang, 'application', 'confirmation.position', { position: 2 }));
    await step(page, lang, 'confirmation.title', `application-confirmation-waitlist-${tag}`);

    // what is shown before submit is what is billed
    expect((await balance(server, page)) - before).toBe(due);

    // the e-mail: per child what was charged and each waitlisted week with its place
    const mail = (await outbox(server)).find((m) => m.to === 'amara.mensah@example.com' && m.subject.startsWith(text(lang, 'application', 'email.subject', { program: '' })));
    expect(mail, 'the confirmation e-mail').toBeDefined();
    for (const [child, place] of [['Ada Mensah', 1], ['Ben Mensah', 2]] as const) {
      expect(mail!.text).toContain(child);
      expect(mail!.text).toContain(text(lang, 'application', 'email.waitlisted', { activity: fullWeek, position: place }));
    }
    expect(mail!.text).toContain(T_SHIRT[lang]);
  } catch (err) {
    await shot(page, `application-waitlist-failed-${tag}`);
    throw err;
  } finally {
    await ctx.close();
    await server.stop();
  }
}

describe('fees of waitlisted choices', () => {
  it('at 375 px in English: a full week is "Waitlist: not charged", the total due is what is billed, the confirmation and e-mail itemise it', async () => {
    await registerTwoWithFullWeeks('en', 375);
  }, 400_000);

  it('at 1280 px in Vietnamese: the same, in the parent\'s language', async () => {
    await registerTwoWithFullWeeks('vi', 1280);
  }, 400_000);
});
