// /viewenrollment in a real browser as the demo parent (spec 2.11): the weekly summer camp (weeks in
// date order with their activities, the pending child 'not enrolled', the pending notice), and the
// school-year program (enrolment cards with weekday chips, no end date for a single-date activity,
// the site only when it is not the home site; the dated lists with older dates hidden until 'view
// older dates' and hidden again after 'hide older dates'). At 375 and 1280 px, in English and
// Spanish, axe on every state.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, shot, signIn, withServerAndBrowser } from './kit';
import { iso } from '../today';

const texts = {
  en: JSON.parse(readFileSync(resolve(__dirname, '../../locales/en/enrollment.json'), 'utf8')),
  es: JSON.parse(readFileSync(resolve(__dirname, '../../locales/es/enrollment.json'), 'utf8')),
} as const;
const NAMES = {
  en: { summer: 'Summer Adventure Camp', school: 'School Year Before & After Care', adventure: 'Adventure Week', swim: 'Swim & Splash', earlyRelease: 'Early Release Day', after: 'After Care', downtown: 'Bright Path Center - Downtown' },
  es: { summer: 'Campamento de verano Aventura', school: 'Cuidado antes y después de clases del año escolar', adventure: 'Semana de aventura', swim: 'Natación y juegos de agua', earlyRelease: 'Día de salida temprana', after: 'Cuidado después de clases', downtown: 'Bright Path - Centro de la ciudad' },
} as const;

const e2e = withServerAndBrowser();

async function signedIn(width: number, locale: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await newContext(e2e.browser, width, locale);
  const page = await ctx.newPage();
  await signIn(page, e2e.server, 'maria');
  return { ctx, page };
}

/** The account's program periods by English name (the ids differ per database). */
async function programIds(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    const { token } = JSON.parse(localStorage.getItem('pp.session') ?? '{}');
    const res = await fetch('/api/Registration/programperiods/list', { headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' } });
    const list = (await res.json()) as { programPeriodID: number; programPeriod: string }[];
    return Object.fromEntries(list.map((p) => [p.programPeriod, p.programPeriodID]));
  });
}

