// Attendance by period in a real browser: the last 4 weeks ending today by default, most recent
// first; chosen dates reload the list; an end before the start is refused on the form (1280 and 375 px).
// In Spanish the dates read and are typed dd/mm/yyyy and the times are 24-hour.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FIRST_ITEMS } from '../../src/runtime/progressive';
import { expectNoAxeViolations, newContext, shot, signIn, wholeLists, withServerAndBrowser } from './kit';
import { mdy } from '../today';
import es from '../../locales/es/communication.json';
import esErrors from '../../locales/es/errors.json';
import esRuntime from '../../locales/es/runtime.json';

const e2e = withServerAndBrowser();

async function signedIn(width: number, locale = 'en-US') {
  const ctx = await newContext(e2e.browser, width, locale);
  const page = await ctx.newPage();
  await signIn(page, e2e.server, 'maria');
  await page.evaluate(() => {
    window.history.pushState({}, '', '/parentportal/attendance');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  return { ctx, page };
}

const period = (page: Page) => page.locator('[data-section=periodShown]');
const groups = (page: Page) => page.locator('[data-section=records] [data-group]');

describe('attendance by period', () => {
  for (const width of [1280, 375]) {
    it(`shows the last 4 weeks by default and reloads for chosen dates (${width} px)`, async () => {
      const { ctx, page } = await signedIn(width);
      await period(page).getByText(`From ${mdy(-27)} to ${mdy(0)}`).waitFor();
      await groups(page).first().waitFor();
      await wholeLists(page, 'records');
      const all = await groups(page).count();
      // four weeks of three children: more days than a list draws with the page, all of them drawn
      expect(all).toBeGreaterThan(FIRST_ITEMS);
      await shot(page, `attendance-period-default-${width}`);

      await page.fill('input[id$=_startDate]', mdy(-3));
      await page.fill('input[id$=_endDate]', mdy(0));
      await period(page).getByText(`From ${mdy(-3)} to ${mdy(0)}`).waitFor();
      await groups(page).first().waitFor();
      await wholeLists(page, 'records');
      expect(await groups(page).count()).toBeLessThan(all);
      await expectNoAxeViolations(page, `attendance period ${width}`);
      await shot(page, `attendance-period-chosen-${width}`);

      // an end before the start: the form says so and the list is not asked for
      await page.fill('input[id$=_endDate]', mdy(-5));
      await page.locator('input[id$=_endDate]').blur();
      await page.getByText('End should be greater than start').first().waitFor();
      await ctx.close();
    });
  }

  it('in Spanish: dates read and are typed dd/mm/yyyy, times are 24-hour, the form keeps mm/dd/yyyy (375 px)', async () => {
    const { ctx, page } = await signedIn(375, 'es-ES');
    const dmy = (offset: number) => {
      const d = mdy(offset);
      return `${d.slice(3, 5)}/${d.slice(0, 2)}/${d.slice(6)}`;
    };
    const period_ = (a: number, b: number) => es.attendance.period.replace('{{start}}', dmy(a)).replace('{{end}}', dmy(b));
    await period(page).getByText(period_(-27, 0)).waitFor();
    await groups(page).first().waitFor();
    await wholeLists(page, 'records');
    // each day's heading carries its date dd/mm/yyyy, and no time shows AM or PM
    const headings = await page.locator('[data-section=records] [data-group] h3').allTextContents();
    expect(headings.length).toBeGreaterThan(0);
    const days = new Set(Array.from({ length: 28 }, (_, i) => dmy(-i)));
    for (const h of headings) expect(days.has(/ · (\d{2}\/\d{2}\/\d{4})$/.exec(h)?.[1] ?? '')).toBe(true);
    const records = (await page.locator('[data-section=records]').textContent()) ?? '';
    expect(records).not.toMatch(/\b(AM|PM)\b/);
    expect(records).toMatch(new RegExp(`${es.attendance.in}\\s*\\d{2}:\\d{2}`));

    // the date input: the placeholder and hint say day first; typed dd/mm/yyyy, it asks for those days
    const start = page.locator('input[id$=_startDate]');
    expect(await start.getAttribute('placeholder')).toBe(esRuntime.datePlaceholder);
    const hint = await page.locator(`[id="${await start.getAttribute('id')}-format"]`).textContent();
    expect(hint).toBe(esRuntime.dateHint.replace('{{example}}', dmy(0)));
    await start.fill(dmy(-3));
    await page.locator('input[id$=_endDate]').fill(dmy(0));
    await period(page).getByText(period_(-3, 0)).waitFor();
    expect(await start.inputValue()).toBe(dmy(-3));
    await shot(page, 'attendance-period-es-375');

    // an end before the start, typed day first, is refused as in English
    await page.locator('input[id$=_endDate]').fill(dmy(-5));
    await page.locator('input[id$=_endDate]').blur();
    await page.getByText(esErrors.date.endBeforeStart).first().waitFor();
    await ctx.close();
  });
});
