// Adding weeks to the weekly summer camp in a real browser (spec 2.11 weekly card, add weeks): from
// /viewenrollment's Add weeks, Lucas's weeks not taken yet with the sold-out first week disabled and
// said why, one week chosen, the review with its total, Send, the change's payment step paid on the
// sandbox checkout, its confirmation, and the weekly card listing the new week. At 375 px in English
// and 1280 px in Spanish, axe on every step.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, LOCALES, newContext, shot, signIn, text, withServerAndBrowser, type Lang, payAsPayer } from './kit';

const e2e = withServerAndBrowser();
const t = (lang: Lang, ns: string, key: string, params: Record<string, string | number> = {}) => text(lang, ns, key, params);

/** A call of the API as the signed-in parent of the page. */
async function call<T>(page: Page, method: string, path: string, lang: Lang): Promise<T> {
  return page.evaluate(
    async ({ method, path, lang }) => {
      const { token } = JSON.parse(localStorage.getItem('pp.session') ?? '{}');
      const res = await fetch(path, { method, headers: { authorization: `Bearer ${token}`, 'accept-language': lang } });
      return (await res.json()) as never;
    },
    { method, path, lang },
  );
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

interface Week {
  value: string;
  label: string;
  activity: string;
  weekRange: string;
  weekStart: string;
  reason: string | null;
  unavailable: boolean;
}

async function addAndPay(width: number, lang: Lang) {
  const label = `addweeks-${width}-${lang}`;
  const ctx = await newContext(e2e.browser, width, LOCALES[lang]);
  const page = await ctx.newPage();
  try {
    await signIn(page, e2e.server, 'maria', { formTimeout: 90_000, failShot: `${label}-signin-failed` });
    if (lang !== 'en') await page.selectOption('[data-testid=language-switch] select', lang);
    const programs = await call<{ programPeriodID: number; programPeriod: string }[]>(page, 'GET', '/api/Registration/programperiods/list', 'en');
    const summer = programs.find((p) => p.programPeriod === 'Summer Adventure Camp')!.programPeriodID;
    const cardWeeks = async () => (await call<{ childName: string; weeks: { weekStart: string }[] }[]>(page, 'GET', `/api/Registration/children/activities-by-week?programPeriodID=${summer}`, lang)).find((c) => c.childName === 'Lucas Garcia')!.weeks.length;
    const before = await cardWeeks();

    // the weekly card's Add weeks
    await open(page, `/viewenrollment?programPeriodID=${summer}`);
    await settled(page, 'viewenrollment');
    await page.click('[data-section=weekly] [data-action=addWeeks]');
    await page.waitForURL(/\/changeschedule\/weeks\?programPeriodID=\d+&mode=addWeeks/);
    await page.waitForSelector('[data-section=weeksForm] input[type=checkbox]');
    await step(page, 'changeschedule-weeks', `${label}-weeks`);
    expect(await page.textContent('main')).toContain(t(lang, 'enrollment', 'addWeeks.noticeInfo', { days: 3 }));

    // the sold-out first week is shown disabled, said why
    const offer = await call<{ weeks: Week[] }>(page, 'GET', `/api/Registration/changeschedule/weeks?programPeriodID=${summer}`, lang);
    const full = offer.weeks.find((w) => w.reason === 'full')!;
    const fullBox = page.locator('[data-section=weeksForm] label').filter({ hasText: full.label }).first();
    expect(await fullBox.textContent()).toContain(t(lang, 'enrollment', 'addWeeks.full'));
    const fullId = await fullBox.getAttribute('for');
    expect(await page.isDisabled(`[id="${fullId}"]`)).toBe(true);

    // one open week chosen
    const week = offer.weeks.find((w) => !w.unavailable)!;
    const box = page.locator('[data-section=weeksForm] label').filter({ hasText: week.label }).first();
    await page.check(`[id="${await box.getAttribute('for')}"]`);
    await page.click('[data-action=continue]');

    // the review: the week, its fee and the total
    await page.waitForURL(/\/changeschedule\/weeks\/review\?key=[0-9a-f]{32}$/);
    await page.waitForSelector('[data-section=weeks] table');
    await step(page, 'changeschedule-weeksreview', `${label}-review`);
    const review = await page.textContent('main');
    expect(review).toContain('Lucas Garcia');
    expect(review).toContain(week.weekRange);
    expect(review).toContain(t(lang, 'enrollment', 'addWeeks.review.total'));
    await page.click('[data-action=send]');

    // the change's payment step: sent, what is due, the methods
    await page.waitForURL(/\/changeschedule\/submit\?key=/);
    await page.waitForSelector('[data-section=methods] [data-action=choose]');
    await step(page, 'changeschedule-submit', `${label}-submit`);
    expect(await page.textContent('main')).toContain(t(lang, 'changeSchedule', 'submit.weeksSent'));
    await page.locator('[data-section=methods] [data-action=choose]').first().click();
    await page.waitForURL(/\/changeschedule\/payerinformation\?key=[0-9a-f]{32}&method=CCD/);
    await page.waitForSelector('section[data-section=payment] dl');
    await step(page, 'changeschedule-payerinformation', `${label}-payer`);
    await payAsPayer(page, { label: 'Maria Garcia' });

    // the confirmation: weeks added, paid
    await page.waitForURL(/\/changeschedule\/confirmation\?key=/);
    await page.waitForSelector('[data-section=weeksAdded]');
    // titled as weeks added, not as a change of schedule
    await page.getByRole('heading', { level: 1, name: t(lang, 'changeSchedule', 'confirmation.weeksTitle'), exact: true }).waitFor();
    await step(page, 'changeschedule-confirmation', `${label}-confirmation`);
    const confirmation = await page.textContent('main');
    expect(confirmation).toContain(t(lang, 'changeSchedule', 'confirmation.weeksHeading'));
    expect(confirmation).toContain(t(lang, 'changeSchedule', 'confirmation.paid'));
    expect(confirmation).toContain(t(lang, 'changeSchedule', 'confirmation.emailed'));
    expect(await page.locator('[data-action=email]').count()).toBe(0);

    // back on the weekly card: the new week is Lucas's
    await page.click('[data-action=back]');
    await page.waitForURL(/\/viewenrollment\?programPeriodID=\d+/);
    await settled(page, 'viewenrollment');
    const lucas = page.locator('[data-section=weekly] article').filter({ hasText: 'Lucas Garcia' });
    await expect.poll(() => lucas.locator('[data-entry]').count()).toBe(before + 1);
    expect(await lucas.textContent()).toContain(week.weekRange);
    await expectNoAxeViolations(page, `${label}-weekly`);
    await shot(page, `${label}-weekly`);
  } catch (err) {
    await shot(page, `${label}-failed`);
    throw err;
  } finally {
    await ctx.close();
  }
}

describe('add weeks', () => {
  it('375 px, English: a week added, paid on the checkout, on the weekly card', async () => addAndPay(375, 'en'), 240_000);
  it('1280 px, Spanish: a week added, paid on the checkout, on the weekly card', async () => addAndPay(1280, 'es'), 240_000);
});
