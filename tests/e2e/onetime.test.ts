// One-time enrolment in a real browser (spec 2.11, 4 redirect flows, 9 application type 5): from the
// school year's View/enrol page (OT) the portal hands the parent off to the one-time enrolment, its
// own product under /onetimeenrollment; she enrols one child in a date, skips the other, continues
// (the date's seat held), pays on the sandbox gateway's page and comes back to the submission, then
// returns to the portal. A provider without the product (Northridge) sends the same button to the
// configuration error page. At 375 and 1280 px, in English and Spanish, axe on every page.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, shot, signIn, text, withServerAndBrowser, type Lang, chooseCard, submitSandboxCard } from './kit';

const e2e = withServerAndBrowser();

/** The school year's id, from the programs list as the portal has it. */
async function programID(page: Page, name: RegExp): Promise<number> {
  const list = (await page.evaluate(async () => {
    const session = JSON.parse(sessionStorage.getItem('pp.session') ?? localStorage.getItem('pp.session') ?? '{}') as { token?: string; accountID?: number };
    const res = await fetch(`/api/Registration/programperiods/list?AccountID=${session.accountID}&otherDistrict=true`, { headers: { authorization: `Bearer ${session.token}` } });
    return res.json();
  })) as { programPeriodID: number; programPeriod: string }[];
  const found = list.find((p) => name.test(p.programPeriod));
  if (!found) throw new Error(`no program ${name} in ${JSON.stringify(list.map((p) => p.programPeriod))}`);
  return found.programPeriodID;
}

const SCHOOL_YEAR: Record<Lang, RegExp> = { en: /School Year/, es: /año escolar/i, pt: /ano letivo/i, vi: /năm học/i };

