// Who a program is for, what it costs and when it runs, in a real browser at 1280 px in English and
// 375 px in Spanish, axe on every page:
// - the programs list's cards say who each program is for (Little Sprouts: ages 3 to 5; Robotics &
//   Art Studio: 1st to 5th grade), its dates, its lowest fee ('from') and, where the provider shows
//   them, its seats left;
// - the children step of the preschool's application shows Sofia (8) disabled with the reason, Emma
//   (in the program) disabled as before, and offers Lucas (5);
// - Home's 'Registration open' offers Register on each program (named with its program for screen
//   readers), going to the parent application as the programs list's Register does, and one 'View all
//   programs' link below the list.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { escapeRegExp, expectNoAxeViolations, newContext, rawText, shot, signIn, text, withServerAndBrowser } from './kit';

const e2e = withServerAndBrowser();

type Lang = 'en' | 'es';
/** the part of a text before its first {{placeholder}} */
const lead = (lang: Lang, ns: string, key: string) => rawText(lang, ns, key).split('{{')[0];
const TITLES = {
  en: { preschool: 'Little Sprouts Preschool', robotics: 'Robotics & Art Studio', school: 'School Year Before & After Care' },
  es: { preschool: 'Preescolar Little Sprouts', robotics: 'Estudio de robótica y arte', school: 'Cuidado antes y después de clases del año escolar' },
};
const DATE = /\d{2}\/\d{2}\/\d{4}/;

const card = (page: Page, title: string | RegExp): Locator =>
  page.locator('section[data-section=programs] article').filter({ has: page.getByRole('heading', { name: title }) });

/** A card field's value by its label (the card's dl). */
async function field(c: Locator, label: string): Promise<string[]> {
  return c.locator('dt', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }).evaluateAll((dts) => dts.map((dt) => dt.nextElementSibling?.textContent?.trim() ?? ''));
}

