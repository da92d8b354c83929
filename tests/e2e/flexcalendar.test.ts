// The calendar product in a real browser (spec 2.11 flex-scheduled dates, 4 redirect flows, enrolment
// option C): from the programs list's Calendar button the portal hands Maria off to the calendar, its
// own product under /flexcalendar; she adds two days of next month for Sofia (their seats held), pays
// on the sandbox gateway's page and comes back to the payment, paid; back on the calendar the days are
// Sofia's, she removes one (outside Bright Path's 2-day cancellation window: released) while Sofia's
// day within the window shows as not removable, said why before she tries; she gets the iCal feed's
// link, which serves text/calendar. At 375 px in English and 1280 px in Spanish, axe on every page.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, shot, signIn, text, withServerAndBrowser, chooseCard, payAsPayer } from './kit';

const e2e = withServerAndBrowser();

const boxes = (page: Page) => page.locator('section[data-section=datesForm] input[type=checkbox]');

describe('the calendar of flex dates', () => {
  for (const [width, lang] of [
    [375, 'en'],
    [1280, 'es'],
  ] as const) {
    it(`days added and paid, one removed, one refused inside the window, the iCal link (${width} px, ${lang})`, async () => {
      const ctx = await newContext(e2e.browser, width, lang === 'en' ? 'en-US' : 'es-ES');
      const page = await ctx.newPage();
      const t = (key: string, params: Record<string, string | number> = {}) => text(lang, 'flexCalendar', key, params);
      try {
        await signIn(page, e2e.server, 'maria');
        await page.goto(e2e.portal('/programlist'));
        const calendar = page.getByRole('button', { name: text(lang, 'programs', 'button.calendar'), exact: true }).first();
        await calendar.waitFor({ timeout: 30_000 });
        await calendar.click();

        // the hand-off: the calendar's own product, Sofia's month
        await page.waitForURL(/\/flexcalendar\/dates\?programPeriodID=\d+$/, { timeout: 60_000 });
        await boxes(page).first().waitFor({ timeout: 30_000 });
        await page.getByText(t('dates.window', { days: 2 })).waitFor();
        // days that are not Maker Lab days: shown, disabled, said why
        await page.getByText(t('dates.notActivityDay')).first().waitFor();
        await expectNoAxeViolations(page, `calendar this month ${width} ${lang}`);
        await shot(page, `flexcalendar-month-${width}-${lang}`);

        // Sofia's day within the next two days is hers, not removable, said before she tries (this
        // month, or the next one when the month ends first)
        const locked = page.getByText(t('dates.locked', { days: 2 }));
        const lockedHere = await locked.count();
        const next = page.getByRole('button', { name: t('dates.next'), exact: true });
        await next.click();
        await page.waitForURL(/month=\d{4}-\d{2}/);
        await boxes(page).first().waitFor();
        expect(lockedHere + (await locked.count())).toBe(1);

        // two days of next month added: the last two open ones, far outside the window (the other
        // test's days stay Sofia's)
        const mine = page.locator('section[data-section=datesForm] input[type=checkbox]:not([disabled]):checked');
        const had = await mine.count();
        const open = page.locator('section[data-section=datesForm] input[type=checkbox]:not([disabled]):not(:checked)');
        const before = await open.count();
        expect(before).toBeGreaterThan(2);
        await open.nth(before - 1).check();
        await open.nth(before - 2).check();
        await expectNoAxeViolations(page, `calendar next month ${width} ${lang}`);
        await shot(page, `flexcalendar-next-${width}-${lang}`);
        await page.getByRole('button', { name: t('dates.save'), exact: true }).click();

        // held while she pays: the payment page, then the payer page and the sandbox checkout
        await page.waitForURL(/\/flexcalendar\/payment\?key=[0-9a-f]{32}$/, { timeout: 30_000 });
        await page.getByTestId('countdown').waitFor({ timeout: 30_000 });
        await page.waitForSelector('section[data-section=methods] [data-action=choose]');
        await expect.poll(() => page.textContent('section[data-section=dates]')).toContain('65.00');
        await expect.poll(() => page.textContent('section[data-section=amountDue]')).toContain('130.00');
        await expectNoAxeViolations(page, `calendar payment ${width} ${lang}`);
        await shot(page, `flexcalendar-pay-${width}-${lang}`);
        await chooseCard(page);
        await page.waitForURL(/\/flexcalendar\/payerinformation\?key=[0-9a-f]{32}&method=CCD/);
        await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(2)', { state: 'attached' });
        await expectNoAxeViolations(page, `calendar payer ${width} ${lang}`);
        await payAsPayer(page, { index: 1 });

        // back at the calendar's payment, paid
        await page.waitForURL(/\/flexcalendar\/payment\?key=/, { timeout: 60_000 });
        await expect.poll(() => page.textContent('main'), { timeout: 30_000 }).toContain(text(lang, 'application', 'payment.paid'));
        expect(await page.getByTestId('countdown').count()).toBe(0);
        await expectNoAxeViolations(page, `calendar paid ${width} ${lang}`);
        await shot(page, `flexcalendar-paid-${width}-${lang}`);
        await page.getByRole('button', { name: t('payment.back'), exact: true }).click();
        await page.waitForURL(/\/flexcalendar\/dates\?programPeriodID=\d+$/);
        await boxes(page).first().waitFor();
        await next.click();
        await page.waitForURL(/month=\d{4}-\d{2}/);
        await expect.poll(() => mine.count()).toBe(had + 2);

        // one removed, outside the window: released, the other stays
        await mine.first().uncheck();
        // the save answered before the page is reloaded (a reload would cancel it)
        const saved = page.waitForResponse((r) => r.url().includes('/api/Registration/flexcalendar/dates') && r.request().method() === 'POST', { timeout: 30_000 });
        await page.getByRole('button', { name: t('dates.save'), exact: true }).click();
        expect((await saved).status()).toBe(200);
        await expect.poll(() => mine.count(), { timeout: 30_000 }).toBe(had + 1);
        await page.reload();
        await boxes(page).first().waitFor();
        await expect.poll(() => mine.count()).toBe(had + 1);
        await shot(page, `flexcalendar-removed-${width}-${lang}`);

        // the iCal feed: a link made, shown once with its copy button, serving text/calendar
        await page.getByRole('button', { name: new RegExp(`^(${t('feed.create')}|${t('feed.renew')})$`) }).first().click();
        await page.waitForURL(/\/flexcalendar\/feed\?/);
        const url = (await page.textContent('section[data-section=url]')) ?? '';
        const link = /https?:\/\/\S+\/api\/Registration\/flexcalendar\/ical\/[0-9a-f]{64}/.exec(url)?.[0];
        expect(link, url).toBeTruthy();
        await page.getByRole('button', { name: t('feed.copy'), exact: true }).waitFor();
        await expectNoAxeViolations(page, `calendar feed ${width} ${lang}`);
        await shot(page, `flexcalendar-feed-${width}-${lang}`);
        const feed = await page.request.get(link!);
        expect(feed.status()).toBe(200);
        expect(feed.headers()['content-type']).toContain('text/calendar');
        expect(await feed.text()).toContain('BEGIN:VCALENDAR');
        await page.getByRole('button', { name: t('payment.back'), exact: true }).click();
        await page.waitForURL(/\/flexcalendar\/dates\?/);
        await page.getByText(t('feed.active', { date: '' }).split(' ')[0]).first().waitFor();
      } catch (err) {
        await shot(page, `flexcalendar-failed-${width}-${lang}`);
        throw err;
      } finally {
        await ctx.close();
      }
    });
  }
});