describe('one-time enrolment', () => {
  for (const [width, lang, child, skipped] of [
    [375, 'en', 'Sofia Garcia', 'Lucas Garcia'],
    [1280, 'es', 'Lucas Garcia', 'Sofia Garcia'],
  ] as const) {
    it(`a date enrolled and paid (${width} px, ${lang})`, async () => {
      const ctx = await newContext(e2e.browser, width, lang === 'en' ? 'en-US' : 'es-ES');
      const page = await ctx.newPage();
      try {
        await signIn(page, e2e.server, 'maria');
        const pp = await programID(page, SCHOOL_YEAR[lang]);
        await page.goto(e2e.portal(`/viewenrollment?programPeriodID=${pp}&OT=true`));
        const button = page.getByRole('button', { name: text(lang, 'enrollment', 'actions.oneTime'), exact: true });
        await button.waitFor();
        await expectNoAxeViolations(page, `view/enrol with one-time ${width} ${lang}`);
        await button.click();

        // the hand-off: the one-time enrolment's own product, its summary
        await page.waitForURL(/\/onetimeenrollment\/summary\?key=[0-9a-f]{32}$/, { timeout: 60_000 });
        const cards = page.locator('section[data-section=children] [data-index]');
        await cards.filter({ hasText: child }).waitFor();
        expect(await page.getByRole('button', { name: text(lang, 'onetime', 'summary.continue'), exact: true }).isDisabled()).toBe(true);
        await expectNoAxeViolations(page, `one-time summary ${width} ${lang}`);
        await shot(page, `onetime-summary-${width}-${lang}`);

        // one child skipped, the other enrolled in the first date offered
        await cards.filter({ hasText: skipped }).getByRole('button', { name: text(lang, 'onetime', 'summary.skip'), exact: true }).click();
        await cards.filter({ hasText: skipped }).getByText(text(lang, 'onetime', 'summary.status.skip'), { exact: true }).waitFor();
        await cards.filter({ hasText: child }).getByRole('button', { name: text(lang, 'onetime', 'summary.enrol'), exact: true }).click();
        await page.waitForURL(/\/onetimeenrollment\/child\?key=[0-9a-f]{32}&childID=\d+$/);
        const dates = page.locator('input[type=checkbox]');
        await dates.first().waitFor();
        // a Saturday is not offered (the school year has no weekend scheduling): shown, disabled, said why
        await page.getByText(text(lang, 'onetime', 'child.notOffered')).first().waitFor();
        await expectNoAxeViolations(page, `one-time child ${width} ${lang}`);
        await shot(page, `onetime-child-${width}-${lang}`);
        const enabled = page.locator('input[type=checkbox]:not([disabled])');
        await enabled.first().check();
        await page.getByRole('button', { name: text(lang, 'onetime', 'child.save'), exact: true }).click();
        await page.waitForURL(/\/onetimeenrollment\/summary\?key=/);
        await cards.filter({ hasText: child }).getByText(text(lang, 'onetime', 'summary.status.enrol'), { exact: true }).waitFor();
        // Change shows the date chosen, checked; back to the summary as it was
        await cards.filter({ hasText: child }).getByRole('button', { name: text(lang, 'onetime', 'summary.change'), exact: true }).click();
        await page.waitForURL(/\/onetimeenrollment\/child\?/);
        await expect.poll(() => page.locator('input[type=checkbox]:checked').count()).toBe(1);
        await page.getByRole('button', { name: text(lang, 'onetime', 'child.back'), exact: true }).click();
        await page.waitForURL(/\/onetimeenrollment\/summary\?key=/);
        // one date of the No-School Day Camp: $48.00
        await expect.poll(() => page.textContent('section[data-section=total]')).toContain('48.00');
        const next = page.getByRole('button', { name: text(lang, 'onetime', 'summary.continue'), exact: true });
        await expect.poll(() => next.isEnabled()).toBe(true);
        await next.click();

        // submitted: the seat held while she pays
        await page.waitForURL(/\/onetimeenrollment\/submission\?key=/);
        await page.getByRole('heading', { name: text(lang, 'application', 'payment.heading') }).waitFor({ timeout: 30_000 });
        await page.getByTestId('countdown').waitFor();
        await page.waitForSelector('section[data-section=methods] [data-action=choose]');
        await expectNoAxeViolations(page, `one-time submission awaiting payment ${width} ${lang}`);
        await shot(page, `onetime-pay-${width}-${lang}`);
        await chooseCard(page);
        await page.waitForURL(/\/onetimeenrollment\/payerinformation\?key=[0-9a-f]{32}&method=CCD/);
        await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(2)', { state: 'attached' });
        await expectNoAxeViolations(page, `one-time payer ${width} ${lang}`);
        await page.selectOption('#payer_paidByFamilyMemberID', { index: 1 });
        await expect.poll(() => page.inputValue('#payer_streetAddress')).not.toBe('');
        await page.click('[data-action=pay]');
        await page.waitForURL((u) => u.pathname.startsWith('/pay/'));
        expect(new URL(page.url()).origin).not.toBe(new URL(e2e.server.url).origin);
        await submitSandboxCard(page);

        // back at the one-time enrolment's submission, paid
        await page.waitForURL(/\/onetimeenrollment\/submission\?key=/, { timeout: 60_000 });
        await expect.poll(() => page.textContent('main'), { timeout: 30_000 }).toContain(text(lang, 'application', 'payment.paid'));
        expect(await page.getByTestId('countdown').count()).toBe(0);
        expect(await page.textContent('section[data-section=children]')).toContain(child);
        await expectNoAxeViolations(page, `one-time submission paid ${width} ${lang}`);
        await shot(page, `onetime-paid-${width}-${lang}`);

        // and back to the portal, where the date is the child's
        await page.getByRole('button', { name: text(lang, 'onetime', 'summary.returnToPortal'), exact: true }).click();
        await page.waitForURL(/\/parentportal\/programlist$/);

        // a new one-time enrolment left by Exit: asked first, then back to Home with nothing kept
        await page.goto(e2e.portal(`/viewenrollment?programPeriodID=${pp}&OT=true`));
        await page.getByRole('button', { name: text(lang, 'enrollment', 'actions.oneTime'), exact: true }).click();
        await page.waitForURL(/\/onetimeenrollment\/summary\?key=[0-9a-f]{32}$/, { timeout: 60_000 });
        const left = new URL(page.url()).searchParams.get('key');
        await page.getByRole('button', { name: text(lang, 'application', 'exit.action'), exact: true }).click();
        const exit = page.getByRole('alertdialog', { name: text(lang, 'onetime', 'exit.title') });
        await exit.waitFor();
        await expectNoAxeViolations(page, `one-time exit dialog ${width} ${lang}`);
        await exit.getByRole('button', { name: text(lang, 'application', 'exit.return'), exact: true }).click();
        await page.waitForURL(/\/parentportal\/home$/);
        const gone = await page.evaluate(async (key) => {
          const session = JSON.parse(localStorage.getItem('pp.session') ?? '{}') as { token?: string };
          return (await fetch(`/api/Registration/onetime-enrollment/summary?key=${key}`, { headers: { authorization: `Bearer ${session.token}` } })).status;
        }, left);
        expect(gone).toBe(404);
      } catch (err) {
        await shot(page, `onetime-failed-${width}-${lang}`);
        throw err;
      } finally {
        await ctx.close();
      }
    });
  }

  it('a provider without the product sends its button to the configuration error page (375 px, en; 1280 px, es)', async () => {
    for (const [width, lang] of [
      [375, 'en'],
      [1280, 'es'],
    ] as const) {
      const ctx = await newContext(e2e.browser, width, lang === 'en' ? 'en-US' : 'es-ES');
      const page = await ctx.newPage();
      try {
        await signIn(page, e2e.server, 'linh');
        // Spring Break Care offers a one-time day, and Northridge has no one-time enrolment product
        const pp = await programID(page, /Spring Break|vacaciones de primavera/i);
        await page.goto(e2e.portal(`/viewenrollment?programPeriodID=${pp}&OT=true`));
        const button = page.getByRole('button', { name: text(lang, 'enrollment', 'actions.oneTime'), exact: true });
        await button.waitFor();
        await button.click();
        await page.waitForURL((u) => u.pathname === '/parentportal/configurationerror');
        expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ errorcode: 'PRODUCT_HOST_MISSING', productname: 'onetimeenrollment' });
        await page.locator('[data-testid=configuration-error]').waitFor();
        // the product by its name in the reader's language
        expect(await page.locator('[data-testid=configuration-error] dd').allTextContents()).toEqual(['PRODUCT_HOST_MISSING', text(lang, 'screens', 'configurationerror.products.onetimeenrollment')]);
        await expectNoAxeViolations(page, `configuration error for the one-time enrolment ${width} ${lang}`);
        await shot(page, `onetime-configuration-error-${width}-${lang}`);
      } finally {
        await ctx.close();
      }
    }
  });
});
