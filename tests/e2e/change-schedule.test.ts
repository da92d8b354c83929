// A change of schedule in a real browser (spec 2.1 /changeschedule and its steps, 2.11, 2.12, 5.5,
// 8.2): from /viewenrollment's Request change, a child's site changed in its dialog (the site
// mandatory), a new schedule on the activity picker copied to the other child, the schedule in force,
// the review with what it costs, the submission, the checkout of what it left due and the
// confirmation with its e-mail, sent again on asking; a change refused because its seat went meanwhile, nothing charged;
// a change waiting for the provider, with a child marked 'No change required', approved from the
// command line and then shown on /viewenrollment from its effective date. At 375 and 1280 px, in
// English, Spanish and Vietnamese, axe on every step.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, LOCALES, newContext, outbox, shot, signIn, text, withServerAndBrowser, type Lang, type Parent, payAsPayer } from './kit';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const e2e = withServerAndBrowser();
const cs = (lang: Lang, key: string, params: Record<string, string | number> = {}) => text(lang, 'changeSchedule', key, params);

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

async function programId(page: Page, name: string): Promise<number> {
  const { json } = await call<{ programPeriodID: number; programPeriod: string }[]>(page, 'GET', '/api/Registration/programperiods/list');
  const p = json.find((x) => x.programPeriod === name);
  if (!p) throw new Error(`no program ${name}: ${json.map((x) => x.programPeriod).join(', ')}`);
  return p.programPeriodID;
}

