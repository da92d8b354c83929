// Communication and attendance in a real browser as the demo parent: Home, bulletins (list and
// details, attachment download), forms, the events calendar, the e-mail/text history with its
// filters, attendance with the collapse cases, the attendance report PDF (rendered with pdftoppm),
// an absence notice for several days with its e-mails in the outbox, contact us; the same pages in
// Portuguese; provider HTML from a corpus of XSS payloads rendered inert. axe on every page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, openSignIn, outbox, shot, signIn, wholeLists, withServerAndBrowser } from './kit';
import { safeHtml } from '../../server/domains/provider/provider';
import { mdy } from '../today';

const en = JSON.parse(readFileSync(resolve(__dirname, '../../locales/en/communication.json'), 'utf8'));
const pt = JSON.parse(readFileSync(resolve(__dirname, '../../locales/pt/communication.json'), 'utf8'));
const PAYLOADS = JSON.parse(readFileSync(resolve(__dirname, '../fixtures/xss/payloads.json'), 'utf8')) as string[];

const e2e = withServerAndBrowser();
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pp-downloads-'));
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function signedIn(width = 1280, locale = 'en-US'): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await newContext(e2e.browser, width, locale);
  const page = await ctx.newPage();
  await signIn(page, e2e.server, 'maria');
  return { ctx, page };
}

/** Client-side navigation keeps the session in memory exactly as a user clicking would. */
async function open(page: Page, path: string, ready: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', `/parentportal${p}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForSelector(ready);
  await page.waitForSelector('[data-state=loading]', { state: 'detached' }).catch(() => undefined);
}

async function heading(page: Page): Promise<string> {
  return ((await page.locator('h1').first().textContent()) ?? '').trim();
}

// the attendance records, whatever period the page asks for (its query carries the dates)
const ATTENDANCE_RECORDS = /\/api\/Attendance\/attendance(\?.*)?$/;