/** Client-side navigation, as following a link keeps the session in memory. */
async function open(page: Page, p: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/parentportal${p}`);
}

async function settled(page: Page) {
  await page.waitForSelector('[data-screen=viewenrollment]');
  await page.waitForFunction(() => !document.querySelector('[data-state=loading], [aria-busy=true]'));
}

const title = async (page: Page) => ((await page.locator('[data-testid=page-title]').textContent()) ?? '').trim();

/** Every date of the dated tables, as the page shows them (mm/dd/yyyy). */
async function shownDates(page: Page): Promise<string[]> {
  return page.locator('[data-section$=Dates] tbody tr td:first-child').allTextContents();
}

/** A shown date as yyyy-mm-dd: mm/dd/yyyy in English, dd/mm/yyyy in Spanish. */
function isoOf(shown: string, lang: 'en' | 'es' = 'en'): string {
  return lang === 'en' ? `${shown.slice(6, 10)}-${shown.slice(0, 2)}-${shown.slice(3, 5)}` : `${shown.slice(6, 10)}-${shown.slice(3, 5)}-${shown.slice(0, 2)}`;
}

describe('/viewenrollment', () => {
  for (const [lang, locale] of [
    ['en', 'en-US'],
    ['es', 'es-ES'],
  ] as const) {
    for (const width of [375, 1280]) {
      it(`shows the weekly summer camp (${lang}, ${width} px)`, async () => {
        const t = texts[lang];
        const n = NAMES[lang];
        const { ctx, page } = await signedIn(width, locale);
        const ids = await programIds(page);
        await open(page, `/viewenrollment?programPeriodID=${ids['Summer Adventure Camp']}&IsPending=1&OT=0`);
        await settled(page);
        await page.waitForSelector('[data-section=weekly] article');
        await expect.poll(() => title(page)).toBe(n.summer);
        // the weekly card replaces the enrolment card
        expect(await page.locator('[data-section=schedule]').count()).toBe(0);
        const cards = page.locator('[data-section=weekly] article');
        expect(await cards.count()).toBe(2);
        const lucas = cards.filter({ hasText: 'Lucas Garcia' });
        const weeks = lucas.locator('[data-entry]');
        expect(await weeks.count()).toBe(3);
        // weeks in date order
        const ranges = (await weeks.locator('h4').allTextContents()).map((r) => r.match(/(\d{2}\/\d{2}\/\d{4})/)![1]);
        expect(ranges.map((r) => isoOf(r, lang))).toEqual([...ranges.map((r) => isoOf(r, lang))].sort());
        // the second week: its activities sorted by name in this language, each with timing and site
        const second = (await weeks.nth(1).locator('li').allTextContents()).map((s) => s.trim());
        expect(second).toHaveLength(2);
        const expectedOrder = [n.adventure, n.swim].sort((a, b) => a.localeCompare(b, lang));
        expect(second.map((s) => s.split(':')[0])).toEqual(expectedOrder);
        expect(second.every((s) => s.includes(n.downtown))).toBe(true);
        // the pending child has no week yet
        await expect.poll(() => cards.filter({ hasText: 'Sofia Garcia' }).textContent()).toContain(t.notEnrolled);
        // the pending flag: the notice shows
        expect(await page.locator('[data-section=pending]').textContent()).toContain(t.pendingNotice.slice(0, 20));
        await expectNoAxeViolations(page, `viewenrollment weekly ${lang} ${width}`);
        await shot(page, `viewenrollment-weekly-${width}-${lang}`);
        await ctx.close();
      });

      it(`shows the school year with older dates behind the toggle (${lang}, ${width} px)`, async () => {
        const t = texts[lang];
        const n = NAMES[lang];
        const { ctx, page } = await signedIn(width, locale);
        const ids = await programIds(page);
        await open(page, `/viewenrollment?programPeriodID=${ids['School Year Before & After Care']}&IsPending=0&OT=0`);
        await settled(page);
        await page.waitForSelector('[data-section=schedule] article');
        await expect.poll(() => title(page)).toBe(n.school);
        expect(await page.locator('[data-section=weekly]').count()).toBe(0);

        // enrolment cards: Lucas with his single-date activity (no end date) and weekday chips
        const lucas = page.locator('[data-section=schedule] article').filter({ hasText: 'Lucas Garcia' });
        const early = lucas.locator('[data-entry]').filter({ hasText: n.earlyRelease });
        expect(await early.locator('dt').allTextContents()).not.toContain(t.schedule.endDate);
        const after = lucas.locator('[data-entry]').filter({ hasText: n.after });
        expect(await after.locator('dt').allTextContents()).toContain(t.schedule.endDate);
        // weekend scheduling is off for this program: five chips, Monday to Thursday selected
        const chips = after.locator('[data-weekdays] li');
        expect(await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-day')))).toEqual(['M', 'T', 'W', 'TH', 'F']);
        expect(await after.locator('[data-weekdays] li[data-selected=true]').evaluateAll((els) => els.map((e) => e.getAttribute('data-day')))).toEqual(['M', 'T', 'W', 'TH']);
        // Lincoln Elementary is the home site: no site line
        expect(await after.locator('dt').allTextContents()).not.toContain(t.schedule.site);

        // dated lists: only today and later, the toggle offers the older ones
        const today = iso();
        for (const s of ['enrolledDates', 'oneTimeDates', 'scheduledDates', 'flexDates']) await page.waitForSelector(`[data-section=${s}] tbody tr`);
        const upcoming = await shownDates(page);
        expect(upcoming.length).toBeGreaterThan(0);
        expect(upcoming.every((d) => isoOf(d, lang) >= today), upcoming.join(' ')).toBe(true);
        await expectNoAxeViolations(page, `viewenrollment school ${lang} ${width}`);
        await shot(page, `viewenrollment-school-${width}-${lang}`);

        await page.getByRole('button', { name: t.dates.viewOlder }).click();
        await page.waitForURL(/older=true/);
        await page.getByRole('button', { name: t.dates.hideOlder }).waitFor();
        await settled(page);
        await expect.poll(async () => (await shownDates(page)).some((d) => isoOf(d, lang) < today)).toBe(true);
        const all = await shownDates(page);
        expect(all.length).toBeGreaterThan(upcoming.length);
        await expectNoAxeViolations(page, `viewenrollment school older ${lang} ${width}`);
        await shot(page, `viewenrollment-school-older-${width}-${lang}`);

        await page.getByRole('button', { name: t.dates.hideOlder }).click();
        await page.getByRole('button', { name: t.dates.viewOlder }).waitFor();
        await settled(page);
        await expect.poll(async () => (await shownDates(page)).every((d) => isoOf(d, lang) >= today)).toBe(true);
        expect((await shownDates(page)).length).toBe(upcoming.length);
        await ctx.close();
      });
    }
  }

  it('answers not found for a program of another provider', async () => {
    const { ctx, page } = await signedIn(1280, 'en-US');
    await open(page, '/viewenrollment?programPeriodID=999999');
    await page.waitForSelector('[data-screen=viewenrollment]');
    // every load fails on its own with a retry, the title stays the generic one
    await page.getByRole('button', { name: 'Retry' }).first().waitFor();
    expect(await title(page)).toBe(texts.en.title);
    await ctx.close();
  });
});
