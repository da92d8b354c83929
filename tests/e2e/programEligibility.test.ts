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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { expectNoAxeViolations, launchBrowser, newContext, shot, startServer, type RunningServer } from './harness';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

type Lang = 'en' | 'es';
function raw(lang: Lang, ns: string, key: string): string {
  let v: unknown = JSON.parse(readFileSync(join(ROOT, 'locales', lang, `${ns}.json`), 'utf8'));
  for (const part of key.split('.')) v = (v as Record<string, unknown>)[part];
  if (typeof v !== 'string') throw new Error(`no text ${lang}/${ns}:${key}`);
  return v;
}
function L(lang: Lang, ns: string, key: string, params: Record<string, string | number> = {}): string {
  return raw(lang, ns, key).replace(/\{\{(\w+)\}\}/g, (_, k) => String(params[k] ?? ''));
}
/** the part of a text before its first {{placeholder}} */
const lead = (lang: Lang, ns: string, key: string) => raw(lang, ns, key).split('{{')[0];
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TITLES = {
  en: { preschool: 'Little Sprouts Preschool', robotics: 'Robotics & Art Studio', school: 'School Year Before & After Care' },
  es: { preschool: 'Preescolar Little Sprouts', robotics: 'Estudio de robótica y arte', school: 'Cuidado antes y después de clases del año escolar' },
};
const DATE = /\d{2}\/\d{2}\/\d{4}/;

async function signIn(page: Page, email = 'maria.garcia@example.com') {
  await page.goto(`${server.url}/parentportal/brightpath/parent`);
  await page.waitForSelector('[data-testid=signin-form]');
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', 'Sunshine#2026');
  await page.click('[data-testid=signin-submit]');
  await page.waitForURL(/\/home$/);
}

const card = (page: Page, title: string | RegExp): Locator =>
  page.locator('section[data-section=programs] article').filter({ has: page.getByRole('heading', { name: title }) });

/** A card field's value by its label (the card's dl). */
async function field(c: Locator, label: string): Promise<string[]> {
  return c.locator('dt', { hasText: new RegExp(`^${escape(label)}$`) }).evaluateAll((dts) => dts.map((dt) => dt.nextElementSibling?.textContent?.trim() ?? ''));
}

/** Register or Add child, through the grade roll-up when it asks, to the children step. */
async function toChildrenStep(page: Page, lang: Lang, button: Locator) {
  await button.click();
  const rollup = page.getByRole('alertdialog', { name: L(lang, 'programs', 'rollup.title') });
  const save = rollup.getByRole('button', { name: L(lang, 'programs', 'rollup.continue') });
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
      const ctx = await newContext(browser, width, locale);
      const page = await ctx.newPage();
      try {
        await signIn(page);

        // Home: 'Registration open' offers Register per program, described by the card's title, and one link to all programs
        const open = page.locator('section[data-section=registrationOpen]');
        await open.locator('article').first().waitFor({ timeout: 30_000 });
        const openCards = await open.locator('article').all();
        expect(openCards.length).toBeGreaterThan(0);
        for (const c of openCards) {
          const buttons = c.getByRole('button', { name: new RegExp(`^(${escape(L(lang, 'programs', 'button.register'))}|${escape(L(lang, 'programs', 'button.addChild'))})$`) });
          expect(await buttons.count()).toBe(1);
          const describedBy = (await buttons.first().getAttribute('aria-describedby')) ?? '';
          expect(describedBy).not.toBe('');
          expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(await c.locator('h3').textContent());
          expect(await c.getByText(L(lang, 'screens', 'home.registration.viewPrograms'), { exact: true }).count()).toBe(0);
        }
        const all = open.locator('button, a').filter({ hasText: new RegExp(`^${escape(L(lang, 'screens', 'home.registration.viewPrograms'))}$`) });
        expect(await all.count()).toBe(1);
        await expectNoAxeViolations(page, `home registration open ${width} ${lang}`);
        await open.scrollIntoViewIfNeeded();
        await shot(page, `eligibility-home-register-${width}-${lang}`);

        // the programs list's cards
        await all.click();
        await page.waitForURL(/\/programlist$/);
        const preschool = card(page, T.preschool);
        await preschool.waitFor({ timeout: 30_000 });
        expect(await field(preschool, L(lang, 'programs', 'card.forLabel'))).toEqual([L(lang, 'programs', 'card.ages', { min: 3, max: 5 })]);
        const [dates] = await field(preschool, L(lang, 'programs', 'card.datesLabel'));
        expect(dates).toMatch(new RegExp(`^${escape(lead(lang, 'programs', 'card.dates'))}${DATE.source}.+${DATE.source}$`));
        // the lowest fee, as money in the reader's language ($690.00 in both)
        expect(await field(preschool, L(lang, 'programs', 'card.priceLabel'))).toEqual([L(lang, 'programs', 'card.priceFrom', { amount: '$690.00' })]);
        const robotics = card(page, T.robotics);
        const [grades] = await field(robotics, L(lang, 'programs', 'card.forLabel'));
        expect(grades).toMatch(new RegExp(`^${escape(lead(lang, 'programs', 'card.grades'))}.+`));
        expect(await field(robotics, L(lang, 'programs', 'card.priceLabel'))).toEqual([L(lang, 'programs', 'card.priceFrom', { amount: '$60.00' })]);
        const [seats] = await field(robotics, L(lang, 'programs', 'card.seatsLabel'));
        expect(Number(seats)).toBeGreaterThan(0);
        // the school year's lowest fee is a day's (Early Release Day); no one is turned away by age or grade
        const school = card(page, T.school);
        expect(await field(school, L(lang, 'programs', 'card.priceLabel'))).toEqual([L(lang, 'programs', 'card.priceFromPerDay', { amount: '$30.00' })]);
        expect(await field(school, L(lang, 'programs', 'card.forLabel'))).toEqual([]);
        await expectNoAxeViolations(page, `programs cards ${width} ${lang}`);
        await preschool.scrollIntoViewIfNeeded();
        await shot(page, `eligibility-programlist-${width}-${lang}`);

        // the preschool's children step: Sofia (8) disabled with the reason, Emma already in, Lucas offered
        await toChildrenStep(page, lang, preschool.getByRole('button', { name: L(lang, 'programs', 'button.addChild'), exact: true }));
        const sofia = page.getByRole('checkbox', { name: /^Sofia Garcia/ });
        await sofia.waitFor({ timeout: 30_000 });
        expect(await sofia.isDisabled()).toBe(true);
        const choices = page.locator('fieldset').filter({ has: sofia });
        expect(await choices.innerText()).toContain(`Sofia Garcia (${L(lang, 'application', 'children.notEligibleAge', { min: 3, max: 5 })})`);
        expect(await page.getByRole('checkbox', { name: /^Emma Garcia/ }).isDisabled()).toBe(true);
        expect(await choices.innerText()).toContain(`Emma Garcia (${L(lang, 'application', 'children.already')})`);
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
        await page.goto(`${server.url}/parentportal/home`);
        const register = page.locator('section[data-section=registrationOpen]').getByRole('button', { name: L(lang, 'programs', 'button.register'), exact: true }).first();
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
