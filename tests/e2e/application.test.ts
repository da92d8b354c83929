// The parent application (spec 2.11, 4, 5.5) in a real browser, reached by the programs list's
// hand-off: two children for the summer camp where one week is full (one registered, one waitlisted
// with its place), a sibling fee, an optional fee and the account's credit; leaving mid-application
// and going on in a new browser; exit with return; financial assistance waiting as Approval Pending
// until the provider approves it with `npm run provider -- applications approve`. 375 px in English,
// 1280 px in Spanish; axe on every step. A keyelement another parent asked for opens nothing here.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { escapeRegExp, expectNoAxeViolations, newContext, outbox, shot, signIn, text, withServerAndBrowser } from './kit';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const e2e = withServerAndBrowser();

type Lang = 'en' | 'es';
const SUMMER = { en: 'Summer Adventure Camp', es: 'Campamento de verano Aventura' };
const ADVENTURE = { en: 'Adventure Week', es: 'Semana de aventura' };

const programCard = (page: Page, lang: Lang): Locator =>
  page.locator('section[data-section=programs] article').filter({ has: page.getByRole('heading', { name: SUMMER[lang] }) });

async function openPrograms(page: Page, lang: Lang): Promise<Locator> {
  await page.goto(e2e.portal('/programlist'));
  const c = programCard(page, lang);
  await c.waitFor({ timeout: 30_000 });
  return c;
}