/** Register or Add child, through the grade roll-up when it asks, to the children step. */
async function toChildrenStep(page: Page, lang: Lang, button: Locator) {
  await button.click();
  const rollup = page.getByRole('alertdialog', { name: text(lang, 'programs', 'rollup.title') });
  const save = rollup.getByRole('button', { name: text(lang, 'programs', 'rollup.continue') });
  const deadline = Date.now() + 90_000;
  while (!/\/parentapplication\//.test(page.url())) {
    if (Date.now() > deadline) throw new Error(`Register did not reach the parent application (at ${page.url()})`);
    if ((await rollup.isVisible()) && (await save.isEnabled())) {
      await expectNoAxeViolations(page, `grade roll-up ${lang}`);
      await save.click({ timeout: 5_000 }).catch(() => undefined);
    }
    await page.waitForURL(/\/parentapplication\//, { timeout: 3_000 }).catch(() => undefined);
  }
  await page.waitForURL(/\/parentapplication\/children\?key=/, { timeout: 60_000 });
}

describe('who a program is for, its dates, price and seats; Home offers Register', () => {
  for (const [width, locale] of [
    [1280, 'en-US'],
    [375, 'es-ES'],
  ] as const) {
    const lang = locale.slice(0, 2) as Lang;
    const T = TITLES[lang];
    it(`${width} px, ${lang}`, async () => {
      const ctx = await newContext(e2e.browser, width, locale);
      const page = await ctx.newPage();
      try {
        await signIn(page, e2e.server, 'maria');

        // Home: 'Registration open' offers Register per program, described by the card's title, and one link to all programs
        const open = page.locator('section[data-section=registrationOpen]');
        await open.locator('article').first().waitFor({ timeout: 30_000 });
        const openCards = await open.locator('article').all();
        expect(openCards.length).toBeGreaterThan(0);
        for (const c of openCards) {
          const buttons = c.getByRole('button', { name: new RegExp(`^(${escapeRegExp(text(lang, 'programs', 'button.register'))}|${escapeRegExp(text(lang, 'programs', 'button.addChild'))})$`) });
          expect(await buttons.count()).toBe(1);
          const describedBy = (await buttons.first().getAttribute('aria-describedby')) ?? '';
          expect(describedBy).not.toBe('');
          expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(await c.locator('h3').textContent());
          expect(await c.getByText(text(lang, 'screens', 'home.registration.viewPrograms'), { exact: true }).count()).toBe(0);
        }
        const all = open.locator('button, a').filter({ hasText: new RegExp(`^${escapeRegExp(text(lang, 'screens', 'home.registration.viewPrograms'))}$`) });
        expect(await all.count()).toBe(1);
        await expectNoAxeViolations(page, `home registration open ${width} ${lang}`);
        await open.scrollIntoViewIfNeeded();
        await shot(page, `eligibility-home-register-${width}-${lang}`);

        // the programs list's cards
        await all.click();
        await page.waitForURL(/\/programlist$/);
        const preschool = card(page, T.preschool);
        await preschool.waitFor({ timeout: 30_000 });
        expect(await field(preschool, text(lang, 'programs', 'card.forLabel'))).toEqual([text(lang, 'programs', 'card.ages', { min: 3, max: 5 })]);
        const [dates] = await field(preschool, text(lang, 'programs', 'card.datesLabel'));
        expect(dates).toMatch(new RegExp(`^${escapeRegExp(lead(lang, 'programs', 'card.dates'))}${DATE.source}.+${DATE.source}$`));
        // the lowest fee, as money in the reader's language ($690.00 in both)
        expect(await field(preschool, text(lang, 'programs', 'card.priceLabel'))).toEqual([text(lang, 'programs', 'card.priceFrom', { amount: '$690.00' })]);
        const robotics = card(page, T.robotics);
        const [grades] = await field(robotics, text(lang, 'programs', 'card.forLabel'));
        expect(grades).toMatch(new RegExp(`^${escapeRegExp(lead(lang, 'programs', 'card.grades'))}.+`));
        expect(await field(robotics, text(lang, 'programs', 'card.priceLabel'))).toEqual([text(lang, 'programs', 'card.priceFrom', { amount: '$60.00' })]);
        const [seats] = await field(robotics, text(lang, 'programs', 'card.seatsLabel'));
        expect(Number(seats)).toBeGreaterThan(0);
        // the school year's lowest fee is a day's (Early Release Day); no one is turned away by age or grade
        const school = card(page, T.school);
        expect(await field(school, text(lang, 'programs', 'card.priceLabel'))).toEqual([text(lang, 'programs', 'card.priceFromPerDay', { amount: '$30.00' })]);
        expect(await field(school, text(lang, 'programs', 'card.forLabel'))).toEqual([]);
        await expectNoAxeViolations(page, `programs cards ${width} ${lang}`);
        await preschool.scrollIntoViewIfNeeded();
        await shot(page, `eligibility-programlist-${width}-${lang}`);

        // the preschool's children step: Sofia (8) disabled with the reason, Emma already in, Lucas offered
        await toChildrenStep(page, lang, preschool.getByRole('button', { name: text(lang, 'programs', 'button.addChild'), exact: true }));
        const sofia = page.getByRole('checkbox', { name: /^Sofia Garcia/ });
        await sofia.waitFor({ timeout: 30_000 });
        expect(await sofia.isDisabled()).toBe(true);
        const choices = page.locator('fieldset').filter({ has: sofia });
        expect(await choices.innerText()).toContain(`Sofia Garcia (${text(lang, 'application', 'children.notEligibleAge', { min: 3, max: 5 })})`);
        expect(await page.getByRole('checkbox', { name: /^Emma Garcia/ }).isDisabled()).toBe(true);
        expect(await choices.innerText()).toContain(`Emma Garcia (${text(lang, 'application', 'children.already')})`);
        expect(await page.getByRole('checkbox', { name: 'Lucas Garcia', exact: true }).isDisabled()).toBe(false);
        // Sofia's card says why, with the day ages are counted on
        const sofiaCard = page.locator('[data-section=children] article').filter({ hasText: 'Sofia Garcia' });
        expect(await sofiaCard.innerText()).toContain(lead(lang, 'application', 'children.notEligibleAgeOn'));
        expect(await sofiaCard.innerText()).toMatch(DATE);
        expect(await page.locator('[data-section=children] article').filter({ hasText: 'Lucas Garcia' }).innerText()).not.toContain(lead(lang, 'application', 'children.notEligibleAgeOn'));
        await expectNoAxeViolations(page, `children step ${width} ${lang}`);
        await sofiaCard.scrollIntoViewIfNeeded();
        await shot(page, `eligibility-children-${width}-${lang}`);

        // Home's Register goes where the programs list's goes: the parent application
        await page.goto(e2e.portal('/home'));
        const register = page.locator('section[data-section=registrationOpen]').getByRole('button', { name: text(lang, 'programs', 'button.register'), exact: true }).first();
        await register.waitFor({ timeout: 30_000 });
        await toChildrenStep(page, lang, register);
        await page.getByRole('checkbox', { name: /^Lucas Garcia/ }).waitFor({ timeout: 30_000 });
        await shot(page, `eligibility-home-register-children-${width}-${lang}`);
      } catch (err) {
        await shot(page, `eligibility-failed-${width}-${lang}`);
        throw err;
      } finally {
        await ctx.close();
      }
    }, 300_000);
  }
});