describe('communication and attendance', () => {
  it('Home shows the five sections with real data and the home alerts as HTML', async () => {
    const { ctx, page } = await signedIn();
    await page.waitForSelector('[data-section=alerts] .pp-html');
    expect(await page.locator('[data-section=alerts] .pp-html strong').first().textContent()).toBe('next Thursday');
    for (const s of ['registration', 'payments', 'bulletins', 'events', 'forms', 'childcare']) await page.waitForSelector(`[data-section=${s}]`);
    await expectNoAxeViolations(page, 'home');
    await shot(page, 'comm-home-1280-en');
    // Home's forms carry their file-type icons, and a bulletin card opens that bulletin
    expect(await page.locator('[data-section=forms] [data-file-kind]').count()).toBeGreaterThan(0);
    await page.locator('[data-section=bulletins]').getByRole('link', { name: 'Winter Break Holiday Care registration' }).click();
    await page.waitForSelector('[data-section=message] .pp-html strong');
    expect(new URL(page.url()).pathname).toBe('/parentportal/bulletin');
    expect(await page.locator('[data-section=attachments] article h3').allTextContents()).toEqual(['Winter-Break-Schedule.pdf']);
    await ctx.close();
  });

  it('bulletins: list mode links each bulletin to its details with the message as HTML and the attachments', async () => {
    const { ctx, page } = await signedIn();
    await open(page, '/bulletin', '[data-section=list] article');
    expect(await heading(page)).toBe(en.bulletin.title);
    const titles = await page.locator('[data-section=list] article h3').allTextContents();
    expect(titles[0]).toBe('Winter Break Holiday Care registration');
    expect(titles).not.toContain('Expired: summer photos');
    await expectNoAxeViolations(page, 'bulletin list');
    await shot(page, 'comm-bulletins-1280-en');
    await page.getByRole('link', { name: 'Spirit Week and supply list' }).click();
    await page.waitForSelector('[data-section=message] .pp-html');
    expect(new URL(page.url()).search).toMatch(/^\?id=\d+$/);
    expect(await page.locator('[data-section=message] .pp-html em').textContent()).toBe('Spirit Week');
    const names = await page.locator('[data-section=attachments] article h3').allTextContents();
    expect(names).toEqual(['Supply-List.csv', 'Spirit-Week.txt']);
    expect(await page.locator('[data-section=attachments] [data-file-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-file-kind')))).toEqual(['spreadsheet', 'text']);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-section=attachments] article').nth(1).getByRole('button').click()]);
    expect(download.suggestedFilename()).toBe('Spirit-Week.txt');
    const file = join(tmp, 'spirit.txt');
    await download.saveAs(file);
    expect(readFileSync(file, 'utf8')).toContain('Crazy hair day');
    await expectNoAxeViolations(page, 'bulletin details');
    await shot(page, 'comm-bulletin-details-1280-en');
    await ctx.close();
  });

  it('forms: file-type icons, names and downloads of the stored files', async () => {
    const { ctx, page } = await signedIn(375);
    await open(page, '/form', '[data-section=forms] article');
    const kinds = await page.locator('[data-section=forms] [data-file-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-file-kind')));
    expect(kinds).toContain('pdf');
    expect(kinds).toContain('text');
    const card = page.locator('[data-section=forms] article', { hasText: 'Field Trip Permission Slip' });
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button').click()]);
    expect(download.suggestedFilename()).toBe('Field-Trip-Permission.pdf');
    const file = join(tmp, 'form.pdf');
    await download.saveAs(file);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    await expectNoAxeViolations(page, 'forms 375');
    await shot(page, 'comm-forms-375-en');
    await ctx.close();
  });

  it('calendar: month view on wide screens, list view on small ones, details with an all-day end shown as end minus one day', async () => {
    const { ctx, page } = await signedIn();
    await open(page, '/calendar', '[data-section=events] [data-view]');
    expect(await page.getAttribute('[data-section=events] [data-view]', 'data-view')).toBe('month');
    // Spirit Week is stored as Monday to Saturday (exclusive end): it shows Monday to Friday
    // (the week may run into next month)
    const spirit = page.locator('[data-section=events] [data-day] button', { hasText: 'Spirit Week' });
    let shown = await spirit.evaluateAll((els) => els.filter((e) => !e.closest('td')!.hasAttribute('data-other')).length);
    if (shown < 5) {
      await page.getByRole('button', { name: /next month/i }).click();
      shown += await spirit.evaluateAll((els) => els.filter((e) => !e.closest('td')!.hasAttribute('data-other')).length);
    }
    expect(shown).toBe(5);
    await spirit.first().click();
    const details = page.locator('[data-event-details]');
    await details.waitFor();
    const start = (await details.locator('[data-field=start]').textContent())!;
    const end = (await details.locator('[data-field=end]').textContent())!;
    // counted in UTC days: a week across a daylight-saving change is still four days
    const utcDay = (mdy: string) => {
      const [m, d, y] = mdy.trim().split('/').map(Number);
      return Date.UTC(y, m - 1, d);
    };
    const days = (utcDay(end) - utcDay(start)) / 86_400_000;
    expect(days).toBe(4);
    expect(await details.locator('[data-field=time]').textContent()).toBe('All day');
    await expectNoAxeViolations(page, 'calendar month');
    await shot(page, 'comm-calendar-1280-en');
    await ctx.close();

    const small = await signedIn(375);
    await open(small.page, '/calendar', '[data-section=events] [data-view]');
    expect(await small.page.getAttribute('[data-section=events] [data-view]', 'data-view')).toBe('list');
    await expectNoAxeViolations(small.page, 'calendar list 375');
    await shot(small.page, 'comm-calendar-375-en');
    await small.ctx.close();
  });

  it('communication history: 90 days with both filters by default, reloading when the period or a filter changes', async () => {
    const { ctx, page } = await signedIn();
    await open(page, '/communication', '[data-section=history] article');
    const cards = page.locator('[data-section=history] article');
    // the list may still be settling (a refetch shows its loading state): wait for the state, not the first paint
    await page.waitForFunction(() => !document.querySelector('[data-section=history] [data-state=loading]') && document.querySelectorAll('[data-section=history] article').length > 3);
    const all90 = await cards.count();
    expect(all90).toBeGreaterThan(3);
    expect(await page.locator('[data-section=history]').textContent()).toContain('Automatic Email');
    expect(await page.locator('[data-section=history] .pp-html strong').first().textContent()).toBe('$400.00');
    await expectNoAxeViolations(page, 'communication');
    await shot(page, 'comm-history-1280-en');

    await page.getByLabel(en.history.showAutoMail).uncheck();
    await page.waitForFunction((n) => document.querySelectorAll('[data-section=history] article').length !== n, all90);
    const sentOnly = await cards.count();
    expect(sentOnly).toBeLessThan(all90);
    expect(await page.locator('[data-section=history]').textContent()).not.toContain('Automatic Email');

    await page.getByLabel(en.history.showAutoMail).check();
    await page.getByLabel(en.history.period).selectOption({ label: en.history.days720 });
    await page.waitForFunction((n) => document.querySelectorAll('[data-section=history] article').length > n, all90);
    expect(await page.locator('[data-section=history]').textContent()).toContain('Summer camp photos');
    await ctx.close();
  });

  it('attendance: cards per record grouped by day and child, with both collapse cases of today', async () => {
    const { ctx, page } = await signedIn();
    await open(page, '/attendance', '[data-section=records] [data-group]');
    await wholeLists(page, 'records');
    const layouts = await page.locator('[data-section=records] [data-group]').evaluateAll((els) => els.map((e) => e.getAttribute('data-layout')));
    // today's three children come first (newest day): Sofia all absent with a full day, Lucas two
    // after-school absences, Emma checked in this morning (Home's 'today')
    expect(layouts.slice(0, 3).sort()).toEqual(['afterschool', 'fullday', 'rows']);
    expect(layouts.filter((l) => l === 'rows').length).toBeGreaterThan(5);
    const full = page.locator('[data-layout=fullday]');
    expect(await full.locator('article').count()).toBe(1);
    expect(await full.locator('article h4').textContent()).toBe(en.attendance.fullDay);
    expect(await full.textContent()).toContain('Sick');
    const after = page.locator('[data-layout=afterschool]');
    expect(await after.locator('article').count()).toBe(1);
    expect(await after.locator('article h4').textContent()).toBe(en.attendance.afterSchool);
    // a present day shows in, in by, out and out by (picked by content: which day is first depends on the weekday)
    const present = page.locator('[data-layout=rows] article').filter({ hasNotText: en.attendance.absent }).first();
    const text = await present.textContent();
    for (const label of [en.attendance.in, en.attendance.inBy, en.attendance.out, en.attendance.outBy]) expect(text).toContain(label);
    await expectNoAxeViolations(page, 'attendance');
    await shot(page, 'comm-attendance-1280-en');
    await ctx.close();
  });

  it('attendance report: end before start is refused, then a real PDF downloads and renders', async () => {
    const { ctx, page } = await signedIn();
    await open(page, '/attendancereport', 'form');
    const start = page.getByLabel(/Start date/).first();
    const end = page.getByLabel(/End date/).first();
    await start.fill(mdy(0));
    await end.fill(mdy(-5));
    await end.blur();
    await page.getByRole('button', { name: en.report.download }).click();
    await page.getByText('End should be greater than start').first().waitFor();
    await end.fill(mdy(0));
    await start.fill(mdy(-14));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: en.report.download }).click()]);
    expect(download.suggestedFilename()).toMatch(/^Attendance-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.pdf$/);
    const pdf = join(tmp, 'attendance.pdf');
    await download.saveAs(pdf);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    // the PDF renders (poppler), and its text holds the records
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', pdf, join(tmp, 'attendance')]);
    expect(statSync(join(tmp, 'attendance-1.png')).size).toBeGreaterThan(5000);
    const text = execFileSync('pdftotext', [pdf, '-']).toString();
    expect(text).toContain('Attendance report');
    expect(text).toContain('Sofia Garcia');
    expect(text).toContain('Absent: Sick');
    await expectNoAxeViolations(page, 'attendance report');
    await shot(page, 'comm-attendancereport-1280-en');
    await ctx.close();
  });

  it('notify absence for several days: saved, e-mailed to the site administrators through the outbox', async () => {
    const { ctx, page } = await signedIn(375);
    await open(page, '/notifyabsence', 'form');
    await page.getByLabel('Lucas').check();
    await page.getByLabel('Emma').check();
    await page.getByLabel(/^Reason/).selectOption({ label: 'Family vacation' });
    await page.getByLabel(/^Date/).fill(mdy(1));
    expect(await page.getByLabel(/End date/).count()).toBe(0);
    await page.getByLabel(/Multiple days/).check();
    await page.getByLabel(/End date/).fill(mdy(5));
    await page.getByLabel(/Multiple days/).uncheck();
    expect(await page.getByLabel(/End date/).count()).toBe(0);
    await page.getByLabel(/Multiple days/).check();
    // unticking cleared it
    expect(await page.getByLabel(/End date/).inputValue()).toBe('');
    await page.getByLabel(/End date/).fill(mdy(5));
    await page.getByLabel('After school').check();
    await page.getByLabel(/Additional information/).fill('Visiting grandparents in Texas.');
    await expectNoAxeViolations(page, 'notify absence');
    await shot(page, 'comm-notifyabsence-375-en');
    await page.getByRole('button', { name: en.absence.send }).click();
    await page.waitForURL(/\/attendance\?notified=true$/);
    await page.getByText(en.absence.sent).waitFor();
    const mails = (await outbox(e2e.server)).filter((m) => m.subject.startsWith('Absence notice'));
    const to = mails.map((m) => m.to).sort();
    expect(to).toContain('lincoln.director@brightpath.example.com');
    expect(to).toContain('downtown.director@brightpath.example.com');
    expect(to).toContain('downtown.office@brightpath.example.com');
    expect(mails[0].text).toContain(`${mdy(1)} - ${mdy(5)}`);
    expect(mails[0].text).toContain('Visiting grandparents in Texas.');
    await ctx.close();
  });

  it('contact us: the message goes to the support e-mail and appears in the communication history', async () => {
    const { ctx, page } = await signedIn();
    await open(page, '/contactus', 'form');
    await page.getByLabel(/^Subject/).selectOption({ label: 'Absence or late pick-up' });
    await page.getByLabel(/^Message/).fill('I will pick up Sofia at 6:15 PM on Friday.');
    await expectNoAxeViolations(page, 'contact us');
    await shot(page, 'comm-contactus-1280-en');
    await page.getByRole('button', { name: en.contactUs.send }).click();
    await page.waitForURL(/\/communication\?sent=true$/);
    await page.locator('[data-section=history] article', { hasText: 'Absence or late pick-up' }).first().waitFor();
    const mail = (await outbox(e2e.server)).find((m) => m.subject.includes('Absence or late pick-up') && m.text.includes('6:15 PM'))!;
    expect(mail.to).toBe('help@brightpathkids.example');
    expect(mail.text).toContain('6:15 PM');
    await ctx.close();
  });

  // one test per width: eight pages with axe each stay well inside the time limit on a busy machine
  it.each([375, 1280])('the same pages in Portuguese at %i px, with no axe violations', async (width) => {
    const { ctx, page } = await signedIn(width, 'pt-BR');
    const pages: [string, string, string][] = [
      ['/bulletin', '[data-section=list] article', pt.bulletin.title],
      ['/form', '[data-section=forms] article', pt.forms.title],
      ['/calendar', '[data-section=events] [data-view]', pt.calendar.title],
      ['/communication', '[data-section=history] article', pt.history.title],
      ['/attendance', '[data-section=records] [data-group]', pt.attendance.title],
      ['/attendancereport', 'form', pt.report.screenTitle],
      ['/notifyabsence', 'form', pt.absence.title],
      ['/contactus', 'form', pt.contactUs.title],
    ];
    for (const [path, ready, title] of pages) {
      await open(page, path, ready);
      expect(await heading(page)).toBe(title);
      if (path === '/attendance') expect(await page.locator('[data-layout=fullday] article h4').textContent()).toBe(pt.attendance.fullDay);
      await expectNoAxeViolations(page, `${path} pt ${width}`);
      await shot(page, `comm${path.replace('/', '-')}-${width}-pt`);
    }
    await ctx.close();
  });

  it('each section has its own empty and error states; Retry reloads only that section', async () => {
    const { ctx, page } = await signedIn();
    // a bulletin that does not exist: the server answers 404, the details sections show the retry panel
    await open(page, '/bulletin?id=999999', '[data-state=error]');
    const panel = page.locator('[data-state=error]').first();
    expect(await panel.textContent()).toContain('Unable to retrieve the bulletin');
    await expectNoAxeViolations(page, 'bulletin error');

    // the history fails once (the network answers 503), Retry reloads only that section
    let fail = true;
    await page.route('**/api/Communication/history*', (route) =>
      fail ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, message: 'History store unavailable' }) }) : route.continue(),
    );
    await open(page, '/communication', '[data-section=history] [data-state=error]');
    const retry = page.locator('[data-section=history] [data-state=error]');
    expect(await retry.textContent()).toContain('Unable to retrieve communication history');
    // the filter form above it is unaffected
    expect(await page.getByLabel(en.history.showAutoMail).isChecked()).toBe(true);
    // the filter form may load the history again as it settles (still failing): let the page go
    // quiet so the only load after the answers heal is the one Retry asks for
    await page.waitForLoadState('networkidle');
    await retry.getByRole('button', { name: 'Retry' }).waitFor();
    fail = false;
    await retry.getByRole('button', { name: 'Retry' }).click();
    await page.locator('[data-section=history] article').first().waitFor();
    await page.unroute('**/api/Communication/history*');
    // both filters off: the empty state of the section
    await page.getByLabel(en.history.showAutoMail).uncheck();
    await page.getByLabel(en.history.showSentByAccount).uncheck();
    await page.locator('[data-section=history] [data-state=empty]').waitFor();
    expect(await page.locator('[data-section=history]').textContent()).toContain(en.history.empty);
    await expectNoAxeViolations(page, 'history empty');

    // attendance not permitted: information not available instead of records
    await page.route(ATTENDANCE_RECORDS, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ attendanceAllowed: false, records: [] }) }));
    await open(page, '/attendance', '[data-section=notAvailable]');
    expect(await page.locator('[data-section=notAvailable]').textContent()).toContain(en.attendance.notAvailable);
    expect(await page.locator('[data-section=records] [data-group]').count()).toBe(0);
    await page.unroute(ATTENDANCE_RECORDS);
    await ctx.close();

    // allowed but nothing recorded: the no-records message
    const second = await signedIn();
    await second.page.route(ATTENDANCE_RECORDS, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ attendanceAllowed: true, records: [] }) }));
    await open(second.page, '/attendance', '[data-section=noRecords]');
    expect(await second.page.locator('[data-section=noRecords]').textContent()).toContain(en.attendance.noRecords);
    await expectNoAxeViolations(second.page, 'attendance without records');
    await second.ctx.close();
  });

  it('login alerts show on the sign-in page and on /loginalert as HTML', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    await page.locator('[data-section=alerts] strong', { hasText: 'Winter Break Holiday Care' }).waitFor();
    await open(page, '/loginalert', '[data-section=alerts] strong');
    expect(await heading(page)).toBe(en.alerts.title);
    await expectNoAxeViolations(page, 'login alerts');
    await ctx.close();
  });

  it(`renders ${PAYLOADS.length} known XSS payloads inert after the server's sanitiser`, async () => {
    const { ctx, page } = await signedIn();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.evaluate(() => {
      (window as unknown as { __xss: number }).__xss = 0;
      const hit = () => ((window as unknown as { __xss: number }).__xss += 1);
      window.alert = hit;
      window.confirm = () => Boolean(hit());
      window.prompt = () => String(hit());
    });
    const html = PAYLOADS.map((p) => safeHtml(p));
    // the same way the html kind shows provider HTML
    const report = await page.evaluate(async (parts) => {
      const host = document.createElement('div');
      host.id = 'xss-host';
      document.querySelector('main')!.appendChild(host);
      for (const part of parts) {
        const box = document.createElement('div');
        box.className = 'pp-html';
        box.innerHTML = part;
        host.appendChild(box);
      }
      const all = [...host.querySelectorAll('*')];
      // hover, focus and click everything that could carry a handler
      for (const el of all) {
        for (const type of ['mouseover', 'mouseenter', 'focus', 'click', 'load', 'error', 'toggle', 'animationstart']) {
          el.dispatchEvent(new Event(type, { bubbles: true }));
        }
      }
      await new Promise((r) => setTimeout(r, 500));
      const problems: string[] = [];
      for (const el of all) {
        for (const a of [...el.attributes]) {
          if (/^on/i.test(a.name) || a.name === 'style' || a.name === 'srcdoc' || a.name === 'formaction') problems.push(`${el.tagName} ${a.name}`);
        }
        const href = el.getAttribute('href');
        if (href !== null && !/^(https?:|mailto:|tel:)/i.test((el as HTMLAnchorElement).href)) problems.push(`${el.tagName} href ${href}`);
        const cs = getComputedStyle(el);
        if (cs.position === 'fixed' || cs.position === 'absolute') problems.push(`${el.tagName} ${cs.position}`);
      }
      const forbidden = host.querySelectorAll('script, style, iframe, frame, object, embed, form, input, button, img, svg, math, meta, link, base, video, audio, template, textarea, select');
      if (forbidden.length) problems.push(`${forbidden.length} forbidden elements`);
      return { problems, count: parts.length, ran: (window as unknown as { __xss: number }).__xss };
    }, html);
    expect(report.count).toBeGreaterThanOrEqual(100);
    expect(report.problems).toEqual([]);
    expect(report.ran).toBe(0);
    expect(dialogs).toEqual([]);
    await ctx.close();
  });
});