/** Register (or Add child) on the summer camp card, through the grade roll-up when it asks, into the application. */
async function register(page: Page, lang: Lang): Promise<void> {
  const c = await openPrograms(page, lang);
  const name = new RegExp(`^(${escapeRegExp(text(lang, 'programs', 'button.register'))}|${escapeRegExp(text(lang, 'programs', 'button.addChild'))})$`);
  await c.getByRole('button', { name }).click();
  const rollup = page.getByRole('alertdialog', { name: text(lang, 'programs', 'rollup.title') });
  const save = rollup.getByRole('button', { name: text(lang, 'programs', 'rollup.continue') });
  // the roll-up asks first while it is open and not yet confirmed: save it (again if a busy page dropped the click)
  const deadline = Date.now() + 90_000;
  while (!/\/parentapplication\//.test(page.url())) {
    if (Date.now() > deadline) throw new Error(`Register did not reach the parent application (at ${page.url()})`);
    if ((await rollup.isVisible()) && (await save.isEnabled())) await save.click({ timeout: 5_000 }).catch(() => undefined);
    await page.waitForURL(/\/parentapplication\//, { timeout: 3_000 }).catch(() => undefined);
  }
  await page.waitForURL(/\/parentapplication\/(children|enrollment|fee|review)\?key=/, { timeout: 60_000 });
}

const continueButton = (page: Page, lang: Lang) => page.getByRole('button', { name: text(lang, 'application', 'continue'), exact: true });

async function step(page: Page, lang: Lang, heading: string, label: string) {
  await page.getByRole('heading', { level: 1, name: text(lang, 'application', heading) }).waitFor({ timeout: 30_000 });
  await expectNoAxeViolations(page, label);
  await shot(page, label);
}

/** The activity choice of a child: its week (0 = the camp's first) and activity. */
async function choose(page: Page, lang: Lang, child: number, week: number) {
  const picker = page.locator('[data-testid^=activity-picker-]').nth(child);
  await picker.locator('fieldset[data-week]').nth(week).getByRole('checkbox', { name: ADVENTURE[lang] }).check();
}

describe('the parent application', () => {
  it('registers two children at 375 px: one registered, one waitlisted with its place; fees with a sibling rate, an optional fee and credit; resumed in a new browser', async () => {
    const lang: Lang = 'en';
    let ctx: BrowserContext = await newContext(e2e.browser, 375, 'en-US');
    let page = await ctx.newPage();
    try {
      await signIn(page, e2e.server, 'amara');
      await register(page, lang);
      await step(page, lang, 'children.title', 'application-children-375-en');
      // the exit bar and the progress bar (child, enrol, fee: nothing is paid now)
      await expect(page.getByRole('button', { name: text(lang, 'application', 'exit.action') }).isVisible()).resolves.toBe(true);
      const progress = await page.locator('[data-section=progress]').innerText();
      expect(progress).toContain(text(lang, 'application', 'flow.fee'));
      await page.getByRole('checkbox', { name: 'Ada Mensah' }).check();
      await page.getByRole('checkbox', { name: 'Ben Mensah' }).check();
      await continueButton(page, lang).click();

      await page.waitForURL(/\/parentapplication\/enrollment/);
      await page.locator('[data-testid^=activity-picker-]').nth(1).waitFor();
      await step(page, lang, 'enrollment.title', 'application-enrollment-375-en');
      // the camp's first week of Adventure Week is full: it says so before the parent chooses
      const firstWeek = page.locator('[data-testid^=activity-picker-]').nth(1).locator('fieldset[data-week]').nth(0);
      expect(await firstWeek.innerText()).toContain(text(lang, 'application', 'enrollment.full'));
      // the activity's details: sites, tuition, registration and sibling fees
      await page.locator('[data-testid^=activity-picker-]').first().getByRole('button', { name: text(lang, 'application', 'enrollment.detailsOf', { activity: ADVENTURE[lang] }) }).click();
      const details = page.getByRole('dialog', { name: ADVENTURE[lang] });
      await details.waitFor();
      for (const text of ['Bright Path Center - Downtown', '$210.00', '$75.00', '$190.00']) expect(await details.innerText()).toContain(text);
      await expectNoAxeViolations(page, 'application activity details (375, en)');
      await shot(page, 'application-activity-details-375-en');
      await details.getByRole('button', { name: text(lang, 'application', 'enrollment.close') }).first().click();
      await details.waitFor({ state: 'hidden' });
      await choose(page, lang, 0, 1);
      await choose(page, lang, 1, 0);
      // the seat display of each child's choices: A (seats available) for Ada, W (waitlist) for Ben
      const pickers = page.locator('[data-testid^=activity-picker-]');
      await expect.poll(() => pickers.nth(0).locator('[data-seat-state]').getAttribute('data-seat-state')).toBe('A');
      expect(await pickers.nth(1).locator('[data-seat-state]').innerText()).toBe(text(lang, 'application', 'seat.W'));
      await page.getByRole('radio', { name: text(lang, 'application', 'enrollment.optionY') }).check();
      await continueButton(page, lang).click();
      await page.waitForURL(/\/parentapplication\/fee/);
      await page.getByRole('heading', { level: 1, name: text(lang, 'application', 'fee.title') }).waitFor();

      // she leaves here, and goes on later in another browser: the draft waits on the server
      await ctx.close();
      ctx = await newContext(e2e.browser, 375, 'en-US');
      page = await ctx.newPage();
      await signIn(page, e2e.server, 'amara');
      await register(page, lang);
      await page.waitForURL(/\/parentapplication\/fee/);
      await step(page, lang, 'fee.title', 'application-fee-375-en');
      // ticking a fee asks for the fees again: until the answer is in, the table keeps its last
      // answer (busy, no skeleton) and nothing below it moves
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route(/\/fee\/charges\?/, async (route) => { await held; await route.continue(); }, { times: 1 });
      const rows = page.locator('[data-section=feeRows]');
      const before = await continueButton(page, lang).boundingBox();
      await page.getByRole('checkbox', { name: 'Camp T-shirt' }).check();
      await expect.poll(() => rows.getAttribute('aria-busy')).toBe('true');
      // not to be acted on while it is old
      expect(await rows.getAttribute('inert')).not.toBeNull();
      expect(await page.locator('.chakra-skeleton').count()).toBe(0);
      expect(await rows.innerText()).not.toContain('Camp T-shirt');
      expect(await continueButton(page, lang).boundingBox()).toEqual(before);
      await shot(page, 'application-fee-busy-375-en');
      release();
      await expect.poll(() => rows.innerText()).toContain('Camp T-shirt');
      await expect.poll(() => rows.getAttribute('aria-busy')).toBeNull();
      expect(await rows.getAttribute('inert')).toBeNull();
      await page.getByRole('checkbox', { name: text(lang, 'application', 'fee.applyCredit', { amount: '$40.00' }) }).check();
      // the totals with the credit are in before she goes on
      await expect.poll(() => page.locator('[data-section=totals]').innerText()).toContain('$260.00');
      await continueButton(page, lang).click();

      await page.waitForURL(/\/parentapplication\/review/);
      await step(page, lang, 'review.title', 'application-review-375-en');
      const fees = await page.locator('[data-section=feeRows]').innerText();
      // Ada: registration $75.00 and her week $210.00; Ben, waitlisted: no registration fee and his full week not charged (spec 4); T-shirt $15.00
      for (const shown of ['$75.00', '$210.00', text(lang, 'application', 'fee.notCharged.WAITLIST'), 'Camp T-shirt', '$15.00']) expect(fees).toContain(shown);
      expect(fees).not.toContain('$190.00');
      const totals = await page.locator('[data-section=totals]').innerText();
      for (const shown of ['$300.00', '$40.00', '$260.00']) expect(totals).toContain(shown);
      await page.getByRole('button', { name: text(lang, 'application', 'review.submit') }).click();

      await page.waitForURL(/\/parentapplication\/confirmation/);
      await step(page, lang, 'confirmation.title', 'application-confirmation-375-en');
      const ada = page.locator('[data-section=children] article').filter({ hasText: 'Ada Mensah' });
      const ben = page.locator('[data-section=children] article').filter({ hasText: 'Ben Mensah' });
      expect(await ada.innerText()).toContain(text(lang, 'application', 'confirmation.status.REGISTERED'));
      expect(await ben.innerText()).toContain(text(lang, 'application', 'confirmation.status.WAITLISTED'));
      expect(await ben.innerText()).toContain(text(lang, 'application', 'confirmation.activityWPosition', { position: 1 }));
      // no exit bar once submitted
      expect(await page.getByRole('button', { name: text(lang, 'application', 'exit.action') }).count()).toBe(0);
      const mails = await outbox(e2e.server);
      expect(mails.some((m) => m.to === 'amara.mensah@example.com' && m.text.includes('Ben Mensah'))).toBe(true);

      // the programs list shows Ben's place on the waitlist
      await page.getByRole('button', { name: text(lang, 'application', 'confirmation.back') }).click();
      await page.waitForURL(/\/parentportal\/programlist/);
      const c = programCard(page, lang);
      await c.waitFor();
      await expect.poll(() => c.innerText()).toContain(text(lang, 'programs', 'child.waitlisted', { position: 1 }));
      await expectNoAxeViolations(page, 'programlist with a waitlist place');
      // and so does Home's registration card
      await page.goto(e2e.portal('/home'));
      const home = page.locator('section[data-section=registration] article').filter({ has: page.getByRole('heading', { name: SUMMER[lang] }) });
      await home.waitFor({ timeout: 30_000 });
      await expect.poll(() => home.innerText()).toContain(text(lang, 'programs', 'child.waitlisted', { position: 1 }));
    } catch (err) {
      await shot(page, 'application-failed-375-en');
      throw err;
    } finally {
      await ctx.close();
    }
  }, 300_000);

  it('at 1280 px in Spanish: exit with return clears the draft; financial assistance waits as Approval Pending until the provider approves it', async () => {
    const lang: Lang = 'es';
    const ctx = await newContext(e2e.browser, 1280, 'es-ES');
    const page = await ctx.newPage();
    try {
      await signIn(page, e2e.server, 'karen');
      await register(page, lang);
      await step(page, lang, 'children.title', 'application-children-1280-es');
      await page.getByRole('checkbox', { name: 'Tyler Johnson' }).check();
      await continueButton(page, lang).click();
      await page.waitForURL(/\/parentapplication\/enrollment/);

      // exit, then return to the portal: the draft is discarded
      await page.getByRole('button', { name: text(lang, 'application', 'exit.action') }).click();
      const exit = page.getByRole('alertdialog', { name: text(lang, 'application', 'exit.title') });
      await exit.waitFor();
      await expectNoAxeViolations(page, 'application exit dialog (es)');
      await exit.getByRole('button', { name: text(lang, 'application', 'exit.return') }).click();
      await page.waitForURL(/\/parentportal\/home/);

      // a new application starts from the first step with nothing chosen
      await register(page, lang);
      await page.waitForURL(/\/parentapplication\/children/);
      await page.getByRole('checkbox', { name: 'Tyler Johnson' }).waitFor();
      expect(await page.getByRole('checkbox', { name: 'Tyler Johnson' }).isChecked()).toBe(false);
      await page.getByRole('checkbox', { name: 'Tyler Johnson' }).check();
      await continueButton(page, lang).click();
      await page.waitForURL(/\/parentapplication\/enrollment/);
      await page.locator('[data-testid^=activity-picker-]').first().waitFor();
      await step(page, lang, 'enrollment.title', 'application-enrollment-1280-es');
      await choose(page, lang, 0, 2);
      await page.getByRole('radio', { name: text(lang, 'application', 'enrollment.optionY') }).check();
      await continueButton(page, lang).click();

      await page.waitForURL(/\/parentapplication\/fee/);
      await page.getByRole('heading', { level: 1, name: text(lang, 'application', 'fee.title') }).waitFor();
      await page.getByRole('checkbox', { name: text(lang, 'application', 'fee.fa') }).check();
      // at least one agency when opted in
      await continueButton(page, lang).click();
      await page.getByText(text(lang, 'application', 'errors.agencyRequired')).first().waitFor();
      const agencies = page.getByRole('group', { name: text(lang, 'application', 'fee.agencies') });
      await agencies.getByRole('checkbox').first().check();
      await page.getByText(text(lang, 'application', 'fee.feeWaived')).waitFor();
      await step(page, lang, 'fee.title', 'application-fee-1280-es');
      await continueButton(page, lang).click();

      await page.waitForURL(/\/parentapplication\/review/);
      await step(page, lang, 'review.title', 'application-review-1280-es');
      // the review names the financial assistance asked for
      expect(await page.locator('[data-section=choices]').innerText()).toContain(text(lang, 'application', 'review.faRequested', { agencies: '' }).trim());
      await page.getByRole('button', { name: text(lang, 'application', 'review.submit') }).click();
      await page.waitForURL(/\/parentapplication\/confirmation/);
      await step(page, lang, 'confirmation.title', 'application-confirmation-1280-es');
      const tyler = page.locator('[data-section=children] article').filter({ hasText: 'Tyler Johnson' });
      expect(await tyler.innerText()).toContain(text(lang, 'application', 'confirmation.status.PENDING'));

      // on the programs list, Tyler's application is under review
      const line = () => programCard(page, lang).locator('li').filter({ hasText: 'Tyler Johnson' }).innerText();
      await openPrograms(page, lang);
      await expect.poll(line).toContain(text(lang, 'programs', 'child.review'));

      // the provider approves it from the command line (the embedded database is the server's alone, so the server stops meanwhile)
      await e2e.server.restart(() => {
        const env = { ...process.env, PGLITE_DIR: e2e.server.dataDir, DATABASE_URL: '' };
        const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
        const list = execFileSync(tsx, ['scripts/provider.ts', 'applications', 'list', '--provider', 'brightpath'], { cwd: ROOT, env, encoding: 'utf8' });
        const row = list.split('\n').find((l) => l.includes('Tyler Johnson'));
        expect(row, list).toBeDefined();
        const id = row!.split('\t')[0];
        const out = execFileSync(tsx, ['scripts/provider.ts', 'applications', 'approve', id, '--provider', 'brightpath'], { cwd: ROOT, env, encoding: 'utf8' });
        expect(out).toContain(`Application ${id} approved`);
      });
      await openPrograms(page, lang);
      await expect.poll(line).not.toContain(text(lang, 'programs', 'child.review'));
      expect(await line()).toContain(text(lang, 'programs', 'child.registered', { date: '' }).trim());
      await expectNoAxeViolations(page, 'programlist after approval (es)');
      await shot(page, 'application-approved-programlist-1280-es');
    } catch (err) {
      await shot(page, 'application-failed-1280-es');
      throw err;
    } finally {
      await ctx.close();
    }
  }, 300_000);

  it('a keyelement another parent asked for, opened in a signed-in browser, is refused with a translated message and switches no account', async () => {
    const ctx = await newContext(e2e.browser, 375, 'en-US');
    const page = await ctx.newPage();
    try {
      await signIn(page, e2e.server, 'maria');
      const stored = (key: string) => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? '{}') as { token?: string | null; accountID?: number }, key);
      const maria = await stored('pp.session');
      // karen asks for a keyelement for her own account over HTTP and lures maria's browser to it
      const post = async (path: string, body: unknown, token?: string) =>
        (
          await fetch(`${e2e.server.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
            body: JSON.stringify(body),
          })
        ).json();
      const karen = await post('/api/Authentication/login', { appName: 'brightpath', email: 'karen.johnson@example.com', password: 'Sunshine#2026' });
      const accountID = karen.session.accountID as number;
      expect(accountID).not.toBe(maria.accountID);
      const programs = (await (await fetch(`${e2e.server.url}/api/Registration/programperiods/list?AccountID=${accountID}`, { headers: { authorization: `Bearer ${karen.token}` } })).json()) as { programPeriodID: number }[];
      const programPeriodID = programs[0].programPeriodID;
      const { keyelement } = await post(
        '/api/Registration/program/application-token',
        { product: 'parentapplication', programPeriodID, accountID, ApplicationTokenString: JSON.stringify({ applicationName: 'brightpath', programPeriodID, accountID, menu: '/programlist' }) },
        karen.token,
      );
      expect(keyelement).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await page.goto(e2e.application(`/?appName=brightpath&programPeriodID=${programPeriodID}&keyelement=${keyelement}&_=1`));
      const refused = page.locator('[data-testid=application-entry-error]');
      await refused.waitFor({ timeout: 30_000 });
      expect(await refused.innerText()).toContain(text('en', 'programs', 'errors.tokenOtherSession'));
      expect(page.url()).not.toContain('keyelement');
      await expectNoAxeViolations(page, 'application entry refused');
      await shot(page, 'application-entry-other-session-375-en');
      // the application holds no session of karen's, and the portal is still maria's
      expect((await stored('pa.session')).token ?? null).toBeNull();
      expect(await stored('pp.session')).toMatchObject({ token: maria.token, accountID: maria.accountID });
    } finally {
      await ctx.close();
    }
  }, 120_000);
});
