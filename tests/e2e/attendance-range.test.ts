// Attendance by period in a real browser: the last 4 weeks ending today by default, most recent
// first; chosen dates reload the list; an end before the start is refused on the form (1280 and 375 px).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectNoAxeViolations, launchBrowser, newContext, shot, startServer, type RunningServer } from './harness';
import { mdy } from '../today';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedIn(width: number) {
  const ctx = await newContext(browser, width);
  const page = await ctx.newPage();
  await page.goto(`${server.url}/parentportal/brightpath/parent`);
  await page.waitForSelector('[data-testid=signin-form]');
  await page.fill('input[name=email]', 'maria.garcia@example.com');
  await page.fill('input[name=password]', 'Sunshine#2026');
  await page.click('[data-testid=signin-submit]');
  await page.waitForURL(/\/home$/);
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
      const all = await groups(page).count();
      expect(all).toBeGreaterThan(0);
      await shot(page, `attendance-period-default-${width}`);

      await page.fill('input[id$=_startDate]', mdy(-3));
      await page.fill('input[id$=_endDate]', mdy(0));
      await period(page).getByText(`From ${mdy(-3)} to ${mdy(0)}`).waitFor();
      await groups(page).first().waitFor();
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
});