/** The account's balance in cents (Payments & Statements). */
async function balance(page: Page): Promise<number> {
  const { json } = await call<{ currentBalance: number }>(page, 'GET', '/api/Billing/account-summary');
  return Math.round(json.currentBalance * 100);
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

/** A step of the flow: settled, axe clean, a screenshot. */
async function step(page: Page, screen: string, label: string) {
  await settled(page, screen);
  await expectNoAxeViolations(page, label);
  await shot(page, label);
}

async function signedIn(who: Parent, width: number, lang: Lang) {
  const ctx = await newContext(e2e.browser, width, LOCALES[lang]);
  const page = await ctx.newPage();
  // a server just restarted on a busy machine may take longer to answer its first page
  await signIn(page, e2e.server, who, { formTimeout: 90_000, failShot: `change-signin-${who}-${width}-failed` });
  if (lang !== 'en') {
    // the language the parent chose (the header's switch), kept in the session
    await page.selectOption('[data-testid=language-switch] select', lang);
  }
  return { ctx, page };
}

/** From /viewenrollment's Request change to the children step. */
async function startChange(page: Page, program: string, lang: Lang, label: string): Promise<string> {
  await open(page, `/viewenrollment?programPeriodID=${await programId(page, program)}`);
  await settled(page, 'viewenrollment');
  await page.click('[data-action=requestChange]');
  await page.waitForURL(/\/changeschedule\?key=[0-9a-f]{32}$/);
  const key = new URL(page.url()).searchParams.get('key')!;
  await step(page, 'changeschedule', `${label}-start`);
  expect(await page.textContent('main')).toContain(cs(lang, 'start.earliest'));
  await page.click('[data-action=continue]');
  await page.waitForURL(/\/changeschedule\/children\?key=/);
  await settled(page, 'changeschedule-children');
  await page.waitForSelector('[data-testid^=activity-picker-]');
  return key;
}

/** The children of the children step, in order: their ids. */
async function childIds(page: Page): Promise<number[]> {
  const ids = await page.locator('[data-testid^=activity-picker-]').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-testid')!.replace('activity-picker-', ''))));
  return ids;
}

/** Ticks an activity of a child's picker by its name (its first offer at the chosen site). */
async function tick(page: Page, child: number, activity: string) {
  const box = page.locator(`[data-testid=activity-picker-${child}] [data-activity]`).filter({ has: page.getByText(activity, { exact: true }) }).first().locator('input[type=checkbox]').first();
  await box.check();
}

describe('change of schedule', () => {
  it('375 px, English: a site changed in its dialog, the schedule copied to the other child, what it costs, paid through the checkout, confirmed', async () => {
    const lang: Lang = 'en';
    const { ctx, page } = await signedIn('maria', 375, lang);
    try {
      // the program's free change is used already (Lucas kept at After Care): this one pays the change fee
      const pp = await programId(page, 'School Year Before & After Care');
      const first = await call<{ key: string; children: { prChildID: number; siteID: number }[] }>(page, 'POST', '/api/Registration/changeschedule/start', { programPeriodID: pp });
      const eligible = await call<{ current: { activityID: number; siteID: number }[] }>(page, 'GET', `/api/Registration/programperiods/activities/eligible?key=${first.json.key}&prChildID=${first.json.children[1].prChildID}`);
      const kept = eligible.json.current.map((c) => ({ activityID: c.activityID, daysOfWeek: [] }));
      const saved = await call(page, 'PUT', `/api/Registration/changeschedule?key=${first.json.key}`, {
        children: [
          { prChildID: first.json.children[0].prChildID, noChange: true },
          { prChildID: first.json.children[1].prChildID, noChange: false, siteID: eligible.json.current[0].siteID, selections: kept },
        ],
      });
      expect(saved.status).toBe(200);
      expect((await call(page, 'POST', `/api/Registration/changeschedule/submit?key=${first.json.key}`)).status).toBe(200);

      const key = await startChange(page, 'School Year Before & After Care', lang, 'change-375-en');
      const [sofia, lucas] = await childIds(page);
      expect(await page.locator(`[data-testid=site-${sofia}]`).innerText()).toBe('Lincoln Elementary');
      await expectNoAxeViolations(page, 'change children');
      await shot(page, 'change-375-en-children');

      // the schedule in force
      await page.click(`[data-testid=existing-${sofia}]`);
      await page.waitForSelector('[data-testid=existing-schedule]');
      const existing = await page.locator('[data-testid=existing-schedule]').innerText();
      expect(existing).toContain('Before Care');
      expect(existing).toContain('Lincoln Elementary');
      await expectNoAxeViolations(page, 'existing schedule');
      await shot(page, 'change-375-en-existing');
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid=existing-schedule]', { state: 'detached' });

      // the change-site dialog: the site is mandatory
      await page.click(`[data-testid=change-site-${sofia}]`);
      await page.waitForSelector('[data-testid=change-site]');
      await page.selectOption('[data-testid=change-site] select', '');
      await page.click('[data-testid=change-site-ok]');
      await expect.poll(() => page.locator('[data-testid=change-site] [role=alert]').innerText()).toBe(text(lang, 'application', 'errors.change.siteRequired'));
      await expectNoAxeViolations(page, 'change site, no site');
      await shot(page, 'change-375-en-site-required');
      await page.selectOption('[data-testid=change-site] select', { label: 'Washington Elementary' });
      await page.click('[data-testid=change-site-ok]');
      await page.waitForSelector('[data-testid=change-site]', { state: 'detached' });
      await expect.poll(() => page.locator(`[data-testid=site-${sofia}]`).innerText()).toBe('Washington Elementary');

      // Sofia's new schedule at Washington, copied to Lucas
      await tick(page, sofia, 'After Care');
      await page.click(`[data-testid=copy-${sofia}]`);
      await expect.poll(() => page.locator(`[data-testid=site-${lucas}]`).innerText()).toBe('Washington Elementary');
      await expect.poll(() => page.locator(`[data-testid=activity-picker-${lucas}] input[type=checkbox]:checked`).count()).toBe(1);
      await shot(page, 'change-375-en-copied');
      await page.click('[data-action=continue]');

      // the review: each child's new schedule and what it costs
      await page.waitForURL(/\/changeschedule\/enrollment\?key=/);
      await step(page, 'changeschedule-enrollment', 'change-375-en-review');
      const review = await page.textContent('main');
      expect(review).toContain('Sofia Garcia');
      expect(review).toContain('Lucas Garcia');
      expect(review).toContain('Washington Elementary');
      expect(review).toContain(cs(lang, 'cost.due'));
      const quote = await call<{ cost: { amountDue: number; changeFee: number } }>(page, 'GET', `/api/Registration/changeschedule?key=${key}`);
      expect(quote.json.cost.changeFee, 'the second change of the program').toBe(15_00);
      expect(quote.json.cost.amountDue).toBeGreaterThan(0);
      await page.click('[data-action=submit]');

      // the submission: sent, the amount due and the payment methods
      await page.waitForURL(/\/changeschedule\/submit\?key=/);
      await page.waitForSelector('[data-section=methods] [data-action=choose]');
      await step(page, 'changeschedule-submit', 'change-375-en-submit');
      expect(await page.textContent('main')).toContain(cs(lang, 'submit.sent'));
      await page.locator('[data-section=methods] [data-action=choose]').first().click();
      await page.waitForURL(/\/changeschedule\/payerinformation\?key=[0-9a-f]{32}&method=CCD/);
      await page.waitForSelector('section[data-section=payment] dl');
      await step(page, 'changeschedule-payerinformation', 'change-375-en-payer');
      await payAsPayer(page, { label: 'Maria Garcia' });

      // back at the change's confirmation
      await page.waitForURL(/\/changeschedule\/confirmation\?key=/);
      await step(page, 'changeschedule-confirmation', 'change-375-en-confirmation');
      const confirmation = await page.textContent('main');
      expect(confirmation).toContain(cs(lang, 'confirmation.heading'));
      expect(confirmation).toContain('Lucas Garcia');
      expect(confirmation).toContain(cs(lang, 'confirmation.paid'));
      const mails = await outbox(e2e.server);
      expect(mails.some((m) => m.to === 'maria.garcia@example.com' && /Schedule change sent/.test(m.subject))).toBe(true);
      expect(mails.some((m) => m.to === 'maria.garcia@example.com' && /Payment receipt/.test(m.subject))).toBe(true);
      // E-mail sends the confirmation again
      await page.click('[data-action=email]');
      await expect.poll(() => page.textContent('main')).toContain(cs(lang, 'confirmation.emailedAgain'));
      await expectNoAxeViolations(page, 'confirmation e-mailed again');
      expect((await outbox(e2e.server)).filter((m) => m.to === 'maria.garcia@example.com' && /Schedule change sent/.test(m.subject)).length).toBeGreaterThan(mails.filter((m) => m.to === 'maria.garcia@example.com' && /Schedule change sent/.test(m.subject)).length);
      // nothing left to pay for it
      expect((await call<{ valid: boolean }>(page, 'GET', `/api/Billing/payment/processing-fee?ChangeKey=${key}`)).json.valid).toBe(false);
    } catch (err) {
      await shot(page, 'change-375-en-failed');
      throw err;
    } finally {
      await ctx.close();
    }
  }, 240_000);

  it('1280 px, Spanish: a change whose seat went meanwhile is refused with its message and nothing charged; resumed in another browser; the cancel-request confirmation', async () => {
    const lang: Lang = 'es';
    const { ctx, page } = await signedIn('maria', 1280, lang);
    try {
      const key = await startChange(page, 'School Year Before & After Care', lang, 'change-1280-es');
      const [sofia, lucas] = await childIds(page);
      // Sofia: no change required; Lucas: Before Care at Lincoln
      await page.locator(`[data-testid=activity-picker-${sofia}]`).waitFor();
      await page.check(`[id$=children_0_noChange]`);
      await page.locator(`[data-testid=activity-picker-${sofia}]`).waitFor({ state: 'detached' });
      await tick(page, lucas, 'Cuidado antes de clases');
      await expectNoAxeViolations(page, 'children (es)');
      await shot(page, 'change-1280-es-children');
      await page.click('[data-action=continue]');
      await page.waitForURL(/\/changeschedule\/enrollment\?key=/);
      await step(page, 'changeschedule-enrollment', 'change-1280-es-review');
      expect(await page.textContent('main')).toContain(cs(lang, 'review.noChange'));
      const before = await balance(page);

      // meanwhile the last seat of Before Care at Lincoln goes (the provider's roster fills it)
      await e2e.server.restart(() => {
        const of = `SELECT a.id FROM activities a JOIN sites s ON s.id = a.site_id WHERE a.activity = 'Before Care' AND s.site_name LIKE 'Lincoln%'`;
        const sql = `UPDATE seats SET total = taken WHERE activity_id IN (${of}); UPDATE activities SET capacity = 0 WHERE id IN (${of});`;
        execFileSync(TSX, ['-e', `import { PGlite } from '@electric-sql/pglite'; (async () => { const db = new PGlite(process.env.PGLITE_DIR); await db.exec(${JSON.stringify(sql)}); await db.close(); })();`], { cwd: ROOT, env: { ...process.env, PGLITE_DIR: e2e.server.dataDir } });
      });
      await page.click('[data-action=submit]');
      await expect.poll(() => page.textContent('main')).toContain(text(lang, 'application', 'errors.change.seatsUnavailable'));
      expect(new URL(page.url()).pathname).toBe('/parentportal/changeschedule/enrollment');
      await expectNoAxeViolations(page, 'seats unavailable (es)');
      await shot(page, 'change-1280-es-seats-unavailable');
      // nothing charged, the request still open
      expect(await balance(page)).toBe(before);
      expect((await call<{ status: string }>(page, 'GET', `/api/Registration/changeschedule?key=${key}`)).json.status).toBe('open');

      // the request goes on in another browser: Request change there opens the same one with its choices
      const other = await signedIn('maria', 375, 'en');
      try {
        const again = await startChange(other.page, 'School Year Before & After Care', 'en', 'change-375-en-resumed');
        expect(again).toBe(key);
        expect(await other.page.isChecked('[id$=children_0_noChange]')).toBe(true);
        await expect.poll(() => other.page.locator(`[data-testid=activity-picker-${lucas}] input[type=checkbox]:checked`).count()).toBe(1);
        await shot(other.page, 'change-375-en-resumed-children');
      } finally {
        await other.ctx.close();
      }

      // the cancel-request confirmation: Continue keeps the request, Return to portal discards it and goes home
      await page.getByRole('button', { name: cs(lang, 'exit.action') }).click();
      const exit = page.getByRole('alertdialog', { name: cs(lang, 'exit.title') });
      await exit.waitFor();
      await expectNoAxeViolations(page, 'cancel-request confirmation (es)');
      await shot(page, 'change-1280-es-exit');
      await exit.getByRole('button', { name: cs(lang, 'exit.continue') }).click();
      await exit.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe('/parentportal/changeschedule/enrollment');
      await page.getByRole('button', { name: cs(lang, 'exit.action') }).click();
      await exit.waitFor();
      await exit.getByRole('button', { name: cs(lang, 'exit.return') }).click();
      await page.waitForURL(/\/parentportal\/home/);
      expect((await call(page, 'GET', `/api/Registration/changeschedule?key=${key}`)).status).toBe(404);
    } catch (err) {
      await shot(page, 'change-1280-es-failed');
      throw err;
    } finally {
      await ctx.close();
    }
  }, 240_000);

  it('1280 px, Vietnamese and 375 px, English: a change waiting for the provider, approved from the command line, shown on /viewenrollment from its effective date', async () => {
    const lang: Lang = 'vi';
    const { ctx, page } = await signedIn('linh', 1280, lang);
    let effective: string;
    let changed: string;
    try {
      const key = await startChange(page, 'Extended Day Before & After School', lang, 'change-1280-vi');
      // the first child needs no change, the second gets a schedule she is not in yet
      const [an, bao] = await childIds(page);
      await page.check(`[id$=children_0_noChange]`);
      await page.locator(`[data-testid=activity-picker-${an}]`).waitFor({ state: 'detached' });
      const picker = page.locator(`[data-testid=activity-picker-${bao}]`);
      // a schedule Bao is not in yet
      const offered = await picker.locator('[data-activity] input[type=checkbox]:not(:checked)').first();
      await offered.check();
      await shot(page, 'change-1280-vi-children');
      await page.click('[data-action=continue]');
      await page.waitForURL(/\/changeschedule\/enrollment\?key=/);
      await step(page, 'changeschedule-enrollment', 'change-1280-vi-review');
      expect(await page.textContent('main')).toContain(cs(lang, 'waitsForProvider'));
      await page.click('[data-action=submit]');
      await page.waitForURL(/\/changeschedule\/(submit|confirmation)\?key=/);
      await settled(page, 'changeschedule-submit');
      const view = (await call<{ status: string; effectiveDate: string; amountDue: number; children: { prChildID: number; fullName: string }[] }>(page, 'GET', `/api/Registration/changeschedule?key=${key}`)).json;
      changed = view.children.find((c) => c.prChildID === bao)!.fullName;
      expect(view.status).toBe('waiting');
      effective = view.effectiveDate;
      if (view.amountDue === 0) await page.click('[data-action=continue]');
      else await open(page, `/changeschedule/confirmation?key=${key}`);
      await step(page, 'changeschedule-confirmation', 'change-1280-vi-confirmation');
      expect(await page.textContent('main')).toContain(cs(lang, 'confirmation.heading'));
      // a change is titled as a change request (weeks added have their own title)
      expect((await page.locator('h1').first().textContent())?.trim()).toBe(cs(lang, 'confirmation.title'));
      // the change fee is still to pay: the confirmation says so and leads back to the submission
      if (view.amountDue > 0) expect(await page.textContent('main')).toContain(cs(lang, 'confirmation.payNow'));

      // the provider approves it on its effective date from the command line; the portal then shows it
      await e2e.server.restart(
        () => {
          const env = { ...process.env, PGLITE_DIR: e2e.server.dataDir, DATABASE_URL: '', PORTAL_TODAY: effective };
          const list = execFileSync(TSX, ['scripts/provider.ts', 'changes', 'list', '--provider', 'northridge'], { cwd: ROOT, env, encoding: 'utf8' });
          const row = list.split('\n').find((l) => l.includes('Extended Day Before & After School') && l.includes(`from ${effective}`));
          expect(row, list).toBeDefined();
          const id = row!.split('\t')[0];
          const out = execFileSync(TSX, ['scripts/provider.ts', 'changes', 'approve', id, '--provider', 'northridge'], { cwd: ROOT, env, encoding: 'utf8' });
          expect(out, out).toMatch(/approved/i);
        },
        { PORTAL_TODAY: effective },
      );
    } catch (err) {
      await shot(page, 'change-1280-vi-failed');
      throw err;
    } finally {
      await ctx.close();
    }

    const en = await signedIn('linh', 375, 'en');
    try {
      await open(en.page, `/viewenrollment?programPeriodID=${await programId(en.page, 'Extended Day Before & After School')}`);
      await settled(en.page, 'viewenrollment');
      const schedule = en.page.locator('[data-section=schedule] article').filter({ hasText: changed });
      const [y, m, d] = effective.split('-');
      await expect.poll(() => schedule.innerText()).toContain(`${m}/${d}/${y}`);
      await expectNoAxeViolations(en.page, 'viewenrollment after approval');
      await shot(en.page, 'change-375-en-viewenrollment-approved');
    } finally {
      await en.ctx.close();
    }
  }, 300_000);
});
